"""Elementwise C = A + B on a grid of Tensix cores, with ttnn.generic_op (tt-metal / ttnn 0.81.1).

Three kernels per core: a reader (RISCV_1) streams tile pairs of the interleaved DRAM tensors A
and B into two circular buffers, the compute kernel adds them on the FPU, and a writer (RISCV_0)
drains the sums into C. ``ttnn.split_work_to_cores`` divides the tiles over the compute grid:
when they do not divide evenly, the first core group gets one tile more than the second, so the
tile count is a runtime argument of each core rather than a compile-time argument of the kernel.

Run:  tilecraft run examples/metal/eltwise_binary/eltwise_binary.py   (kernel emulator)
      python examples/metal/eltwise_binary/eltwise_binary.py          (a device with ttnn 0.81.1)
"""

from __future__ import annotations

import math
import os
import sys

import torch
import ttnn

from tilecraft.testing import comp_pcc

HERE = os.path.dirname(os.path.abspath(__file__))
COMMON_KERNELS = os.path.join(HERE, os.pardir, "common", "kernels")

SHAPE = (1, 3, 160, 320)   # 150 tiles: 64 cores take 3 or 2 each, so both core groups are used
TILE = 32
TILE_BYTES = TILE * TILE * 2  # one bfloat16 tile
CB_PAGES = 2                  # double buffering: the reader fills one page while compute drains the other
CB_A, CB_B, CB_OUT = 0, 1, 16
# The FPU adds two bfloat16 values exactly (in DST) and the packer rounds the sum once, as torch
# does for bfloat16 inputs added in float32 and rounded back; only that rounding separates them.
PCC_THRESHOLD = 0.9999


def tile_cb(index: int, pages: int, cores: ttnn.CoreRangeSet) -> ttnn.CBDescriptor:
    """A circular buffer of ``pages`` bfloat16 tiles on every core of ``cores``."""
    page = ttnn.CBFormatDescriptor(buffer_index=index, data_format=ttnn.bfloat16, page_size=TILE_BYTES)
    return ttnn.CBDescriptor(total_size=pages * TILE_BYTES, core_ranges=cores, format_descriptors=[page])


def eltwise_add(device, a: ttnn.Tensor, b: ttnn.Tensor, c: ttnn.Tensor) -> ttnn.Tensor:
    """C = A + B; the three tensors are interleaved bfloat16 tile tensors of one shape."""
    num_tiles = math.prod(a.padded_shape) // (TILE * TILE)
    grid = device.compute_with_storage_grid_size()
    _, all_cores, group_1, group_2, tiles_1, tiles_2 = ttnn.split_work_to_cores(grid, num_tiles)

    reader_args, compute_args, writer_args = ttnn.RuntimeArgs(), ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    first_tile = 0
    for group, count in ((group_1, tiles_1), (group_2, tiles_2)):
        for core in ttnn.corerange_to_cores(group, row_wise=True):
            reader_args[core.x][core.y] = [a.buffer_address(), b.buffer_address(), count, first_tile]
            compute_args[core.x][core.y] = [count]
            writer_args[core.x][core.y] = [c.buffer_address(), count, first_tile]
            first_tile += count
    assert first_tile == num_tiles

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
    writer = ttnn.KernelDescriptor(
        kernel_source=os.path.join(COMMON_KERNELS, "writer_tiles.cpp"),
        source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
        core_ranges=all_cores,
        compile_time_args=[CB_OUT, *ttnn.TensorAccessorArgs(c).get_compile_time_args()],
        runtime_args=writer_args,
        config=ttnn.WriterConfigDescriptor(),
    )
    program = ttnn.ProgramDescriptor(
        kernels=[reader, compute, writer],
        semaphores=[],
        cbs=[tile_cb(CB_A, CB_PAGES, all_cores), tile_cb(CB_B, CB_PAGES, all_cores),
             tile_cb(CB_OUT, CB_PAGES, all_cores)],
    )
    return ttnn.generic_op([a, b, c], program)


def main() -> int:
    torch.manual_seed(0)
    a_host = torch.randn(SHAPE).to(torch.bfloat16)
    b_host = torch.randn(SHAPE).to(torch.bfloat16)
    golden = a_host.float() + b_host.float()

    device = ttnn.open_device(device_id=0)
    try:
        a, b = (ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                                memory_config=ttnn.DRAM_MEMORY_CONFIG) for t in (a_host, b_host))
        c = ttnn.allocate_tensor_on_device(ttnn.Shape(SHAPE), ttnn.bfloat16, ttnn.TILE_LAYOUT, device,
                                           ttnn.DRAM_MEMORY_CONFIG)
        result = ttnn.to_torch(eltwise_add(device, a, b, c))
    finally:
        ttnn.close_device(device)

    passed, message = comp_pcc(golden, result.float(), PCC_THRESHOLD)
    print(f"eltwise_binary {SHAPE}: {message}")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
