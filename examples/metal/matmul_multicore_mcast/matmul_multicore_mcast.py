"""Multicore matmul with data reuse and multicast: matmul_block on output sub-blocks (ttnn 0.81.1).

C[M,N] = A[M,K] @ B[K,N] on an R x C grid: each core owns a per_core_M x per_core_N tile block of
C. A's block rows are read from DRAM once, by the cores of column 0, and multicast along their
grid rows; B's block columns are read by the cores of row 0 and multicast down their grid
columns. Receivers tell their sender when their CB slot is free (``noc_semaphore_inc`` on the
sender's semaphore), the sender multicasts the block and then a VALID flag into every
receiver's semaphore. One reader source plays all four roles (sender or receiver of each
operand), chosen per core range by named compile-time arguments; the compute kernel works in
sub-blocks that fit in DST and keeps partial sums in a CB that shares its memory with the
output CB.

Run:  tilecraft run examples/metal/matmul_multicore_mcast/matmul_multicore_mcast.py [--cores RxC] [--size MxKxN]
"""

from __future__ import annotations

import argparse
import functools
import os
import sys

import torch
import ttnn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "common"))
from example_host import TILE, run_example, tile_cb  # noqa: E402

M, K, N = 512, 256, 512
IN0_BLOCK_W = 2                # K tiles per block: each block is one multicast per operand
DST_TILES = 8                  # half of DST for 16-bit data: the largest output sub-block
CB_IN0, CB_IN1, CB_OUT, CB_PARTIALS = 0, 1, 16, 24
IN0_READY, IN0_FLAG, IN1_READY, IN1_FLAG = 0, 1, 2, 3   # semaphore ids
# bfloat16 inputs, products exact in the FPU, sums kept in bfloat16 (DST without fp32
# accumulation, and the partials CB between K-blocks): a few bf16 ulps over K = 256.
PCC_THRESHOLD = 0.999


def choose_subblock(per_core_m: int, per_core_n: int, max_tiles: int = DST_TILES) -> tuple[int, int]:
    """The largest (h, w) dividing the core's block with h * w <= max_tiles; wider wins a tie
    (a wider sub-block reuses each A tile for more B tiles)."""
    candidates = [(h, w) for h in range(1, per_core_m + 1) for w in range(1, per_core_n + 1)
                  if per_core_m % h == 0 and per_core_n % w == 0 and h * w <= max_tiles]
    return max(candidates, key=lambda hw: (hw[0] * hw[1], hw[1]))


def core_range(x0: int, y0: int, x1: int, y1: int) -> ttnn.CoreRangeSet:
    return ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(x0, y0), ttnn.CoreCoord(x1, y1))])


