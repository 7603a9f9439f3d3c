"""How many of ttnn 0.81.1's own data-movement kernels compile as the emulator builds them.

Each data-movement kernel source of the wheel (``<op>/device/kernels/**.cpp``, fetched by
tilecraft/emu/wheel_kernels.py) is compiled syntax-only against the wheel's own 0.81.1 dataflow
API in the machine include tree, as tensix_dataflow.py builds it: the JIT's defines, the firmware's
implicit includes, the kernel, with ttnn's two include roots. The arguments are generic at first:
every kernel gets 64 compile-time args of value 2 (an interleaved DRAM TensorAccessorArgs config),
each named compile-time arg it reads (``get_named_compile_time_arg_val("NAME")``) the value 2, and
no defines but ``ENABLE_FP32_DEST_ACC=0`` and ``DST_SYNC_FULL=0`` (``DM_DEFINES``). The first
error of each failure is tallied by the name or header it reports.

A kernel written against Metal 2.0's named arguments (``experimental/kernel_args.h``) also
needs the constants the JIT generates from the host's schema (``kernel_args_generated.h``,
``kernel_bindings_generated.h``); the schemas live in program factories the wheel does not ship,
so the benchmark makes one from the names the kernel uses and gives it to the build as the
emulator's hosts do (``ttnn.KernelBindings`` -> tilecraft/emu/bindings.py): each ``args::NAME`` a
compile-time ``CtaVal`` of value 2 (usable wherever a runtime arg is), each ``dfb::NAME`` a
``DFBBindingToken`` of a distinct CB index, each ``tensor::NAME`` a ``TensorBindingToken`` over the
interleaved DRAM accessor args at compile-time arg 0, each ``sem::NAME`` a ``SemaphoreBindingToken``
of a distinct id, each ``scratch::NAME`` a 2 KiB ``ScratchpadBindingToken``, each ``pipe::NAME`` a
``PrefetcherPipeBindingToken``, a tensor used as a sequence (``make_tensor_accessors(tensor::X)``) a
tuple of two tensors, with ``get_token_if_present`` and the compile-time vararg readers where the
kernel uses them, as 0.81.1's generator writes them (bindings.py); a ``TT_KERNEL`` entry gets the
JIT's ``kernel_main`` (tt_kernel_entry.py) and its parameters are named compile-time args.

A kernel counts as compute when it includes the compute API (``api/compute/...``) itself, through
a local header or through one of kernel_lib's compute helpers; the compute kernels are the compute
census's (wheel_compute_compile.py: the Tensix machine's three TRISC builds), not counted here. A
kernel that needs a header the wheel does not ship is reported as skipped with that reason
(``SKIPPED``), not as a failure.

A failing kernel is retried with what its factory passes (``compile_one``: ``DM_FACTORY_DEFINES``,
fallback and sharded args, and a kernel whose assertions no generic value meets its own factory's
args, wheel_dm_factories.py); a kernel the wheel itself cannot build for Wormhole is skipped with
the reason (``NOT_BUILDABLE``). ``--only-from RESULTS`` reruns the kernels an earlier ``--out``
reports failing, ``--kernels`` the named ones.

    python -m benchmarks.wheel_kernels_compile [--jobs N] [--limit N] [--every N] [--out results.jsonl]
                                               [--only-from results.jsonl] [--kernels PATH...]
"""

from __future__ import annotations

import argparse
import collections
import functools
import json
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from benchmarks import wheel_dm_factories as dm_factories
from benchmarks.wheel_compute_factories import Factory, tile_bytes
from benchmarks.wheel_compute_variants import factory_defines
from tilecraft.emu import build, tensix_dataflow, tensix_tree, tt_kernel_entry, wheel_kernels
from tilecraft.emu.tensix_build import ARCH_DEFINES, compile_host
from tilecraft.emu.tensix_compute import kernel_arch
from tilecraft.emu.bindings import NamedBindings, ScratchpadBinding, TensorBinding

#: the census builds every kernel for Wormhole B0
CENSUS_ARCH = "wormhole"
#: the architecture's define (``ARCH_WORMHOLE``), as the JIT passes it and ``kernel_arch`` reads it back
ARCH_DEFINE = (ARCH_DEFINES[CENSUS_ARCH].removeprefix("-D"), "1")

