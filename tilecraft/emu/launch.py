"""Running a ProgramSpec on the emulated chip.

1. Check the program against the chip before anything runs (E51xx): core ranges inside the
   grid, CB indices and sizes, semaphore ids, one kernel per RISC per core, runtime args for
   every core of a kernel, L1 space.
2. Place it: circular buffers get the same L1 address on every core (program-wide, upward from
   the reserved region, as tt-metal allocates them), semaphores sit at their fixed slots, tensors
   go to their DRAM or L1 banks in the device's byte format.
3. Compile the kernels (in parallel, cached), load them, give every (core, RISC) its fiber.
4. Run; turn the runtime's findings into diagnostics at the kernel lines (at the lines of the
   program that generated a kernel, where its manifest maps them: source_map.py); read the
   tensors back.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from ..diagnostics import Diagnostic, KernelError, Note, Span, error
from . import tensix_compute, tensix_dataflow, tensor_bytes
from .build import CBInfo, KernelBuild, compile_all, compile_seconds, compile_warnings
from .device_model import ChipModel, chip
from .native import NativeDevice, decode_tiles, encode_tiles, tile_bytes
from .program_spec import SLOT_NAMES, TRISC, CBSpec, Core, KernelSpec, ProgramSpec, TensorSpec
from .source_map import at_source, source_maps
from .trace import KernelTrace

MAX_RUNTIME_ARGS = 1024


@dataclass
class EmulationResult:
    """What a run left besides the tensors: warnings, debug prints, statistics."""

    warnings: list[Diagnostic] = field(default_factory=list)
    dprint: str = ""
    switches: int = 0
    kernels: int = 0  # distinct kernel builds (source, args, defines)
    kernels_compiled: int = 0  # of those, compiled now (the rest came from the cache)
    kernel_compile_seconds: list[float] = field(default_factory=list)  # g++ time of each kernel compiled now
    compile_seconds: float = 0.0
    run_seconds: float = 0.0
    #: every kernel API call of the run, when it was asked for (``run(..., trace=True)``)
    trace: KernelTrace | None = None


_ONE_AT_A_TIME = threading.Lock()


def run(program: ProgramSpec, stop_at_first_error: bool = True, trace: bool = False) -> EmulationResult:
    """Check, place, compile and run ``program``; its tensors' storages hold the results after.

    ``trace`` records every kernel API call with its source line in ``result.trace`` (for the
    kernel-level cost model: one 40-byte record per call; no measurable cost on the examples, and one
    branch per call when off).

    Raises KernelError for a bad program (before running), a kernel that does not compile, or a
    sanitizer finding or deadlock while running (the tensors are then left as they were).
    """
    model = chip(program.arch)
    check(program, model)
    cb_addresses = place_cbs(program, model)
    maps = source_maps(program.kernels)
    try:
        result = _build_and_emulate(program, model, cb_addresses, stop_at_first_error, trace)
    except KernelError as exc:
        raise KernelError(*(at_source(d, maps) for d in exc.diagnostics)) from None
    result.warnings = [at_source(d, maps) for d in result.warnings]
    return result


def _build_and_emulate(program: ProgramSpec, model: ChipModel, cb_addresses: list[int], stop_at_first_error: bool,
                       trace: bool) -> EmulationResult:
    result = EmulationResult()
    start = time.perf_counter()
    builds = [kernel_build(k, program, model) for k in program.kernels]
    objects = compile_all(builds, tensix_compute.compile_kernel, tensix_dataflow.compile_kernel)
    result.compile_seconds = time.perf_counter() - start
    result.kernels = len(set(builds))
    result.kernels_compiled = len({b for b, (_, built) in zip(builds, objects) if built})
    for b, (path, built) in dict(zip(builds, objects)).items():
        result.warnings += compile_warnings(path, b)
        if built:
            result.kernel_compile_seconds.append(compile_seconds(path))
    with _ONE_AT_A_TIME:  # the runtime keeps one device at a time (fibers on the calling thread)
        _emulate(program, model, cb_addresses, objects, stop_at_first_error, result, trace)
    return result


def _emulate(program: ProgramSpec, model: ChipModel, cb_addresses: list[int], objects: list[tuple[Path, bool]],
             stop_at_first_error: bool, result: EmulationResult, trace: bool) -> None:
    start = time.perf_counter()
    device = _device(program, model, stop_at_first_error)
    if trace:
        device.enable_trace()
    scratch = Path(tempfile.mkdtemp(prefix="tc-trisc-copies-"))
    loaded: set[Path] = set()  # the object files loaded from the cache in this run
    try:
        _configure(device, program, model, cb_addresses)
        for number, (kernel, (path, _)) in enumerate(zip(program.kernels, objects)):
            if kernel.slot == TRISC:
                _load_on_machine(device, model, kernel, path, scratch / f"compute-{number}", loaded)
            else:
                _load_real_dataflow(device, model, kernel, path, scratch / f"dataflow-{number}", loaded)
        ok = device.run()
        if trace:
            events, files = device.trace()
            result.trace = KernelTrace(events, files, model.grid,
                                       {(_index(model, core), k.slot): k.display for k in program.kernels
                                        for core in k.cores})
        displays = {str(k.source): k.display for k in program.kernels}
        findings = [_diagnostic(f, displays) for f in device.findings()]
        result.dprint = device.dprint_log()
        result.switches = device.switches()
        errors = [d for d in findings if d.severity == "error"]
        result.warnings += [d for d in findings if d.severity != "error"]
        if not ok or errors:
            raise KernelError(*(errors or result.warnings))
        for tensor in program.tensors:
            _read_tensor(device, tensor, model)
    finally:
        device.close()
        shutil.rmtree(scratch, ignore_errors=True)
    result.run_seconds = time.perf_counter() - start


def _copies(path: Path, cores: list[Core], scratch: Path, loaded: set[Path]) -> list[Path | None]:
    """Where each core's load of ``path`` comes from: the cache for the object's first load in the
    run, a copy in ``scratch`` for every other (the loader shares one image per file, and the
    kernel's globals are the core's own, also when two kernels of a program share an object)."""
    first = path not in loaded
    loaded.add(path)
    return [None if i == 0 and first else scratch / str(i) for i in range(len(cores))]


def _load_on_machine(device: NativeDevice, model: ChipModel, kernel: KernelSpec, path: Path, scratch: Path,
                     loaded: set[Path]) -> None:
    """A compute kernel's fibers on the Tensix machine: one load per core (its TRISCs' globals are the
    core's own; ``_copies``)."""
    compute = kernel.compute
    for core, copy in zip(kernel.cores, _copies(path, kernel.cores, scratch, loaded)):
        handle = tensix_compute.load_kernel(device, path, kernel.display, copy, model.name,
                                            compute.fp32_dest_acc if compute else False,
                                            compute.dst_full_sync if compute else False,
                                            compute.unpack_to_dest_fp32 if compute else ())
        device.add_fiber(_index(model, core), kernel.slot, handle, kernel.runtime_args.get(core, []),
                         kernel.common_args)


