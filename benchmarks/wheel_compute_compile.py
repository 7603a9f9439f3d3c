"""How many of ttnn 0.81.1's compute kernels compile on the Tensix machine, and why the others do not.

Each compute kernel of the wheel (a kernel source that includes ``api/compute/...``; found as
wheel_kernels_compile.py finds them) is built as tt-metal's JIT builds it for the device, through
the machine's build (tilecraft/emu/tensix_compute.py): three TRISC compiles (UNPACK, MATH, PACK)
against the wheel's real compute API and LLK over the machine include tree (tensix_tree.py), with
the generated ``chlkc_descriptors.h`` and ``defines_generated.h``. The compiles are syntax-only
(``-fsyntax-only``: templates are instantiated, nothing is generated or linked), so a symbol the
machine declares but does not define is not caught here; the runs of tests/emu are what link. A
kernel that compiled is remembered by content (check_kernel's cache), so a rerun is cheap.

Arguments: every kernel gets 128 compile-time args of value 2 (the data-movement count's 64 are
too few for some compute kernels);
when that fails a static assertion (the factory's args differ: two CB indices taken from args
that must differ, a flag that must be set), the build is retried with distinct small values, then
with ones (``FALLBACK_ARGS``; the variant's name says which compiled). Named compile-time args
(``get_named_compile_time_arg_val("x")``) are generated from the names the kernel reads, each 2. The
defines are those its op's program factory passes (wheel_compute_variants.py; the factories are
not in the wheel, their define maps are transcribed there with their source), one build per
combination; a kernel compiles when every combination does. Where a kernel's own factory passes
something else (its define combinations, fp32 DEST, CB formats, args its assertions require, the
architecture, an include path), wheel_compute_factories.py says what and from where, and the build
takes it; a static assertion retry also gives named CB args distinct indices. A Metal 2.0 kernel
gets the bindings generated from the names it uses (wheel_kernels_compile.generated_bindings); a
``TT_KERNEL`` entry gets the ``kernel_main()`` the JIT generates, as every build of it does
(tilecraft/emu/tt_kernel_entry.py). A kernel the census cannot build for want of a JIT input the
wheel lacks (a header it does not ship) is skipped with the reason.

Each failure's first error is clustered by its root cause (``cluster``): where the error is (the
kernel, ttnn's kernel_lib, the compute API, the LLK, our SFPI or machine layer) and what it is (a
missing header, an undeclared name, an unknown instruction, ...). The per-kernel result goes to
``out/wheel_compute_compile/results.json`` (not committed), the summary to stdout.

    python -m benchmarks.wheel_compute_compile [--jobs N] [--limit N] [--match TEXT] [--only-failed FILE]
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import re
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from benchmarks import wheel_compute_variants as variants
from benchmarks.wheel_compute_factories import Factory, factory, tile_bytes
from benchmarks.wheel_compute_variants import Defines
from benchmarks import wheel_kernels_compile as corpus
from benchmarks.wheel_kernels_compile import kernel_text
from tilecraft.emu import tensix_compute, wheel_kernels
from tilecraft.emu.build import CBInfo, KernelBuild
from tilecraft.emu.tensix_build import CLANG_NOTE, TensixBuildError
from tilecraft.emu.toolchain import compiler
from tilecraft.metal.jit_build import ARCHES

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "out" / "wheel_compute_compile"
#: the JIT's Wormhole B0 defines (bank counts of an n150) and the DRAM alignment the emulator passes
ARCH_DEFINES = (("ARCH_WORMHOLE", "1"), ("KERNEL_BUILD", "1"),
                *(tuple(d.split("=", 1)) for d in ARCHES["wormhole_b0"].bank_defines), ("DRAM_ALIGNMENT", "32"))
#: Blackhole's (a p150's banks), for the kernels of Blackhole-only ops (wheel_compute_factories.py)
BLACKHOLE_DEFINES = (("ARCH_BLACKHOLE", "1"), ("KERNEL_BUILD", "1"),
                     *(tuple(d.split("=", 1)) for d in ARCHES["blackhole"].bank_defines), ("DRAM_ALIGNMENT", "64"))
#: every CB a bf16 32x32 tile (the format tables need one; a kernel's own formats are the factory's)
CBS = corpus.CBS
MAX_JOBS = 2  # the census shares a 2-core machine


@dataclass(frozen=True)
class Result:
    """One build of one kernel: its define combination, and the first error's cluster and text."""

    kernel: str
    variant: str
    ok: bool
    cluster: str = ""
    error: str = ""
    seconds: float = 0.0


def compute_kernels(root: Path) -> list[Path]:
    """The wheel's compute kernel sources, in path order."""
    return [p for p in corpus.kernels(root) if corpus.is_compute_kernel(p)]