ARGS = tuple([2] * 64)
#: what a data-movement kernel's factory defines for kernel_lib's helpers (dest_helpers.hpp asserts
#: ENABLE_FP32_DEST_ACC, and DST_SYNC_FULL where the JIT's DST_SYNC_MODE is not, is defined in a
#: data-movement kernel); here fp32 DST accumulation off and half-sync DST (the default)
DM_DEFINES = (("ENABLE_FP32_DEST_ACC", "0"), ("DST_SYNC_FULL", "0"))
KERNEL_ARGS = "experimental/kernel_args.h"
#: the generated namespaces a failure is tallied under as a whole (``tensor::*``)
GENERATED = ("args", "dfb", "tensor", "sem", "scratch")
_REASON = re.compile(r"'(?P<name>[\w:]+)' is not a member of '(?P<ns>\w+)'"
                     r"|'(?P<name2>[\w:]+)' (?:was not declared|has not been declared|is not a member|has no member)"
                     r"|(?P<header>[\w./-]+\.h(?:pp)?): No such file"
                     r"|has no member named '(?P<member>\w+)'")


def kernels(root: Path) -> list[Path]:
    """Every kernel source of the wheel, compute and data movement, in path order."""
    return sorted(p for p in wheel_kernels.operations(root).rglob("*.cpp") if "/kernels" in p.as_posix())


def data_movement_kernels(root: Path) -> list[Path]:
    """The wheel's data-movement kernel sources (``kernels`` less the compute ones), in path order."""
    return [p for p in kernels(root) if not is_compute_kernel(p)]


def is_compute(text: str) -> bool:
    return '"api/compute/' in text or "<api/compute/" in text


def kernel_text(path: Path) -> str:
    """The kernel's text and that of every header it includes from its directory or ttnn's include
    roots, recursively (what its defines, named args and bindings are looked for in)."""
    text = path.read_text(errors="replace")
    return "".join(build._local_includes(path, text, build.ttnn_include_roots(path))[1::2]) + text


@functools.cache
def _compute_helpers(root: Path) -> tuple[str, ...]:
    """ttnn's kernel_lib headers that include the compute API (a kernel including one is compute)."""
    lib = root / "ttnn" / "cpp" / "ttnn" / "kernel_lib"
    return tuple(sorted(p.relative_to(lib).as_posix() for p in lib.rglob("*")
                        if p.suffix in (".hpp", ".inl", ".h") and is_compute(p.read_text(errors="replace"))))


def is_compute_kernel(path: Path) -> bool:
    """A compute kernel includes the compute API itself, through a local header, or through one of
    kernel_lib's compute helpers (kernels written only against kernel_lib, e.g. the untilize and
    moreh kernels; ``is_compute`` of the kernel's own text alone misses them)."""
    text = kernel_text(path)
    included = re.findall(r'#\s*include\s*[<"][^>"]*kernel_lib/([^>"]+)[>"]', text)
    helpers = _compute_helpers(wheel_kernels.ensure_kernels())
    return is_compute(text) or any(name in helpers or name.startswith("eltwise/") for name in included)


#: how a kernel uses a tensor sequence (a tuple of tokens) rather than one tensor
_SEQUENCE = re.compile(r"(?:make_tensor_accessors\(|tuple_size_v<decltype\(|std::get<[^<>]*>\()\s*tensor::(\w+)")
#: each sequence gets two tensors (a factory's variadic count; concat's inputs, a matmul's chunks)
SEQUENCE_LENGTH = 2
#: each scratchpad's size: a 2 KiB region (the ops' pads are a page or a few words)
SCRATCHPAD_BYTES = 2048