def _load_real_dataflow(device: NativeDevice, model: ChipModel, kernel: KernelSpec, path: Path, scratch: Path,
                        loaded: set[Path]) -> None:
    """A data-movement kernel's fibers on the real dataflow API: one load per core (the firmware's
    globals are the core's own; ``_copies``)."""
    for core, copy in zip(kernel.cores, _copies(path, kernel.cores, scratch, loaded)):
        handle = tensix_dataflow.load_kernel(device, path, kernel.name, kernel.noc, copy)
        device.add_fiber(_index(model, core), kernel.slot, handle, kernel.runtime_args.get(core, []),
                         kernel.common_args)


# ---------------------------------------------------------------- checks before running
def _outside(cores: list[Core], model: ChipModel) -> Core | None:
    cols, rows = model.grid
    return next(((x, y) for x, y in cores if not (0 <= x < cols and 0 <= y < rows)), None)


def check(program: ProgramSpec, model: ChipModel) -> None:
    cols, rows = model.grid
    for kernel in program.kernels:
        bad = _outside(kernel.cores, model)
        if bad is not None:
            raise error("E5102", f"kernel {kernel.display} runs on core {bad}, outside the {cols}x{rows} compute grid "
                        f"of {model.name}", kernel.span,
                        hint=f"core ranges must lie in (0, 0)..({cols - 1}, {rows - 1})")
        _check_args(kernel)
    for cb in program.cbs:
        bad = _outside(cb.cores, model)
        if bad is not None:
            raise error("E5102", f"a CBDescriptor covers core {bad}, outside the {cols}x{rows} compute grid",
                        cb.span)
        for f in cb.formats:
            if not 0 <= f.index < model.num_cbs:
                raise error("E5101", f"CB index {f.index} is out of range: {model.name} has CB indices 0..{model.num_cbs - 1}",
                            cb.span, hint="use tt::CBIndex::c_0 .. c_{0}".format(model.num_cbs - 1))
            if f.page_size <= 0 or cb.total_size % f.page_size:
                raise error("E5110", f"CB {f.index}: total_size {cb.total_size} is not a whole number of "
                            f"{f.page_size}-byte pages", cb.span,
                            hint="total_size = pages * page_size")
    seen: dict[tuple[Core, int], CBSpec] = {}
    for cb in program.cbs:
        for core in cb.cores:
            for f in cb.formats:
                if (core, f.index) in seen:
                    raise error("E5111", f"CB index {f.index} is configured twice on core {core}", cb.span)
                seen[(core, f.index)] = cb
    sems: set[tuple[Core, int]] = set()
    for sem in program.semaphores:
        bad = _outside(sem.cores, model)
        if bad is not None:
            raise error("E5102", f"semaphore {sem.id} covers core {bad}, outside the {cols}x{rows} compute grid",
                        sem.span)
        if not 0 <= sem.id < model.num_semaphores:
            raise error("E5112", f"semaphore id {sem.id} is out of range 0..{model.num_semaphores - 1}", sem.span)
        for core in sem.cores:
            if (core, sem.id) in sems:
                raise error("E5112", f"semaphore id {sem.id} is created twice on core {core}", sem.span)
            sems.add((core, sem.id))
    owners: dict[tuple[Core, int], KernelSpec] = {}
    for kernel in program.kernels:
        for core in kernel.cores:
            other = owners.get((core, kernel.slot))
            if other is not None:
                raise error("E5105", f"kernels {other.display} and {kernel.display} both run on {SLOT_NAMES[kernel.slot]} "
                            f"of core {core}", kernel.span,
                            hint="each core runs one kernel per RISC: give them disjoint core ranges")
            owners[(core, kernel.slot)] = kernel


