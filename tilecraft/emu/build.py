"""Building the emulator: its runtime library once, and what every kernel build shares.

A kernel compiles like the tt-metal JIT compiles it for a device, against the machine include tree
(the wheel's own headers): a compute kernel once per TRISC (tensix_compute.py), a data-movement
kernel once for its RISC (tensix_dataflow.py). :class:`KernelBuild` is everything that decides a
kernel's object code: the source, the compile-time and named args, the defines, every CB's tile
format, the compute configuration, the Metal 2.0 bindings. Objects are cached by the hash of
everything that goes into them (cache.py); the kernels of a program compile in parallel
(:func:`compile_all`).
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from . import cache, cache_budget, wheel_kernels
from ..diagnostics import Diagnostic
from .bindings import NamedBindings
from .compile_errors import deprecation_warnings
from .toolchain import compiler

PACKAGE = Path(__file__).resolve().parent
INCLUDE = PACKAGE / "include"
RUNTIME = PACKAGE / "runtime"
#: the launch record the runtime's NIU model shares with data-movement kernels (noc_niu.cpp includes it)
DATAFLOW_LAUNCH = PACKAGE / "tensix" / "kernel_include" / "tc_dataflow_launch.h"
COMPILE_LOG = "compile.log"
COMPILE_SECONDS = "compile_seconds"  # how long the compiler took for the entry
#: the runtime library's flags (built once: worth -O3's longer compile)
FLAGS = ("-std=c++20", "-O3", "-fPIC", "-shared", "-ffp-contract=off", "-fno-gnu-unique", "-fno-diagnostics-color",
         "-fmax-errors=10")


@functools.cache
def headers_version() -> str:
    """A hash of the runtime's sources and the headers it includes (include/, and the machine's
    kernel-side launch header that noc_niu.cpp shares with the data-movement kernels)."""
    files = sorted([*INCLUDE.rglob("*.h"), *INCLUDE.rglob("*.hpp"), *RUNTIME.glob("*.cpp"), *RUNTIME.glob("*.h"),
                    DATAFLOW_LAUNCH])
    return cache.digest(*(f.relative_to(PACKAGE).as_posix() + "\0" + f.read_text() for f in files))


def runtime_library() -> Path:
    """libtcemu.so: scheduler, memories, NoC, the compute checks (built once per source version)."""
    cc = compiler()
    key = cache.digest("runtime", headers_version(), cc.version, *FLAGS)

    def make(directory: Path) -> Path:
        out = directory / cache.OBJECT
        sources = sorted(str(p) for p in RUNTIME.glob("*.cpp"))
        result = subprocess.run([*cc.command(), *FLAGS, "-I", str(INCLUDE), "-I", str(RUNTIME), *sources,
                                 "-o", str(out), "-ldl"], capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"building the emulator runtime failed (a tilecraft bug):\n{result.stderr}")
        return out

    return cache.build("runtime", key, make)[0]


@dataclass(frozen=True)
class CBInfo:
    """What a kernel may ask about a CB at compile time (get_tile_size, get_dataformat)."""

    tile_bytes: int
    format: int
    rows: int = 32
    cols: int = 32


@dataclass(frozen=True)
class KernelBuild:
    """Everything that decides a kernel's object code."""

    source: Path
    text: str
    display: str  # how diagnostics name the kernel file
    compute: bool
    compile_args: tuple[int, ...] = ()
    named_args: tuple[tuple[str, int], ...] = ()
    defines: tuple[tuple[str, str], ...] = ()
    noc: int = 0
    cbs: tuple[tuple[int, CBInfo], ...] = ()
    fp32_dest_acc: bool = False
    math_fidelity: int = 4
    approx: bool = False
    dst_full_sync: bool = False
    unpack_to_dest_fp32: tuple[bool, ...] = ()
    bfp8_pack_precise: bool = False
    bindings: NamedBindings | None = None  # Metal 2.0 args::/dfb::/tensor:: constants (bindings.py)
    arch_defines: tuple[tuple[str, str], ...] = ()
    #: the host's extra include directories (KernelDescriptor.compiler_include_paths in tt-metal),
    #: searched after the kernel's own directory
    include_paths: tuple[Path, ...] = ()

    def compile_time_arg_defines(self) -> list[tuple[str, str]]:
        """The macros through which the JIT passes a kernel its compile-time args (positional and
        named), as 32-bit words; the Tensix machine's compute and data-movement builds define them."""
        defines = [("KERNEL_COMPILE_TIME_ARGS", ", ".join(str(int(a) & 0xFFFFFFFF) for a in self.compile_args))]
        if self.named_args:
            pairs = ", ".join(f'{{"{name}", {int(value) & 0xFFFFFFFF}u}}' for name, value in self.named_args)
            defines.append(("KERNEL_COMPILE_TIME_ARG_MAP", pairs))
        return defines

    def key(self) -> str:
        """What of the kernel decides its objects: every field, the kernel's text and the texts of
        the files it includes from its own directory and its include roots (each build adds its
        compiler, flags and include tree to it)."""
        return cache.digest("kernel", repr(replace(self, display="")),  # how diagnostics name it: no part of the code
                            *_local_includes(self.source, self.text, self.include_roots()))

    def include_roots(self) -> tuple[Path, ...]:
        """Where the kernel's quoted includes are found after its own directory: the host's
        include paths, then ttnn's roots."""
        return (*self.include_paths, *ttnn_include_roots(self.source))