FALLBACK_ARGS = corpus.FALLBACK_ARGS
#: the generic compile-time args: 128 of 2 (ring_joint_sdpa.cpp reads past the data-movement count's 64)
ARGS = tuple([2] * 128)
def named_args(text: str) -> tuple[tuple[str, int], ...]:
    """The named compile-time args a kernel reads, each 2: the JIT's ``KERNEL_COMPILE_TIME_ARG_MAP``
    from the host's names, which the wheel does not ship. A name is read directly
    (``get_named_compile_time_arg_val("x")``) or through a table of names the kernel loops over
    (``{"cb_a", "cb_b"}``), so every identifier-like string in a brace list counts too (a name
    the kernel never reads is harmless in the map)."""
    direct = re.findall(r'get_named_compile_time_arg_val\(\s*"(\w+)"', text)
    tables = re.findall(r'\{((?:\s*"[A-Za-z_]\w*"\s*,?)+)\s*\}', text)
    listed = [name for table in tables for name in re.findall(r'"(\w+)"', table)]
    names = sorted(set(direct + listed)) if "get_named_compile_time_arg_val" in text else []
    return tuple((name, arg_value(name)) for name in names)


#: a named arg that is a tile dimension is 32 (kernels assert it equals TILE_WIDTH/TILE_HEIGHT)
_TILE_DIM = re.compile(r"(?:^|_)tile_(?:width|height|w|h)$")


#: a named arg that is a CB's (or dataflow buffer's) index: cb_in0, in0_cb, out_cb_id, dfb_out...
_CB_NAME = re.compile(r"(?:^|_)(?:cb|dfb)(?:_|$)")


def distinct_cb_ids(text: str) -> tuple[tuple[str, int], ...]:
    """Each named compile-time arg of ``text`` that names a CB, with an index of its own (in name
    order, from 0): what a factory passes, which allocates one CB per name (kernel_lib asserts,
    for one, that a tilize's input and output CBs differ)."""
    names = [name for name, _ in named_args(text) if _CB_NAME.search(name)]
    return tuple((name, i % len(CBS)) for i, name in enumerate(names))


def arg_value(name: str) -> int:
    """The value a generated named compile-time arg gets: 32 for a tile dimension, else 2."""
    return 32 if _TILE_DIM.search(name) else 2


def kernel_build(path: Path, defines: Defines, args: tuple[int, ...] = ARGS, inputs: Factory | None = None
                 ) -> KernelBuild:
    """The census's build of the kernel at ``path``: the generic inputs, with its factory's
    (``inputs``, wheel_compute_factories.py) where the factory's differ."""
    text = path.read_text(errors="replace")
    full = kernel_text(path)
    named = dict(inputs.named) if inputs is not None else {}
    bindings = corpus.generated_bindings(full) if corpus.KERNEL_ARGS in text else None
    if bindings is not None:
        bindings = replace(bindings, compile_time=tuple((n, named.get(n, arg_value(n))) for n, _ in bindings.compile_time))
    build = KernelBuild(source=path, text=text, display=path.name, compute=True, compile_args=args,
                        named_args=tuple((n, named.get(n, v)) for n, v in named_args(full)), defines=defines,
                        cbs=CBS, bindings=bindings, arch_defines=ARCH_DEFINES)
    return build if inputs is None else with_factory(build, inputs)


def with_factory(build: KernelBuild, inputs: Factory) -> KernelBuild:
    """``build`` with its factory's compute config, CB format, positional args and architecture."""
    args = list(build.compile_args)
    for index, value in inputs.args:
        args[index] = value
    cbs = build.cbs if inputs.cb_format is None else tuple(
        (i, CBInfo(tile_bytes(inputs.cb_format), inputs.cb_format)) for i, _ in build.cbs)
    operations = wheel_kernels.operations(wheel_kernels.ensure_kernels())
    return replace(build, compile_args=tuple(args), fp32_dest_acc=inputs.fp32_dest_acc, cbs=cbs,
                   arch_defines=BLACKHOLE_DEFINES if inputs.arch == "blackhole" else ARCH_DEFINES,
                   include_paths=(*build.include_paths, *(operations / d for d in inputs.include_dirs)))


#: where an error is, by its file's path (first match wins)
_PLACES = (("/tensix/sfpi/", "our SFPI"), ("/tensix/kernel_include/", "our kernel layer"),
           ("/kernel_lib/", "ttnn kernel_lib"), ("/ttnn/operations/", "ttnn op"),
           ("/llk_api/", "llk_api"), ("/llk_io/", "llk_io"), ("/tt-llk/", "LLK"), ("/api/compute/", "compute API"),
           ("/api/", "kernel API"), ("/hw/", "firmware headers"))