def generated_bindings(text: str) -> NamedBindings:
    """The bindings of a Metal 2.0 kernel, from the names it uses (see the module doc). A name
    followed by ``::``, ``<`` or a declarator is the headers' (``dfb::AccessPattern Pap``,
    ``tensor::get_token_if_present<``), not a binding; a tensor name the kernel uses as a sequence is a tuple of two tensors; a name
    asked of ``get_token_if_present`` is bound (the factory binds it); each parameter of a
    ``TT_KERNEL`` entry is a named compile-time arg (tt_kernel_entry.py); a kernel reading unnamed
    compile-time args (``get_compile_time_vararg``) has all of ARGS as such."""
    def names(namespace: str) -> list[str]:
        return sorted(set(re.findall(rf"\b{namespace}::(\w+)\b(?!\s*(?:::|<|[A-Za-z_]))", text)))

    sequences = sorted(set(_SEQUENCE.findall(text)))
    optional = re.findall(r'tensor::get_token_if_present<\s*"(\w+)"', text)
    optional_dfbs = re.findall(r'dfb::get_token_if_present<\s*"(\w+)"', text)
    members = {n: tuple(f"{n}_{i}" for i in range(SEQUENCE_LENGTH)) for n in sequences}
    tensors = sorted((set(names("tensor")) - set(sequences)) | set(optional) | {m for ms in members.values() for m in ms})
    scratch = names("scratch")
    found = tt_kernel_entry.entry(text)
    entry_args = set(found.template_params + found.params) if found is not None else set()
    return NamedBindings(compile_time=tuple((n, 2) for n in sorted(set(names("args")) | entry_args)),
                         dfbs=tuple((n, i) for i, n in enumerate(sorted(set(names("dfb")) | set(optional_dfbs)))),
                         tensors=tuple(TensorBinding(n, 0, 0) for n in tensors),
                         semaphores=tuple((n, i) for i, n in enumerate(names("sem"))),
                         tensor_sequences=tuple(members.items()),
                         token_lookup="get_token_if_present" in text,
                         scratchpads=tuple(ScratchpadBinding(n, i, SCRATCHPAD_BYTES) for i, n in enumerate(scratch)),
                         pipes=tuple((n, i) for i, n in enumerate(names("pipe"))),
                         compile_time_varargs=len(ARGS) if "get_compile_time_vararg" in text else 0)


def kernel_build(path: Path) -> build.KernelBuild:
    """The build the benchmark gives the data-movement kernel ``path`` (generic arguments, generated
    bindings)."""
    text = path.read_text(errors="replace")
    everything = kernel_text(path)
    bindings = generated_bindings(everything) if KERNEL_ARGS in everything else None
    named = tuple((name, 2) for name in sorted(set(re.findall(r'get_named_compile_time_arg_val\(\s*"(\w+)"',
                                                              everything))))
    return build.KernelBuild(source=path, text=text, display=path.name, compute=False, compile_args=ARGS,
                             named_args=named, defines=DM_DEFINES, bindings=bindings, noc=dm_factories.NOC,
                             arch_defines=(("KERNEL_BUILD", "1"), ("COMPILE_FOR_NCRISC", "1"), ARCH_DEFINE,
                                           ("NUM_DRAM_BANKS", "12"), ("NUM_L1_BANKS", "64")))


def compile_one(path: Path) -> str | None:
    """None when the data-movement kernel compiles, else the first error's reason (``SKIPPED``...
    when the reason lies outside tilecraft: a header the wheel does not ship, an error NOT_BUILDABLE
    names). It compiles as the emulator builds it (the real 0.81.1 dataflow API, tensix_dataflow.py),
    syntax-only; when that fails, it is tried again with what its factory would pass that the
    generic build lacks (``with_factory_inputs``), on a static assertion with the fallback args too,
    with more args where it reads past ARGS, and with a sharded accessor's args where it needs one."""
    kb = kernel_build(path)
    reason = _first_error(kb)
    if reason is not None:
        factory = with_factory_inputs(kb)
        factory_reason = _first_error(factory) if factory != kb else reason
        if factory_reason is None or any(_first_error(attempt) is None for attempt in retries(factory, reason)):
            return None
        reason = factory_reason  # what is left once the factory's defines are given
    header = re.fullmatch(r"[\w./-]+\.h(?:pp)?", reason or "")
    if header and not shipped(header.group(0)):
        return f"{SKIPPED}{header.group(0)} is not in the wheel"
    why = next((why for error, why in NOT_BUILDABLE if reason and error.search(reason)), None)
    return f"{SKIPPED}{why}" if why else reason


#: first errors that say an arg's value is not one the kernel takes: a static assertion, a flag of 2
#: narrowed to a template's bool (no template matches), a size that divides by zero in a constant
_ARG_VALUE_ERROR = re.compile(r"static assertion failed|no matching function for call|must be initialized by a "
                              r"constant expression")


