"""The value engine's compiled kernel for accumulation chains: ``acc + a @ b`` fused, bit for bit.

Why a compiled kernel: a K step of the chains (:mod:`.chains`) done with whole-array torch and
numpy passes costs two fp32 GEMMs of 16 products per K tile plus about eight passes over every
output element (the sums, min/max, the bound, the two rounded ends, their comparison, the copy out)
and the repairs through sampled fp64 GEMMs: about 5 ns per output element per K level, of which
the GEMM is under one. ``fused_chain.cpp`` keeps a four-row by 16-column tile of the sums in
registers across the store's K tiles, carries each element's own error bound beside it, rounds at
the store and repairs the few undecided elements after each block: the same bits (its header comment
and :mod:`.chains` derive the bound) at close to GEMM speed.

Why the emulator's C++ compiler rather than a JIT: the kernel emulator already needs g++ (so the
install takes on nothing new) and the kernel is built once per source, compiler and machine, cached
by content like the emulator's (``<cache>/emu/fused-chain``); numba would be a new optional
dependency for the same loops (benchmarks/README.md has the measurements). ``clang++``, where
installed, is tried first (:func:`_compilers`: a faster build of the same kernel). Where no compiler
is present, or ``$TILECRAFT_FUSED_CHAINS`` is ``0``, :func:`library` is None and the chains run as
whole-array passes.
"""

from __future__ import annotations

import ctypes
import functools
import os
import platform
import shutil
import subprocess
import warnings
from pathlib import Path

import numpy as np
import torch

from ...diagnostics import KernelError
from ...emu import cache
from ...emu.toolchain import Compiler, compiler, version_line

SOURCE = Path(__file__).with_name("fused_chain.cpp")
#: -march=native: the kernel is built on the machine that runs it (the CPU's flags are in the key);
#: contraction into FMAs is allowed (the bound covers any order, FMA or not); no -ffast-math
FLAGS = ("-std=gnu++20", "-O3", "-march=native", "-ffp-contract=fast", "-fno-math-errno", "-fPIC", "-shared",
         "-pthread")
#: store and accumulator formats, as the kernel numbers them
KINDS = {torch.bfloat16: 1, torch.float16: 2, torch.float32: 3}
#: ``$TILECRAFT_FUSED_CHAINS=0`` switches the kernel off (benchmarks compare the two engines)
SWITCH = "TILECRAFT_FUSED_CHAINS"


def _cpu_flags() -> str:
    """What ``-march=native`` depends on: the CPU's feature flags (``/proc/cpuinfo``), else the machine name."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("flags", "Features")):
                return line
    except OSError:
        pass
    return platform.machine()


def _compilers() -> list[Compiler]:
    """The compilers to build the kernel with, in order of preference: ``clang++`` where it is on the
    PATH (its build ran the kernel 7-9% faster than g++ 12's on this project's 2-core AMD machine, the
    same bits: the check holds for any order of the products, and the repairs' order is fixed in the
    source), then the emulator's own (``$CXX`` or g++). None: the whole-array engine."""
    found = []
    path = shutil.which("clang++")
    if path is not None and "clang" in (first := version_line(path)).lower():
        found.append(Compiler(path, first))
    try:
        found.append(compiler())
    except KernelError:
        pass
    return found


def _build(gxx: Compiler) -> Path:
    """The kernel built by ``gxx`` (cached by content), or a RuntimeError with the compiler's messages."""
    key = cache.digest("fused-chain", gxx.version, *FLAGS, SOURCE.read_bytes(), _cpu_flags())

    def make(directory: Path) -> Path:
        out = directory / cache.OBJECT
        done = subprocess.run([*gxx.command(), *FLAGS, str(SOURCE), "-o", str(out)], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"building the fused chain kernel with {gxx.version} failed:\n{done.stderr[-4000:]}")
        return out

    return cache.build("fused-chain", key, make)[0]


@functools.cache
def _built() -> ctypes.CDLL | None:
    failures = []
    for gxx in _compilers():
        try:
            path = _build(gxx)
            break
        except RuntimeError as exc:  # this compiler cannot build it: the next one
            failures.append(str(exc))
    else:  # none can (say so once; a tilecraft bug where a compiler is present) or none is present
        if failures:
            warnings.warn("\n".join(failures), RuntimeWarning, stacklevel=2)
        return None  # the whole-array engine
    lib = ctypes.CDLL(str(path))
    fn = lib.tc_fused_update
    fn.restype = ctypes.c_int64
    p, i64, i32 = ctypes.c_void_p, ctypes.c_int64, ctypes.c_int
    fn.argtypes = [p, i64, i64, p, i64, p, i32, p, i32, i64, p, p, p, i64, i64, i32, i32]
    return lib


def library() -> ctypes.CDLL | None:
    """The compiled kernel (built on first use), or None where it is switched off or cannot be built."""
    if os.environ.get(SWITCH, "1") == "0":
        return None
    return _built()


def supports(out: torch.dtype, acc: torch.dtype | None, device: torch.device) -> bool:
    """Whether the kernel computes a store of ``out`` from an accumulator of ``acc`` on ``device``."""
    return device.type == "cpu" and out in KINDS and (acc is None or acc in KINDS) and library() is not None


def update(a: torch.Tensor, b: torch.Tensor, acc: torch.Tensor | None, out: torch.Tensor, rows: np.ndarray,
           row_m: np.ndarray, col_n: np.ndarray, threads: int | None = None) -> int:
    """Blocks ``rows`` of ``out`` (``[*, h, w]``) become ``acc + a @ b`` rounded to ``out``'s format, as the
    exact mode computes them: block ``rows[i]`` is rows ``row_m[i]..`` of ``a`` (``[M, K]`` fp32) times
    columns ``col_n[i]..`` of ``b`` (``[K, N]`` fp32), plus block ``rows[i]`` of ``acc`` (same layout as
    ``out``, which it may be). Returns how many elements the kernel recomputed exactly."""
    lib = library()
    assert lib is not None, "update() needs the compiled kernel (library() is None)"
    h, w = out.shape[-2:]
    a, b = a.contiguous(), b.contiguous()
    assert a.dtype == b.dtype == torch.float32 and out.is_contiguous() and (acc is None or acc.is_contiguous())
    assert acc is None or acc.shape[-2:] == out.shape[-2:]
    index = [np.ascontiguousarray(x, dtype=np.int64) for x in (rows, row_m, col_n)]
    assert not len(index[0]) or (0 <= index[0].min() and index[0].max() < out.shape[0]), "a block row outside out"
    done = lib.tc_fused_update(
        a.data_ptr(), a.shape[0], a.shape[1], b.data_ptr(), b.shape[1],
        acc.data_ptr() if acc is not None else None, KINDS[acc.dtype] if acc is not None else 0,
        out.data_ptr(), KINDS[out.dtype], len(index[0]), *(x.ctypes.data for x in index), h, w,
        int(out.dtype == torch.float32), threads or torch.get_num_threads())
    if done < 0:
        raise ValueError(f"fused chain kernel: unsupported shapes a {tuple(a.shape)}, b {tuple(b.shape)}, "
                         f"blocks {h}x{w}")
    return int(done)
