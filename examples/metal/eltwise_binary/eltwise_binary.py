"""Elementwise C = A + B on a grid of Tensix cores, with ttnn.generic_op (tt-metal / ttnn 0.81.1).

Three kernels per core: a reader (RISCV_1) streams tile pairs of the interleaved DRAM tensors A
and B into two circular buffers, the compute kernel adds them on the FPU, and a writer (RISCV_0)
drains the sums into C. ``ttnn.split_work_to_cores`` divides the tiles over the compute grid
(``split_work`` in ../common/example_host.py): when they do not divide evenly, the first core
group gets one tile more than the second, so the tile count is a runtime argument of each core
rather than a compile-time argument of the kernel.

Run:  tilecraft run examples/metal/eltwise_binary/eltwise_binary.py   (kernel emulator)
      python examples/metal/eltwise_binary/eltwise_binary.py          (a device with ttnn 0.81.1)
"""

from __future__ import annotations

import math
import os
import sys

import torch
import ttnn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "common"))
from example_host import TILE, run_example, split_work, tile_cb, tile_mover  # noqa: E402

SHAPE = (1, 3, 160, 320)   # 150 tiles: 64 cores take 3 or 2 each, so both core groups are used
CB_A, CB_B, CB_OUT = 0, 1, 16
CB_PAGES = 2               # double buffering: the reader fills one page while compute drains the other
# The FPU adds two bfloat16 values exactly and the packer rounds the sum once, as torch does for
# bfloat16 inputs added in float32 and rounded back: only that rounding separates the two.
PCC_THRESHOLD = 0.9999


def eltwise_add(device, a: ttnn.Tensor, b: ttnn.Tensor, c: ttnn.Tensor) -> ttnn.Tensor:
    """C = A + B; the three tensors are interleaved bfloat16 tile tensors of one shape."""
    all_cores, shares = split_work(device, math.prod(a.padded_shape) // (TILE * TILE))

    reader_args, compute_args, writer_args = ttnn.RuntimeArgs(), ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    for core, num_tiles, first_tile in shares:
        reader_args[core.x][core.y] = [a.buffer_address(), b.buffer_address(), num_tiles, first_tile]
        compute_args[core.x][core.y] = [num_tiles]
        writer_args[core.x][core.y] = [c.buffer_address(), num_tiles, first_tile]

    reader = ttnn.KernelDescriptor(
        kernel_source=os.path.join(HERE, "kernels", "reader_binary.cpp"),
        source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
        core_ranges=all_cores,
        compile_time_args=[*ttnn.TensorAccessorArgs(a).get_compile_time_args(),
                           *ttnn.TensorAccessorArgs(b).get_compile_time_args()],
        runtime_args=reader_args,
        config=ttnn.ReaderConfigDescriptor(),
    )
    compute = ttnn.KernelDescriptor(
        kernel_source=os.path.join(HERE, "kernels", "compute_add.cpp"),
        source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
        core_ranges=all_cores,
        runtime_args=compute_args,
        config=ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4),
    )
    writer = tile_mover("writer", CB_OUT, c, all_cores, writer_args)
    program = ttnn.ProgramDescriptor(
        kernels=[reader, compute, writer],
        semaphores=[],
        cbs=[tile_cb(CB_PAGES, all_cores, CB_A), tile_cb(CB_PAGES, all_cores, CB_B),
             tile_cb(CB_PAGES, all_cores, CB_OUT)],
    )
    return ttnn.generic_op([a, b, c], program)


def main() -> int:
    torch.manual_seed(0)
    a = torch.randn(SHAPE).to(torch.bfloat16)
    b = torch.randn(SHAPE).to(torch.bfloat16)
    return run_example(f"eltwise_binary {SHAPE}", [a, b], SHAPE, eltwise_add, a.float() + b.float(), PCC_THRESHOLD)


if __name__ == "__main__":
    sys.exit(main())