def retries(factory: build.KernelBuild, reason: str) -> list[build.KernelBuild]:
    """The builds tried after ``factory`` (``kb`` with its factory's inputs) when ``kb`` failed for
    ``reason``: on an error about an arg's value (``_ARG_VALUE_ERROR``) the fallback args (the
    factory's args differ from the generic 2s), on a read past ARGS more args, on a sharded accessor's ``PageMapping`` a sharded
    factory's args; each set as the positional args alone, then as the named ones too."""
    arg_sets: list[tuple[int, ...]] = []
    if _ARG_VALUE_ERROR.search(reason):
        arg_sets += [args[:len(ARGS)] for _, args in DM_FALLBACK_ARGS]
    if "Index out of range" in reason:
        arg_sets += [LONG_ARGS, *(args for _, args in DM_FALLBACK_ARGS)]
    if "PageMapping" in reason:
        arg_sets.append(SHARDED_ARGS)
    named = bool(factory.named_args or (factory.bindings and factory.bindings.compile_time))
    return [attempt for args in arg_sets for attempt in (replace(factory, compile_args=args),
                                                          *([with_named_args(factory, args)] if named else []))]


def with_named_args(kb: build.KernelBuild, args: tuple[int, ...]) -> build.KernelBuild:
    """``kb`` with compile-time args ``args`` and its named compile-time args (and Metal 2.0
    ``args::`` constants) taking the same values in turn: a factory's sizes are in both."""
    named = tuple((name, args[i % len(args)]) for i, (name, _) in enumerate(kb.named_args))
    bindings = kb.bindings and replace(kb.bindings, compile_time=tuple(
        (name, args[i % len(args)]) for i, (name, _) in enumerate(kb.bindings.compile_time)))
    return replace(kb, compile_args=args, named_args=named, bindings=bindings)


#: the fallback compile-time args, tried in turn when the generic 2s fail a static assertion:
#: distinct small values (1..31, then again), for kernels that take several CB indices from their
#: args and assert they differ; all ones, for kernels that assert a flag arg is set (128 each: the
#: compute census's count)
FALLBACK_ARGS = (("distinct args", tuple(1 + i % 31 for i in range(128))), ("args of 1", tuple([1] * 128)))
#: the data-movement census's fallbacks add args of 32 and 64, a factory's sizes of one and two tiles
#: (kernels assert a dimension is a multiple of 16, MSDA's head dim D; a slice count is 64 or 128, topk's)
DM_FALLBACK_ARGS = (*FALLBACK_ARGS, ("args of 32", tuple([32] * 128)), ("args of 64", tuple([64] * 128)))
#: the generic args for a kernel that reads past ARGS (sdpa's reader reads ~70): the compute census's count
LONG_ARGS = tuple([2] * 128)
#: the args of a factory whose tensors are sharded, for a kernel that uses a sharded accessor's page
#: mapping (``PageMapping``, which only a sharded ``DistributionSpec`` has): every word 3, so each
#: TensorAccessorArgs reads config Sharded|IsDram, rank 3, 3 banks, tensor and shard shapes of 3
#: pages per dimension and the banks' coordinates (arg_config.hpp, tensor_accessor_args.h)
SHARDED_ARGS = tuple([3] * len(ARGS))
#: how the reason of a kernel the census cannot build for want of something the wheel lacks begins
SKIPPED = "skipped: "
#: every CB a bfloat16 32x32 tile: what the factories' CBs are for the kernels whose code checks a
#: CB's format (``prepare_reduce_scaler`` asserts bfloat16 or float32); the compute census's too
CBS = tuple((i, build.CBInfo(2048, 5)) for i in range(32))


def with_factory_inputs(kb: build.KernelBuild) -> build.KernelBuild:
    """``kb`` with what a data-movement kernel's factory passes beyond the generic build: bfloat16
    CBs and the factory defines of the macros it uses (wheel_compute_variants.factory_defines:
    ``REDUCE_OP``..., its LLK enums qualified), and where the kernel has an entry in
    wheel_dm_factories.py, the args its own factory passes (``with_kernel_factory``)."""
    text = kernel_text(kb.source)
    given = dict(factory_defines(text, DM_FACTORY_DEFINES)) | dict(factory_defines(text))
    defines = tuple((name, _LLK_ENUM.sub(r"ckernel::\1", value)) for name, value in given.items())
    generic = replace(kb, cbs=CBS, defines=(*kb.defines, *defines))
    inputs = dm_factories.factory(kb.source.relative_to(wheel_kernels.operations(wheel_kernels.ensure_kernels()))
                                  .as_posix())
    return generic if inputs is None else with_kernel_factory(generic, inputs)


