"""``ttnn.generic_op`` and the host helpers micro-op hosts use with it (ttnn 0.81.1).

``generic_op(io_tensors, program_descriptor)`` runs the program on tilecraft's kernel emulator
(tilecraft/emu): the kernels' C++ is compiled for the host and executed on every core of the
program with the device's memories, circular buffers, NoC and compute engine modelled, and the
sanitizer on. The io tensors are written to emulated DRAM/L1 in the device's byte format before
the run and read back after; outputs are pre-allocated and come last, as in ttnn, and the last
one is returned.
"""

from __future__ import annotations

import re
import sys
import traceback
import warnings
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Iterator, Optional, Sequence, Union

from tilecraft import session
from tilecraft.diagnostics import (DiagnosticWarning, Span, UsageTypeError, UsageValueError, calling_user_span,
                                   error, type_name, warn)
from tilecraft.emu import launch
from tilecraft.emu.bindings import NamedBindings, TensorBinding
from tilecraft.emu.build import source_file
from tilecraft.emu.device_model import chip
from tilecraft.emu.program_spec import BRISC, NCRISC, TRISC, CBFormat, CBSpec, ComputeSpec, KernelSpec, ProgramSpec, \
    SemaphoreSpec, TensorSpec

from .cores import CoreCoord, CoreRange, CoreRangeSet
from .device import Device
from .descriptors import (CBDescriptor, CBFormatDescriptor, ComputeConfigDescriptor, DataMovementProcessor,
                          KernelBindings, KernelDescriptor, ProgramDescriptor, TileDescriptor, UnpackToDestMode,
                          core_list)
from .fidelity import MathFidelity
from .layout import Layout
from .memory import BufferType, ShardOrientation, TensorMemoryLayout
from .trace import traced
from .tensor import Tensor

_PACKAGE = str(Path(__file__).resolve().parents[1])
#: tt-metal's MathFidelity values
_FIDELITY = {MathFidelity.LoFi: 0, MathFidelity.HiFi2: 2, MathFidelity.HiFi3: 3, MathFidelity.HiFi4: 4}


def _host_span() -> Span | None:
    """The caller's line outside tilecraft: where a descriptor mistake is reported."""
    for frame in reversed(traceback.extract_stack()):
        if not frame.filename.startswith(_PACKAGE) and "<frozen" not in frame.filename:
            return Span(frame.filename, frame.lineno or 1)
    return None


#: the lists :func:`recorded_runs` blocks in force collect into (innermost last)
_recorders: ContextVar[tuple[list[launch.EmulationResult], ...]] = ContextVar("tilecraft_generic_runs", default=())


@contextmanager
def recorded_runs() -> Iterator[list[launch.EmulationResult]]:
    """The emulator's account of each ``generic_op`` run in the block (kernels compiled, compile and
    run seconds, DPRINT output, ...), in run order: what a test or a benchmark reads about a launch
    that a host ran (``generic_op`` returns the output tensor, as ttnn's does). Blocks nest; each
    collects the runs made inside it."""
    runs: list[launch.EmulationResult] = []
    token = _recorders.set(_recorders.get() + (runs,))
    try:
        yield runs
    finally:
        _recorders.reset(token)


