"""The compute API on the emulator against the language level's definitions (tile_math).

FPU work (eltwise, matmul, reduce sums) is bit-identical with the device's arithmetic
(tilecraft/device_arith.py: fidelity phases, grouped accumulation, DST and packer rounding) and
close to tile_math; copies, transposes and max are exact. SFPU functions are evaluated with the C++
standard library in fp32 and match torch's to within a few units in the last place of fp32
(docs/emulator.md states the tolerance); stores into a 16-bit DST truncate, as SFPSTORE does,
unless the function's LLK rounds first (exp, exp2, expm1, elu, celu, cbrt, accurate gelu).
"""

from __future__ import annotations

import math
import struct
from pathlib import Path

import pytest
import torch

import tilecraft.ttnn as ttnn
from tilecraft.diagnostics import DiagnosticWarning
from tilecraft import device_arith as dev
from tests.emu.harness import KERNELS, arch_cases, cb, compute, dram, kernel, output, reader, run, write_kernel, writer
from tilecraft.numerics import quantize
from tilecraft.sim import tile_math


def tiles(t: torch.Tensor) -> int:
    return t.numel() // 1024


def binary_program(device, a, b, dtype, out_dtype, defines, fp32=False):
    ta, tb = dram(device, a, dtype), dram(device, b, dtype)
    out = output(device, a.shape, out_dtype)
    n = tiles(a)
    pair = kernel(KERNELS / "reader_pair.cpp", ttnn.ReaderConfigDescriptor(),
                  rt=[ta.buffer_address(), tb.buffer_address(), n],
                  ct=[*ttnn.TensorAccessorArgs(ta).get_compile_time_args(),
                      *ttnn.TensorAccessorArgs(tb).get_compile_time_args()])
    run([ta, tb, out], [pair, compute(KERNELS / "compute_binary.cpp", rt=[n], fp32=fp32, defines=defines),
                        writer(out, 16, n)],
        [cb(0, dtype), cb(1, dtype), cb(16, out_dtype)])
    return ttnn.to_torch(ta).float(), ttnn.to_torch(tb).float(), ttnn.to_torch(out)


@pytest.mark.parametrize("device,op", arch_cases([("add",), ("sub",), ("mul",)], [0]), indirect=["device"])
def test_fpu_binary_is_the_devices_op(device, op) -> None:
    torch.manual_seed(0)
    a, b = torch.randn(64, 64), torch.randn(64, 64)
    ea, eb, got = binary_program(device, a, b, ttnn.bfloat16, ttnn.bfloat16,
                                 [("INIT", f"{op}_init"), ("CALL", f"{op}_tiles")])
    want = dev.pack_bf16(dev.eltwise(op, ea, eb, 4, False))  # HiFi4, bfloat16 DST
    assert torch.equal(got, want)
    # near the language level: a bfloat16 DST rounds after each of mul's four phases (a few ulp)
    assert torch.allclose(got.float(), quantize(tile_math.BINARY[op](ea, eb), ttnn.bfloat16).float(), rtol=2 ** -5)


@pytest.mark.parametrize("device,dims,kind", arch_cases([((-2,), "rows"), ((-1,), "cols"), ((-2, -1), "scalar")], []),
                         indirect=["device"])
def test_broadcast_binary_reads_row_column_or_scalar_zero(device, dims, kind) -> None:
    torch.manual_seed(1)
    a, b = torch.randn(32, 64), torch.randn(32, 64)
    ea, eb, got = binary_program(device, a, b, ttnn.bfloat16, ttnn.float32,
                                 [("INIT", f"mul_bcast_{kind}_init"), ("CALL", f"mul_tiles_bcast_{kind}")], fp32=True)
    want = torch.cat([ea[:, :32] * tile_math.broadcast(eb[:, :32], dims, (32, 32)),
                      ea[:, 32:] * tile_math.broadcast(eb[:, 32:], dims, (32, 32))], dim=1)
    assert torch.equal(got, want)