def with_kernel_factory(kb: build.KernelBuild, inputs: Factory) -> build.KernelBuild:
    """``kb`` with its own factory's inputs (a wheel_dm_factories.py entry): its positional args
    over LONG_ARGS (a factory passes as many as the kernel reads; cut to its ``arg_count``), its named args and
    Metal 2.0 ``args::`` constants, its CB format and its defines (one combination: a
    data-movement kernel is built once)."""
    args = list(LONG_ARGS)
    for index, value in inputs.args:
        args[index] = value
    named = dict(inputs.named)
    bindings = kb.bindings and replace(kb.bindings, compile_time=tuple(
        (name, named.get(name, value)) for name, value in kb.bindings.compile_time))
    cbs = kb.cbs if inputs.cb_format is None else tuple(
        (i, build.CBInfo(tile_bytes(inputs.cb_format), inputs.cb_format)) for i, _ in kb.cbs)
    defines = tuple(define for _, combination in inputs.combinations for define in combination)
    return replace(kb, compile_args=tuple(args[:inputs.arg_count]), bindings=bindings, cbs=cbs,
                   named_args=tuple((name, named.get(name, value)) for name, value in kb.named_args),
                   defines=(*kb.defines, *defines))


#: The defines only data-movement kernels use -> what their factories pass (the names are strings of
#: the wheel's _ttnncpp.so, where the factories are compiled; the values are computed there, so
#: they are written here for the census's bfloat16 32x32 tiles and generic args of 2): binary_ng's
#: and the ternary factory's fill functions of a bfloat16 operand (fill_tile_utils.hpp); the Quasar
#: binary_ng DFB factory's interleaved tensors; the element size of non_zero_indices' input (its
#: factory, shipped: ``input.element_size()``); a
#: tile's element count; the two-pass welford reader's batch; the reduce writer's dimension; the
#: MoE kernels' non-posted multicast; the hybrid expert kernels' union arg bases (the first half's,
#: 0); and the brace lists the CCL and MLA factories generate (device order, core coordinates,
#: chunk widths), one element given and the rest zero as their aggregates allow.
DM_FACTORY_DEFINES: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (r"FILL_TILE_WITH_FIRST_\w+", tuple((f"FILL_TILE_WITH_FIRST_{what}{rm}{side}",
                                        f"fill_tile_with_first_{what.lower()}{rm.lower()}_bfloat16")
                                       for what in ("COLUMN", "ROW", "ELEMENT") for rm in ("", "_RM")
                                       if not (rm and what == "ELEMENT") for side in ("", "_B", "_C"))),
    ("HAS_SHARDING", (("HAS_SHARDING", "0"),)),
    ("NUM_BYTES", (("NUM_BYTES", "2"),)),
    ("TILE_HW_VAL", (("TILE_HW_VAL", "1024"),)),
    ("WELFORD_TWO_PASS_STREAMING_CB_TILES", (("WELFORD_TWO_PASS_STREAMING_CB_TILES", "2"),)),
    ("REDUCE_DIM", (("REDUCE_DIM", "ReduceDim::REDUCE_ROW"),)),
    ("H_MCAST_POSTED", (("H_MCAST_POSTED", "0"),)),
    ("HYB_UNIFIED_CT_BASE", (("HYB_UNIFIED_CT_BASE", "0"), ("HYB_UNIFIED_RT_BASE", "0"))),
    ("DEVICE_ORDER", (("DEVICE_ORDER", "{0}"), ("INPUT_CORE_XY", "{{0, 0}}"), ("SCHEDULE", "{{0, 0, 0}}"),
                      *((f"{head}OUTPUT_CORE_XY", "{{0, 0}}") for head in ("", "Q_", "K_", "V_")))),
    ("CHUNK_TILE_WIDTHS", (("CHUNK_TILE_WIDTHS", "1"), ("CHUNK_TILE_OFFSETS", "0, 1"))),
    ("OUTPUT_SHARD_CORE_MAP", (("OUTPUT_SHARD_CORE_MAP", "{0}"),)),
    ("COLLECTOR_CORE_COORDS", (("COLLECTOR_CORE_COORDS", "{{0, 0}}"),)),
)
#: the LLK enums a factory names in a define: a data-movement kernel has no ``using namespace
#: ckernel``, so the factories pass them qualified (``ckernel::PoolType::SUM``: strings of _ttnncpp.so)
_LLK_ENUM = re.compile(r"(?<!::)\b((?:PoolType|ReduceDim)::)")


