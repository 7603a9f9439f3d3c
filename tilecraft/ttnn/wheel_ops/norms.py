"""ttnn 0.81.1's normalization programs -- softmax, layernorm and rmsnorm -- with their kernels taken
unchanged from the wheel, and the hosts that run ``ttnn.softmax``, ``ttnn.layer_norm`` and
``ttnn.rms_norm`` on them at ``--level cpp``.

The programs are the interleaved single-core ones (every tile row on core (0, 0)), with bfloat16
intermediate CBs (``fp32_dest_acc_en`` off). tests/emu/test_wheel_norms.py runs them against torch
goldens; benchmarks/emit_vs_hand.py times them as the hand-written side of its softmax and RMSNorm
yardsticks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from ..datatype import bfloat16
from ..descriptors import ComputeConfigDescriptor, ReaderConfigDescriptor, WriterConfigDescriptor
from ..layout import Layout
from ..tensor import Tensor
from .program import bound, cb, float_bits, kernel, largest_block, run_op, tile_rows
from .registry import Call, KernelHost, register

LAYERNORM = "normalization/layernorm/device/kernels"
#: CB indices of the layernorm program (any distinct indices: the kernels see only dfb:: names)
LN_CBS = {"in": 0, "inb": 1, "scaler": 2, "eps": 3, "gamma": 5, "beta": 6, "x": 24, "xmm": 18, "ex": 19, "ex2": 20,
          "xmm2": 21, "ex2pe": 22, "fusion": 23, "out": 16,
          "accumulate": 25}


def layernorm_program(ops: Path, x: Tensor, out: Tensor, eps: float, block: int,
                      gamma: Tensor | None, beta: Tensor | None, rms: bool,
                      large: bool = False) -> tuple[list, list]:
    """The kernels and CBs of ttnn's interleaved layernorm (one core, every tile row): the reader
    (scaler and eps tiles, the rows block by block, gamma and beta once), layernorm.cpp (RMSNORM
    defined for rmsnorm), the blocked writer. The reader is reader_unary_interleaved_ln.cpp, or
    reader_unary_interleaved_ln_rm_gb.cpp when gamma/beta are row-major ([Wt, 32] sticks of 32
    values, which it lays into row 0 of each tile's two upper faces), as the program factory picks.
    ``large``: the variant for rows that do not fit in L1 (layernorm_large_tensor.cpp and
    reader_unary_interleaved_ln_large_tensor.cpp), which streams each row three times (mean,
    variance, normalization) through CBs of two blocks and accumulates the sums in a CB."""
    rows, wt = tile_rows(x)
    width = wt * 32
    eps_bits = float_bits(eps)
    defines = ([("RMSNORM", "1")] if rms else []) + ([("FUSE_GAMMA", "1")] if gamma is not None else []) \
        + ([("FUSE_BETA", "1")] if beta is not None else [])
    tensors = {"src": x, **({"gamma": gamma} if gamma is not None else {}), **({"beta": beta} if beta is not None else {})}
    reader_dfbs = ["in", "scaler", "eps"] + (["gamma"] if gamma is not None else []) + (["beta"] if beta is not None else [])
    affine = gamma if gamma is not None else beta
    rm_gb = affine is not None and affine.layout == Layout.ROW_MAJOR
    reader_file = ("reader_unary_interleaved_ln_large_tensor.cpp" if large else
                   "reader_unary_interleaved_ln_rm_gb.cpp" if rm_gb else "reader_unary_interleaved_ln.cpp")
    reader = bound(kernel(ops / LAYERNORM / "dataflow" / reader_file, ReaderConfigDescriptor(),
                          rt=[rows, wt, 0, eps_bits], defines=defines),
                   runtime_args=["NCHt", "Wt", "reader_start", "eps"],
                   compile_time_args={"block_size": block, "W": width},
                   dfbs={n: LN_CBS[n] for n in reader_dfbs}, tensors=tensors)
    names = ["scaler", "eps", "in", "out", "ex2", "xmm2", "ex2pe"] + ([] if rms else ["xmm", "ex"]) \
        + (["gamma"] if gamma is not None else []) + (["beta"] if beta is not None else []) \
        + (["fusion"] if gamma is not None or beta is not None else []) + (["accumulate", "xmm"] if large else [])
    compute_file = "compute/layernorm_large_tensor.cpp" if large else "compute/layernorm.cpp"
    compute = bound(kernel(ops / LAYERNORM / compute_file, ComputeConfigDescriptor(), rt=[rows], defines=defines),
                    runtime_args=["NCHt"],
                    compile_time_args={"Wt": wt, "block_size": block, "do_gamma": int(gamma is not None),
                                       "do_beta": int(beta is not None), "fp32_dest_acc_en": 0,
                                       "float32_reduction": 0, "W": width, "tile_width": 32},
                    dfbs={n: LN_CBS[n] for n in names})
    writer = bound(kernel(ops / LAYERNORM / "dataflow/writer_unary_interleaved_start_id_blocked.cpp",
                          WriterConfigDescriptor(), rt=[wt, rows, 0]),
                   runtime_args=["Wt", "num_tile_rows", "writer_start"], compile_time_args={"block_size": block},
                   dfbs={"out": LN_CBS["out"]}, tensors={"dst": out})
    row = 2 * block if large else -(-wt // block) * block  # a row in whole blocks, or two blocks streamed
    pages = {"in": row, "scaler": 2, "eps": 1, "out": 2 * block, "xmm": row, "ex": 1, "ex2": 1, "xmm2": row,
             "ex2pe": 1, "gamma": row, "beta": row, "fusion": 2 * block, "accumulate": 2}
    cbs = [cb(LN_CBS[n], pages=pages[n]) for n in dict.fromkeys(["in", *reader_dfbs, *names])]
    return [reader, compute, writer], cbs


SOFTMAX = "normalization/softmax/device/kernels/attention"
SM_CBS = {"in0": 0, "max_scaler": 2, "sum_scaler": 3, "mask_padded": 5, "out0": 16, "exps": 24, "recip_sum_exps": 25,
          "max": 26, "x": 27}


def softmax_program(ops: Path, x: Tensor, out: Tensor, block: int, stable: bool, padded: int) -> tuple[list, list]:
    """ttnn's interleaved softmax over the last dim (one core, every tile row): reader_unary_interleaved_sm.cpp
    (the MAX and SUM reduce scalers, the rows block by block), softmax.cpp (NUMERIC_STABLE subtracts
    the row max first; MASK_PADDED_DATA adds -inf to the ``padded`` tile-padding columns of the last
    tile), writer_unary_interleaved_start_id_blocked_sm.cpp (which builds that -inf mask tile)."""
    rows, wt = tile_rows(x)
    row = -(-wt // block) * block
    in0_t = row if stable else 2 * block  # the factory's capacities: a whole row when the max is taken first
    defines = [("EXP_APPROX", "0")] + ([("NUMERIC_STABLE", "1")] if stable else []) \
        + ([("MASK_PADDED_DATA", "1")] if padded else [])
    reader = bound(kernel(ops / SOFTMAX / "dataflow/reader_unary_interleaved_sm.cpp", ReaderConfigDescriptor(),
                          rt=[block, rows, 0, wt], defines=defines),
                   runtime_args=["blk", "num_rows", "tile_offset", "Wt"], compile_time_args={"in0_t": in0_t},
                   dfbs={n: SM_CBS[n] for n in ("in0", "max_scaler", "sum_scaler")}, tensors={"src": x})
    names = ["max_scaler", "sum_scaler", "exps", "recip_sum_exps", "in0", "out0"] + (["max"] if stable else []) \
        + (["mask_padded"] if padded else []) + (["x"] if stable and padded else [])
    compute = bound(kernel(ops / SOFTMAX / "compute/softmax.cpp", ComputeConfigDescriptor(),
                           rt=[rows, rows, wt, block, 0], defines=defines),
                    runtime_args=["num_rows", "Ht", "Wt", "blk", "start_ht"], compile_time_args={"in0_t": in0_t},
                    dfbs={n: SM_CBS[n] for n in names})
    writer = bound(kernel(ops / SOFTMAX / "dataflow/writer_unary_interleaved_start_id_blocked_sm.cpp",
                          WriterConfigDescriptor(), rt=[rows * wt, 0, block, wt]),
                   runtime_args=["num_tiles", "tile_offset", "blk", "Wt"],
                   compile_time_args={"num_datum_padded": padded, "tile_hw": 32 * 32,
                                      "mask_padded_data": int(bool(padded))},
                   dfbs={"out0": SM_CBS["out0"], "mask_padded": SM_CBS["mask_padded"]}, tensors={"dst": out})
    pages = {"in0": in0_t, "max_scaler": 1, "sum_scaler": 1, "mask_padded": 1, "out0": 2 * block, "exps": row,
             "recip_sum_exps": 1, "max": 1, "x": row}
    return [reader, compute, writer], [cb(SM_CBS[n], pages=pages[n]) for n in dict.fromkeys([*names, "mask_padded"])]


def _row_refusal(x: Tensor, what: str) -> Optional[str]:
    if x.layout is not Layout.TILE or x.dtype is not bfloat16:
        return f"{what} runs on bfloat16 tile-layout input"
    if x.shape.rank < 2:
        return f"{what} needs a rank-2 or higher input"
    return None


def _refuse_softmax(call: Call) -> Optional[str]:
    x = call.operands[0]
    if len(call.operands) > 1 or call.params.get("scale") is not None:
        return "a scale or mask"
    if call.params["dim"] not in (-1, x.shape.rank - 1):
        return "softmax over a dim other than the last"
    if call.dtype is not bfloat16:
        return "a result dtype other than bfloat16"
    return _row_refusal(x, "softmax")


def _run_softmax(ops: Path, call: Call) -> Tensor:
    x, out = call.operands[0], call.output()
    wt = tile_rows(x)[1]
    padded = wt * 32 - x.shape[-1]
    kernels, cbs = softmax_program(ops, x, out, largest_block(wt), bool(call.params["stable"]), padded)
    return run_op([x, out], kernels, cbs)


def _refuse_norm(call: Call) -> Optional[str]:
    x = call.operands[0]
    given = dict(zip(call.params["present"], call.operands[1:]))
    if "residual" in given:
        return "a residual input"
    if call.params["fp32"]:
        return "fp32_dest_acc_en (the host runs bfloat16 intermediates: pass a compute_kernel_config without it)"
    if x.shape[-1] % 32:
        return "a last dim that is not a whole number of tiles"
    for name, vector in given.items():
        if vector.dtype is not bfloat16:
            return f"a {name} that is not bfloat16"
        if vector.layout is Layout.TILE and vector.padded_shape.volume() != 32 * x.shape[-1]:
            return f"a {name} of more than one row"
    if call.dtype is not bfloat16:
        return "a result dtype other than bfloat16"
    return _row_refusal(x, call.op)


def _run_norm(ops: Path, call: Call) -> Tensor:
    x, out = call.operands[0], call.output()
    given = dict(zip(call.params["present"], call.operands[1:]))
    gamma, beta = given.get("weight"), given.get("bias")
    kernels, cbs = layernorm_program(ops, x, out, call.params["epsilon"], largest_block(tile_rows(x)[1]), gamma, beta,
                                     rms=call.params["rms"])
    return run_op([x, *(v for v in (gamma, beta) if v is not None), out], kernels, cbs)


register(KernelHost("softmax", "softmax.cpp with its reader and blocked writer (normalization/softmax)",
                    _refuse_softmax, _run_softmax))
register(KernelHost("layer_norm", "layernorm.cpp with its reader and blocked writer (normalization/layernorm)",
                    _refuse_norm, _run_norm))
register(KernelHost("rms_norm", "layernorm.cpp with RMSNORM defined, its reader and blocked writer",
                    _refuse_norm, _run_norm))
