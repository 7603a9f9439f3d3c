"""The program descriptors of ttnn 0.81.1's ``generic_op`` (``tt-metalium/program_descriptors.hpp``).

A host builds a ``ProgramDescriptor`` from kernels, circular buffers and semaphores, each over a
``CoreRangeSet``, and hands it to :func:`tilecraft.ttnn.generic_op` with the tensors it reads
and writes, outputs pre-allocated and last. The classes keep ttnn's constructor keywords and
attribute names, so a host written for real ttnn runs unchanged; checking the combination
(indices, core ranges, runtime args against cores) is the emulator's job, before it runs
anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Iterable, Optional, Sequence, Union

from tilecraft.arch.processors import Processor
from tilecraft.dtypes import DataFormat

from .cores import CoreCoord, CoreRange, CoreRangeSet
from .fidelity import MathFidelity


class _Enum(Enum):
    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    __str__ = __repr__


class CoreType(_Enum):
    WORKER = 0
    ETH = 1


class DataMovementProcessor(_Enum):
    RISCV_0 = 0  # BRISC
    RISCV_1 = 1  # NCRISC


class NOC(_Enum):
    RISCV_0_default = 0
    RISCV_1_default = 1
    NOC_0 = 2
    NOC_1 = 3

    def index(self, processor: DataMovementProcessor) -> int:
        """The NoC a kernel on ``processor`` uses by default (noc_index)."""
        if self is NOC.NOC_0:
            return 0
        if self is NOC.NOC_1:
            return 1
        return Processor[self.name.removesuffix("_default")].default_noc


class NOC_MODE(_Enum):  # noqa: N801 (ttnn's spelling)
    DM_DEDICATED_NOC = 0
    DM_DYNAMIC_NOC = 1


class UnpackToDestMode(_Enum):
    Default = 0
    UnpackToDestFp32 = 1


@dataclass
class TileDescriptor:
    """A tile's shape in a CB (32x32 by default; 16x32 and smaller tiles have fewer faces)."""

    height: int = 32
    width: int = 32
    transpose: bool = False


@dataclass
class CBFormatDescriptor:
    """One index of a circular buffer: its data format and page size (one page = one tile, usually)."""

    buffer_index: int
    data_format: DataFormat
    page_size: int
    tile: Optional[TileDescriptor] = None


@dataclass
class CBDescriptor:
    """L1 for one or more CB indices on every core of ``core_ranges``. With ``buffer`` (a sharded
    L1 tensor) the CB aliases the tensor's shard instead of taking new L1."""

    total_size: int
    core_ranges: CoreRangeSet
    format_descriptors: list[CBFormatDescriptor] = field(default_factory=list)
    remote_format_descriptors: list[CBFormatDescriptor] = field(default_factory=list)
    buffer: Any = None
    address_offset: int = 0


@dataclass
class SemaphoreDescriptor:
    """A semaphore (an L1 word per core) with an id kernels pass to get_semaphore()."""

    id: int = 0
    core_type: CoreType = CoreType.WORKER
    core_ranges: Optional[CoreRangeSet] = None
    initial_value: int = 0


@dataclass
class ReaderConfigDescriptor:
    """The reader role: RISCV_1 (NCRISC) on its default NoC (NOC 1)."""

    processor: DataMovementProcessor = DataMovementProcessor.RISCV_1
    noc: NOC = NOC.RISCV_1_default
    noc_mode: NOC_MODE = NOC_MODE.DM_DEDICATED_NOC


@dataclass
class WriterConfigDescriptor:
    """The writer role: RISCV_0 (BRISC) on its default NoC (NOC 0)."""

    processor: DataMovementProcessor = DataMovementProcessor.RISCV_0
    noc: NOC = NOC.RISCV_0_default
    noc_mode: NOC_MODE = NOC_MODE.DM_DEDICATED_NOC


@dataclass
class DataMovementConfigDescriptor:
    processor: DataMovementProcessor = DataMovementProcessor.RISCV_0
    noc: NOC = NOC.RISCV_0_default
    noc_mode: NOC_MODE = NOC_MODE.DM_DEDICATED_NOC


@dataclass
class ComputeConfigDescriptor:
    math_fidelity: MathFidelity = MathFidelity.HiFi4
    fp32_dest_acc_en: bool = False
    dst_full_sync_en: bool = False
    unpack_to_dest_mode: list[UnpackToDestMode] = field(default_factory=list)
    bfp8_pack_precise: bool = False
    math_approx_mode: bool = False


KernelConfig = Union[ReaderConfigDescriptor, WriterConfigDescriptor, DataMovementConfigDescriptor,
                     ComputeConfigDescriptor]


class RuntimeArgs:
    """Per-core runtime arguments, filled as ``rt[x][y] = [...]`` (x the column, y the row)."""

    def __init__(self) -> None:
        self._args: dict[tuple[int, int], list[int]] = {}

    class _Column:
        def __init__(self, owner: "RuntimeArgs", x: int):
            self._owner, self._x = owner, x

        def __setitem__(self, y: int, values: Sequence[int]) -> None:
            self._owner._args[(self._x, int(y))] = list(values)

        def __getitem__(self, y: int) -> list[int]:
            return self._owner._args.setdefault((self._x, int(y)), [])

    def __getitem__(self, x: int) -> "RuntimeArgs._Column":
        return RuntimeArgs._Column(self, int(x))

    def items(self) -> Iterable[tuple[tuple[int, int], list[int]]]:
        return self._args.items()


