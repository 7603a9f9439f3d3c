"""The in-process device the LLK suite talks to: Tensix cores whose L1 is a ``bytearray``.

The suite reaches the device through Tenstorrent's ``ttexalens`` library (NoC reads and writes,
ELF loading, soft resets, debug registers). Under the harness, the stand-in ``ttexalens`` package
(``standins/ttexalens``) answers those calls from this module: L1 reads and writes, coordinates
and the architecture are real; everything that only exists on silicon (ELF loading, RISC-V soft
reset, debug and register stores, ARC messages, the Tensix state dump) raises
:class:`HardwareOnly`, naming the call. Each process has its own device, so xdist workers never
share an L1.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Wormhole B0 and Blackhole L1 sizes (bytes) per Tensix core
L1_SIZE = {"wormhole": 1464 * 1024, "blackhole": 1536 * 1024}
#: ttexalens' spelling of each architecture (``str(device._arch)``), which the suite maps back
ARCH_NAME = {"wormhole": "wormhole_b0", "blackhole": "blackhole"}
#: the worker grid presented to xdist workers (each process has its own cores anyway)
GRID = (8, 8)


class HardwareOnly(RuntimeError):
    """A suite call that needs silicon (or Tenstorrent's simulator), not tilecraft's machine."""

    def __init__(self, call: str, why: str = "") -> None:
        reason = f": {why}" if why else ""
        super().__init__(f"`{call}` is hardware-only and is not provided by tilecraft's LLK harness{reason}. "
                         "Tests that need it are excluded from the harness (docs/emulator.md, 'LLK test suite').")
        self.call = call


class DeviceAccessError(RuntimeError):
    """An L1 access outside the core's L1, or at a core that does not exist."""


@dataclass(frozen=True)
class Coordinate:
    """A Tensix core by its logical ``x,y`` (the only coordinate system the suite passes)."""

    x: int
    y: int
    device: "Device" = field(compare=False, repr=False)

    def to_str(self, system: str = "logical") -> str:
        if system not in ("logical", "translated", "noc0", "noc1", "virtual"):
            raise DeviceAccessError(f"unknown coordinate system {system!r}")
        return f"{self.x},{self.y}"

    def __str__(self) -> str:
        return self.to_str()

    @property
    def context(self) -> "Context":
        return self.device.context


@dataclass
class RegistersDescription:
    """What the suite's plugin trims before Tensix state dumps (``general_purpose_registers``)."""

    general_purpose_registers: list = field(default_factory=list)


class Device:
    """One chip: lazily created cores, each with its own zeroed L1."""

    def __init__(self, arch: str, context: "Context") -> None:
        if arch not in L1_SIZE:
            raise DeviceAccessError(f"architecture {arch!r} is not modelled; expected one of {sorted(L1_SIZE)}")
        self.arch = arch
        self._arch = ARCH_NAME[arch]
        self.context = context
        self._l1: dict[tuple[int, int], bytearray] = {}
        self._registers = RegistersDescription()

    def coordinate(self, location: "str | Coordinate") -> Coordinate:
        """Parse ``"x,y"`` (or pass a coordinate through), checking it is on the grid."""
        if isinstance(location, Coordinate):
            return location
        try:
            x, y = (int(part) for part in str(location).split(","))
        except ValueError:
            raise DeviceAccessError(f"cannot read core location {location!r}; expected 'x,y'") from None
        if not (0 <= x < GRID[0] and 0 <= y < GRID[1]):
            raise DeviceAccessError(f"core {x},{y} is outside the {GRID[0]}x{GRID[1]} worker grid")
        return Coordinate(x, y, self)

    def l1(self, location: "str | Coordinate") -> bytearray:
        """The L1 of the core at ``location`` (created zeroed on first use)."""
        core = self.coordinate(location)
        key = (core.x, core.y)
        if key not in self._l1:
            self._l1[key] = bytearray(L1_SIZE[self.arch])
        return self._l1[key]

    def read(self, location: "str | Coordinate", addr: int, num_bytes: int) -> bytes:
        memory = self.l1(location)
        self._check_range(addr, num_bytes, len(memory))
        return bytes(memory[addr:addr + num_bytes])

    def write(self, location: "str | Coordinate", addr: int, data: bytes) -> None:
        memory = self.l1(location)
        self._check_range(addr, len(data), len(memory))
        memory[addr:addr + len(data)] = data

    def get_block_locations(self, block_type: str = "functional_workers") -> list[Coordinate]:
        if block_type != "functional_workers":
            raise HardwareOnly(f"get_block_locations({block_type!r})", "only Tensix workers are modelled")
        return [Coordinate(x, y, self) for y in range(GRID[1]) for x in range(GRID[0])]

    def get_tensix_registers_description(self) -> RegistersDescription:
        return self._registers

    def get_block(self, coordinate: Coordinate):
        raise HardwareOnly("Device.get_block", "NoC blocks' register stores and RISC-V debug are silicon's")

    @staticmethod
    def _check_range(addr: int, num_bytes: int, size: int) -> None:
        if addr < 0 or num_bytes < 0 or addr + num_bytes > size:
            raise DeviceAccessError(f"L1 access [{addr:#x}, {addr + num_bytes:#x}) is outside the core's "
                                    f"{size:#x}-byte L1")


class Context:
    """ttexalens' context: the devices of this process (one, device 0)."""

    def __init__(self, arch: str) -> None:
        self.devices = {0: Device(arch, self)}


_context: Context | None = None


def open_context(arch: str) -> Context:
    """Create (or keep) this process's device for ``arch``."""
    global _context
    if _context is None or _context.devices[0].arch != arch:
        _context = Context(arch)
    return _context


def current_context() -> Context:
    """The open context; the harness opens one per run before the suite asks for it."""
    if _context is None:
        raise DeviceAccessError("no tilecraft device is open: run the suite through the harness plugin "
                                "(pytest -p tilecraft.emu.llk_suite.plugin), which opens one")
    return _context


def close_context() -> None:
    global _context
    _context = None
