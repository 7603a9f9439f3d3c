"""ttnn 0.81.1's reduction over W, with its kernels taken unchanged from the wheel, and the host that
runs ``ttnn.sum``, ``ttnn.mean`` and ``ttnn.max`` over the last dim (``keepdim=True``) on it at
``--level cpp``.

The generic reduce op's program: reader_unary_reduce_universal_start_id.cpp streams the tiles row by
row and prepares the scaler tile (1, or 1/W for a mean), reduce.cpp (kernel_lib's reduce helper,
REDUCE_ROW) sums or maxes each tile row on the FPU into column 0 of one output tile, the unary writer
stores it. The kernels are Metal 2.0 kernels, given their names through ``KernelBindings``.
tests/emu/test_wheel_reduce.py runs the same kernels (over W, H and HW, on two cores) against the
device's arithmetic.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from ..datatype import bfloat16
from ..descriptors import ComputeConfigDescriptor, KernelDescriptor, ReaderConfigDescriptor
from ..layout import Layout
from ..tensor import Tensor
from .eltwise import unary_writer
from .program import ONE, bound, cb, float_bits, kernel, run_op, tile_rows
from .registry import Call, KernelHost, register

REDUCE = "reduction/generic/device/kernels"
#: the program's CBs: input tiles, the scaler tile, output tiles
IN, SCALER, OUT = 0, 2, 3
#: tiles the reader reads per NoC barrier (the input CB holds two)
TILES_PER_BATCH = 2


def reduce_defines(op: str, dim: str) -> list[tuple[str, str]]:
    """The reduce factory's defines: the pool type and dim (spelled with ``ckernel::``, which the
    data-movement side does not import), a bfloat16 DST, half-sync DST."""
    return [("REDUCE_OP", f"ckernel::PoolType::{op}"), ("REDUCE_DIM", f"ckernel::ReduceDim::REDUCE_{dim}"),
            ("ENABLE_FP32_DEST_ACC", "0"), ("DST_SYNC_FULL", "0")]


def reduce_compute(ops: Path, op: str, dim: str, ht: int, wt: int, nc: int, core_ranges) -> KernelDescriptor:
    """reduce.cpp over ``nc`` batches of ``ht`` x ``wt`` tiles."""
    return bound(kernel(ops / REDUCE / "compute/reduce.cpp", ComputeConfigDescriptor(), core_ranges,
                        defines=reduce_defines(op, dim)),
                 compile_time_args={"Ht": ht, "Wt": wt, "NC": nc, "enable_fp32_sfpu": 0},
                 dfbs={"in0": IN, "scaler": SCALER, "out": OUT})


def start_id_reader(ops: Path, src: Tensor, op: str, dim: str, scaler: float, per_core: dict,
                    core_ranges) -> KernelDescriptor:
    """reader_unary_reduce_universal_start_id.cpp: per core (tiles, first tile) in row-major order."""
    return bound(kernel(ops / REDUCE / "dataflow/reader_unary_reduce_universal_start_id.cpp", ReaderConfigDescriptor(),
                        core_ranges, rt={core: [tiles, first] for core, (tiles, first) in per_core.items()},
                        defines=reduce_defines(op, dim)),
                 runtime_args=["num_tiles", "start_id"],
                 compile_time_args={"scaler_bits": float_bits(scaler), "tiles_per_batch": TILES_PER_BATCH},
                 dfbs={"in0": IN, "scaler": SCALER}, tensors={"src": src})


def reduce_cbs(core_ranges, in_pages: int = TILES_PER_BATCH) -> list:
    return [cb(IN, pages=in_pages, core_ranges=core_ranges), cb(SCALER, pages=1, core_ranges=core_ranges),
            cb(OUT, core_ranges=core_ranges)]


#: the primitive -> the reduce factory's pool type
POOL = {"sum": "SUM", "mean": "SUM", "max": "MAX"}


def _refuse(call: Call) -> Optional[str]:
    (x,) = call.operands
    dim = call.params["dim"]
    rank = x.shape.rank
    dims = (dim,) if isinstance(dim, int) else tuple(dim) if dim is not None else tuple(range(rank))
    if rank < 2 or [d % rank for d in dims] != [rank - 1]:
        return "a reduction over dims other than the last"
    if not call.params["keepdim"]:
        return "keepdim=False"
    if x.dtype is not bfloat16 or x.layout is not Layout.TILE or call.dtype is not bfloat16:
        return "input or result not bfloat16 in tile layout"
    if call.op == "max" and x.shape[-1] % 32:
        return "a max over a width that is not whole tiles (the padding would count)"
    return None


def _run(ops: Path, call: Call) -> Tensor:
    (x,) = call.operands
    out = call.output()
    rows, wt = tile_rows(x)
    scaler = 1.0 / x.shape[-1] if call.op == "mean" else 1.0
    kernels = [start_id_reader(ops, x, POOL[call.op], "ROW", scaler, {(0, 0): (rows * wt, 0)}, ONE),
               reduce_compute(ops, POOL[call.op], "ROW", rows, wt, 1, ONE), unary_writer(ops, out, OUT, rows)]
    return run_op([x, out], kernels, reduce_cbs(ONE))


for _op in POOL:
    register(KernelHost(_op, "reduce.cpp (REDUCE_ROW) with the start-id reader and the unary writer", _refuse, _run))