_GXX_MAJOR = re.search(r"(\d+)\.\d+", compiler().version).group(1)  # type: ignore[union-attr]
_NAME = re.compile(r"'(?:[\w:]*::)?([\w]+)' (?:was not declared|has not been declared|is not a member of '([\w:]+)'"
                   r"|does not name a type|is not a type|is not a template)")


def cluster(error: str, kernel: Path) -> str:
    """The root-cause class of a first compiler error line (``file:line:col: error: text``)."""
    header = re.search(r"fatal error: ([\w./+-]+): No such file", error)
    if header:
        return f"missing header {header.group(1)}"
    if "internal compiler error" in error:
        return f"g++ {_GXX_MAJOR} internal compiler error ({re.sub(r'^.*internal compiler error: ', '', error)})"
    file = error.split(":", 1)[0]
    place = "the kernel" if Path(file).resolve() == kernel.resolve() else next(
        (label for key, label in _PLACES if key in file), "elsewhere")
    text = re.sub(r"^.*?error: ", "", error)
    namespace = re.search(r"'(\w+)' is not a member of '(args|dfb|tensor|sem|scratch)'", text)
    if namespace:
        return f"{place}: generated binding {namespace.group(2)}:: missing"
    if "__builtin_rvtt" in text or "sfpi::" in text and "not a member" in text:
        return f"{place}: SFPI builtin/name unknown to our sfpi: {_short(text)}"
    if re.search(r"TT_OP_\w+|TTI_\w+|TT_\w+' was not declared", text):
        return f"{place}: instruction macro unknown: {_short(text)}"
    name = _NAME.search(text)
    if name:
        return f"{place}: undeclared {name.group(1)}"
    return f"{place}: {_short(text)}"


def _short(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"'[^']{40,}'", "'...'", text))[:110]


def relative(path: Path) -> str:
    """The kernel's path under ``ttnn/operations`` (how results and variants name it)."""
    return path.relative_to(wheel_kernels.operations(wheel_kernels.ensure_kernels())).as_posix()


def compute_api() -> Path:
    """The machine tree's compute API headers (what the variants check op names against)."""
    return tensix_compute.tensix_tree.machine_tree("wormhole") / "hw" / "inc" / "api" / "compute"  # ARCH_DEFINES


def build_one(path: Path, name: str, defines: Defines) -> Result:
    started = time.monotonic()
    kernel = relative(path)
    inputs = factory(kernel)
    first, how = _first_error(path, defines, ARGS, inputs)
    if first is not None and "static assertion failed" in first:
        # a static assertion on the generic args' values: the factory's args differ; retry others,
        # each also with the named CB ids distinct (a factory gives each CB its own index)
        distinct = replace(inputs or Factory("generic"),
                           named=(*distinct_cb_ids(kernel_text(path)), *(inputs.named if inputs else ())))
        for label, args in FALLBACK_ARGS:
            for cbs, tried in (("", inputs), (", distinct CB ids", distinct)):
                error, how = _first_error(path, defines, args, tried)
                if error is None:
                    return Result(kernel, f"{name}, {label}{cbs}{how}", True, seconds=time.monotonic() - started)
    if first is not None:
        return Result(kernel, name, False, _skipped_header(cluster(first, path)), first, time.monotonic() - started)
    return Result(kernel, name + how, True, seconds=time.monotonic() - started)


def _skipped_header(reason: str) -> str:
    """A missing header the wheel does not ship is a skip with that reason, else ``reason``."""
    header = reason.removeprefix("missing header ")
    missing = header != reason and not corpus.shipped(header)
    return f"{corpus.SKIPPED}{header} is not in the wheel" if missing else reason


def _first_error(path: Path, defines: Defines, args: tuple[int, ...], inputs: Factory | None = None
                 ) -> tuple[str | None, str]:
    """The first compiler error of the kernel's three TRISC compiles (None when they compile), and
    ``", clang"`` when clang compiled one of them (g++ could not: tensix_build.compile_host)."""
    try:
        marker = tensix_compute.check_kernel(kernel_build(path, defines, args, inputs))
    except TensixBuildError as failure:
        crash = re.search(r"^.*internal compiler error:.*$", failure.diagnostic.hint or "", re.M)
        return (crash.group(0) if crash else failure.diagnostic.message.split(
            "does not compile for tilecraft's Tensix machine: ", 1)[-1]), ""
    return None, ", clang" if CLANG_NOTE in marker else ""


