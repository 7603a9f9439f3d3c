"""Building the emulator: its runtime library once, and every kernel into a shared object.

A kernel compiles like the tt-metal JIT compiles it for a device, with our headers in place of the
device's: a generated ``tc_generated.h`` (the JIT's ``chlkc_descriptors.h`` and
``defines_generated.h``: compile-time args, named args, the host's defines, every CB's tile
format, the compute configuration) is included first, then the kernel file, then a one-line
entry point. Flags: ``-std=c++20 -O2 -fPIC -shared -ffp-contract=off`` (no fused multiply-add, so
float results are IEEE and the same on every host). Objects are cached by the hash of everything
that goes into them (cache.py); the kernels of a program compile in parallel.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from . import cache, cache_budget, chlkc, tt_kernel_entry, wheel_kernels
from ..diagnostics import Diagnostic
from .bindings import NamedBindings
from .compile_errors import compile_failure, deprecation_warnings
from .toolchain import compiler

PACKAGE = Path(__file__).resolve().parent
INCLUDE = PACKAGE / "include"
RUNTIME = PACKAGE / "runtime"
COMPILE_LOG = "compile.log"
COMPILE_SECONDS = "compile_seconds"  # how long g++ took for the entry
#: messages in plain ASCII (a UTF-8 locale makes g++ quote names with curly quotes)
COMPILER_ENV = {**os.environ, "LC_ALL": "C", "LANG": "C"}
#: -fno-gnu-unique lets dlclose unload a kernel (inline statics would otherwise pin it)
FLAGS = ("-std=c++20", "-O2", "-fPIC", "-shared", "-ffp-contract=off", "-fno-gnu-unique", "-fno-diagnostics-color",
         "-fmax-errors=10")


#: What the 0.81.1 firmware source of a TRISC includes ahead of a compute kernel (the JIT build
#: compiles the kernel inside it): trisck.cc includes internal/firmware_common.h (no dataflow API on
#: a TRISC), api/compile_time_args.h and, through chlkc_list.h, ckernel.h with
#: `using namespace ckernel;` before the kernel (kernel_profiler.hpp only after it). A compute kernel
#: may therefore call DPRINT or get_compile_time_arg_val without an #include; the compute API itself
#: must be included. (Data-movement kernels are built by tensix_dataflow.py against the real headers.)
COMPUTE_IMPLICIT = ("api/compute/common_globals.h", "api/debug/dprint.h", "api/compile_time_args.h", "ckernel.h")


@functools.cache
def headers_version() -> str:
    """A hash of the emulator's headers and runtime sources: part of every cache key."""
    files = sorted([*INCLUDE.rglob("*.h"), *INCLUDE.rglob("*.hpp"), *RUNTIME.glob("*.cpp"), *RUNTIME.glob("*.h")])
    return cache.digest(*(f.relative_to(PACKAGE).as_posix() + "\0" + f.read_text() for f in files))


