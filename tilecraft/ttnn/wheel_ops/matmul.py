"""ttnn 0.81.1's single-core matmul program, with its kernels taken unchanged from the wheel, and the
host that runs ``ttnn.matmul`` (and ``ttnn.linear`` without a bias) on it at ``--level cpp``.

reader_bmm_8bank_output_tiles_partitioned.cpp reads in0's row and in1's column of tiles for each
output tile, bmm.cpp multiplies them on the FPU (one K tile at a time, accumulated in DST), the
unary writer stores the output tiles. The compute configuration is the call's
``compute_kernel_config`` (fidelity, fp32 DST), HiFi4 with a bfloat16 DST without one.
tests/emu/test_wheel_kernels.py runs the same program against the device's arithmetic.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Optional

from ..datatype import bfloat8_b, bfloat16
from ..descriptors import ComputeConfigDescriptor, KernelDescriptor, ReaderConfigDescriptor
from ..fidelity import MathFidelity
from ..generic import TensorAccessorArgs
from ..layout import Layout
from ..tensor import Tensor
from .eltwise import unary_writer
from .program import cb, kernel, run_op
from .registry import Call, KernelHost, register

MATMUL = "matmul/device/kernels"
#: the named compile-time args giving the kernels their CBs
CB_NAMES = [("cb_in0", 0), ("cb_in1", 1), ("cb_out", 16)]


def bmm_reader(ops: Path, a: Tensor, b: Tensor, batch: int, mt: int, kt: int, nt: int, bcast_b: bool) -> KernelDescriptor:
    """reader_bmm_8bank_output_tiles_partitioned.cpp: runtime args as the matmul program factory passes
    them (both addresses, Mt Kt Nt, MtKt, KtNt, batch, whether in1 has one batch, first output tile,
    output tiles, MtNt); compile-time args no last-k-tile padding, then both accessors."""
    tiles = batch * mt * nt
    return kernel(ops / MATMUL / "dataflow/reader_bmm_8bank_output_tiles_partitioned.cpp", ReaderConfigDescriptor(),
                  rt=[a.buffer_address(), b.buffer_address(), mt, kt, nt, mt * kt, kt * nt, batch, int(bcast_b),
                      0, tiles, mt * nt],
                  ct=[0, 0, *TensorAccessorArgs(a).get_compile_time_args(), *TensorAccessorArgs(b).get_compile_time_args()],
                  named=CB_NAMES[:2])


def bmm_compute(ops: Path, batch: int, mt: int, kt: int, nt: int,
                config: Optional[ComputeConfigDescriptor] = None) -> KernelDescriptor:
    """bmm.cpp: compile-time args batch, Mt, Kt, Nt; named cb_in0/cb_in1/cb_out."""
    return kernel(ops / MATMUL / "compute/bmm.cpp", config or ComputeConfigDescriptor(), ct=[batch, mt, kt, nt],
                  named=CB_NAMES)


def _refuse(call: Call) -> Optional[str]:
    tensors = call.tensors
    if len(tensors) != 2:
        return "a bias (the fused bias kernel has no host)"
    if call.params["transpose_a"] or call.params["transpose_b"]:
        return "transpose_a/transpose_b"
    if call.params["activation"] is not None:
        return "a fused activation"
    if call.params["program_config"] is not None:
        return "a program_config (the multi-core programs have no host)"
    a, b = tensors
    if a.dtype is not bfloat16 or b.dtype not in (bfloat16, bfloat8_b) or call.dtype is not bfloat16:
        return "a dtype other than bfloat16 (bfloat8_b weights)"
    if a.layout is not Layout.TILE or b.layout is not Layout.TILE:
        return "an operand in row-major layout"
    if any(d % 32 for d in (*a.shape[-2:], *b.shape[-2:])):
        return "M, K or N not a whole number of tiles"
    if math.prod(b.shape[:-2]) not in (1, math.prod(call.shape[:-2])) or math.prod(a.shape[:-2]) != math.prod(call.shape[:-2]):
        return "batch dims that broadcast in0"
    return None


def _compute_config(call: Call) -> ComputeConfigDescriptor:
    config = call.params["compute_kernel_config"]
    if config is None:
        return ComputeConfigDescriptor(math_fidelity=MathFidelity.HiFi4)
    return ComputeConfigDescriptor(math_fidelity=config.math_fidelity, fp32_dest_acc_en=config.fp32_dest_acc_en,
                                   math_approx_mode=config.math_approx_mode)


def _run(ops: Path, call: Call) -> Tensor:
    a, b = call.operands
    out = call.output()
    batch = math.prod(call.shape[:-2])
    mt, kt, nt = a.shape[-2] // 32, a.shape[-1] // 32, b.shape[-1] // 32
    bcast_b = math.prod(b.shape[:-2]) == 1 and batch > 1
    kernels = [bmm_reader(ops, a, b, batch, mt, kt, nt, bcast_b), bmm_compute(ops, batch, mt, kt, nt, _compute_config(call)),
               unary_writer(ops, out, 16, batch * mt * nt)]
    return run_op([a, b, out], kernels, [cb(0), cb(1, b.dtype), cb(16)])


for _op in ("matmul", "linear"):
    register(KernelHost(_op, "reader_bmm_8bank_output_tiles_partitioned.cpp, bmm.cpp and the unary writer (one core)",
                        _refuse, _run))