def kernel_variants(path: Path, api: Path, per_family: bool = False) -> tuple[variants.Variant, ...]:
    """The define combinations the kernel is built with: its factory's own combinations
    (wheel_compute_factories.py), each completed by the trigger defines of the macros it leaves
    out, else the variants wheel_compute_variants.py derives."""
    kernel = relative(path)
    inputs = factory(kernel)
    if inputs is None or not inputs.combinations:
        return variants.variants(kernel, api, per_family, kernel_text(path))
    triggered = variants.factory_defines(kernel_text(path))
    return tuple((f"factory: {name}", (*defines, *((n, v) for n, v in triggered
                                                  if n.split("(", 1)[0] not in dict(defines))))
                 for name, defines in inputs.combinations)


def measure(paths: list[Path], jobs: int = MAX_JOBS, log: Path | None = None, per_family: bool = False
            ) -> list[Result]:
    """Every define combination of every kernel in ``paths``, built on ``jobs`` workers (at most 2);
    with ``log``, each result is appended to it as one JSON line as it comes (a long run's partial
    census) and progress goes to stderr."""
    api = compute_api()
    todo = [(p, name, defines) for p in paths for name, defines in kernel_variants(p, api, per_family)]
    done: list[Result] = []

    def one(job: tuple[Path, str, Defines]) -> Result:
        result = build_one(*job)
        done.append(result)
        if log is not None:
            with log.open("a") as out:
                out.write(json.dumps(asdict(result)) + "\n")
            if len(done) % 10 == 0:
                print(f"  {len(done)} of {len(todo)} builds, {sum(r.ok for r in done)} compile", file=sys.stderr,
                      flush=True)
        return result

    with ThreadPoolExecutor(min(jobs, MAX_JOBS)) as pool:
        return list(pool.map(one, todo))


def summary(results: list[Result]) -> tuple[int, int, collections.Counter[str]]:
    """(kernels compiled in every combination, kernels, failing kernels per first cluster)."""
    per_kernel: dict[str, list[Result]] = collections.defaultdict(list)
    for result in results:
        per_kernel[result.kernel].append(result)
    clusters = collections.Counter(next(r.cluster for r in rs if not r.ok)
                                   for rs in per_kernel.values() if not all(r.ok for r in rs))
    return sum(all(r.ok for r in rs) for rs in per_kernel.values()), len(per_kernel), clusters


def failed_kernels(results: Path) -> set[str]:
    """The kernels with a build that did not compile in an earlier run's ``results`` (the census's
    results.json, or its .jsonl log of a partial run): a rerun of the failures only."""
    text = results.read_text()
    rows = json.loads(text) if results.suffix == ".json" else [json.loads(line) for line in text.splitlines() if line]
    return {row["kernel"] for row in rows if not row["ok"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.wheel_compute_compile",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=MAX_JOBS, help="parallel kernels (at most 2)")
    parser.add_argument("--limit", type=int, default=0, help="only the first N kernels")
    parser.add_argument("--match", action="append", default=[],
                        help="only kernels whose path contains this text (repeated: any of them)")
    parser.add_argument("--per-family", action="store_true",
                        help="the unary SFPU kernel once per SFPU_OP_*_INCLUDE family (44 builds) instead of once")
    parser.add_argument("--shuffle", action="store_true",
                        help="build in a fixed random order (a partial run is then a sample of the corpus)")
    parser.add_argument("--only-failed", type=Path, metavar="FILE",
                        help="only the kernels that did not compile in an earlier run's results (.json or .jsonl)")
    parser.add_argument("--out", type=Path, default=OUT / "results.json")
    args = parser.parse_args(argv)
    paths = [p for p in compute_kernels(wheel_kernels.ensure_kernels())
             if not args.match or any(text in p.as_posix() for text in args.match)]
    if args.only_failed is not None:
        failed = failed_kernels(args.only_failed)
        paths = [p for p in paths if relative(p) in failed]
    paths = paths[:args.limit or None]
    if args.shuffle:
        random.Random(21).shuffle(paths)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    log = args.out.with_suffix(".jsonl")
    log.write_text("")
    results = measure(paths, args.jobs, log, args.per_family)
    args.out.write_text(json.dumps([asdict(r) for r in results], indent=1))
    compiled, total, clusters = summary(results)
    skipped = sum(count for reason, count in clusters.items() if reason.startswith(corpus.SKIPPED))
    print(f"compute: {compiled} of {total} kernels compile on the Tensix machine, {skipped} skipped (outside "
          f"tilecraft: the reason follows) ({sum(r.ok for r in results)} of {len(results)} define combinations; "
          f"{sum(r.ok and r.variant.endswith(', clang') for r in results)} compiled by clang); results in {args.out}")
    for reason, count in clusters.most_common():
        print(f"{count:5d}  {reason}")
    left_out = variants.skipped_ops(compute_api())
    if left_out:
        print(f"unary ops left out (not declared by 0.81.1's compute API): {', '.join(left_out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
