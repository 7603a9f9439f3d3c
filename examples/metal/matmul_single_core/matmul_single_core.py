"""Single-core tiled matmul C = A @ B with matmul_tiles, through ttnn.generic_op (ttnn 0.81.1).

One core, three kernels: the reader keeps a row of A's tiles in L1 while the columns of B stream
past it, the compute kernel accumulates each output tile over K in DST with fp32 accumulation,
and the generic writer of ``../common/kernels`` stores the output tiles in order. The matrix
dimensions are compile-time arguments: a single-core program is compiled for its shape.

Run:  tilecraft run examples/metal/matmul_single_core/matmul_single_core.py
"""

from __future__ import annotations

import os
import sys

import torch
import ttnn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "common"))
from example_host import TILE, run_example, tile_cb, tile_mover  # noqa: E402

M, K, N = 128, 256, 192
CB_A, CB_B, CB_OUT = 0, 1, 16
# Products of bfloat16 values are exact in fp32 and DST accumulates in fp32 (fp32_dest_acc_en),
# so the only rounding beyond torch's float32 matmul is the final pack to bfloat16.
PCC_THRESHOLD = 0.9999


def matmul_single_core(device, a: ttnn.Tensor, b: ttnn.Tensor, c: ttnn.Tensor) -> ttnn.Tensor:
    """C = A @ B for 2-D interleaved bfloat16 tile tensors whose dimensions are multiples of 32."""
    m, k = a.padded_shape[-2], a.padded_shape[-1]
    k_b, n = b.padded_shape[-2], b.padded_shape[-1]
    if k != k_b:
        raise ValueError(f"inner dimensions differ: A is {m}x{k}, B is {k_b}x{n}")
    mt, kt, nt = m // TILE, k // TILE, n // TILE
    core = ttnn.CoreCoord(0, 0)
    cores = ttnn.CoreRangeSet([ttnn.CoreRange(core, core)])

    reader_args, writer_args = ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    reader_args[core.x][core.y] = [a.buffer_address(), b.buffer_address()]
    writer_args[core.x][core.y] = [c.buffer_address(), mt * nt, 0]

    reader = ttnn.KernelDescriptor(
        kernel_source=os.path.join(HERE, "kernels", "reader_matmul.cpp"),
        source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
        core_ranges=cores,
        compile_time_args=[*ttnn.TensorAccessorArgs(a).get_compile_time_args(),
                           *ttnn.TensorAccessorArgs(b).get_compile_time_args(), mt, kt, nt],
        runtime_args=reader_args,
        config=ttnn.ReaderConfigDescriptor(),
    )
    compute = ttnn.KernelDescriptor(
        kernel_source=os.path.join(HERE, "kernels", "compute_matmul.cpp"),
        source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
        core_ranges=cores,
        compile_time_args=[mt, kt, nt],
        config=ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4, fp32_dest_acc_en=True),
    )
    writer = tile_mover("writer", CB_OUT, c, cores, writer_args)
    # A's row and B's column each get two K-long slots, so the reader fetches the next one while
    # compute works through the current one.
    cbs = [tile_cb(2 * kt, cores, CB_A), tile_cb(2 * kt, cores, CB_B), tile_cb(2, cores, CB_OUT)]
    program = ttnn.ProgramDescriptor(kernels=[reader, compute, writer], semaphores=[], cbs=cbs)
    return ttnn.generic_op([a, b, c], program)


def main() -> int:
    torch.manual_seed(0)
    a = torch.randn(M, K).to(torch.bfloat16)
    b = torch.randn(K, N).to(torch.bfloat16)
    return run_example(f"matmul_single_core {M}x{K} @ {K}x{N}", [a, b], (M, N), matmul_single_core,
                       a.float() @ b.float(), PCC_THRESHOLD)


if __name__ == "__main__":
    sys.exit(main())