def matmul_program(device, mt, kt, nt, kernel_name):
    torch.manual_seed(2)
    a, b = torch.randn(32 * mt, 32 * kt), torch.randn(32 * kt, 32 * nt)
    ta, tb = dram(device, a), dram(device, b)
    out = output(device, (32 * mt, 32 * nt), ttnn.float32)
    mm = compute(KERNELS / kernel_name, ct=[mt, kt, nt], fp32=True)
    run([ta, tb, out], [reader_ab(ta, tb, mt * kt, kt * nt), mm, writer(out, 16, mt * nt)],
        [cb(0, pages=mt * kt), cb(1, pages=kt * nt), cb(16, ttnn.float32, 4)])
    return ttnn.to_torch(ta).float(), ttnn.to_torch(tb).float(), ttnn.to_torch(out)


def reader_ab(a, b, count_a, count_b):
    return kernel(KERNELS / "reader_ab.cpp", ttnn.ReaderConfigDescriptor(),
                  rt=[a.buffer_address(), b.buffer_address(), count_a, count_b],
                  ct=[*ttnn.TensorAccessorArgs(a).get_compile_time_args(),
                      *ttnn.TensorAccessorArgs(b).get_compile_time_args()])


def tf32(x: torch.Tensor) -> torch.Tensor:
    """Float32 data as SrcA/SrcB hold it with an fp32 DST: 13 mantissa bits dropped."""
    return (x.float().view(torch.int32) & -8192).view(torch.float32)


