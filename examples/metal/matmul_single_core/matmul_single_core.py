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

from tilecraft.testing import comp_pcc

HERE = os.path.dirname(os.path.abspath(__file__))
COMMON_KERNELS = os.path.join(HERE, os.pardir, "common", "kernels")

M, K, N = 128, 256, 192
TILE = 32
TILE_BYTES = TILE * TILE * 2  # one bfloat16 tile
CB_A, CB_B, CB_OUT = 0, 1, 16
# Products of bfloat16 values are exact in fp32 and DST accumulates in fp32 (fp32_dest_acc_en),
# so the only rounding beyond torch's float32 matmul is the final pack to bfloat16.
PCC_THRESHOLD = 0.9999


def tile_cb(index: int, pages: int, cores: ttnn.CoreRangeSet) -> ttnn.CBDescriptor:
    page = ttnn.CBFormatDescriptor(buffer_index=index, data_format=ttnn.bfloat16, page_size=TILE_BYTES)
    return ttnn.CBDescriptor(total_size=pages * TILE_BYTES, core_ranges=cores, format_descriptors=[page])


def matmul_single_core(a: ttnn.Tensor, b: ttnn.Tensor, c: ttnn.Tensor) -> ttnn.Tensor:
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
    writer = ttnn.KernelDescriptor(
        kernel_source=os.path.join(COMMON_KERNELS, "writer_tiles.cpp"),
        source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
        core_ranges=cores,
        compile_time_args=[CB_OUT, *ttnn.TensorAccessorArgs(c).get_compile_time_args()],
        runtime_args=writer_args,
        config=ttnn.WriterConfigDescriptor(),
    )
    # A's row and B's column each get two K-long slots, so the reader fetches the next one while
    # compute works through the current one.
    cbs = [tile_cb(CB_A, 2 * kt, cores), tile_cb(CB_B, 2 * kt, cores), tile_cb(CB_OUT, 2, cores)]
    program = ttnn.ProgramDescriptor(kernels=[reader, compute, writer], semaphores=[], cbs=cbs)
    return ttnn.generic_op([a, b, c], program)


def main() -> int:
    torch.manual_seed(0)
    a_host = torch.randn(M, K).to(torch.bfloat16)
    b_host = torch.randn(K, N).to(torch.bfloat16)
    golden = a_host.float() @ b_host.float()

    device = ttnn.open_device(device_id=0)
    try:
        a, b = (ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                                memory_config=ttnn.DRAM_MEMORY_CONFIG) for t in (a_host, b_host))
        c = ttnn.allocate_tensor_on_device(ttnn.Shape([M, N]), ttnn.bfloat16, ttnn.TILE_LAYOUT, device,
                                           ttnn.DRAM_MEMORY_CONFIG)
        result = ttnn.to_torch(matmul_single_core(a, b, c))
    finally:
        ttnn.close_device(device)

    passed, message = comp_pcc(golden, result.float(), PCC_THRESHOLD)
    print(f"matmul_single_core {M}x{K} @ {K}x{N}: {message}")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
