"""ttnn 0.81.1's normalization kernels (layernorm, rmsnorm, softmax, the distributed norms' two
halves), taken unchanged from the ttnn wheel, run on the emulator with hosts written on the 0.81.1
``generic_op`` API, against torch goldens.

The softmax and layernorm programs are tilecraft/ttnn/wheel_ops/norms.py's (``ttnn.softmax``,
``ttnn.layer_norm`` and ``ttnn.rms_norm`` run on them at ``--level cpp``; benchmarks/emit_vs_hand.py
times them too); the kernels are Metal 2.0 kernels, their compute kernels built on ttnn's kernel_lib (the eltwise chain, the reduce helpers). The wheel is fetched at test
time (the ``ops`` fixture, tests/emu/conftest.py).

Tolerance. The device keeps every intermediate in a bfloat16 CB (fp32_dest_acc_en off, as here):
x - E[x], its square, Var[x] + eps and 1/sqrt(Var[x] + eps) are each rounded to 8 significant bits
before the next step, and the FPU sums the row in bfloat16-rounded partial sums. Each rounding is
at most 2^-9 relative, six of them in a chain and a sum of W terms: the normalized values may be
off by a few percent of their size, so the goldens (float64 on the same bfloat16 inputs) are met
within 2^-5 relative plus 2^-5 absolute (measured: at most 0.66 of that bound), and the mean
error must stay below 2^-7 (measured: 0.0025 to 0.0031). These bound rounding, not a wrong
formula: a mean not subtracted, a missing 1/W or a swapped gamma/beta is off by far more.
Softmax likewise rounds exp(x - max) to bfloat16, sums it in a bfloat16 DST, takes a bfloat16
reciprocal and multiplies: within 2^-5 of each probability plus 2^-9 (measured: at most 0.42 of
that bound); a sum over the padding or a missing max is off by far more.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

import tilecraft.ttnn as ttnn
from tilecraft.diagnostics import DiagnosticWarning, KernelError
from tilecraft.ttnn.wheel_ops.norms import layernorm_program, softmax_program
from tilecraft.ttnn.wheel_ops.program import bound, float_bits
from tests.emu.harness import KERNELS, cb, compute, dram, kernel, output, reader, run, write_kernel, writer

def norm_golden(x: torch.Tensor, eps: float, gamma, beta, rms: bool) -> torch.Tensor:
    x = x.double()
    centred = x if rms else x - x.mean(-1, keepdim=True)
    y = centred / torch.sqrt(centred.pow(2).mean(-1, keepdim=True) + eps)
    if gamma is not None:
        y = y * gamma.double()
    if beta is not None:
        y = y + beta.double()
    return y


@pytest.mark.parametrize("large,rms,affine,width,block", [
    (False, False, "gamma+beta", 96, 3),
    pytest.param(False, True, "row-major gamma", 64, 2, marks=pytest.mark.slow),
    pytest.param(True, False, "gamma+beta", 128, 2, marks=pytest.mark.slow),
    pytest.param(False, False, "", 64, 2, marks=pytest.mark.slow),
    pytest.param(False, True, "", 64, 1, marks=pytest.mark.slow),
    pytest.param(False, True, "gamma+beta", 96, 1, marks=pytest.mark.slow),
    pytest.param(False, False, "row-major gamma+beta", 96, 3, marks=pytest.mark.slow),
    pytest.param(True, False, "", 64, 1, marks=pytest.mark.slow),
    pytest.param(True, True, "gamma", 96, 1, marks=pytest.mark.slow),
])
def test_ttnn_layernorm_and_rmsnorm_kernels_run_unchanged(device, ops, large, rms, affine, width,
                                                           block) -> None:
    """layernorm.cpp with its reader and writer, as layernorm and (RMSNORM defined, the 0.81.1
    rmsnorm) as rmsnorm, with and without gamma/beta (tiles, or row-major sticks through the
    rm_gb reader), two rows of tiles, a row in one or more blocks (the block size divides Wt, as
    the program factory picks it: find_max_divisor(Wt, 8)); and the large-tensor variant, which
    streams each row through CBs of two blocks (under RMSNORM it reads the reduce scaler without
    waiting for it, which the emulator refuses)."""
    torch.manual_seed(31)
    x = torch.randn(64, width) * 2 + 0.5
    gamma = torch.randn(32, width) if "gamma" in affine else None
    beta = torch.randn(32, width) if "beta" in affine else None
    tx, out = dram(device, x), output(device, (64, width))
    if "row-major" in affine:  # one [Wt, 32] stick tensor per vector, as ttnn reshapes gamma/beta
        gamma, beta = (None if v is None else v[:1].reshape(width // 32, 32) for v in (gamma, beta))
        tg, tb = (None if v is None else dram(device, v, layout=ttnn.ROW_MAJOR_LAYOUT) for v in (gamma, beta))
        vectors = [None if t is None else ttnn.to_torch(t).reshape(1, width) for t in (tg, tb)]
    else:
        tg, tb = (None if v is None else dram(device, v) for v in (gamma, beta))
        vectors = [None if t is None else ttnn.to_torch(t)[:1] for t in (tg, tb)]
    eps = 1e-5
    kernels, cbs = layernorm_program(ops, tx, out, eps, block, tg, tb, rms, large)
    tensors = [t for t in (tx, out, tg, tb) if t is not None]
    if large and rms:
        # under RMSNORM the large-tensor kernel never waits for the reduce scaler (its only wait is in
        # the E[x] pass, compiled out): the emulator stops at the first read of it (E5207)
        with pytest.raises(KernelError) as info:
            run(tensors, kernels, cbs)
        d = info.value.diagnostic
        source = Path(kernels[1].kernel_source).read_text().splitlines()
        assert d.code == "E5207" and "CB 2" in d.message and "reduce_tile" in source[d.span.line - 1], d
        return
    if large:
        # it packs its running row sums after reduce_uninit() (only their column 0 is read: E5406)
        # and 1/sqrt(Var + eps) into a page it did not reserve (free: E5210)
        with pytest.warns(DiagnosticWarning) as caught:
            run(tensors, kernels, cbs)
        codes = {w.message.diagnostic.code for w in caught if isinstance(w.message, DiagnosticWarning)}
        assert codes == {"E5406", "E5210"}, codes
    else:
        run(tensors, kernels, cbs)
    want = norm_golden(ttnn.to_torch(tx), eps, *vectors, rms)
    got = ttnn.to_torch(out).double()
    err = (got - want).abs()
    assert torch.all(err <= 2 ** -5 + 2 ** -5 * want.abs()), err.max()
    assert err.mean() < 2 ** -7, err.mean()


@pytest.mark.parametrize("stable,width,block", [
    (True, 80, 2),
    pytest.param(False, 96, 3, marks=pytest.mark.slow),
    pytest.param(True, 96, 1, marks=pytest.mark.slow),
    pytest.param(False, 80, 3, marks=pytest.mark.slow),
])
def test_ttnn_softmax_kernels_run_unchanged(device, ops, stable, width, block) -> None:
    """softmax.cpp with its reader and writer over rows of 3 tiles: numerically stable (max
    subtracted) or not, and a width that is not a whole number of tiles (80 of 96 columns: the
    writer's -inf mask keeps the padding out of each row's sum)."""
    torch.manual_seed(35)
    x = torch.randn(64, width) * 3
    tx, out = dram(device, x), output(device, (64, width))
    padded = -width % 32
    kernels, cbs = softmax_program(ops, tx, out, block, stable, padded)
    if padded:
        # the writer pushes its mask tile without reserving it: it arrives (the CB is empty), E5210
        with pytest.warns(DiagnosticWarning) as caught:
            run([tx, out], kernels, cbs)
        writer = Path(kernels[2].kernel_source)
        push = next(i for i, text in enumerate(writer.read_text().splitlines(), 1)
                    if "dfb_id_mask_obj.push_back(1);" in text)
        found = [(w.message.diagnostic.code, w.message.diagnostic.span.line) for w in caught
                 if isinstance(w.message, DiagnosticWarning)]
        assert found == [("E5210", push)], found
    else:
        run([tx, out], kernels, cbs)
    want = torch.softmax(ttnn.to_torch(tx).double(), -1)
    got = ttnn.to_torch(out).double()
    assert got.shape == want.shape == (64, width)
    err = (got - want).abs()
    assert torch.all(err <= 2 ** -9 + 2 ** -5 * want), err.max()


DISTRIBUTED = "normalization/layernorm_distributed/device/kernels/dataflow"
RMS_DISTRIBUTED = "normalization/rmsnorm_distributed/device/kernels/compute"


def distributed_pre_program(ops: Path, x: ttnn.Tensor, stats: ttnn.Tensor, block: int,
                            layernorm: bool) -> tuple[list, list]:
    """The statistics half of the distributed rmsnorm: layernorm_distributed's reader
    (reader_unary_interleaved_ln_rm_gb_pre_allgather.cpp: the reduce scaler, then the rows tile by
    tile), rmsnorm_distributed's rmsnorm_pre_allgather.cpp (x^2, then kernel_lib's row reduce
    with the reader's scaler of 1: the sum of squares of each row, in column 0 of one tile per
    tile row) and layernorm_distributed's blocked writer. ``layernorm``: layernorm_distributed's
    layernorm_pre_allgather.cpp, which writes the row sum too (two tiles per tile row)."""
    rows, wt = x.shape[-2] // 32, x.shape[-1] // 32
    pre = (ops / "normalization/layernorm_distributed/device/kernels/compute/layernorm_pre_allgather.cpp"
           if layernorm else ops / RMS_DISTRIBUTED / "rmsnorm_pre_allgather.cpp")
    index = {"in0": 0, "reduce": 2, "x2": 24, "out": 16}
    reader = bound(kernel(ops / DISTRIBUTED / "reader_unary_interleaved_ln_rm_gb_pre_allgather.cpp",
                           ttnn.ReaderConfigDescriptor(), rt=[rows, wt, 0]),
                    runtime_args=["NCHt", "Wt", "tile_offset"], compile_time_args={"blk": block},
                    dfbs={"inp": index["in0"], "reduce": index["reduce"]}, tensors={"src": x})
    compute = bound(kernel(pre, ttnn.ComputeConfigDescriptor(), rt=[rows]),
                     runtime_args=["NCHt"], compile_time_args={"Wt": wt, "blk": block, "unpack_fp32_active": 0},
                     dfbs=index)
    writer = bound(kernel(ops / DISTRIBUTED / "writer_unary_interleaved_start_id_blocked.cpp",
                           ttnn.WriterConfigDescriptor(), rt=[rows * (2 if layernorm else 1), 0]),
                    runtime_args=["num_tiles", "tile_offset"], compile_time_args={"blk": 1},
                    dfbs={"out": index["out"]}, tensors={"dst": stats})
    pages = {"in0": wt, "reduce": 1, "x2": wt, "out": 2}
    return [reader, compute, writer], [cb(index[n], pages=pages[n]) for n in index]


def distributed_post_program(ops: Path, x: ttnn.Tensor, stats: ttnn.Tensor, gamma: ttnn.Tensor | None,
                             out: ttnn.Tensor, eps: float, block: int, compute_file: str) -> tuple[list, list]:
    """The normalization half: layernorm_distributed's reader_unary_interleaved_ln_rm_gb_post_allgather.cpp
    (the AVG reduce scaler 1/W, eps, per row the statistics tile then the row, gamma once, a tile's
    row 0 from a tile or a row-major stick), rmsnorm_post_allgather_metal2.cpp (the statistics
    reduced to E[x^2], 1/sqrt(E[x^2] + eps), x times it, times gamma) and the blocked writer.
    ``compute_file`` "legacy": rmsnorm_post_allgather.cpp instead, the file the Metal 2.0 one forks
    (positional args, fixed CB indices, the kernel_lib eltwise chain), with the reader bound to its
    indices; "layernorm": layernorm_distributed's layernorm_post_allgather.cpp (statistics E[x^2]
    and E[x], x - E[x] normalized by 1/sqrt(E[x^2] - E[x]^2 + eps))."""
    legacy, layernorm = compute_file == "legacy", compute_file == "layernorm"
    rows, wt = x.shape[-2] // 32, x.shape[-1] // 32
    defines = [("FUSE_GAMMA", "1")] if gamma is not None else []
    index = ({"inp": 0, "stats": 1, "gamma": 2, "eps": 4, "reduce": 5, "var": 8, "recip_sqrt_var": 10,
              "x_normed": 12, "out": 14} if legacy else
             {"inp": 0, "stats": 1, "reduce": 2, "eps": 3, "gamma": 5, "var": 24, "recip_sqrt_var": 25,
              "x_normed": 26, "out": 16})
    if layernorm:
        index |= {"stats_reduced": 27, "x_minus_mean": 28, "mean_squared": 29}
    names = [n for n in index if gamma is not None or n not in ("gamma", "x_normed")]
    eps_bits = float_bits(eps)
    reader = bound(kernel(ops / DISTRIBUTED / "reader_unary_interleaved_ln_rm_gb_post_allgather.cpp",
                           ttnn.ReaderConfigDescriptor(), rt=[rows, 0, 0, 0, eps_bits], defines=defines),
                    runtime_args=["NCHt", "tile_offset", "stats_tile_offset", "y_offset", "eps"],
                    compile_time_args={"blk": block, "stats_tiles_cols": 2 if layernorm else 1,
                                       "gamma_is_row_major": int(gamma is not None and
                                                                 gamma.layout == ttnn.ROW_MAJOR_LAYOUT),
                                       "beta_is_row_major": 0, "dfb_length": wt, "Wt": wt, "row_stride": wt,
                                       "reduce_factor": x.shape[-1]},
                    dfbs={n: index[n] for n in ("inp", "stats", "reduce", "eps", "gamma") if n in names},
                    tensors={"src": x, "stats_src": stats, **({"gamma_src": gamma} if gamma is not None else {})})
    if layernorm:
        compute = bound(kernel(ops / "normalization/layernorm_distributed/device/kernels/compute/"
                                "layernorm_post_allgather.cpp", ttnn.ComputeConfigDescriptor(), rt=[rows],
                                defines=defines),
                         runtime_args=["NCHt"], compile_time_args={"Wt": wt, "stats_tiles_cols": 2, "dfb_length": wt},
                         dfbs={n: index[n] for n in names})
    elif legacy:
        compute = kernel(ops / RMS_DISTRIBUTED / "rmsnorm_post_allgather.cpp", ttnn.ComputeConfigDescriptor(),
                         rt=[rows], ct=[wt, block, 1, int(gamma is not None), 0, 0], defines=defines)
    else:
        compute = bound(kernel(ops / RMS_DISTRIBUTED / "rmsnorm_post_allgather_metal2.cpp",
                                ttnn.ComputeConfigDescriptor(), rt=[rows], defines=defines),
                         runtime_args=["NCHt"], compile_time_args={"Wt": wt, "blk": block, "stats_tiles_cols": 1,
                                                                   "fp32_dtype": 0},
                         dfbs={n: index[n] for n in names})
    writer = bound(kernel(ops / DISTRIBUTED / "writer_unary_interleaved_start_id_blocked.cpp",
                           ttnn.WriterConfigDescriptor(), rt=[rows * wt, 0]),
                    runtime_args=["num_tiles", "tile_offset"], compile_time_args={"blk": block},
                    dfbs={"out": index["out"]}, tensors={"dst": out})
    pages = {"inp": wt, "stats": 2, "reduce": 1, "eps": 1, "gamma": wt, "var": 1, "recip_sqrt_var": 1,
             "x_normed": wt, "out": max(2 * block, wt),  # the gamma pass follows a whole row
             "stats_reduced": 2, "x_minus_mean": wt, "mean_squared": 1}
    return [reader, compute, writer], [cb(index[n], pages=pages[n]) for n in names]


@pytest.mark.parametrize("wt,block,gamma,compute_file", [
    pytest.param(3, 1, "row-major", "metal2", marks=pytest.mark.slow),
    pytest.param(4, 2, "", "metal2", marks=pytest.mark.slow),
    pytest.param(2, 2, "tile", "metal2", marks=pytest.mark.slow),
    pytest.param(3, 1, "tile", "legacy", marks=pytest.mark.slow),
    pytest.param(2, 2, "", "legacy", marks=pytest.mark.slow),
    pytest.param(3, 1, "tile", "layernorm", marks=pytest.mark.slow),
    pytest.param(2, 2, "row-major", "layernorm", marks=pytest.mark.slow),
])
def test_ttnn_distributed_norm_kernels_run_unchanged(device, ops, wt, block, gamma, compute_file) -> None:
    """The distributed rmsnorm and layernorm on one device: the statistics program (the sum of
    squares of each row, and for layernorm its sum), then the normalization program on its
    output, with gamma as tiles, as row-major sticks or none; the rmsnorm compute kernel in the
    Metal 2.0 form or the legacy one."""
    layernorm = compute_file == "layernorm"
    torch.manual_seed(36)
    x = torch.randn(64, wt * 32) + 0.25
    tx, out = dram(device, x), output(device, (64, wt * 32))
    stats = output(device, (64, 64 if layernorm else 32))
    kernels, cbs = distributed_pre_program(ops, tx, stats, block, layernorm)
    run([tx, stats], kernels, cbs)
    values = ttnn.to_torch(tx).double()
    want = values.pow(2).sum(-1)
    got = ttnn.to_torch(stats).double()[:, 0]
    # x^2 rounded to bfloat16, the row summed into a bfloat16 DST tile by tile (each of the Wt
    # accumulations rounds, 2^-9 relative): within 2^-6 (measured: at most 0.55 of it)
    assert torch.all((got - want).abs() <= 2 ** -6 * want), (got - want).abs().max()
    if layernorm:  # the row sums, in column 0 of the second tile (the sum cancels: relative to sum |x|)
        sums = ttnn.to_torch(stats).double()[:, 32]
        assert torch.all((sums - values.sum(-1)).abs() <= 2 ** -6 * values.abs().sum(-1)), sums
    g = torch.randn(wt, 32)
    tg = None if not gamma else dram(device, g, layout=ttnn.ROW_MAJOR_LAYOUT) if gamma == "row-major" \
        else dram(device, g.reshape(1, wt * 32).expand(32, -1).contiguous())
    kernels, cbs = distributed_post_program(ops, tx, stats, tg, out, 1e-5, block, compute_file)
    run([t for t in (tx, stats, tg, out) if t is not None], kernels, cbs)
    vector = None if tg is None else ttnn.to_torch(tg).double().reshape(-1, wt * 32)[:1]
    want = norm_golden(ttnn.to_torch(tx), 1e-5, vector, None, rms=not layernorm)
    err = (ttnn.to_torch(out).double() - want).abs()
    # as the layernorm bound (module docstring); measured: at most 0.29 of it
    assert torch.all(err <= 2 ** -5 + 2 ** -5 * want.abs()), err.max()

# The SFPU calls kernel_lib's eltwise chain brings in beside the norms' own (mask, iterative power):
# on fp32 tiles with an fp32 DST, bit for bit. Need no wheel.

@pytest.mark.parametrize("call,fill", [("mask_tile(0, 1)", 0.0),
                                       pytest.param("mask_posinf_tile(0, 1)", float("inf"), marks=pytest.mark.slow)])
def test_mask_tile_reads_its_mask_from_the_next_dst_tile(device, call, fill) -> None:
    """mask_tile(data, mask): where the tile after the data tile is +0.0, the data becomes 0
    (mask_posinf_tile: +inf); the second argument is not read, as on the device. A mask of -0.0
    does not mask: the LLK's ``mask == 0.0F`` is SFPSETCC's all-bits compare with zero."""
    torch.manual_seed(33)
    a = torch.randn(32, 32)
    m = torch.where(torch.rand(32, 32) > 0.5, torch.randn(32, 32), torch.tensor(0.0))
    m[0, :4] = -0.0
    ta, tm, out = dram(device, a, ttnn.float32), dram(device, m, ttnn.float32), output(device, (32, 32), ttnn.float32)
    pair = kernel(KERNELS / "reader_pair.cpp", ttnn.ReaderConfigDescriptor(),
                  rt=[ta.buffer_address(), tm.buffer_address(), 1],
                  ct=[*ttnn.TensorAccessorArgs(ta).get_compile_time_args(),
                      *ttnn.TensorAccessorArgs(tm).get_compile_time_args()])
    k = compute(KERNELS / "compute_sfpu_binary.cpp", rt=[1], fp32=True, unpack_to_dest=[0, 1],
                defines=[("OP", f"mask_tile_init(); {call}")])
    run([ta, tm, out], [pair, k, writer(out, 16, 1)], [cb(0, ttnn.float32), cb(1, ttnn.float32), cb(16, ttnn.float32)])
    plus_zero = m.view(torch.int32) == 0
    assert torch.equal(ttnn.to_torch(out), torch.where(plus_zero, torch.tensor(fill), a))


@pytest.mark.parametrize("n", [pytest.param(n, marks=pytest.mark.slow) for n in (0, 1, 5, 6)])
def test_power_iterative_tile_squares_and_multiplies_in_fp32(device, n) -> None:
    """power_iterative_tile(x, n): the LLK's square-and-multiply, each step an fp32 multiply, so
    x^5 is x * ((x*x)*(x*x)), not powf's correctly rounded value."""
    torch.manual_seed(34)
    x = torch.randn(32, 32) * 1.5
    tx, out = dram(device, x, ttnn.float32), output(device, (32, 32), ttnn.float32)
    k = compute(KERNELS / "compute_unary.cpp", rt=[1], fp32=True, unpack_to_dest=[0],
                defines=[("SFPU_OPS", f"power_iterative_tile_init(); power_iterative_tile(0, {n});")])
    run([tx, out], [reader(tx, 0, 1), k, writer(out, 16, 1)], [cb(0, ttnn.float32), cb(16, ttnn.float32)])
    want, base, e = (torch.ones_like(x), x.clone(), 0) if n == 0 else (x.clone(), x.clone(), n - 1)
    while e > 0:
        if e & 1:
            want = want * base
        base = base * base
        e >>= 1
    assert torch.equal(ttnn.to_torch(out), want)