def _pairs(value: Any) -> list[tuple[str, Any]]:
    return list(value.items()) if isinstance(value, dict) else [tuple(p) for p in value]


class KernelBindings:
    """A Metal 2.0 kernel's named arguments and bindings: a tilecraft extension of the 0.81.1
    ``KernelDescriptor`` (whose Python API has no such schema; tt-metal's C++ Metal 2.0 host
    declares them in its KernelSpec, and the JIT generates ``args::``/``dfb::``/``tensor::``
    constants from them).

    ``runtime_args``: names of the kernel's leading runtime args (``args::NAME``, an ``RtaArg`` at
    byte 4 * position; each core's values stay in ``KernelDescriptor.runtime_args``, any further
    args are varargs, ``get_vararg(i)``); ``common_runtime_args``: likewise for the common runtime
    args (``CrtaArg``, ``get_common_vararg(i)``); ``compile_time_args``: name -> value
    (``CtaVal``, a constant expression); ``dfbs``: name -> CB index (``dfb::NAME``, a
    ``DFBBindingToken``); ``tensors``: name -> io tensor (``tensor::NAME``, a
    ``TensorBindingToken``: ``TensorAccessor(tensor::NAME)``); its accessor args are appended to
    the compile-time args and its address to the common runtime args; ``semaphores``: name ->
    semaphore id of one of the program's SemaphoreDescriptors (``sem::NAME``, a
    ``SemaphoreBindingToken``: ``Semaphore<> s(sem::NAME)``).
    """

    def __init__(self, runtime_args: Sequence[str] = (), common_runtime_args: Sequence[str] = (),
                 compile_time_args: Union[dict, Sequence[tuple[str, int]]] = (),
                 dfbs: Union[dict, Sequence[tuple[str, int]]] = (),
                 tensors: Union[dict, Sequence[tuple[str, Any]]] = (),
                 semaphores: Union[dict, Sequence[tuple[str, int]]] = ()) -> None:
        self.runtime_args = [str(n) for n in runtime_args]
        self.common_runtime_args = [str(n) for n in common_runtime_args]
        self.compile_time_args = _pairs(compile_time_args)
        self.dfbs = _pairs(dfbs)
        self.tensors = _pairs(tensors)
        self.semaphores = _pairs(semaphores)


class KernelDescriptor:
    """One kernel over the cores of ``core_ranges``: source, arguments, defines and processor config.
    ``bindings`` (a :class:`KernelBindings`) is tilecraft's extension for Metal 2.0 kernels."""

    class SourceType(_Enum):
        FILE_PATH = 0
        SOURCE_CODE = 1

    def __init__(self, kernel_source: str = "", source_type: "KernelDescriptor.SourceType" = None,  # type: ignore[assignment]
                 core_ranges: Optional[CoreRangeSet] = None, compile_time_args: Sequence[int] = (),
                 named_compile_time_args: Sequence[tuple[str, int]] = (),
                 defines: Union[Sequence[tuple[str, str]], dict] = (),
                 runtime_args: Union[RuntimeArgs, Sequence[tuple[CoreCoord, Sequence[int]]], None] = None,
                 common_runtime_args: Sequence[int] = (), opt_level: Optional[str] = None,
                 config: Optional[KernelConfig] = None, bindings: Optional[KernelBindings] = None) -> None:
        self.kernel_source = kernel_source
        self.source_type = KernelDescriptor.SourceType.FILE_PATH if source_type is None else source_type
        self.core_ranges = core_ranges
        self.compile_time_args = list(compile_time_args)
        self.named_compile_time_args = list(named_compile_time_args)
        self.defines = list(defines.items()) if isinstance(defines, dict) else list(defines)
        self.runtime_args = RuntimeArgs() if runtime_args is None else runtime_args
        self.common_runtime_args = list(common_runtime_args)
        self.opt_level = opt_level  # the JIT's -O level: the emulator builds every kernel with its own flags
        self.config = config
        self.bindings = bindings

    def runtime_args_by_core(self) -> dict[tuple[int, int], list[int]]:
        """(x, y) -> args, from either spelling ttnn accepts."""
        if isinstance(self.runtime_args, RuntimeArgs):
            return {xy: list(v) for xy, v in self.runtime_args.items()}
        table: dict[tuple[int, int], list[int]] = {}
        for entry in self.runtime_args:
            core, values = entry
            if not isinstance(core, CoreCoord):
                raise TypeError(f"runtime_args entries are (ttnn.CoreCoord, [args]) pairs, got {entry!r}")
            table[(core.x, core.y)] = list(values)
        return table


@dataclass
class ProgramDescriptor:
    kernels: list[KernelDescriptor] = field(default_factory=list)
    semaphores: list[SemaphoreDescriptor] = field(default_factory=list)
    cbs: list[CBDescriptor] = field(default_factory=list)


def core_list(ranges: CoreRangeSet | CoreRange | CoreCoord) -> list[tuple[int, int]]:
    """Every (x, y) of a core set, rows in order."""
    if isinstance(ranges, CoreCoord):
        return [(ranges.x, ranges.y)]
    items = [ranges] if isinstance(ranges, CoreRange) else ranges.ranges()
    return [(x, y) for r in items for y in range(r.start.y, r.end.y + 1) for x in range(r.start.x, r.end.x + 1)]
