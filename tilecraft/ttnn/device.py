"""Simulated devices: a handle per chip, with the grid and architecture a program may query.

There is no hardware behind a handle. It records which architecture the run simulates (from
:func:`tilecraft.session.options`), whether it is open, and hands out stable fake buffer
addresses so that programs printing ``buffer_address()`` behave as on a device.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from tilecraft import arch as arch_descriptions
from tilecraft import session
from tilecraft.diagnostics import UsageTypeError, UsageValueError
from tilecraft.emu.device_model import chip

from .cores import CoreCoord
from .memory import BufferType


def simulated_devices() -> int:
    """Chips the simulated system offers: ``--devices`` / ``$TILECRAFT_DEVICES``, 4 by default as
    in the published TT-Lang simulator (the multi-device tutorials open a 1 x
    GetNumAvailableDevices() mesh)."""
    return session.options().devices


class Arch(str, Enum):
    """What ``device.arch()`` returns: a string equal to the tilecraft arch name (``"wormhole_b0"``)."""

    WORMHOLE_B0 = "wormhole_b0"
    BLACKHOLE = "blackhole"

    def __repr__(self) -> str:
        return f"Arch.{self.name}"

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


class BufferAllocator:
    """Bank-local addresses for device buffers; buffers are never freed.

    An interleaved or sharded buffer takes the same address range in every bank (DRAM channel or
    core L1) it spreads over, as tt-metal's allocator gives it, so ``bank_bytes`` (the largest
    share of one bank) is what the address range must hold. DRAM buffers are placed upward from
    0, L1 buffers downward from the top of L1, leaving the bottom to circular buffers: the kernel
    emulator runs kernels at exactly these addresses. The functional simulator keeps values in
    torch tensors and needs the addresses only to be stable and distinct.
    """

    _ALIGNMENT = {BufferType.DRAM: 64, BufferType.L1: 32}

    def __init__(self, l1_base: int, l1_top: int) -> None:
        self._l1_base = l1_base
        self._next = {BufferType.DRAM: 0, BufferType.L1: l1_top}

    def allocate(self, nbytes: int, buffer_type: BufferType, bank_bytes: int | None = None) -> int:
        align = self._ALIGNMENT[buffer_type]
        size = -(-(nbytes if bank_bytes is None else bank_bytes) // align) * align
        if buffer_type is BufferType.L1:
            address = self._next[BufferType.L1] - size
            if address < self._l1_base:
                raise MemoryError(f"device L1 is full: a {size}-byte buffer per core does not fit")
            self._next[BufferType.L1] = address
            return address
        address = self._next[buffer_type]
        self._next[buffer_type] = address + size
        return address


class DeviceHandle:
    """What single devices and meshes share: an architecture, a compute grid and an open state."""

    def __init__(self, arch_name: str) -> None:
        self._arch = arch_descriptions.get(arch_name)
        self._open = True

    @property
    def is_open(self) -> bool:
        return self._open

    def close(self) -> None:
        self._open = False

    def arch(self) -> Arch:
        return Arch(self._arch.name)

    def compute_with_storage_grid_size(self) -> CoreCoord:
        """The compute grid of one chip: x columns by y rows (8x8 on Wormhole)."""
        cols, rows = self._arch.compute_grid
        return CoreCoord(cols, rows)

    def worker_core_from_logical_core(self, core: CoreCoord) -> CoreCoord:
        """The NoC coordinates of a logical worker core (what kernels pass to get_noc_addr): 0.81.1's
        virtual coordinates, (18 + x, 18 + y) on Wormhole."""
        cols, rows = self._arch.compute_grid
        if not (isinstance(core, CoreCoord) and core.x < cols and core.y < rows):
            raise ValueError(f"{core!r} is not a worker core of the {cols}x{rows} compute grid")
        return CoreCoord(*chip(self._arch.name).noc_xy(core.x, core.y))

    def dram_banks(self) -> int:
        """Interleaved DRAM banks (pages go round-robin over them)."""
        return len(chip(self._arch.name).dram_banks)


class Device(DeviceHandle):
    """One simulated chip."""

    def __init__(self, device_id: int = 0, arch_name: str | None = None) -> None:
        super().__init__(arch_name or session.options().arch)
        self.device_id = device_id
        self.allocator = BufferAllocator(l1_base=self._arch.l1_reserved_bytes, l1_top=self._arch.l1_bytes)

    def id(self) -> int:
        return self.device_id

    def __repr__(self) -> str:
        return f"Device(id={self.device_id}, arch={self._arch.name})"


def GetNumAvailableDevices() -> int:  # noqa: N802 (ttnn's spelling)
    """Chips in the simulated system (:func:`simulated_devices`)."""
    return simulated_devices()


def open_device(device_id: int = 0, **tuning: Any) -> Device:
    """Open simulated chip ``device_id``.

    ttnn's tuning options (``l1_small_size``, ``trace_region_size``, ``num_command_queues``,
    ``dispatch_core_config``, ...) are accepted and ignored: they size firmware regions that the
    simulator does not model.
    """
    count = simulated_devices()
    if not isinstance(device_id, int) or not 0 <= device_id < count:
        raise UsageValueError(
            f"device_id must be an int in [0, {count}): the simulated system has {count} devices; got {device_id!r}",
            hint="tilecraft run --devices N (or TILECRAFT_DEVICES=N) simulates a system of N chips")
    return Device(device_id)


def close_device(device: DeviceHandle) -> None:
    """Close a device or a mesh device (ttnn accepts both here)."""
    if not isinstance(device, DeviceHandle):
        raise UsageTypeError(f"close_device takes a device from ttnn.open_device or ttnn.open_mesh_device, got {device!r}")
    device.close()