@functools.cache
def shipped(header: str) -> bool:
    """Whether a header of this path (its ``../`` steps aside) is anywhere in the wheel's headers or
    kernel sources (``tt_metal/fabric/hw/inc/linear/api.h`` is not, though other ``api.h`` are)."""
    tail = re.sub(r"^(?:\.\./)+", "", header)
    roots = (tensix_tree.machine_tree(CENSUS_ARCH).parent, wheel_kernels.ensure_kernels())
    return any(found.as_posix().endswith(f"/{tail}") for root in roots for found in root.rglob(Path(tail).name))


#: first errors that are the wheel's and not tilecraft's -> the reason the kernel is skipped
NOT_BUILDABLE = (
    (re.compile(r"no member named 'evil_set_write_ptr' in 'CircularBuffer'"),
     "the kernel calls evil_set_write_ptr on a CircularBuffer, which 0.81.1's CircularBuffer lacks (only "
     "DataflowBuffer has it): it does not compile against the wheel's own API"),
    (re.compile(r"READ_RESPONSE_STATIC_VC"),
     "READ_RESPONSE_STATIC_VC is Quasar's (internal/tt-2xx/quasar/noc_nonblocking_api_v1.h); the census builds "
     "Wormhole"),
)


def _first_error(kb: build.KernelBuild) -> str | None:
    """The reason of the first error of ``kb``'s syntax-only compile, or None when it compiles."""
    with tempfile.TemporaryDirectory() as tmp:
        unit = Path(tmp) / "w.cpp"
        unit.write_text(tensix_dataflow.translation_unit(kb))
        arch = kernel_arch(kb)
        command = [*tensix_dataflow.compile_command(kb, Path(tmp), tensix_tree.machine_tree(arch), arch),
                   "-fsyntax-only", "-fmax-errors=1", str(unit)]
        result = compile_host(command)  # g++, or clang where g++ 12 cannot (as the real path builds it)
    if result.returncode == 0:
        return None
    for line in result.stderr.splitlines():
        if "error" in line:
            m = _REASON.search(line)
            if m and m.group("ns") in GENERATED:
                return f"{m.group('ns')}::* (generated binding)"
            if m and m.group("name2") in GENERATED:
                return f"{m.group('name2')}::* (generated binding)"
            if m:
                return (m.group("name") or m.group("name2") or m.group("header")
                        or f"member {m.group('member')}")
            return re.sub(r"^.*?error: ", "", line)[:90]
    return "unknown"


def measure(paths: list[Path], jobs: int = 2) -> list[str | None]:
    """Each data-movement kernel's first-error reason (None: it compiles), in the order of ``paths``."""
    with ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(compile_one, paths))


def failed_in(results: Path) -> set[str]:
    """The kernels an earlier ``--out`` file reports as failing (skips, which lie outside tilecraft,
    left out)."""
    rows = [json.loads(line) for line in results.read_text().splitlines() if line.strip()]
    return {row["kernel"] for row in rows if row["reason"] and not row["reason"].startswith(SKIPPED)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--every", type=int, default=1, help="a sample: every Nth kernel")
    parser.add_argument("--out", type=Path, help="each kernel's result as a JSON line (kernel, reason)")
    parser.add_argument("--only-from", type=Path, metavar="RESULTS",
                        help="only the kernels that failed in an earlier --out (to iterate on the failures)")
    parser.add_argument("--kernels", nargs="+", default=(), help="only these kernels (paths under ttnn/operations)")
    options = parser.parse_args()
    root = wheel_kernels.ensure_kernels()
    paths = data_movement_kernels(root)
    chosen = set(options.kernels) | (failed_in(options.only_from) if options.only_from else set())
    if chosen:
        paths = [p for p in paths if p.relative_to(wheel_kernels.operations(root)).as_posix() in chosen]
    paths = paths[::options.every][:options.limit or None]
    reasons = measure(paths, options.jobs)
    if options.out is not None:
        options.out.write_text("".join(json.dumps({"kernel": p.relative_to(wheel_kernels.operations(root)).as_posix(),
                                                   "reason": r}) + "\n" for p, r in zip(paths, reasons)))
    skipped = [r for r in reasons if r and r.startswith(SKIPPED)]
    print(f"data movement: {sum(r is None for r in reasons)} of {len(reasons)} kernels compile, "
          f"{len(skipped)} skipped (outside tilecraft: the reason follows)")
    for reason, count in collections.Counter(r for r in reasons if r).most_common(30):
        print(f"{count:5d}  {reason}")


if __name__ == "__main__":
    main()