def _check_args(kernel: KernelSpec) -> None:
    cores = set(kernel.cores)
    given = {c for c, args in kernel.runtime_args.items() if args}
    stray = sorted(set(kernel.runtime_args) - cores)
    if stray:
        raise error("E5113", f"kernel {kernel.display}: runtime args are set for core {stray[0]}, which is not in "
                    "its core ranges", kernel.span)
    missing = sorted(cores - given)
    if given and missing:
        example = next(iter(given))
        raise error("E5103", f"kernel {kernel.display}: no runtime args for core {missing[0]} "
                    f"({len(missing)} of its {len(cores)} cores have none; core {example} has "
                    f"{len(kernel.runtime_args[example])})", kernel.span,
                    hint="set runtime_args[x][y] for every core of the kernel's core ranges")
    for core, args in [*kernel.runtime_args.items(), (None, kernel.common_args)]:
        if len(args) > MAX_RUNTIME_ARGS:
            raise error("E5114", f"kernel {kernel.display}: {len(args)} runtime args exceed {MAX_RUNTIME_ARGS}",
                        kernel.span)
        for value in args:
            if not isinstance(value, (int, np.integer)) or not -(2 ** 31) <= int(value) < 2 ** 32:
                what = "common runtime args" if core is None else f"runtime args of core {core}"
                raise error("E5114", f"kernel {kernel.display}: {what} hold {value!r}, not a 32-bit integer",
                            kernel.span, hint="runtime args are uint32 words")


def _align(n: int, a: int) -> int:
    return (n + a - 1) // a * a