@traced
def generic_op(io_tensors: Sequence[Tensor], program_descriptor: ProgramDescriptor) -> Tensor:
    """Run ``program_descriptor`` on the emulator over ``io_tensors`` (outputs last); returns the last."""
    span = _host_span()
    if not io_tensors:
        raise error("E5109", "generic_op needs the io tensors (inputs, then pre-allocated outputs)", span)
    tensors = [_tensor_spec(t, i, span) for i, t in enumerate(io_tensors)]
    _check_one_device(io_tensors, span)
    device = io_tensors[0].device()
    current = session.current()  # read once: outside a session block it is the environment's, read anew
    arch = str(device.arch()) if device is not None else current.options.arch
    hooks = current.emulator_hooks
    program = ProgramSpec(
        kernels=[_kernel_spec(k, i, span) for i, k in enumerate(program_descriptor.kernels)],
        cbs=[_cb_spec(cb, io_tensors, span) for cb in program_descriptor.cbs],
        semaphores=[SemaphoreSpec(s.id, core_list(s.core_ranges) if s.core_ranges is not None else [],
                                  int(s.initial_value), span) for s in program_descriptor.semaphores],
        tensors=tensors, arch=arch, span=span)
    result = launch.run(program, stop_at_first_error=current.options.emulator_stop_at_first_error,
                        trace=bool(hooks))
    for runs in _recorders.get():
        runs.append(result)
    for hook in hooks:  # the profiler times the run from its trace
        hook(program, result)
    if result.dprint:
        sys.stdout.write(result.dprint)
    for warning in result.warnings:  # as Python warnings: `tilecraft run` renders them (text or JSON)
        file, line = (warning.span.file, warning.span.line) if warning.span else ("<kernel>", 0)
        warnings.warn_explicit(DiagnosticWarning(warning), DiagnosticWarning, file, line, registry={})
    return io_tensors[-1]


