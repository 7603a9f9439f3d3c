"""ttnn 0.81.1's reduce kernels, taken unchanged from the ttnn wheel, run on the emulator: the
generic reduce op's compute kernel (reduce.cpp over ttnn's kernel_lib) with its readers and the
unary writer, over W (REDUCE_ROW), H (REDUCE_COL) and HW (REDUCE_SCALAR), SUM and MAX.

The kernels are Metal 2.0 kernels (``args::``, ``dfb::``, ``tensor::``); their hosts here give them
those names through tilecraft's ``ttnn.KernelBindings`` (the 0.81.1 Python API has no schema;
docs/emulator.md), with the defines the reduce program factory passes: ``REDUCE_OP`` and
``REDUCE_DIM`` (spelled ``ckernel::PoolType::SUM``: the data-movement side has no ``using namespace
ckernel``), ``ENABLE_FP32_DEST_ACC`` and ``DST_SYNC_FULL`` (the reader's kernel_lib sizes its column
chunks by the DEST capacity they imply). The work is split over two cores as the factory splits it
(rows of tiles for W, columns for H). Sums are checked bit for bit against the device arithmetic
(tilecraft/device_arith.py: the matrix unit's grouped sums with the scaler tile, packed to
bfloat16), maxima against torch (a max is exact). By default one case per dimension runs (each
compiles its own reader and compute kernel: several seconds cold); the others are ``slow``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

import tilecraft.ttnn as ttnn
from tilecraft import device_arith as dev
from tests.emu.harness import cores, dram, kernel, output, run
from tilecraft.ttnn.wheel_ops.program import float_bits
from tilecraft.ttnn.wheel_ops.reduce import (IN, OUT, REDUCE, SCALER, reduce_cbs, reduce_compute, reduce_defines,
                                             start_id_reader)

TWO = cores(0, 0, 1, 0)


def _writer(ops: Path, out: ttnn.Tensor, per_core: dict) -> ttnn.KernelDescriptor:
    """ttnn's unary writer: per core (pages, first page) of the output."""
    return kernel(ops / "eltwise/unary/device/kernels/dataflow/writer_unary_interleaved_start_id.cpp",
                  ttnn.WriterConfigDescriptor(), TWO if len(per_core) == 2 else cores(0, 0, 0, 0),
                  rt={core: [out.buffer_address(), pages, first] for core, (pages, first) in per_core.items()},
                  ct=[OUT, *ttnn.TensorAccessorArgs(out).get_compile_time_args()])


