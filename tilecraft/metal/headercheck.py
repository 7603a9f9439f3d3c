"""Check TT-Metalium kernels against the real tt-metal 0.81.1 kernel headers, without hardware.

A kernel is compiled the way the tt-metal JIT compiles it, but by host ``g++ -fsyntax-only -m32``:
through the firmware wrapper of its processor (``brisck.cc`` / ``ncrisck.cc`` for data movement,
``trisck.cc`` three times for compute), with the files the JIT would generate next to it
(``kernel_includes.hpp``, ``chlkc_{unpack,math,pack}.cpp``, ``chlkc_descriptors.h``,
``defines_generated.h``) and the architecture's include paths and defines. So every API name,
argument count and argument type in the kernel is checked against the headers users compile with.

What is not real (see ``headercheck/README.md``): host g++ 12 instead of the SFPI RISC-V g++,
``-std=c++20`` instead of the device's c++17 with Tenstorrent extensions, a riscv32 type model
forced through ``__INT32_TYPE__``/``__UINT32_TYPE__``, and -- for compute kernels -- a
tilecraft-written, parse-only stand-in for the SFPI layer (``sfpi.h``, ``lltt.h``), which the
wheel does not ship. Code generation, linking and the SFPU implementations are not checked.

CLI: ``python -m tilecraft.metal.headercheck [--arch A] FILE.cpp --kind reader|writer|compute``.
"""

from __future__ import annotations

import argparse
import functools
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Mapping, Sequence

from ..arch.processors import Processor
from .. import wheel_headers
from .jit_build import ARCHES, KIND_ALIASES, SUPPORT_DIR, ArchConfig, compile_commands, normalize_kind
from .jit_generated import DATA_FORMATS, ComputeOptions, descriptors_header, write_generated_files
from ..wheel_headers import HeadersUnavailable

__all__ = [
    "ARCHES", "DATA_FORMATS", "KIND_ALIASES", "SUPPORT_DIR", "ArchConfig", "CheckResult", "ComputeOptions",
    "HeadersUnavailable", "PassResult", "ToolchainUnavailable", "check_file", "check_kernel",
    "compile_commands", "descriptors_header", "guess_kind", "main", "normalize_kind", "toolchain_problem",
]

Kind = Literal["reader", "writer", "compute"]
Arch = Literal["wormhole_b0", "blackhole"]


class ToolchainUnavailable(RuntimeError):
    """Host g++ with 32-bit multilib support is missing (Debian: apt-get install g++-multilib)."""


@dataclass(frozen=True)
class PassResult:
    """One g++ invocation: ``label`` is the processor (``NCRISC``, ``TRISC1 (math)``, ...)."""

    label: str
    ok: bool
    output: str
    command: tuple[str, ...]


@dataclass(frozen=True)
class CheckResult:
    """Outcome of checking one kernel.

    ``diagnostics`` is the compiler's error output with temporary paths shortened (empty when
    ``ok``); ``warnings`` are the warning lines located in the kernel itself (e.g. deprecated API).
    """

    ok: bool
    diagnostics: str
    warnings: tuple[str, ...] = ()
    passes: tuple[PassResult, ...] = field(default=(), repr=False)
    elapsed_s: float = 0.0


@functools.cache
def toolchain_problem(compiler: str = "g++") -> str | None:
    """Why host g++ cannot run the check (``None`` when it can): missing, or no 32-bit multilib."""
    if shutil.which(compiler) is None:
        return f"`{compiler}` not found; on Debian/Ubuntu: apt-get install g++-multilib"
    probe = subprocess.run(
        [compiler, "-m32", "-std=c++20", "-ffreestanding", "-fsyntax-only", "-x", "c++", "-"],
        input="#include <cstdint>\n#include <array>\n#include <cstdlib>\n",
        capture_output=True, text=True,
    )
    if probe.returncode != 0:
        first = (probe.stderr.strip().splitlines() or ["(no output)"])[0]
        return (f"`{compiler} -m32` cannot compile (32-bit multilib missing?): {first}; "
                "on Debian/Ubuntu: apt-get install g++-multilib")
    return None


def require_toolchain(compiler: str = "g++") -> None:
    """Raise ToolchainUnavailable with the reason when ``toolchain_problem`` finds one."""
    problem = toolchain_problem(compiler)
    if problem:
        raise ToolchainUnavailable(problem)


