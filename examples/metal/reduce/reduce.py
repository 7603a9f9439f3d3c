"""Sum along rows or columns with reduce_tile and a scaler tile, on a grid of cores (ttnn 0.81.1).

``--dim row`` sums along W: each tile row of the input becomes one output tile whose column 0
holds the row sums. ``--dim col`` sums along H: each tile column becomes one output tile whose
row 0 holds the column sums. Every other datum of an output tile is zero: reduce_init programs
the packer to write only the reduced row or column. The reduction is picked by the defines
REDUCE_OP / REDUCE_DIM of the compute kernel; the reader builds the scaler tile (1.0 for a sum,
1/N would give a mean) in L1 itself. The outputs are split over the grid with
``ttnn.split_work_to_cores``.

Run:  tilecraft run examples/metal/reduce/reduce.py [--dim row|col]
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
from example_host import TILE, run_example, split_work, tile_cb, tile_mover  # noqa: E402

BATCHES, H, W = 4, 640, 256   # row sums: 80 outputs, col sums: 32 (on an 8x8 grid, 2 core groups for rows)
CB_IN, CB_SCALER, CB_OUT = 0, 2, 16
REDUCE_DIMS = {"row": "ReduceDim::REDUCE_ROW", "col": "ReduceDim::REDUCE_COL"}
# Each output is a sum of up to 640 bfloat16 values accumulated in DST as bfloat16 (no fp32
# accumulation here) and rounded once more on pack: a few bf16 ulps of the sum, well inside 0.999.
PCC_THRESHOLD = 0.999


def bfloat16_bits(value: float) -> int:
    """The bfloat16 bit pattern of ``value`` (rounded to nearest even), as the scaler runtime arg."""
    return torch.tensor([value], dtype=torch.bfloat16).view(torch.int16).item() & 0xFFFF


def golden(x: torch.Tensor, dim: str) -> torch.Tensor:
    """The output tiles as the device writes them: sums in column 0 (row) or row 0 (col), zeros elsewhere."""
    batches, h, w = x.shape
    if dim == "row":
        out = torch.zeros(batches, h, TILE)
        out[:, :, 0] = x.float().sum(dim=-1)
    else:
        out = torch.zeros(batches, TILE, w)
        out[:, 0, :] = x.float().sum(dim=-2)
    return out


def reduce_sum(device, x: ttnn.Tensor, out: ttnn.Tensor, dim: str) -> ttnn.Tensor:
    """Sum the [batches, H, W] tile tensor ``x`` along W (``row``) or H (``col``) into ``out``."""
    batches, h, w = x.padded_shape[0], x.padded_shape[1], x.padded_shape[2]
    ht, wt = h // TILE, w // TILE
    num_outputs = batches * (ht if dim == "row" else wt)
    tiles_per_output = wt if dim == "row" else ht
    all_cores, shares = split_work(device, num_outputs)
    reader_args, compute_args, writer_args = ttnn.RuntimeArgs(), ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    for core, count, first in shares:
        reader_args[core.x][core.y] = [x.buffer_address(), bfloat16_bits(1.0), first, count]
        compute_args[core.x][core.y] = [count]
        writer_args[core.x][core.y] = [out.buffer_address(), count, first]  # one output tile each

    kernels = [
        ttnn.KernelDescriptor(
            kernel_source=os.path.join(HERE, "kernels", "reader_reduce.cpp"),
            source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
            core_ranges=all_cores,
            compile_time_args=[*ttnn.TensorAccessorArgs(x).get_compile_time_args(), ht, wt, int(dim == "row")],
            runtime_args=reader_args,
            config=ttnn.ReaderConfigDescriptor(),
        ),
        ttnn.KernelDescriptor(
            kernel_source=os.path.join(HERE, "kernels", "compute_reduce.cpp"),
            source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
            core_ranges=all_cores,
            compile_time_args=[tiles_per_output],
            defines=[("REDUCE_OP", "PoolType::SUM"), ("REDUCE_DIM", REDUCE_DIMS[dim])],
            runtime_args=compute_args,
            config=ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4),
        ),
        tile_mover("writer", CB_OUT, out, all_cores, writer_args),
    ]
    cbs = [tile_cb(2, all_cores, CB_IN), tile_cb(1, all_cores, CB_SCALER), tile_cb(2, all_cores, CB_OUT)]
    program = ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs)
    return ttnn.generic_op([x, out], program)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dim", choices=sorted(REDUCE_DIMS), default="row",
                        help="row: sum along W (default); col: sum along H")
    dim = parser.parse_args(argv).dim

    torch.manual_seed(0)
    x = torch.randn(BATCHES, H, W).to(torch.bfloat16)
    expected = golden(x, dim)
    return run_example(f"reduce sum along {'W' if dim == 'row' else 'H'} of {(BATCHES, H, W)}", [x], expected.shape,
                       functools.partial(reduce_sum, dim=dim), expected, PCC_THRESHOLD)


if __name__ == "__main__":
    sys.exit(main())
