"""Hosts for ttnn 0.81.1 kernels, written on the ``generic_op`` API: CB and kernel descriptors, and
the programs of ttnn's own normalization kernels (softmax, layernorm/rmsnorm) taken unchanged from
the wheel (tilecraft/emu/wheel_kernels.py). The emulator's tests run them against torch goldens
(tests/emu/test_wheel_norms.py); benchmarks/emit_vs_hand.py times them as the hand-written side of
its softmax and RMSNorm yardsticks.

The kernels are Metal 2.0 kernels: they name their arguments and buffers (``args::Wt``,
``dfb::scaler``, ``tensor::src``), which the hosts declare with ``ttnn.KernelBindings``
(tilecraft's stand-in for the C++ host's schema; docs/emulator.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

import torch

import tilecraft.ttnn as ttnn

ONE = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(0, 0))])


def cb(index: int, dtype=ttnn.bfloat16, pages: int = 2, core_ranges: ttnn.CoreRangeSet = ONE,
       page_size: int | None = None, tile: ttnn.TileDescriptor | None = None) -> ttnn.CBDescriptor:
    """A CB of ``pages`` pages (tiles of ``dtype`` unless ``page_size`` says otherwise)."""
    size = dtype.tile_bytes if page_size is None else page_size
    fmt = ttnn.CBFormatDescriptor(buffer_index=index, data_format=dtype, page_size=size, tile=tile)
    return ttnn.CBDescriptor(total_size=pages * size, core_ranges=core_ranges, format_descriptors=[fmt])


def kernel(path: Path, config, core_ranges: ttnn.CoreRangeSet = ONE, rt: dict | list | None = None,
           ct: Iterable[int] = (), common: Iterable[int] = (), defines: Iterable[tuple[str, str]] = (),
           named: Iterable[tuple[str, int]] = ()) -> ttnn.KernelDescriptor:
    """A kernel over ``core_ranges``; ``rt`` is {(x, y): args} or one list for every core."""
    runtime = ttnn.RuntimeArgs()
    if rt is not None:
        table = rt if isinstance(rt, dict) else {c: rt for c in ttnn.corerange_to_cores(core_ranges)}
        for core, args in table.items():
            x, y = (core.x, core.y) if isinstance(core, ttnn.CoreCoord) else core
            runtime[x][y] = list(args)
    return ttnn.KernelDescriptor(kernel_source=str(path), source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
                                 core_ranges=core_ranges, compile_time_args=list(ct),
                                 named_compile_time_args=list(named), defines=list(defines),
                                 runtime_args=runtime, common_runtime_args=list(common), config=config)


def run(tensors: list[ttnn.Tensor], kernels: list, cbs: list, semaphores: list = ()) -> ttnn.Tensor:
    """One generic_op program of ``kernels`` and ``cbs`` over ``tensors``."""
    return ttnn.generic_op(tensors, ttnn.ProgramDescriptor(kernels=list(kernels), semaphores=list(semaphores),
                                                           cbs=list(cbs)))


LAYERNORM = "normalization/layernorm/device/kernels"
#: CB indices of the layernorm program (any distinct indices: the kernels see only dfb:: names)
LN_CBS = {"in": 0, "inb": 1, "scaler": 2, "eps": 3, "gamma": 5, "beta": 6, "x": 24, "xmm": 18, "ex": 19, "ex2": 20,
          "xmm2": 21, "ex2pe": 22, "fusion": 23, "out": 16,
          "accumulate": 25}


def float_bits(value: float) -> int:
    """A float32's bits, as hosts pass a float runtime arg (eps)."""
    return int(torch.tensor([value], dtype=torch.float32).view(torch.int32).item())


def bound(desc: ttnn.KernelDescriptor, **bindings) -> ttnn.KernelDescriptor:
    """``desc`` with the names a Metal 2.0 kernel gives its arguments, buffers and tensors."""
    desc.bindings = ttnn.KernelBindings(**bindings)
    return desc