def place_cbs(program: ProgramSpec, model: ChipModel) -> list[int]:
    """L1 address of every CBSpec: program-wide, bottom-up above the reserved region."""
    addresses, top = [], model.l1_reserved
    for cb in program.cbs:
        if cb.alias is not None:
            addresses.append(program.tensors[cb.alias].address + cb.address_offset)
            continue
        addresses.append(top)
        top = _align(top + cb.total_size, model.l1_alignment * 2)
    lowest_tensor = min([t.address for t in program.tensors if t.memory in ("l1", "sharded")], default=model.l1_bytes)
    if top > lowest_tensor:
        cores = sorted({c for cb in program.cbs for c in cb.cores})
        raise error("E5106", f"the program's circular buffers need L1 up to {top} bytes, but "
                    f"{'L1 tensors start' if lowest_tensor < model.l1_bytes else 'L1 ends'} at {lowest_tensor} "
                    f"({model.l1_bytes - model.l1_reserved} bytes usable per core; cores {cores[:3]}...)",
                    program.span, hint="use fewer or smaller CB pages, or keep tensors in DRAM")
    return addresses


# ---------------------------------------------------------------- kernels
def kernel_build(kernel: KernelSpec, program: ProgramSpec, model: ChipModel) -> KernelBuild:
    tables: dict[Core, dict[int, CBInfo]] = {}
    for cb in program.cbs:
        for core in cb.cores:
            for f in cb.formats:
                code = tensor_bytes.format_code(f.fmt)
                tables.setdefault(core, {})[f.index] = CBInfo(tile_bytes(code, f.tile_rows, f.tile_cols), code,
                                                              f.tile_rows, f.tile_cols)
    # one binary serves all the kernel's cores: its CB tables (get_tile_size, get_dataformat) are the
    # union over them; cores may lack a CB the others have (ttnn allows it), but one CB index must
    # not mean two different things
    first: dict[int, CBInfo] = {}
    where: dict[int, Core] = {}
    for core in kernel.cores:
        for index, info in tables.get(core, {}).items():
            if index in first and first[index] != info:
                raise error("E5107", f"kernel {kernel.display}: CB {index} is configured differently on cores "
                            f"{where[index]} and {core} ({_cb_text(first[index])} against {_cb_text(info)}); one "
                            "kernel binary serves all its cores", kernel.span,
                            hint="give the CB one format and page size on every core of the kernel, or give those "
                                 "cores their own KernelDescriptor")
            first.setdefault(index, info)
            where.setdefault(index, core)
    compute = kernel.compute
    slot_define = {0: "COMPILE_FOR_BRISC", 1: "COMPILE_FOR_NCRISC", 2: "COMPILE_FOR_TRISC"}[kernel.slot]
    arch_defines = (("KERNEL_BUILD", "1"), (slot_define, "1"),
                    ("ARCH_WORMHOLE" if model.name == "wormhole_b0" else "ARCH_BLACKHOLE", "1"),
                    ("NUM_DRAM_BANKS", str(len(model.dram_banks))),
                    ("NUM_L1_BANKS", str(model.grid[0] * model.grid[1])),
                    ("DRAM_ALIGNMENT", str(model.dram_alignment)))
    return KernelBuild(
        source=kernel.source, text=kernel.text, display=kernel.display, compute=kernel.slot == TRISC,
        compile_args=tuple(kernel.compile_args), named_args=tuple(kernel.named_args),
        defines=tuple(kernel.defines), noc=kernel.noc, cbs=tuple(sorted(first.items())),
        fp32_dest_acc=compute.fp32_dest_acc if compute else False,
        math_fidelity=compute.math_fidelity if compute else 4, approx=compute.approx if compute else False,
        dst_full_sync=compute.dst_full_sync if compute else False,
        unpack_to_dest_fp32=compute.unpack_to_dest_fp32 if compute else (),
        bfp8_pack_precise=compute.bfp8_pack_precise if compute else False, bindings=kernel.bindings,
        arch_defines=arch_defines)


def _cb_text(info: CBInfo) -> str:
    return f"{tensor_bytes.FORMAT_NAMES.get(info.format, info.format)}, {info.tile_bytes}-byte tiles"


# ---------------------------------------------------------------- the device
def _index(model: ChipModel, core: Core) -> int:
    return core[1] * model.grid[0] + core[0]


