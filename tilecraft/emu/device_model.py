"""What the emulated chip looks like to kernels: NoC coordinates, DRAM banks, the L1 map.

Kernels see tt-metal 0.81.1's virtual coordinates, the same on both NoCs: on Wormhole the worker
grid is contiguous from (18, 18) (``VIRTUAL_TENSIX_START_X/Y`` of its noc_parameters.h), so
logical core (x, y) is (18 + x, 18 + y); on Blackhole virtual worker coordinates are the physical
ones. The NoC itself routes in physical NOC 0 coordinates: logical core (x, y) sits at
(``tensix_x[x]``, ``tensix_y[y]``), and the columns and rows skipped there hold DRAM, Ethernet and
other non-worker cores. A multicast rectangle travels toward increasing physical coordinates on
NOC 0 and decreasing ones on NOC 1, around the torus of ``noc_size`` nodes. DRAM banks keep their
physical coordinates.

L1 of every core: [0, ``sem_base``) is firmware (kernel arguments live there; a NoC write into
it is a sanitizer finding), semaphores follow at ``sem_base`` (16 bytes each), circular buffers
are placed upward from the architecture's reserved size and L1 tensor buffers downward from the
top, as tt-metal's allocator does.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..arch import get as get_arch


@dataclass(frozen=True)
class ChipModel:
    name: str
    noc_size: tuple[int, int]
    tensix_x: tuple[int, ...]
    tensix_y: tuple[int, ...]
    dram_banks: tuple[tuple[int, int], ...]
    dram_alignment: int
    num_cbs: int
    l1_bytes: int
    l1_reserved: int
    l1_alignment: int = 16
    args_base: int = 0x4000
    sem_base: int = 0x10000
    num_semaphores: int = 16
    virtual_origin: tuple[int, int] | None = None  # where virtual worker coordinates start, if virtualised

    @property
    def grid(self) -> tuple[int, int]:
        return len(self.tensix_x), len(self.tensix_y)

    def noc_xy(self, x: int, y: int) -> tuple[int, int]:
        """NoC coordinates of logical core (x, y) as kernels see them (0.81.1 virtual coordinates)."""
        if self.virtual_origin is not None:
            return self.virtual_origin[0] + x, self.virtual_origin[1] + y
        return self.physical_xy(x, y)

    def physical_xy(self, x: int, y: int) -> tuple[int, int]:
        """Physical NOC 0 coordinates of logical core (x, y)."""
        return self.tensix_x[x], self.tensix_y[y]


def _wormhole() -> ChipModel:
    arch = get_arch("wormhole_b0")
    return ChipModel(
        name="wormhole_b0", noc_size=(10, 12),
        tensix_x=(1, 2, 3, 4, 6, 7, 8, 9), tensix_y=(1, 2, 3, 4, 5, 7, 8, 9),
        # 12 banks: two NoC endpoints of each of the 6 GDDR6 channels
        dram_banks=((0, 0), (0, 1), (0, 5), (0, 6), (5, 0), (5, 1), (5, 2), (5, 9), (5, 3), (5, 4), (5, 5), (5, 6)),
        dram_alignment=32, num_cbs=arch.circular_buffers, l1_bytes=arch.l1_bytes, l1_reserved=arch.l1_reserved_bytes,
        virtual_origin=(18, 18))


def _blackhole() -> ChipModel:
    arch = get_arch("blackhole")
    return ChipModel(
        name="blackhole", noc_size=(17, 12),
        tensix_x=(1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15), tensix_y=(2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
        dram_banks=((0, 0), (0, 3), (0, 6), (0, 9), (9, 0), (9, 3), (9, 6), (9, 9)),
        dram_alignment=64, num_cbs=arch.circular_buffers, l1_bytes=arch.l1_bytes, l1_reserved=arch.l1_reserved_bytes)


_MODELS = {"wormhole_b0": _wormhole, "blackhole": _blackhole}


def chip(arch: str) -> ChipModel:
    try:
        return _MODELS[arch]()
    except KeyError:
        raise ValueError(f"the kernel emulator models {sorted(_MODELS)}, not {arch!r}") from None