def layernorm_program(ops: Path, x: ttnn.Tensor, out: ttnn.Tensor, eps: float, block: int,
                      gamma: ttnn.Tensor | None, beta: ttnn.Tensor | None, rms: bool,
                      large: bool = False) -> tuple[list, list]:
    """The kernels and CBs of ttnn's interleaved layernorm (one core, every tile row): the reader
    (scaler and eps tiles, the rows block by block, gamma and beta once), layernorm.cpp (RMSNORM
    defined for rmsnorm), the blocked writer. The reader is reader_unary_interleaved_ln.cpp, or
    reader_unary_interleaved_ln_rm_gb.cpp when gamma/beta are row-major ([Wt, 32] sticks of 32
    values, which it lays into row 0 of each tile's two upper faces), as the program factory picks.
    ``large``: the variant for rows that do not fit in L1 (layernorm_large_tensor.cpp and
    reader_unary_interleaved_ln_large_tensor.cpp), which streams each row three times (mean,
    variance, normalization) through CBs of two blocks and accumulates the sums in a CB."""
    rows, wt = x.shape[-2] // 32, x.shape[-1] // 32
    width = x.shape[-1]
    eps_bits = float_bits(eps)
    defines = ([("RMSNORM", "1")] if rms else []) + ([("FUSE_GAMMA", "1")] if gamma is not None else []) \
        + ([("FUSE_BETA", "1")] if beta is not None else [])
    tensors = {"src": x, **({"gamma": gamma} if gamma is not None else {}), **({"beta": beta} if beta is not None else {})}
    reader_dfbs = ["in", "scaler", "eps"] + (["gamma"] if gamma is not None else []) + (["beta"] if beta is not None else [])
    affine = gamma if gamma is not None else beta
    rm_gb = affine is not None and affine.layout == ttnn.ROW_MAJOR_LAYOUT
    reader_file = ("reader_unary_interleaved_ln_large_tensor.cpp" if large else
                   "reader_unary_interleaved_ln_rm_gb.cpp" if rm_gb else "reader_unary_interleaved_ln.cpp")
    reader = bound(kernel(ops / LAYERNORM / "dataflow" / reader_file, ttnn.ReaderConfigDescriptor(),
                           rt=[rows, wt, 0, eps_bits], defines=defines),
                    runtime_args=["NCHt", "Wt", "reader_start", "eps"],
                    compile_time_args={"block_size": block, "W": width},
                    dfbs={n: LN_CBS[n] for n in reader_dfbs}, tensors=tensors)
    names = ["scaler", "eps", "in", "out", "ex2", "xmm2", "ex2pe"] + ([] if rms else ["xmm", "ex"]) \
        + (["gamma"] if gamma is not None else []) + (["beta"] if beta is not None else []) \
        + (["fusion"] if gamma is not None or beta is not None else []) + (["accumulate", "xmm"] if large else [])
    compute_file = "compute/layernorm_large_tensor.cpp" if large else "compute/layernorm.cpp"
    compute = bound(kernel(ops / LAYERNORM / compute_file, ttnn.ComputeConfigDescriptor(), rt=[rows],
                            defines=defines),
                     runtime_args=["NCHt"],
                     compile_time_args={"Wt": wt, "block_size": block, "do_gamma": int(gamma is not None),
                                        "do_beta": int(beta is not None), "fp32_dest_acc_en": 0,
                                        "float32_reduction": 0, "W": width, "tile_width": 32},
                     dfbs={n: LN_CBS[n] for n in names})
    writer = bound(kernel(ops / LAYERNORM / "dataflow/writer_unary_interleaved_start_id_blocked.cpp",
                           ttnn.WriterConfigDescriptor(), rt=[wt, rows, 0]),
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


def softmax_program(ops: Path, x: ttnn.Tensor, out: ttnn.Tensor, block: int, stable: bool,
                    padded: int) -> tuple[list, list]:
    """ttnn's interleaved softmax over the last dim (one core, every tile row): reader_unary_interleaved_sm.cpp
    (the MAX and SUM reduce scalers, the rows block by block), softmax.cpp (NUMERIC_STABLE subtracts
    the row max first; MASK_PADDED_DATA adds -inf to the ``padded`` tile-padding columns of the last
    tile), writer_unary_interleaved_start_id_blocked_sm.cpp (which builds that -inf mask tile)."""
    rows, wt = x.padded_shape[-2] // 32, x.padded_shape[-1] // 32
    row = -(-wt // block) * block
    in0_t = row if stable else 2 * block  # the factory's capacities: a whole row when the max is taken first
    defines = [("EXP_APPROX", "0")] + ([("NUMERIC_STABLE", "1")] if stable else []) \
        + ([("MASK_PADDED_DATA", "1")] if padded else [])
    reader = bound(kernel(ops / SOFTMAX / "dataflow/reader_unary_interleaved_sm.cpp", ttnn.ReaderConfigDescriptor(),
                           rt=[block, rows, 0, wt], defines=defines),
                    runtime_args=["blk", "num_rows", "tile_offset", "Wt"], compile_time_args={"in0_t": in0_t},
                    dfbs={n: SM_CBS[n] for n in ("in0", "max_scaler", "sum_scaler")}, tensors={"src": x})
    names = ["max_scaler", "sum_scaler", "exps", "recip_sum_exps", "in0", "out0"] + (["max"] if stable else []) \
        + (["mask_padded"] if padded else []) + (["x"] if stable and padded else [])
    compute = bound(kernel(ops / SOFTMAX / "compute/softmax.cpp", ttnn.ComputeConfigDescriptor(),
                            rt=[rows, rows, wt, block, 0], defines=defines),
                     runtime_args=["num_rows", "Ht", "Wt", "blk", "start_ht"], compile_time_args={"in0_t": in0_t},
                     dfbs={n: SM_CBS[n] for n in names})
    writer = bound(kernel(ops / SOFTMAX / "dataflow/writer_unary_interleaved_start_id_blocked_sm.cpp",
                           ttnn.WriterConfigDescriptor(), rt=[rows * wt, 0, block, wt]),
                    runtime_args=["num_tiles", "tile_offset", "blk", "Wt"],
                    compile_time_args={"num_datum_padded": padded, "tile_hw": 32 * 32,
                                       "mask_padded_data": int(bool(padded))},
                    dfbs={"out0": SM_CBS["out0"], "mask_padded": SM_CBS["mask_padded"]}, tensors={"dst": out})
    pages = {"in0": in0_t, "max_scaler": 1, "sum_scaler": 1, "mask_padded": 1, "out0": 2 * block, "exps": row,
             "recip_sum_exps": 1, "max": 1, "x": row}
    return [reader, compute, writer], [cb(SM_CBS[n], pages=pages[n]) for n in dict.fromkeys([*names, "mask_padded"])]