def _page(tensor: TensorSpec) -> tuple[int, int]:
    """(page size, number of pages) of a tensor in its layout."""
    shape = tuple(tensor.storage.shape)
    if tensor.tiled:
        pages = int(np.prod(shape)) // 1024
        return tile_bytes(tensor_bytes.format_code(tensor.fmt)), pages
    width = shape[-1] if shape else 1
    return width * tensor.fmt.element_bits // 8, int(np.prod(shape)) // max(width, 1)


def _device(program: ProgramSpec, model: ChipModel, stop_at_first_error: bool) -> NativeDevice:
    cols, rows = model.grid
    cores = [(x, y, *model.physical_xy(x, y), *model.noc_xy(x, y)) for y in range(rows) for x in range(cols)]
    banks = len(model.dram_banks)
    sizes = [0] * banks
    for t in program.tensors:
        if t.memory == "dram":
            page, pages = _page(t)
            end = t.address + -(-pages // banks) * _align(page, model.dram_alignment)
            sizes = [max(s, end) for s in sizes]
    sizes = [_align(s, 1 << 20) for s in sizes]
    return NativeDevice(l1_size=model.l1_bytes, l1_reserved=model.l1_reserved, num_cbs=model.num_cbs,
                        sem_base=model.sem_base, args_base=model.args_base, noc_size=model.noc_size,
                        dram_alignment=model.dram_alignment, cores=cores, dram=model.dram_banks, dram_sizes=sizes,
                        l1_banks=list(range(cols * rows)), sanitize_fatal=stop_at_first_error)


def _configure(device: NativeDevice, program: ProgramSpec, model: ChipModel, cb_addresses: list[int]) -> None:
    for cb, addr in zip(program.cbs, cb_addresses):
        for core in cb.cores:
            for f in cb.formats:
                device.add_cb(_index(model, core), f.index, addr, cb.total_size, f.page_size,
                              tensor_bytes.format_code(f.fmt), f.tile_rows, f.tile_cols)
    for sem in program.semaphores:
        for core in sem.cores:
            device.add_semaphore(_index(model, core), sem.id, sem.initial)
    for tensor in program.tensors:
        _write_tensor(device, tensor, model)


def _lead(shape: tuple[int, ...]) -> int:
    return int(np.prod(shape[:-2], dtype=np.int64)) if len(shape) > 2 else 1


def _tensor_words(tensor: TensorSpec) -> np.ndarray:
    words = tensor_bytes.to_words(tensor.storage, tensor.fmt)
    return tensor_bytes.tilize(words, tuple(tensor.storage.shape)) if tensor.tiled else words


def _encode(tensor: TensorSpec, words: np.ndarray) -> np.ndarray:
    if tensor.tiled:
        return encode_tiles(tensor_bytes.format_code(tensor.fmt), 32, 32, words, tensor.fmt.is_integer)
    return tensor_bytes.row_bytes(words, tensor.fmt)


def _decode(tensor: TensorSpec, data: np.ndarray, pages: int) -> np.ndarray:
    if tensor.tiled:
        return decode_tiles(tensor_bytes.format_code(tensor.fmt), 32, 32, data, pages)
    return tensor_bytes.row_words(data, tensor.fmt)


def _shards(tensor: TensorSpec) -> list[tuple[Core, tuple[slice, slice]]]:
    """(core, 2-d region of the tensor's [rows, cols] view) of every shard."""
    assert tensor.shard_shape is not None and tensor.shard_cores is not None and tensor.shard_grid is not None
    h, w = tensor.shard_shape
    n_r, n_c = tensor.shard_grid
    out = []
    for i, core in enumerate(tensor.shard_cores[:n_r * n_c]):
        r, c = divmod(i, n_c)
        out.append((core, (slice(r * h, (r + 1) * h), slice(c * w, (c + 1) * w))))
    return out


def _view2d(tensor: TensorSpec) -> torch.Tensor:
    return tensor.storage.reshape(-1, tensor.storage.shape[-1])


def _write_tensor(device: NativeDevice, tensor: TensorSpec, model: ChipModel) -> None:
    page, pages = _page(tensor)
    if tensor.memory in ("dram", "l1"):
        dram = tensor.memory == "dram"
        aligned = _align(page, model.dram_alignment if dram else model.l1_alignment)
        banks = len(model.dram_banks) if dram else model.grid[0] * model.grid[1]
        for b in range(min(banks, pages)):
            count = len(range(b, pages, banks))
            index = b if dram else b
            device.add_region(dram, index, tensor.address, tensor.address + count * aligned,
                              f"tensor '{tensor.name}'")
        if tensor.tiled:
            shape = tuple(tensor.storage.shape)
            words = np.ascontiguousarray(tensor_bytes.to_words(tensor.storage, tensor.fmt), dtype=np.uint32)
            device.tiled_tensor(dram, True, tensor.address, aligned, tensor_bytes.format_code(tensor.fmt),
                                tensor.fmt.is_integer, words, _lead(shape), shape[-2], shape[-1])
            return
        data = _encode(tensor, _tensor_words(tensor))
        device.interleaved(dram, True, tensor.address, page, aligned, data)
        return
    view = _view2d(tensor)
    for core, region in _shards(tensor):
        shard = TensorSpec(tensor.name, view[region].contiguous(), tensor.fmt, tensor.tiled, 0, "l1")
        data = _encode(shard, _tensor_words(shard))
        index = _index(model, core)
        device.add_region(False, index, tensor.address, tensor.address + data.nbytes, f"shard of '{tensor.name}'")
        device.write(False, index, tensor.address, data)


def _read_tensor(device: NativeDevice, tensor: TensorSpec, model: ChipModel) -> None:
    page, pages = _page(tensor)
    shape = tuple(tensor.storage.shape)
    if tensor.memory in ("dram", "l1"):
        dram = tensor.memory == "dram"
        if dram and not device.dram_written(tensor.address):
            return  # no NoC write reached it: it holds what the host wrote
        aligned = _align(page, model.dram_alignment if dram else model.l1_alignment)
        if tensor.tiled:
            words = np.empty(int(np.prod(shape)), dtype=np.uint32)
            device.tiled_tensor(dram, False, tensor.address, aligned, tensor_bytes.format_code(tensor.fmt),
                                tensor.fmt.is_integer, words, _lead(shape), shape[-2], shape[-1])
            tensor.storage.copy_(tensor_bytes.from_words(words, tensor.fmt, shape))
            return
        data = np.empty(page * pages, dtype=np.uint8)
        device.interleaved(dram, False, tensor.address, page, aligned, data)
        words = _decode(tensor, data, pages)
        if tensor.tiled:
            words = tensor_bytes.untilize(words, shape)
        tensor.storage.copy_(tensor_bytes.from_words(words, tensor.fmt, shape))
        return
    view = _view2d(tensor)
    for core, region in _shards(tensor):
        part = view[region]
        shard = TensorSpec(tensor.name, part.contiguous(), tensor.fmt, tensor.tiled, 0, "l1")
        spage, spages = _page(shard)
        data = np.empty(spage * spages, dtype=np.uint8)
        device.read(False, _index(model, core), tensor.address, data)
        words = _decode(shard, data, spages)
        if shard.tiled:
            words = tensor_bytes.untilize(words, tuple(part.shape))
        part.copy_(tensor_bytes.from_words(words, tensor.fmt, tuple(part.shape)))


# ---------------------------------------------------------------- findings
def _diagnostic(finding: dict, displays: dict[str, str]) -> Diagnostic:
    file = finding.get("file") or ""
    span = Span(displays.get(file, file), finding["line"], max(1, finding.get("column") or 1)) if file else None
    notes = []
    if finding.get("core") is not None:
        x, y = finding["core"]
        notes.append(Note(f"on core ({x}, {y}), {finding['risc']}"))
    for note in finding.get("notes", []):
        nfile = note.get("file") or ""
        nspan = Span(displays.get(nfile, nfile), note["line"], max(1, note.get("column") or 1)) if nfile else None
        notes.append(Note(note["message"], nspan))
    return Diagnostic(finding["code"], finding["message"], span, tuple(notes), finding.get("hint") or None,
                      "error" if finding["error"] else "warning")


def kernel_display(path: Path) -> str:
    """How diagnostics name a kernel file: relative to the working directory when under it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