@pytest.mark.parametrize("device", arch_cases([()], [0]), indirect=True)
def test_matmul_tiles_is_the_devices_matmul(device) -> None:
    """Bit for bit the device's HiFi4 matmul (fp32 DST) of TF32 operands, k tile by k tile."""
    a, b, got = matmul_program(device, 2, 3, 2, "compute_matmul.cpp")
    assert torch.equal(got, dev.matmul_tiles(tf32(a), tf32(b), 4, True))
    assert torch.allclose(got, tile_math.matmul(a, b), rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("device", arch_cases([()], []), indirect=True)
def test_matmul_block_sub_blocks(device) -> None:
    """matmul_block fills a 2x2 sub-block of DST per call; pages come out sub-block by sub-block."""
    # the writer stores pages in order, so page p (tile p of the output) is the sub-block order's tile p
    a, b, got = matmul_program_block(device)
    want = dev.matmul_tiles(tf32(a), tf32(b), 4, True)
    blocks = []
    for sm in range(2):
        for sn in range(2):
            for r in range(2):
                for c in range(2):
                    i, j = 2 * sm + r, 2 * sn + c
                    blocks.append(want[32 * i:32 * (i + 1), 32 * j:32 * (j + 1)])
    pages = got.reshape(4, 32, 4, 32).permute(0, 2, 1, 3).reshape(16, 32, 32)  # output tiles in page order
    assert torch.equal(pages, torch.stack(blocks))


def matmul_program_block(device):
    torch.manual_seed(3)
    mt, kt, nt = 4, 2, 4
    a, b = torch.randn(32 * mt, 32 * kt), torch.randn(32 * kt, 32 * nt)
    ta, tb = dram(device, a), dram(device, b)
    out = output(device, (32 * mt, 32 * nt), ttnn.float32)
    mm = compute(KERNELS / "compute_matmul_block.cpp", ct=[mt, kt, nt], fp32=True)
    run([ta, tb, out], [reader_ab(ta, tb, mt * kt, kt * nt), mm, writer(out, 16, mt * nt)],
        [cb(0, pages=mt * kt), cb(1, pages=kt * nt), cb(16, ttnn.float32, 4)])
    return ttnn.to_torch(ta).float(), ttnn.to_torch(tb).float(), ttnn.to_torch(out)


#: compute_reduce.cpp's reductions, in the order of its runtime arg
REDUCTIONS = [(pool, dim, dims) for dim, dims in [("REDUCE_ROW", (-1,)), ("REDUCE_COL", (-2,)), ("REDUCE_SCALAR", (-2, -1))]
              for pool in ("SUM", "MAX")]


@pytest.mark.parametrize("device,pool,dim,dims", arch_cases(REDUCTIONS, [0]), indirect=["device"])
def test_reduce_is_the_devices_reduce(device, pool, dim, dims) -> None:
    torch.manual_seed(4)
    ht, wt, blocks = 2, 3, 2
    x = torch.randn(blocks * 32 * ht, 32 * wt) - (2.0 if pool == "MAX" else 0.0)
    tx = dram(device, x)
    out = output(device, (blocks * 32, 32), ttnn.float32)
    red = compute(KERNELS / "compute_reduce.cpp", ct=[ht, wt, blocks], fp32=True,
                  rt=[REDUCTIONS.index((pool, dim, dims))])
    run([tx, out], [reader(tx, 0, tiles(x)), red, writer(out, 16, blocks)],
        [cb(0, pages=ht * wt), cb(2, pages=1), cb(16, ttnn.float32)])
    ex = ttnn.to_torch(tx).float().reshape(blocks, 32 * ht, 32 * wt)
    got = ttnn.to_torch(out).reshape(blocks, 32, 32)
    if pool == "SUM":  # the device's HiFi4 sums (fp32 DST), tile by tile in the kernel's order
        want = torch.stack([dev.reduce_sum([ex[k, 32 * (i // wt):32 * (i // wt + 1), 32 * (i % wt):32 * (i % wt + 1)]
                                            for i in range(ht * wt)], dim, 4, True) for k in range(blocks)])
        assert torch.equal(got, want)
        return
    want = tile_math.reduce(pool.lower(), ex, dims)
    if dims == (-1,):  # ht rows of tiles fold into one tile: reduce rows tile by tile
        want = torch.maximum(*[tile_math.reduce("max", ex[:, 32 * r:32 * (r + 1)], dims) for r in range(ht)])
    elif dims == (-2,):
        want = torch.amax(torch.stack([tile_math.reduce("max", ex[:, :, 32 * c:32 * (c + 1)], dims)
                                       for c in range(wt)]), 0)
    assert torch.equal(got, want.reshape(blocks, 32, 32))


@pytest.mark.parametrize("device", arch_cases([()], []), indirect=True)
def test_transpose_tile(device) -> None:
    x = torch.randn(32, 64)
    tx, out = dram(device, x), output(device, (32, 64))
    run([tx, out], [reader(tx, 0, 2), compute(KERNELS / "compute_transpose.cpp", rt=[2]), writer(out, 16, 2)],
        [cb(0), cb(16)])
    got, ex = ttnn.to_torch(out), ttnn.to_torch(tx)
    assert torch.equal(got[:, :32], ex[:, :32].T) and torch.equal(got[:, 32:], ex[:, 32:].T)


def bits(value: float) -> str:
    return f"0x{struct.unpack('<I', struct.pack('<f', value))[0]:08x}u"


#: SFPU call -> language-level function (tile_math), on fp32 data
UNARY = {
    "exp_tile_init(); exp_tile(0);": tile_math.UNARY["exp"],
    "log_tile_init(); log_tile(0);": tile_math.UNARY["log"],
    "sqrt_tile_init(); sqrt_tile(0);": tile_math.UNARY["sqrt"],
    "rsqrt_tile_init(); rsqrt_tile(0);": tile_math.UNARY["rsqrt"],
    "recip_tile_init(); recip_tile(0);": tile_math.UNARY["recip"],
    "sigmoid_tile_init(); sigmoid_tile(0);": tile_math.UNARY["sigmoid"],
    "tanh_tile_init(); tanh_tile(0);": tile_math.UNARY["tanh"],
    "silu_tile_init(); silu_tile(0);": tile_math.UNARY["silu"],
    "gelu_tile_init<false>(); gelu_tile<false>(0);": tile_math.UNARY["gelu"],
    "relu_tile_init(); relu_tile(0);": tile_math.UNARY["relu"],
    "abs_tile_init(); abs_tile(0);": tile_math.UNARY["abs"],
    "negative_tile_init(); negative_tile(0);": tile_math.UNARY["neg"],
    "square_tile_init(); square_tile(0);": tile_math.UNARY["square"],
    "sin_tile_init(); sin_tile(0);": tile_math.UNARY["sin"],
    "cos_tile_init(); cos_tile(0);": tile_math.UNARY["cos"],
    "cosh_tile_init(); cosh_tile(0);": tile_math.UNARY["cosh"],
    "sinh_tile_init(); sinh_tile(0);": tile_math.UNARY["sinh"],
    "erf_tile_init(); erf_tile(0);": tile_math.UNARY["erf"],
    "log1p_tile_init(); log1p_tile(0);": tile_math.UNARY["log1p"],
    "mish_tile_init<false>(); mish_tile<false>(0);": tile_math.UNARY["mish"],
    "floor_tile(0);": tile_math.UNARY["floor"],
    "sign_tile_init(); sign_tile(0);": tile_math.UNARY["sign"],
    f"relu_max_tile_init(); relu_max_tile(0, {bits(0.5)});": lambda x: tile_math.UNARY_PARAM["relu_max"](x, 0.5),
    f"leaky_relu_tile_init(); leaky_relu_tile(0, {bits(0.1)});": lambda x: tile_math.UNARY_PARAM["leaky_relu"](x, 0.1),
    f"elu_tile_init(); elu_tile(0, {bits(1.0)});": lambda x: tile_math.UNARY_PARAM["elu"](x, 1.0),
    f"clamp_tile_init(); clamp_tile(0, {bits(-0.5)}, {bits(0.25)});":
        lambda x: tile_math.UNARY_PARAM["clamp"](x, -0.5, 0.25),
    f"threshold_tile_init(); threshold_tile(0, {bits(0.1)}, {bits(7.0)});":
        lambda x: tile_math.UNARY_PARAM["threshold_le"](x, 0.1, 7.0),
    f"power_tile_init(); power_tile(0, {bits(3.0)});": lambda x: tile_math.UNARY_PARAM["power"](x, 3),
    f"binop_with_scalar_tile_init(); mul_unary_tile(0, {bits(-1.5)});": lambda x: x * -1.5,
    # 0.81.1's div_unary_tile multiplies by its parameter: the host passes the reciprocal
    f"binop_with_scalar_tile_init(); div_unary_tile(0, {bits(3.0)});": lambda x: x * 3.0,
    "fill_tile_init(); fill_tile(0, 2.5f);": lambda x: torch.full_like(x, 2.5),
    # the scale 1 / ln(base) as fp32 bits (0.81.1); log2 through base_is_two, the exact path
    f"log_with_base_tile_init(); log_with_base_tile<false, true>(0, {bits(1 / math.log(2))});": tile_math.UNARY["log2"],
    f"log_with_base_tile_init(); log_with_base_tile(0, {bits(1 / math.log(10))});": tile_math.UNARY["log10"],
}


#: every call of UNARY in one kernel, the case picked by runtime arg 1: one compile serves all of
#: test_sfpu_functions_follow_the_language_level (on the Tensix machine a kernel costs three TRISC
#: compiles cold, about 1-2 s of CPU each; the table's TRISCs cost a few of them)
UNARY_TABLE = ("switch (get_arg_val<uint32_t>(1)) { "
               + " ".join(f"case {i}: {{ {call} }} break;" for i, call in enumerate(UNARY)) + " }")


def run_unary(device, x: torch.Tensor, call: str, dtype, fp32: bool, unpack_to_dest: bool,
              table: bool = False) -> torch.Tensor:
    """``call`` (an SFPU chain on DST tile 0) over ``x``; with ``table``, ``call`` (one of UNARY) runs
    in the one kernel of UNARY_TABLE."""
    tx = dram(device, x, dtype)
    out = output(device, x.shape, dtype)
    n = tiles(x)
    ops, rt = (UNARY_TABLE, [n, list(UNARY).index(call)]) if table else (call, [n])
    k = compute(KERNELS / "compute_unary.cpp", rt=rt, fp32=fp32, unpack_to_dest=[0] if unpack_to_dest else [],
                defines=[("SFPU_OPS", ops)])
    run([tx, out], [reader(tx, 0, n), k, writer(out, 16, n)], [cb(0, dtype), cb(16, dtype)])
    return ttnn.to_torch(out)


#: The LLK's own accuracy budget (tt-llk tests/python_tests/helpers/sfpu_accuracy_budget.yaml, the
#: Float32 -> Float32 rows with an fp32 DST, measured on Wormhole) where it is wider than the 4 ulp
#: the other calls meet: gelu_tile<false> and erf_tile are polynomial approximations (66382 and
#: 59089 ulp), elu's exp-based path 10 ulp. The Tensix machine runs that LLK code (tanh's 16-bit
#: path is an approximation too, but fp32 here takes the accurate one).
LLK_BUDGET_ULP = {"gelu_tile_init<false>(); gelu_tile<false>(0);": 66382, "erf_tile_init(); erf_tile(0);": 59089,
                  f"elu_tile_init(); elu_tile(0, {bits(1.0)});": 10}


@pytest.mark.parametrize("device,call", arch_cases([(call,) for call in UNARY], [0]), indirect=["device"],
                         ids=lambda c: c.split("(")[0])
def test_sfpu_functions_follow_the_language_level(device, call) -> None:
    """fp32 in, fp32 DST, fp32 out: within 4 units in the last place of fp32 of the larger of the
    result and the input (a function that cancels, like gelu of a negative x, loses bits to the
    cancellation in either implementation), or the LLK's own budget for the call (LLK_BUDGET_ULP)."""
    torch.manual_seed(5)
    x = torch.rand(32, 64) * 3 + 0.05
    x[:, 32:] *= -1 if "sqrt" not in call and "log" not in call and "rsqrt" not in call else 1
    got = run_unary(device, x, call, ttnn.float32, fp32=True, unpack_to_dest=True, table=True)
    want = UNARY[call](x)
    ulp = torch.finfo(torch.float32).eps * torch.maximum(want.abs(), x.abs())
    assert torch.all((got - want).abs() <= LLK_BUDGET_ULP.get(call, 4) * ulp), ((got - want).abs() / ulp).max()


@pytest.mark.parametrize("device", arch_cases([()], []), indirect=True)
def test_log2_of_a_power_of_two_is_exact(device) -> None:
    """base_is_two adds the exponent unscaled (ckernel_sfpu_log.h): log2(2^k) == k for every k."""
    k = torch.arange(-126, 128, dtype=torch.float32)
    x = torch.cat([torch.exp2(k), torch.ones(32 * 32 - k.numel())]).reshape(32, 32)
    call = f"log_with_base_tile_init(); log_with_base_tile<false, true>(0, {bits(1 / math.log(2))});"
    got = run_unary(device, x, call, ttnn.float32, fp32=True, unpack_to_dest=True, table=True)
    assert torch.equal(got.flatten()[:k.numel()], k)


@pytest.mark.parametrize("device", arch_cases([()], []), indirect=True)
def test_sfpu_stores_into_a_16_bit_dst_truncate(device) -> None:
    """Without fp32 DST the SFPU result is truncated to bfloat16 (SFPSTORE's default rounding):
    mul_unary_tile stores its product as it is (ckernel_sfpu_binop_with_unary.h: "bf16 dest stores
    truncate fp32->bf16 by default"). Calls whose LLK rounds first (tanh's 16-bit path,
    ``convert<vFloat16b>(r, RoundMode::Nearest)``; exp, below) store the nearest bfloat16."""
    x = torch.full((32, 32), 1.0)
    third = torch.tensor(1 / 3, dtype=torch.float32)
    got = run_unary(device, x, f"binop_with_scalar_tile_init(); mul_unary_tile(0, {bits(float(third))});",
                    ttnn.bfloat16, fp32=False, unpack_to_dest=False)
    truncated = (third.view(torch.int32) & ~0xFFFF).view(torch.float32)
    assert torch.all(got.float() == truncated) and truncated != third.to(torch.bfloat16).float()


@pytest.mark.parametrize("device", arch_cases([()], []), indirect=True)
def test_exp_rounds_to_nearest_before_a_16_bit_store(device) -> None:
    """exp's LLK rounds with SFP_STOCH_RND (nearest, ties away from zero) before SFPSTORE: e is
    2.71875 in bfloat16, where truncation gives 2.703125."""
    x = torch.full((32, 32), 1.0)
    got = run_unary(device, x, "exp_tile_init(); exp_tile(0);", ttnn.bfloat16, fp32=False, unpack_to_dest=False)
    assert torch.all(got.float() == 2.71875)


def test_fp32_copies_lose_13_bits_through_srca_unless_unpacked_to_dest(device) -> None:
    torch.manual_seed(6)
    x = torch.randn(32, 32)
    with pytest.warns(DiagnosticWarning, match=r"warning\[E5411\]: copy_tile unpacks Float32 CB 0 through SrcA as TF32"):
        through_srca = run_unary(device, x, "", ttnn.float32, fp32=True, unpack_to_dest=False)
    assert torch.equal(through_srca, (x.view(torch.int32) & ~0x1FFF).view(torch.float32))
    direct = run_unary(device, x, "", ttnn.float32, fp32=True, unpack_to_dest=True)
    assert torch.equal(direct, x)


# each call after its init, as on a device: the LLK's SFPU binary ops need their init's
# configuration (without it the Tensix machine computes div, max and lt wrongly, as a device would)
SFPU_BINARY = {"add_binary_tile_init(); add_binary_tile(0, 1, 0)": torch.add,
               "sub_binary_tile_init(); sub_binary_tile(0, 1, 0)": torch.sub,
               "mul_binary_tile_init(); mul_binary_tile(0, 1, 0)": torch.mul,
               "div_binary_tile_init(); div_binary_tile(0, 1, 0)": torch.div,
               "binary_max_tile_init(); binary_max_tile(0, 1, 0)": torch.maximum,
               "lt_binary_tile_init(); lt_binary_tile(0, 1, 0)": lambda a, b: (a < b).float()}
#: every op of SFPU_BINARY in one kernel, the case picked by runtime arg 1 (one compile for all)
SFPU_BINARY_TABLE = ("switch (get_arg_val<uint32_t>(1)) { "
                     + " ".join(f"case {i}: {{ {op}; }} break;" for i, op in enumerate(SFPU_BINARY)) + " }")


@pytest.mark.parametrize("device,op", arch_cases([(op,) for op in SFPU_BINARY], []), indirect=["device"],
                         ids=lambda c: c.split("(")[0])
def test_sfpu_binary_on_fp32(device, op) -> None:
    fn = SFPU_BINARY[op]
    torch.manual_seed(7)
    a, b = torch.randn(32, 32), torch.randn(32, 32)
    ta, tb = dram(device, a, ttnn.float32), dram(device, b, ttnn.float32)
    out = output(device, (32, 32), ttnn.float32)
    pair = kernel(KERNELS / "reader_pair.cpp", ttnn.ReaderConfigDescriptor(),
                  rt=[ta.buffer_address(), tb.buffer_address(), 1],
                  ct=[*ttnn.TensorAccessorArgs(ta).get_compile_time_args(),
                      *ttnn.TensorAccessorArgs(tb).get_compile_time_args()])
    k = compute(KERNELS / "compute_sfpu_binary.cpp", rt=[1, list(SFPU_BINARY).index(op)], fp32=True,
                unpack_to_dest=[0, 1], defines=[("OP", SFPU_BINARY_TABLE)])
    run([ta, tb, out], [pair, k, writer(out, 16, 1)], [cb(0, ttnn.float32), cb(1, ttnn.float32),
                                                      cb(16, ttnn.float32)])
    got, want = ttnn.to_torch(out), fn(a, b)
    if fn is torch.div:  # the LLK divides through a reciprocal: its budget is 2 ulp (SfpuElwdiv, Float32 rows)
        ulp = torch.finfo(torch.float32).eps * torch.exp2(torch.floor(torch.log2(want.abs())))
        assert torch.all((got - want).abs() <= 2 * ulp)
    else:
        assert torch.equal(got, want)


@pytest.mark.parametrize("device", arch_cases([()], []), indirect=True)
def test_where_on_fp32_dst(device, tmp_path: Path) -> None:
    torch.manual_seed(8)
    c = (torch.rand(32, 32) > 0.5).float()
    a = torch.randn(32, 32)
    tc, ta = dram(device, c, ttnn.float32), dram(device, a, ttnn.float32)
    out = output(device, (32, 32), ttnn.float32)
    pair = kernel(KERNELS / "reader_pair.cpp", ttnn.ReaderConfigDescriptor(),
                  rt=[tc.buffer_address(), ta.buffer_address(), 1],
                  ct=[*ttnn.TensorAccessorArgs(tc).get_compile_time_args(),
                      *ttnn.TensorAccessorArgs(ta).get_compile_time_args()])
    op = "fill_tile_init(); fill_tile(2, -3.0f); where_tile_init(); where_tile<DataFormat::Float32>(0, 1, 2, 0)"
    k = compute(KERNELS / "compute_sfpu_binary.cpp", rt=[1], fp32=True, unpack_to_dest=[0, 1],
                defines=[("OP", op), ("SFPU_OP_FILL_INCLUDE", "1")])
    path = write_kernel(tmp_path, "where.cpp", (KERNELS / "compute_sfpu_binary.cpp").read_text().replace(
        '#include "api/compute/eltwise_unary/where.h"',
        '#include "api/compute/eltwise_unary/where.h"\n#include "api/compute/eltwise_unary/fill.h"'))
    k.kernel_source = str(path)
    run([tc, ta, out], [pair, k, writer(out, 16, 1)], [cb(0, ttnn.float32), cb(1, ttnn.float32),
                                                      cb(16, ttnn.float32)])
    assert torch.equal(ttnn.to_torch(out), torch.where(c != 0, a, torch.tensor(-3.0)))


TILIZE = """
#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/tilize.h"
#include "api/compute/untilize.h"
// CB 0 holds 32 rows of a 2-tile-wide block (two tile-sized pages): tilize them into two tiles of
// CB 1, then untilize those into rows again in CB 16.
void kernel_main() {
    compute_kernel_hw_startup(0, 1);
    tilize_init(0, 2, 1);
    cb_wait_front(0, 2);
    cb_reserve_back(1, 2);
    tilize_block(0, 2, 1);
    cb_push_back(1, 2);
    cb_pop_front(0, 2);
    tilize_uninit(0, 1);
    pack_reconfig_data_format(16);
    untilize_init(1);
    cb_wait_front(1, 2);
    cb_reserve_back(16, 2);
    untilize_block(1, 2, 16);
    cb_push_back(16, 2);
    cb_pop_front(1, 2);
}
"""

ROWS = """
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
// The 32 rows of a 32 x 64 row-major tensor, 128 bytes each, into (IN) or out of (OUT) two
// tile-sized pages of a CB.
void kernel_main() {
    const auto t = TensorAccessor(TensorAccessorArgs<0>(), get_arg_val<uint32_t>(0));
#ifdef IN
    cb_reserve_back(0, 2);
    for (uint32_t r = 0; r < 32; ++r) noc_async_read_page(r, t, get_write_ptr(0) + 128 * r);
    noc_async_read_barrier();
    cb_push_back(0, 2);
#else
    cb_wait_front(16, 2);
    for (uint32_t r = 0; r < 32; ++r) noc_async_write_page(r, t, get_read_ptr(16) + 128 * r);
    noc_async_write_barrier();
    cb_pop_front(16, 2);
#endif
}
"""


@pytest.mark.parametrize("device", arch_cases([()], []), indirect=True)
def test_tilize_then_untilize_round_trip(device, tmp_path: Path) -> None:
    x = torch.arange(32 * 64, dtype=torch.float32).reshape(32, 64)
    tx = dram(device, x, ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT)
    out = output(device, (32, 64), ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT)
    rows = write_kernel(tmp_path, "rows.cpp", ROWS)
    rd = kernel(rows, ttnn.ReaderConfigDescriptor(), rt=[tx.buffer_address()], defines=[("IN", "1")],
                ct=ttnn.TensorAccessorArgs(tx).get_compile_time_args())
    wr = kernel(rows, ttnn.WriterConfigDescriptor(), rt=[out.buffer_address()],
                ct=ttnn.TensorAccessorArgs(out).get_compile_time_args())
    run([tx, out], [rd, compute(write_kernel(tmp_path, "tilize.cpp", TILIZE)), wr], [cb(0), cb(1), cb(16)])
    assert torch.equal(ttnn.to_torch(out), ttnn.to_torch(tx))