def _tiles(x: torch.Tensor) -> torch.Tensor:
    """(rows/32, cols/32, 32, 32): the 32x32 tiles of a matrix."""
    return x.reshape(x.shape[0] // 32, 32, x.shape[1] // 32, 32).permute(0, 2, 1, 3)


def _sums(x: torch.Tensor, dim: str, scaler: float) -> torch.Tensor:
    """The device's reduce sums (HiFi4, bfloat16 DST) of ``x``'s tiles in the kernel's order, scaled
    (by a power of two, so exactly) and packed to bfloat16: one output tile per tile row (W), per
    tile column (H), or per Ht x Wt block (HW)."""
    t = _tiles(x)
    if dim == "ROW":
        red = [dev.reduce_sum(list(t[r]), "REDUCE_ROW", 4, False) for r in range(t.shape[0])]
        return dev.pack_bf16(torch.cat(red) * scaler)
    if dim == "COL":
        red = [dev.reduce_sum(list(t[:, c]), "REDUCE_COL", 4, False) for c in range(t.shape[1])]
        return dev.pack_bf16(torch.cat(red, dim=1) * scaler)
    return dev.pack_bf16(dev.reduce_sum(list(t.reshape(-1, 32, 32)), "REDUCE_SCALAR", 4, False) * scaler)


@pytest.mark.parametrize("op", ["SUM", pytest.param("MAX", marks=pytest.mark.slow)])
def test_reduce_over_w_runs_unchanged(device, ops, op) -> None:
    """W: each core reduces two rows of three tiles (the start-id reader, reduce.cpp REDUCE_ROW); the
    result is column 0 of each output tile, the rest zeroed by the packer's reduce mask."""
    torch.manual_seed(31)
    x = torch.randn(128, 96)
    scaler = 0.5 if op == "SUM" else 1.0
    src, out = dram(device, x), output(device, (128, 32))
    run([src, out], [start_id_reader(ops, src, op, "ROW", scaler, {(0, 0): (6, 0), (1, 0): (6, 6)}, TWO),
                     reduce_compute(ops, op, "ROW", 2, 3, 1, TWO), _writer(ops, out, {(0, 0): (2, 0), (1, 0): (2, 2)})],
        reduce_cbs(TWO))
    xs, got = ttnn.to_torch(src).float(), ttnn.to_torch(out).float()
    if op == "SUM":
        assert torch.equal(got, _sums(xs, "ROW", scaler))
    else:
        assert torch.equal(got[:, 0], xs.amax(dim=1)) and not got[:, 1:].any()


@pytest.mark.parametrize("op", [pytest.param("SUM", marks=pytest.mark.slow), "MAX"])
def test_reduce_over_h_runs_unchanged(device, ops, op) -> None:
    """H: the column-partitioned transposing reader feeds each core's columns (two and one of three)
    down the rows, reduce.cpp REDUCE_COL sums or maxes them into row 0."""
    torch.manual_seed(32)
    x = torch.randn(96, 96)
    scaler = 0.25 if op == "SUM" else 1.0
    src, out = dram(device, x), output(device, (32, 96))
    reader = kernel(ops / REDUCE / "dataflow/reader_unary_transpose_wh_universal_input_cols_partitioned.cpp",
                    ttnn.ReaderConfigDescriptor(), TWO, rt={(0, 0): [0, 0, 2], (1, 0): [2, 2, 1]},
                    defines=reduce_defines(op, "COL"))
    reader.bindings = ttnn.KernelBindings(
        runtime_args=["col_start_tile_id", "curr_col_in_batch", "num_cols"],
        compile_time_args={"Ht": 3, "Wt": 3, "HtWt": 9, "scaler_bits": float_bits(scaler), "use_welford": 0,
                           "enable_fp32_sfpu": 0, "tiles_per_batch": 1, "num_h_slices": 1, "slice_Ht": 3},
        dfbs={"in0": IN, "scaler": SCALER}, tensors={"src": src})
    compute = [reduce_compute(ops, op, "COL", 3, cols, 1, cores(x0, 0, x0, 0)) for x0, cols in ((0, 2), (1, 1))]
    run([src, out], [reader, *compute, _writer(ops, out, {(0, 0): (2, 0), (1, 0): (1, 2)})], reduce_cbs(TWO))
    xs, got = ttnn.to_torch(src).float(), ttnn.to_torch(out).float()
    if op == "SUM":
        assert torch.equal(got, _sums(xs, "COL", scaler))
    else:
        assert torch.equal(got[0], xs.amax(dim=0)) and not got[1:].any()


@pytest.mark.parametrize("op", ["SUM", pytest.param("MAX", marks=pytest.mark.slow)])
def test_reduce_over_hw_runs_unchanged(device, ops, op) -> None:
    """HW: two batches of 2x3 tiles, each reduced to element [0][0] of its output tile. REDUCE_SCALAR
    pools twice with the scaler in SrcB (llk_math_reduce.h), so the host passes the square root of
    the scale it wants, as ttnn's HW reduce hosts do (0.5 for 0.25)."""
    torch.manual_seed(33)
    x = torch.randn(128, 96)
    scaler = 0.25 if op == "SUM" else 1.0
    one = cores(0, 0, 0, 0)
    src, out = dram(device, x), output(device, (64, 32))
    run([src, out], [start_id_reader(ops, src, op, "SCALAR", scaler ** 0.5, {(0, 0): (12, 0)}, one),
                     reduce_compute(ops, op, "SCALAR", 2, 3, 2, one), _writer(ops, out, {(0, 0): (2, 0)})], reduce_cbs(one))
    xs, got = ttnn.to_torch(src).float(), ttnn.to_torch(out).float().reshape(2, 32, 32)
    if op == "SUM":
        want = torch.stack([_sums(xs[64 * b:64 * (b + 1)], "SCALAR", scaler) for b in range(2)])
        assert torch.equal(got, want)
    else:
        assert torch.equal(got[:, 0, 0], xs.reshape(2, -1).amax(dim=1))
        assert not got.reshape(2, -1)[:, 1:].any()