def check_kernel(
    source: str,
    kind: str,
    arch: str = "wormhole_b0",
    compile_time_args: Sequence[int] = (),
    defines: Mapping[str, object] | None = None,
    *,
    name: str = "kernel.cpp",
    named_compile_time_args: Mapping[str, int] | None = None,
    cb_formats: Mapping[int, str] | None = None,
    default_format: str = "Float16_b",
    compute: ComputeOptions = ComputeOptions(),
    noc_index: int | None = None,
    include_dirs: Sequence[Path] = (),
    jobs: int = 2,
    compiler: str = "g++",
    headers_root: Path | None = None,
    workdir: Path | None = None,
) -> CheckResult:
    """Syntax-check one kernel's C++ ``source`` against the tt-metal 0.81.1 headers.

    ``kind`` is ``reader`` (RISCV_1/NCRISC), ``writer`` (RISCV_0/BRISC) or ``compute`` (three
    TRISC passes, ``jobs`` of them at a time). ``compile_time_args`` / ``defines`` are what the host
    passes in the KernelDescriptor. ``name`` is the file name diagnostics refer to. The generated
    files go to a temporary directory, or to ``workdir`` (kept) to rerun the commands by hand.
    Raises ToolchainUnavailable / HeadersUnavailable when the check cannot run at all.
    """
    started = time.perf_counter()
    kind = normalize_kind(kind)
    if arch not in ARCHES:
        raise ValueError(f"unknown arch {arch!r}; expected one of {sorted(ARCHES)}")
    config = ARCHES[arch]
    require_toolchain(compiler)
    root = headers_root or wheel_headers.ensure_headers()
    name = Path(name).name or "kernel.cpp"
    with tempfile.TemporaryDirectory(prefix="tilecraft-headercheck-") as tmp:
        work = Path(tmp) if workdir is None else Path(workdir).resolve()
        work.mkdir(parents=True, exist_ok=True)
        write_generated_files(work, source, name, kind, config, defines or {},
                              cb_formats or {}, default_format, compute)
        commands = compile_commands(kind, config, root, work, compile_time_args,
                                    defines or {}, named_compile_time_args or {}, noc_index,
                                    include_dirs, compiler)
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            runs = list(pool.map(lambda lc: _run_pass(lc[0], lc[1], work, root), commands))
    return _summarize(runs, name, time.perf_counter() - started)


def check_file(path: Path, kind: str | None = None, **kwargs) -> CheckResult:
    """``check_kernel`` on a file; the kind is guessed from the file name when not given, and the
    file's directory is searched for its own quoted includes."""
    path = Path(path)
    kind = kind or guess_kind(path)
    if kind is None:
        raise ValueError(f"cannot tell the kernel kind of {path.name}; pass kind=reader|writer|compute")
    include_dirs = (path.resolve().parent, *kwargs.pop("include_dirs", ()))
    return check_kernel(path.read_text(), kind, name=path.name, include_dirs=include_dirs, **kwargs)


def guess_kind(path: Path) -> str | None:
    stem = path.stem.lower()
    processors = (Processor.COMPUTE, Processor.RISCV_1, Processor.RISCV_0)
    for word, kind in [(p.role, p.role) for p in processors] + [(p.value, p.role) for p in processors]:
        if word in stem:
            return kind
    return None


def _run_pass(label: str, argv: list[str], workdir: Path, root: Path) -> PassResult:
    result = subprocess.run(argv, cwd=workdir, capture_output=True, text=True, timeout=300)
    output = _shorten_paths(result.stderr + result.stdout, workdir, root)
    return PassResult(label, result.returncode == 0, output, tuple(argv))


def _shorten_paths(text: str, workdir: Path, root: Path) -> str:
    text = text.replace(f"{workdir}/", "").replace(f"{root}/", f"<ttnn-{wheel_headers.VERSION}>/")
    text = text.replace(f"{SUPPORT_DIR}/", "<tilecraft-headercheck>/")
    return re.sub(r"(?m)(^|\s)\./", r"\1", text)


# Files of the harness itself (wrappers and generated glue); include chains through them are noise.
_HARNESS_FILES = re.compile(
    r"(?:^|/)(?:chlkc_(?:unpack|math|pack)\.cpp|kernel_includes\.hpp|chlkc_list\.h|"
    r"trisck\.cc|brisck\.cc|ncrisck\.cc):\d+[,:]$")