ACQ_REL = """#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/eltwise_unary/fill.h"

// ttnn's ACQ()/REL() idiom: acquire and wait together, math, pack, then commit and release
ALWI void ACQ() {
    tile_regs_acquire();
    tile_regs_wait();
}

ALWI void REL() {
    tile_regs_commit();
    tile_regs_release();
}

void kernel_main() {
    compute_kernel_hw_startup(16, 16);
    cb_reserve_back(16, 2);
    ACQ();
    fill_tile_init();
    fill_tile(0, 2.0f);
    fill_tile(1, 3.0f);
    pack_tile(0, 16);
    AFTER_PACK
    pack_tile(1, 16);
    REL();
    cb_push_back(16, 2);
}
"""


@pytest.mark.parametrize("after_pack,first,second,deprecated", [
    ("", 2.0, 3.0, False),
    pytest.param("fill_tile(1, 5.0f);", 2.0, 5.0, False, marks=pytest.mark.slow),
    ("fill_tile(0, 7.0f);", 7.0, 3.0, False),
    pytest.param("", 2.0, 3.0, True, marks=pytest.mark.slow),
])
def test_the_acquire_and_wait_idiom_packs_what_math_commits(device, tmp_path, after_pack, first, second,
                                                           deprecated) -> None:
    """tile_regs_wait() before tile_regs_commit() (the ACQ()/REL() helpers of ttnn's
    rmsnorm_post_allgather*.cpp; the deprecated acquire_dst()/release_dst() pair does the same): on
    the device the packer's wait returns at the commit, so the packs see the math before it, also
    math into a DST tile after the pack_tile call of it (the pack runs at the commit): the Tensix
    machine packs the 7.0 written after ``pack_tile(0, 16)``."""
    text = ACQ_REL.replace("AFTER_PACK", after_pack)
    if deprecated:
        text = text.replace("    ACQ();", "    acquire_dst();").replace("    REL();", "    release_dst();")
    path = write_kernel(tmp_path, "acq_rel.cpp", text)
    out = output(device, (64, 32))
    program = [compute(path), writer(out, 16, 2)]
    if deprecated:
        with pytest.warns(DiagnosticWarning) as caught:  # the deprecated names, at their lines
            run([out], program, [cb(16)])
        assert {w.message.diagnostic.code for w in caught if isinstance(w.message, DiagnosticWarning)} == {"E5007"}
    else:
        run([out], program, [cb(16)])
    want = torch.cat([torch.full((32, 32), first), torch.full((32, 32), second)])
    assert torch.equal(ttnn.to_torch(out).float(), want)