def runtime_library() -> Path:
    """libtcemu.so: scheduler, memories, NoC, compute engine (built once per source version)."""
    cc = compiler()
    key = cache.digest("runtime", headers_version(), cc.version, *FLAGS, "-O3")

    def make(directory: Path) -> Path:
        out = directory / cache.OBJECT
        sources = sorted(str(p) for p in RUNTIME.glob("*.cpp"))
        flags = [f if f != "-O2" else "-O3" for f in FLAGS]  # built once: worth the longer compile
        result = subprocess.run([*cc.command(), *flags, "-I", str(INCLUDE), "-I", str(RUNTIME), *sources,
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
    opt_level: str = "-O2"
    #: the host's extra include directories (KernelDescriptor.compiler_include_paths in tt-metal),
    #: searched after the kernel's own directory
    include_paths: tuple[Path, ...] = ()
    extra: tuple[str, ...] = field(default=())

    def compile_time_arg_defines(self) -> list[tuple[str, str]]:
        """The macros through which the JIT passes a kernel its compile-time args (positional and
        named), as 32-bit words; every build of a kernel (this emulator's, the Tensix machine's
        compute and data-movement builds) defines them."""
        defines = [("KERNEL_COMPILE_TIME_ARGS", ", ".join(str(int(a) & 0xFFFFFFFF) for a in self.compile_args))]
        if self.named_args:
            pairs = ", ".join(f'{{"{name}", {int(value) & 0xFFFFFFFF}u}}' for name, value in self.named_args)
            defines.append(("KERNEL_COMPILE_TIME_ARG_MAP", pairs))
        return defines

    def generated_header(self) -> str:
        """tc_generated.h: the constants the JIT generates beside a kernel."""
        lines = ["// Generated by tilecraft's kernel emulator for one kernel build.", "#pragma once"]
        for name, value in self.arch_defines:
            lines.append(f"#define {name} {value}")
        lines.append(f"#define NOC_INDEX {self.noc}")
        lines.extend(f"#define {name} {value}" for name, value in self.compile_time_arg_defines())
        table = dict(self.cbs)
        for macro, attr, default in (("TC_CB_TILE_BYTES", "tile_bytes", 0), ("TC_CB_FORMAT", "format", 255),
                                     ("TC_CB_TILE_ROWS", "rows", 32), ("TC_CB_TILE_COLS", "cols", 32)):
            values = [getattr(table[i], attr) if i in table else default for i in range(64)]
            lines.append(f"#define {macro} {{{', '.join(map(str, values))}}}")
        if self.compute:
            # the JIT compiles a compute kernel once per TRISC with its UCK_CHLKC_* define; the emulated
            # compute program is all three
            lines += [f"#define UCK_CHLKC_{trisc} 1" for trisc in ("UNPACK", "MATH", "PACK")]
            lines.append(f"#define TC_DST_ACCUM_MODE {'true' if self.fp32_dest_acc else 'false'}")
            lines.append(f"#define TC_MATH_FIDELITY {self.math_fidelity}")
            lines.append(f"#define TC_APPROX {'true' if self.approx else 'false'}")
            lines.append(f"#define TC_DST_SYNC_FULL {'true' if self.dst_full_sync else 'false'}")
        for name, value in self.defines:
            lines.append(f"#define {name} {value}")
        # the JIT generates them for data-movement kernels too (kernel_lib's reader helpers read the tile dims)
        lines += ["#include <cstdint>", chlkc.descriptor_tables(dict(self.cbs), self.fp32_dest_acc,
                                                                self.unpack_to_dest_fp32, self.bfp8_pack_precise)]
        if self.bindings is not None:
            lines.append(self.bindings.header())
        return "\n".join(lines) + "\n"

    def wrapper(self) -> str:
        """The translation unit of a compute kernel on the emulator's compute engine: the generated
        header, what the firmware includes before the kernel (so kernels may use that API without
        including it), the kernel, the entry point."""
        lines = ['#include "tc_generated.h"']
        lines += [f'#include "{header}"' for header in COMPUTE_IMPLICIT]
        lines += ["namespace ckernel {}", "using namespace ckernel;"]
        lines.append(f'#include "{self.source}"')
        entry = tt_kernel_entry.kernel_main_for(self.text)  # the JIT's kernel_main for a TT_KERNEL entry
        lines += [entry] if entry else []
        lines.append('extern "C" void tc_kernel_entry() { kernel_main(); }')
        return "\n".join(lines) + "\n"

    def key(self) -> str:
        cc = compiler()
        return cache.digest("kernel", headers_version(), cc.version, *FLAGS, self.opt_level, self.text,
                            self.generated_header(), self.wrapper(),
                            *map(str, self.include_paths),
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


def compile_kernel(build: KernelBuild) -> tuple[Path, bool]:
    """A compute kernel's shared object on the emulator's compute engine (cached); a KernelError
    with the compiler's message on failure."""
    cc = compiler()

    def make(directory: Path) -> Path:
        (directory / "tc_generated.h").write_text(build.generated_header())
        wrapper = directory / "kernel_wrapper.cpp"
        wrapper.write_text(build.wrapper())
        out = directory / cache.OBJECT
        flags = [f for f in FLAGS if not f.startswith("-O")] + [build.opt_level]
        command = [*cc.command(), *flags, "-I", str(directory), "-I", str(INCLUDE), "-I", str(build.source.parent),
                   *(f"-I{root}" for root in build.include_roots()), str(wrapper), "-o", str(out)]
        start = time.perf_counter()
        result = subprocess.run(command, capture_output=True, text=True, env=COMPILER_ENV)
        if result.returncode != 0:
            raise compile_failure(result.stderr, build.source, build.display, build.text)
        (directory / COMPILE_LOG).write_text(result.stderr)  # kept: a cached build still reports its warnings
        (directory / COMPILE_SECONDS).write_text(f"{time.perf_counter() - start:.3f}\n")
        return out

    return cache.build("kernels", build.key(), make)


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


def compile_all(builds: list[KernelBuild], compute: Callable[[KernelBuild], tuple[Path, bool]] | None,
                dataflow: Callable[[KernelBuild], tuple[Path, bool]]) -> list[tuple[Path, bool]]:
    """Compile distinct kernels in parallel; results in the order of ``builds``. ``compute`` builds
    the compute kernels instead of compile_kernel (the Tensix machine's: tensix_compute.py),
    ``dataflow`` the data-movement ones (the real dataflow API's: tensix_dataflow.py)."""
    unique = list(dict.fromkeys(builds))
    workers = max(1, min(len(unique), os.cpu_count() or 1))

    def one(build: KernelBuild) -> tuple[Path, bool]:
        if not build.compute:
            return dataflow(build)
        return compute(build) if compute is not None else compile_kernel(build)

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