def _strip_harness_includes(text: str) -> str:
    """Drop the harness files from GCC's "In file included from" chains, so the same kernel error
    reads the same in every TRISC pass (and can be reported once)."""
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        if not lines[i].startswith("In file included from "):
            out.append(lines[i])
            i += 1
            continue
        chain = [lines[i][len("In file included from "):]]
        i += 1
        while i < len(lines) and lines[i].startswith(" ") and lines[i].lstrip().startswith("from "):
            chain.append(lines[i].lstrip()[len("from "):])
            i += 1
        kept = [entry.rstrip(",:") for entry in chain if not _HARNESS_FILES.search(entry)]
        for k, entry in enumerate(kept):
            lead = "In file included from " if k == 0 else " " * 17 + "from "
            out.append(lead + entry + ("," if k < len(kept) - 1 else ":"))
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def _summarize(runs: list[PassResult], name: str, elapsed: float) -> CheckResult:
    ok = all(run.ok for run in runs)
    warning_line = re.compile(rf"^{re.escape(name)}:\d+:\d+: warning: .*$", re.M)
    warnings: list[str] = []
    for run in runs:
        for line in warning_line.findall(run.output):
            if line not in warnings:
                warnings.append(line)
    failed = [(run.label, _strip_harness_includes(run.output).rstrip()) for run in runs if not run.ok]
    if not failed:
        diagnostics = ""
    elif len({output for _, output in failed}) == 1:
        labels = ", ".join(label for label, _ in failed)
        diagnostics = f"[{labels}]\n{failed[0][1]}\n"
    else:
        diagnostics = "".join(f"[{label}]\n{output}\n" for label, output in failed)
    return CheckResult(ok, diagnostics, tuple(warnings), tuple(runs), elapsed)


# --- CLI ---------------------------------------------------------------------------------------


def _parse_define(text: str) -> tuple[str, str]:
    key, _, value = text.partition("=")
    return key, value or "1"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tilecraft.metal.headercheck",
        description=f"Syntax-check a TT-Metalium kernel against the tt-metal {wheel_headers.VERSION} "
                    "headers (ttnn wheel) with host g++ -m32; no hardware needed. "
                    "Exit status: 0 OK, 1 compiler errors, 2 the check could not run.")
    parser.add_argument("file", type=Path, nargs="?", help="kernel .cpp file")
    parser.add_argument("--kind", choices=sorted(KIND_ALIASES),
                        help="processor: reader (RISCV_1), writer (RISCV_0) or compute; "
                             "guessed from the file name when omitted")
    parser.add_argument("--arch", choices=sorted(ARCHES), default="wormhole_b0")
    parser.add_argument("--ct-args", default="", help="compile-time args, comma separated, e.g. 2,2048")
    parser.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                        help="kernel define (KernelDescriptor.defines); repeatable")
    parser.add_argument("--show-commands", action="store_true", help="print the g++ command lines")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="write the generated files to DIR and keep them (to rerun the commands)")
    parser.add_argument("--fetch", action="store_true",
                        help="only download/unpack the wheel headers (idempotent) and print where")
    args = parser.parse_args(argv)
    try:
        if args.fetch:
            started = time.perf_counter()
            root = wheel_headers.ensure_headers()
            print(f"{root} (ttnn {wheel_headers.VERSION}, sfpi {wheel_headers.sfpi_version(root)}; "
                  f"{time.perf_counter() - started:.1f} s)")
            return 0
        if args.file is None:
            parser.error("a kernel FILE is required (or --fetch)")
        ct_args = [int(v, 0) for v in args.ct_args.split(",") if v.strip()]
        result = check_file(args.file, args.kind, arch=args.arch, compile_time_args=ct_args,
                            defines=dict(_parse_define(d) for d in args.defines), workdir=args.keep)
    except (ToolchainUnavailable, HeadersUnavailable, ValueError, OSError) as error:
        print(f"headercheck: cannot check: {error}", file=sys.stderr)
        return 2
    if args.show_commands:
        for run in result.passes:
            print(f"[{run.label}] (cd {args.keep or '<temporary dir>'} && {shlex.join(run.command)})")
    for line in result.warnings:
        print(line)
    if result.ok:
        print(f"OK {args.file} ({', '.join(r.label for r in result.passes)}; {args.arch}; "
              f"{result.elapsed_s:.1f} s)")
        return 0
    print(result.diagnostics, end="")
    print(f"FAILED {args.file} ({args.arch})")
    return 1


if __name__ == "__main__":
    sys.exit(main())