def _tensor_spec(tensor: Tensor, index: int, span: Span | None) -> TensorSpec:
    if not isinstance(tensor, Tensor):
        raise error("E5109", f"io_tensors[{index}] is a {type_name(tensor)}, not a ttnn.Tensor", span)
    if tensor.is_mesh:
        raise error("E5109", f"io_tensors[{index}] is a mesh tensor; generic_op runs one device's program", span,
                    hint="call generic_op with each device's tensor (tensor.device_tensors()[i])")
    if tensor.device() is None:
        raise error("E5109", f"io_tensors[{index}] is on the host: generic_op needs device tensors", span,
                    hint="create it with ttnn.from_torch(..., device=device) or move it with tensor.to(device)")
    config = tensor.memory_config()
    tiled = tensor.layout is Layout.TILE
    if config.is_sharded():
        spec = config.shard_spec
        cores = core_list(spec.grid)
        rows_total = tensor.storage.reshape(-1, tensor.storage.shape[-1]).shape[0]
        h, w = spec.shape
        n_r, n_c = -(-rows_total // h), -(-tensor.storage.shape[-1] // w)
        if config.memory_layout is TensorMemoryLayout.BLOCK_SHARDED and spec.orientation is ShardOrientation.COL_MAJOR:
            cores = sorted(cores)
        return TensorSpec(f"io_tensors[{index}]", tensor.storage, tensor.dtype, tiled, tensor.buffer_address(),
                          "sharded", (h, w), cores, (n_r, n_c))
    memory = "dram" if config.buffer_type is BufferType.DRAM else "l1"
    return TensorSpec(f"io_tensors[{index}]", tensor.storage, tensor.dtype, tiled, tensor.buffer_address(), memory)


def _check_one_device(io_tensors: Sequence[Tensor], span: Span | None) -> None:
    """The io tensors must be buffers of one device: each ``open_device`` allocates addresses on
    its own, so buffers of two devices can share an address, and the program would read one
    tensor's bytes as the other's (on hardware too: the kernels run on one chip)."""
    first = io_tensors[0].device()
    for index, tensor in enumerate(io_tensors[1:], start=1):
        other = tensor.device()
        if other is not first:
            where = (f"a device of another ttnn.open_device({first.id()}) call than io_tensors[0]"
                     if isinstance(other, Device) and isinstance(first, Device) and other.id() == first.id()
                     else f"{other!r}, io_tensors[0] on {first!r}")
            raise error("E5109", f"io_tensors[{index}] is on {where}: generic_op runs on one device and needs "
                        "every io tensor there", span,
                        hint="create the tensors with the same device (each ttnn.open_device call opens its own), "
                             "or move them with tensor.to(device)")


def _kernel_spec(kernel: KernelDescriptor, index: int, span: Span | None) -> KernelSpec:
    if kernel.source_type is KernelDescriptor.SourceType.SOURCE_CODE:
        text = kernel.kernel_source
        source = source_file(text, f"kernel{index}")
        display = f"<kernel {index} source>"
    else:
        source = Path(kernel.kernel_source)
        if not source.is_file():
            raise error("E5108", f"kernel source '{kernel.kernel_source}' does not exist", span,
                        hint="KernelDescriptor.kernel_source is a file path (or pass source_type=SOURCE_CODE)")
        source = source.resolve()
        text = source.read_text()
        display = launch.kernel_display(source)
    config = kernel.config
    compute = None
    if isinstance(config, ComputeConfigDescriptor):
        slot, noc = TRISC, 0
        modes = [m is UnpackToDestMode.UnpackToDestFp32 for m in config.unpack_to_dest_mode]
        compute = ComputeSpec(_FIDELITY.get(config.math_fidelity, 4), bool(config.fp32_dest_acc_en),
                              bool(config.dst_full_sync_en), bool(config.math_approx_mode), tuple(modes),
                              bool(config.bfp8_pack_precise))
    elif config is not None and hasattr(config, "processor"):
        slot = BRISC if config.processor is DataMovementProcessor.RISCV_0 else NCRISC
        noc = config.noc.index(config.processor)
    else:
        raise error("E5115", f"kernel {display} has no config: pass ReaderConfigDescriptor(), "
                    "WriterConfigDescriptor(), DataMovementConfigDescriptor(...) or ComputeConfigDescriptor(...)",
                    span)
    if kernel.core_ranges is None:
        raise error("E5102", f"kernel {display} has no core_ranges", span)
    cores = core_list(kernel.core_ranges)
    named = [(str(n), int(v)) for n, v in kernel.named_compile_time_args]
    defines = [(str(k), str(v)) for k, v in kernel.defines]
    compile_args, common = [int(a) for a in kernel.compile_time_args], list(kernel.common_runtime_args)
    bindings = None
    if kernel.bindings is not None:
        bindings = _named_bindings(kernel.bindings, compile_args, common, display, span)
    return KernelSpec(name=Path(display).stem, source=source, text=text, display=display, slot=slot, noc=noc,
                      cores=cores, compile_args=compile_args, named_args=named, defines=defines,
                      runtime_args=kernel.runtime_args_by_core(), common_args=common, compute=compute,
                      bindings=bindings, span=span)


_IDENTIFIER = re.compile(r"[A-Za-z_]\w*\Z")


def _named_bindings(given: KernelBindings, compile_args: list[int], common: list, display: str,
                    span: Span | None) -> NamedBindings:
    """Resolve a kernel's KernelBindings to positions, appending each bound tensor's accessor args to
    ``compile_args`` and its address (then its accessor's common args) to ``common``."""
    if not isinstance(given, KernelBindings):
        raise error("E5130", f"kernel {display}: bindings= takes a ttnn.KernelBindings, got {type_name(given)}", span)
    args = [*given.runtime_args, *given.common_runtime_args, *(n for n, _ in given.compile_time_args)]
    for kind, names in (("args", args), ("dfb", [n for n, _ in given.dfbs]),
                        ("tensor", [n for n, _ in given.tensors]), ("sem", [n for n, _ in given.semaphores])):
        for name in names:
            if not _IDENTIFIER.match(str(name)):
                raise error("E5130", f"kernel {display}: the binding name {name!r} is not a C++ identifier (the "
                            f"kernel names it as {kind}::NAME)", span)
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise error("E5130", f"kernel {display}: {kind}::{twice[0]} is declared twice in its KernelBindings "
                        f"(runtime, common runtime and compile-time args share args::)", span,
                        hint="give each binding its own name")
    if len(given.common_runtime_args) > len(common):
        raise error("E5130", f"kernel {display}: KernelBindings names {len(given.common_runtime_args)} common "
                    f"runtime args, but common_runtime_args has {len(common)}", span,
                    hint="name only the leading common runtime args the host sets")
    for name, index in given.dfbs:
        if not isinstance(index, int) or not 0 <= index < 64:
            raise error("E5130", f"kernel {display}: dfb::{name} is bound to {index!r}, not a CB index", span,
                        hint="bind each DFB name to the buffer_index of one of the program's CBFormatDescriptors")
    for name, sem_id in given.semaphores:
        if not isinstance(sem_id, int) or sem_id < 0:
            raise error("E5130", f"kernel {display}: sem::{name} is bound to {sem_id!r}, not a semaphore id", span,
                        hint="bind each semaphore name to the id of one of the program's SemaphoreDescriptors")
    tensors = []
    for name, tensor in given.tensors:
        if not isinstance(tensor, Tensor):
            raise error("E5130", f"kernel {display}: tensor::{name} is bound to {type_name(tensor)}, not a "
                        "ttnn.Tensor", span, hint="bind it to one of generic_op's io tensors")
        accessor = TensorAccessorArgs(tensor)
        tensors.append(TensorBinding(name, len(compile_args), 4 * len(common)))
        compile_args += accessor.get_compile_time_args()
        common += [tensor.buffer_address(), *accessor.get_common_runtime_args()]
    return NamedBindings(tuple(given.runtime_args), tuple(given.common_runtime_args),
                         tuple((n, int(v)) for n, v in given.compile_time_args),
                         tuple((n, int(i)) for n, i in given.dfbs), tuple(tensors),
                         tuple((n, int(i)) for n, i in given.semaphores))


def _cb_spec(cb: CBDescriptor, io_tensors: Sequence[Tensor], span: Span | None) -> CBSpec:
    formats = []
    for f in cb.format_descriptors:
        tile = f.tile or TileDescriptor()
        formats.append(CBFormat(int(f.buffer_index), f.data_format, int(f.page_size), tile.height, tile.width))
    alias = None
    if cb.buffer is not None:
        alias = next((i for i, t in enumerate(io_tensors) if t is cb.buffer), None)
        if alias is None:
            raise error("E5109", "a CBDescriptor aliases a tensor that is not among generic_op's io_tensors", span,
                        hint="pass every tensor the program touches in io_tensors")
    return CBSpec(core_list(cb.core_ranges), int(cb.total_size), formats, alias, int(cb.address_offset), span)


# ---------------------------------------------------------------- host helpers
class TensorAccessorArgs:
    """The compile-time args a kernel's ``TensorAccessorArgs<offset>()`` reads for a tensor.

    Interleaved tensors: [config, aligned page size], config = IsDram (2) for DRAM tensors.
    """

    def __init__(self, tensor: Tensor):
        if not isinstance(tensor, Tensor):
            raise TypeError(f"TensorAccessorArgs takes a ttnn.Tensor, got {type_name(tensor)}")
        if tensor.memory_config().is_sharded():
            raise ValueError("the kernel emulator models interleaved TensorAccessorArgs only; alias a sharded "
                             "tensor with ttnn.cb_descriptor_from_sharded_tensor instead")
        self._tensor = tensor

    def get_compile_time_args(self) -> list[int]:
        t = self._tensor
        dram = t.memory_config().buffer_type is BufferType.DRAM
        arch = chip(str(t.device().arch())) if t.device() is not None else chip(session.options().arch)
        page = t.dtype.tile_bytes if t.layout is Layout.TILE else t.padded_shape[-1] * t.dtype.element_bits // 8
        align = arch.dram_alignment if dram else arch.l1_alignment
        return [2 if dram else 0, -(-page // align) * align]

    def get_common_runtime_args(self) -> list[int]:
        return []


def split_work_to_cores(grid_size: Union[CoreCoord, CoreRangeSet], units_to_divide: int,
                        row_wise: bool = False) -> tuple[int, CoreRangeSet, CoreRangeSet, CoreRangeSet, int, int]:
    """Split ``units_to_divide`` over the cores of a grid as ttnn does: (num_cores, all_cores,
    core_group_1, core_group_2, units_per_core_group_1, units_per_core_group_2); group 1 gets one
    unit more than group 2 when the split is uneven.

    Cores are taken in order: a ``CoreCoord`` grid column by column (row by row with
    ``row_wise``), a ``CoreRangeSet`` range by range. ``all_cores`` holds the cores that get work,
    as in ttnn; the published TT-Lang simulator returns the whole grid there, so a call where the
    two differ (fewer units than cores) warns (W0503). The groups hold one range per core, in the
    order the units are handed out, as the published simulator returns them.
    """
    if isinstance(grid_size, CoreCoord):
        cores = _grid_order(grid_size.x, grid_size.y, row_wise)
    elif isinstance(grid_size, CoreRangeSet):
        cores = [core for r in grid_size.ranges()
                 for core in _grid_order(r.grid_size().x, r.grid_size().y, row_wise, r.start)]
    else:
        raise UsageTypeError(f"split_work_to_cores takes a CoreCoord grid size or a CoreRangeSet, got {grid_size!r}")
    if not isinstance(units_to_divide, int) or units_to_divide < 0:
        raise UsageValueError(f"units_to_divide must be a non-negative int, got {units_to_divide!r}")
    if units_to_divide == 0 or not cores:
        empty = CoreRangeSet([])
        return 0, empty, empty, empty, 0, 0
    num_cores = min(len(cores), units_to_divide)
    if num_cores < len(cores):
        warn("W0503", f"split_work_to_cores: all_cores holds the {num_cores} cores that get work, as in ttnn; "
             f"the TT-Lang simulator returns all {len(cores)} cores of the grid", calling_user_span(),
             hint="count the cores with num_cores (the first result) or core_group_1 and core_group_2")
    per_core, extra = divmod(units_to_divide, num_cores)
    used = cores[:num_cores]
    group_1, group_2 = (used[:extra], used[extra:]) if extra else (used, [])
    return (num_cores, _range_set(used), _one_range_per_core(group_1), _one_range_per_core(group_2),
            per_core + 1 if extra else per_core, per_core if extra else 0)


def num_cores_to_corerangeset(target_num_cores: int, grid_size: Union[CoreCoord, Sequence[int]],
                              row_wise: Optional[bool] = None) -> CoreRangeSet:
    """The first ``target_num_cores`` cores of the grid, row by row (``row_wise``) or column by
    column. ``grid_size`` is a ``CoreCoord`` (x columns, y rows; ``row_wise`` defaults to False,
    as in ttnn) or the published simulator's ``[rows, cols]`` (``row_wise`` defaults to True, as
    there). Exactly the cores asked for, merged into rectangles."""
    if isinstance(grid_size, CoreCoord):
        cols, rows, default_row_wise = grid_size.x, grid_size.y, False
    elif isinstance(grid_size, (list, tuple)) and len(grid_size) == 2 and all(isinstance(v, int) for v in grid_size):
        (rows, cols), default_row_wise = grid_size, True
    else:
        raise UsageTypeError(f"grid_size is a CoreCoord or [rows, cols], got {grid_size!r}")
    if not isinstance(target_num_cores, int) or not 0 < target_num_cores <= cols * rows:
        raise UsageValueError(f"{target_num_cores!r} cores do not fit a grid of {cols} columns and {rows} rows")
    cores = _grid_order(cols, rows, default_row_wise if row_wise is None else row_wise)
    return _range_set(cores[:target_num_cores])


def num_cores_to_corerangeset_in_subcoregrids(start_core: CoreCoord, target_num_cores: int,
                                              sub_core_grids: CoreRangeSet, row_wise: bool = False) -> CoreRangeSet:
    """``target_num_cores`` cores of ``sub_core_grids`` from ``start_core`` on: each range of the set in
    turn, row by row (``row_wise``) or column by column, merged into rectangles."""
    if not isinstance(start_core, CoreCoord) or not isinstance(sub_core_grids, CoreRangeSet):
        raise UsageTypeError("num_cores_to_corerangeset_in_subcoregrids takes a CoreCoord start and a CoreRangeSet, "
                             f"got {start_core!r} and {sub_core_grids!r}")
    order = [core for r in sub_core_grids.ranges()
             for core in _grid_order(r.end.x - r.start.x + 1, r.end.y - r.start.y + 1, row_wise, r.start)]
    if (start_core.x, start_core.y) not in order:
        raise UsageValueError(f"start core {start_core!r} is not in {sub_core_grids!r}")
    available = order[order.index((start_core.x, start_core.y)):]
    if not isinstance(target_num_cores, int) or not 0 < target_num_cores <= len(available):
        raise UsageValueError(f"{target_num_cores!r} cores from {start_core!r} do not fit {sub_core_grids!r} "
                              f"({len(available)} cores from there)")
    return _range_set(available[:target_num_cores])


def _grid_order(cols: int, rows: int, row_wise: bool, start: CoreCoord = CoreCoord(0, 0)) -> list[tuple[int, int]]:
    """The (x, y) of a rectangle of cores from ``start``, row by row or column by column."""
    if row_wise:
        return [(start.x + x, start.y + y) for y in range(rows) for x in range(cols)]
    return [(start.x + x, start.y + y) for x in range(cols) for y in range(rows)]


def _one_range_per_core(cores: list[tuple[int, int]]) -> CoreRangeSet:
    return CoreRangeSet([CoreRange(CoreCoord(x, y), CoreCoord(x, y)) for x, y in cores])


def corerange_to_cores(core_range_set: Union[CoreRangeSet, CoreRange], max_cores: int | None = None,
                       row_wise: bool = False) -> list[CoreCoord]:
    """The cores of a set as CoreCoords: row by row (``row_wise``) or column by column, range by range."""
    ranges = [core_range_set] if isinstance(core_range_set, CoreRange) else core_range_set.ranges()
    cores = []
    for r in ranges:
        if row_wise:
            cores += [CoreCoord(x, y) for y in range(r.start.y, r.end.y + 1) for x in range(r.start.x, r.end.x + 1)]
        else:
            cores += [CoreCoord(x, y) for x in range(r.start.x, r.end.x + 1) for y in range(r.start.y, r.end.y + 1)]
    return cores if max_cores is None else cores[:max_cores]


def _range_set(cores: list[tuple[int, int]]) -> CoreRangeSet:
    """Cores merged into rectangles: runs along rows, then equal runs of consecutive rows."""
    rows: dict[int, list[int]] = {}
    for x, y in cores:
        rows.setdefault(y, []).append(x)
    runs: list[tuple[int, int, int]] = []  # (y, x0, x1)
    for y in sorted(rows):
        xs = sorted(rows[y])
        start = prev = xs[0]
        for x in xs[1:]:
            if x != prev + 1:
                runs.append((y, start, prev))
                start = x
            prev = x
        runs.append((y, start, prev))
    ranges: list[CoreRange] = []
    for y, x0, x1 in runs:
        last = ranges[-1] if ranges else None
        if last is not None and last.start.x == x0 and last.end.x == x1 and last.end.y == y - 1:
            ranges[-1] = CoreRange(last.start, CoreCoord(x1, y))
        else:
            ranges.append(CoreRange(CoreCoord(x0, y), CoreCoord(x1, y)))
    return CoreRangeSet(ranges)


def cb_descriptor_from_sharded_tensor(cb_index: int, tensor: Tensor) -> CBDescriptor:
    """A CB over a sharded L1 tensor's cores that aliases each core's shard (no new L1)."""
    config = tensor.memory_config()
    if not config.is_sharded() or config.buffer_type is not BufferType.L1:
        raise ValueError("cb_descriptor_from_sharded_tensor needs an L1-sharded tensor")
    h, w = config.shard_spec.shape
    page = tensor.dtype.tile_bytes if tensor.layout is Layout.TILE else w * tensor.dtype.element_bits // 8
    shard_bytes = (h * w // 1024) * tensor.dtype.tile_bytes if tensor.layout is Layout.TILE else h * page
    fmt = CBFormatDescriptor(buffer_index=cb_index, data_format=tensor.dtype, page_size=page)
    return CBDescriptor(total_size=shard_bytes, core_ranges=config.shard_spec.grid, format_descriptors=[fmt],
                        buffer=tensor)