def ttnn_include_roots(source: Path) -> tuple[Path, ...]:
    """The include roots the JIT build gives a kernel of a ttnn tree (TT_METAL_HOME, ``ttnn`` and
    ``ttnn/cpp``, wheel_kernels.include_roots): ttnn's kernels include ``ttnn/operations/...``,
    ``cpp/ttnn/...`` and ``ttnn/cpp/ttnn/...`` from there. Empty for a kernel outside such a tree."""
    for ancestor in source.resolve().parents:
        if (ancestor / "ttnn" / "cpp" / "ttnn").is_dir():
            return wheel_kernels.include_roots(ancestor)
    return ()


def _local_includes(source: Path, text: str, roots: tuple[Path, ...] = (),
                    seen: set[Path] | None = None) -> list[str]:
    """Texts of the files the kernel includes with quotes from its own directory or from
    ``roots`` (recursively)."""
    seen = seen if seen is not None else set()
    found: list[str] = []
    for name in re.findall(r'^\s*#\s*include\s*"([^"]+)"', text, re.M):
        candidates = [(base / name).resolve() for base in (source.parent, *roots)]
        path = next((c for c in candidates if c.is_file()), None)
        if path is None or path in seen:
            continue
        seen.add(path)
        body = path.read_text(errors="replace")
        found += [str(path), body, *_local_includes(path, body, roots, seen)]
    return found


def compile_warnings(obj: Path, build: KernelBuild) -> list[Diagnostic]:
    """The kernel's uses of deprecated API names, from the compile log kept beside its object."""
    try:
        log = (obj.parent / COMPILE_LOG).read_text()
    except OSError:
        return []
    return deprecation_warnings(log, build.source, build.display)


def compile_seconds(obj: Path) -> float:
    """How long g++ took to build the cache entry holding ``obj`` (0 when unknown)."""
    try:
        return float((obj.parent / COMPILE_SECONDS).read_text())
    except (OSError, ValueError):
        return 0.0


def compile_all(builds: list[KernelBuild], compute: Callable[[KernelBuild], tuple[Path, bool]],
                dataflow: Callable[[KernelBuild], tuple[Path, bool]]) -> list[tuple[Path, bool]]:
    """Compile distinct kernels in parallel; results in the order of ``builds``. ``compute`` builds
    the compute kernels (the Tensix machine's: tensix_compute.py), ``dataflow`` the data-movement
    ones (the real dataflow API's: tensix_dataflow.py)."""
    unique = list(dict.fromkeys(builds))
    workers = max(1, min(len(unique), os.cpu_count() or 1))

    def one(build: KernelBuild) -> tuple[Path, bool]:
        return compute(build) if build.compute else dataflow(build)

    with ThreadPoolExecutor(max_workers=workers) as pool:
        done = dict(zip(unique, pool.map(one, unique)))
    return [done[b] for b in builds]


def source_file(text: str, name: str) -> Path:
    """A file for a kernel given as source text (SOURCE_CODE), content-addressed in the cache."""
    directory = cache.emu_cache() / "sources"
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{cache.digest(text)[:16]}_{re.sub(r'[^A-Za-z0-9_.]', '_', name)}.cpp"
    if not cache_budget.mark_used(path) or path.read_text() != text:
        with tempfile.NamedTemporaryFile("w", dir=directory, delete=False, suffix=".tmp") as tmp:
            tmp.write(text)
        os.replace(tmp.name, path)
    return path