def matmul_mcast(device, a: ttnn.Tensor, b: ttnn.Tensor, c: ttnn.Tensor, rows: int, cols: int) -> ttnn.Tensor:
    """C = A @ B on a ``rows`` x ``cols`` grid; the tile counts of M and N must divide by it."""
    mt, kt = a.padded_shape[-2] // TILE, a.padded_shape[-1] // TILE
    nt = b.padded_shape[-1] // TILE
    grid = device.compute_with_storage_grid_size()
    if rows > grid.y or cols > grid.x:
        raise ValueError(f"a {rows}x{cols} grid does not fit the device's {grid.y}x{grid.x} compute grid")
    if mt % rows or nt % cols or kt % IN0_BLOCK_W:
        raise ValueError(f"Mt={mt} must divide by {rows} grid rows, Nt={nt} by {cols} grid columns, "
                         f"Kt={kt} by in0_block_w={IN0_BLOCK_W}")
    per_core_m, per_core_n = mt // rows, nt // cols
    subblock_h, subblock_w = choose_subblock(per_core_m, per_core_n)
    all_cores = core_range(0, 0, cols - 1, rows - 1)

    def noc(x: int, y: int):
        return device.worker_core_from_logical_core(ttnn.CoreCoord(x, y))

    # The reader: one source, four roles. Each core's runtime args locate its A and B blocks and
    # its two multicast links (receiver rectangle corners and sender, in NoC coordinates).
    shared = [("Kt", kt), ("Nt", nt), ("per_core_M", per_core_m), ("per_core_N", per_core_n),
              ("in0_block_w", IN0_BLOCK_W), ("in0_receivers", cols - 1), ("in1_receivers", rows - 1),
              ("in0_ready_semaphore", IN0_READY), ("in0_flag_semaphore", IN0_FLAG),
              ("in1_ready_semaphore", IN1_READY), ("in1_flag_semaphore", IN1_FLAG)]
    accessors = [*ttnn.TensorAccessorArgs(a).get_compile_time_args(), *ttnn.TensorAccessorArgs(b).get_compile_time_args()]
    roles = {  # (in0 sender, in1 sender) -> (x0, y0, x1, y1) of the cores playing it
        (1, 1): (0, 0, 0, 0), (1, 0): (0, 1, 0, rows - 1), (0, 1): (1, 0, cols - 1, 0), (0, 0): (1, 1, cols - 1, rows - 1)}
    readers = []
    for (in0_sender, in1_sender), (x0, y0, x1, y1) in roles.items():
        if x1 < x0 or y1 < y0:
            continue  # a 1-wide grid has no receivers of that operand
        runtime_args = ttnn.RuntimeArgs()
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                row_first, row_last = noc(min(1, cols - 1), y), noc(cols - 1, y)
                col_first, col_last = noc(x, min(1, rows - 1)), noc(x, rows - 1)
                runtime_args[x][y] = [
                    a.buffer_address(), y * per_core_m * kt, b.buffer_address(), x * per_core_n,
                    row_first.x, row_first.y, row_last.x, row_last.y, noc(0, y).x, noc(0, y).y,
                    col_first.x, col_first.y, col_last.x, col_last.y, noc(x, 0).x, noc(x, 0).y,
                ]
        readers.append(ttnn.KernelDescriptor(
            kernel_source=os.path.join(HERE, "kernels", "reader_mcast.cpp"),
            source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
            core_ranges=core_range(x0, y0, x1, y1),
            compile_time_args=accessors,
            named_compile_time_args=[("in0_sender", in0_sender), ("in1_sender", in1_sender), *shared],
            runtime_args=runtime_args,
            config=ttnn.ReaderConfigDescriptor(),
        ))

    compute = ttnn.KernelDescriptor(
        kernel_source=os.path.join(HERE, "kernels", "compute_matmul_block.cpp"),
        source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
        core_ranges=all_cores,
        named_compile_time_args=[("in0_block_w", IN0_BLOCK_W), ("per_core_M", per_core_m), ("per_core_N", per_core_n),
                                 ("subblock_h", subblock_h), ("subblock_w", subblock_w),
                                 ("num_blocks", kt // IN0_BLOCK_W)],
        config=ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4, fp32_dest_acc_en=False),
    )
    writer_args = ttnn.RuntimeArgs()
    for y in range(rows):
        for x in range(cols):
            writer_args[x][y] = [c.buffer_address(), y * per_core_m * nt + x * per_core_n]
    writer = ttnn.KernelDescriptor(
        kernel_source=os.path.join(HERE, "kernels", "writer_subblocks.cpp"),
        source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
        core_ranges=all_cores,
        compile_time_args=ttnn.TensorAccessorArgs(c).get_compile_time_args(),
        named_compile_time_args=[("Nt", nt), ("subblock_h", subblock_h), ("subblock_w", subblock_w),
                                 ("num_subblocks_h", per_core_m // subblock_h),
                                 ("num_subblocks_w", per_core_n // subblock_w)],
        runtime_args=writer_args,
        config=ttnn.WriterConfigDescriptor(),
    )

    semaphores = [ttnn.SemaphoreDescriptor(id=sem, core_type=ttnn.CoreType.WORKER, core_ranges=all_cores,
                                           initial_value=0)
                  for sem in (IN0_READY, IN0_FLAG, IN1_READY, IN1_FLAG)]
    cbs = [tile_cb(2 * per_core_m * IN0_BLOCK_W, all_cores, CB_IN0),   # double-buffered K-blocks
           tile_cb(2 * IN0_BLOCK_W * per_core_n, all_cores, CB_IN1),
           tile_cb(per_core_m * per_core_n, all_cores, CB_OUT, CB_PARTIALS)]  # one allocation, two CBs
    program = ttnn.ProgramDescriptor(kernels=[*readers, compute, writer], semaphores=semaphores, cbs=cbs)
    return ttnn.generic_op([a, b, c], program)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", default="4x4", help="core grid, rows x columns: 4x4 (default), 8x8, ...")
    parser.add_argument("--size", default=f"{M}x{K}x{N}",
                        help=f"matrix sizes MxKxN in elements, multiples of 32 ({M}x{K}x{N} by default)")
    args = parser.parse_args(argv)
    try:
        rows, cols = (int(v) for v in args.cores.lower().split("x"))
    except ValueError:
        parser.error(f"--cores takes ROWSxCOLS such as 4x4, not {args.cores!r}")
    try:
        m, k, n = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        parser.error(f"--size takes MxKxN such as 512x512x512, not {args.size!r}")

    torch.manual_seed(0)
    a = torch.randn(m, k).to(torch.bfloat16)
    b = torch.randn(k, n).to(torch.bfloat16)
    return run_example(f"matmul_multicore_mcast {m}x{k} @ {k}x{n} on {rows}x{cols}", [a, b], (m, n),
                       functools.partial(matmul_mcast, rows=rows, cols=cols), a.float() @ b.float(), PCC_THRESHOLD)


if __name__ == "__main__":
    sys.exit(main())
