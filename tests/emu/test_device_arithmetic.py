"""The emulator's FPU and packer compute the device's arithmetic (docs/numerics.md section 8).

Expected values come from tilecraft/device_arith.py, an independent float64 model of the ISA
documentation's functional models; chosen operands show each effect (a fidelity phase dropping
operand bits, the group alignment of products, ties, denormals, NaN, a bfp block spanning
exponents) and random tiles cover the rest.
"""

from __future__ import annotations

import pytest
import torch

import tilecraft.ttnn as ttnn
from tilecraft import device_arith as dev
from tests.emu.harness import KERNELS, arch_cases, cb, compute, dram, kernel, output, reader, run, writer

PHASES = {ttnn.MathFidelity.LoFi: 1, ttnn.MathFidelity.HiFi2: 2, ttnn.MathFidelity.HiFi3: 3,
          ttnn.MathFidelity.HiFi4: 4}


def reader_ab(a, b, count_a, count_b):
    return kernel(KERNELS / "reader_ab.cpp", ttnn.ReaderConfigDescriptor(),
                  rt=[a.buffer_address(), b.buffer_address(), count_a, count_b],
                  ct=[*ttnn.TensorAccessorArgs(a).get_compile_time_args(),
                      *ttnn.TensorAccessorArgs(b).get_compile_time_args()])


def matmul_tile(device, a, b, fidelity, fp32, out_dtype=ttnn.float32, precise=False):
    ta, tb = dram(device, a, ttnn.bfloat16), dram(device, b, ttnn.bfloat16)
    out = output(device, (32, 32), out_dtype)
    mm = compute(KERNELS / "compute_matmul.cpp", ct=[1, 1, 1], fp32=fp32, fidelity=fidelity,
                 bfp8_pack_precise=precise)
    run([ta, tb, out], [reader_ab(ta, tb, 1, 1), mm, writer(out, 16, 1)],
        [cb(0, ttnn.bfloat16, 2), cb(1, ttnn.bfloat16, 2), cb(16, out_dtype, 4)])
    return ttnn.to_torch(ta).float(), ttnn.to_torch(tb).float(), ttnn.to_torch(out)


def binary_tiles(device, op, a, b, fidelity, fp32, out_dtype=ttnn.bfloat16, in_dtype=ttnn.bfloat16, precise=False):
    ta, tb = dram(device, a, in_dtype), dram(device, b, in_dtype)
    out = output(device, a.shape, out_dtype)
    pair = kernel(KERNELS / "reader_pair.cpp", ttnn.ReaderConfigDescriptor(),
                  rt=[ta.buffer_address(), tb.buffer_address(), 1],
                  ct=[*ttnn.TensorAccessorArgs(ta).get_compile_time_args(),
                      *ttnn.TensorAccessorArgs(tb).get_compile_time_args()])
    run([ta, tb, out], [pair, compute(KERNELS / "compute_binary.cpp", rt=[1], fp32=fp32, fidelity=fidelity,
                                      defines=[("INIT", f"{op}_init"), ("CALL", f"{op}_tiles")],
                                      bfp8_pack_precise=precise),
                        writer(out, 16, 1)],
        [cb(0, in_dtype), cb(1, in_dtype), cb(16, out_dtype)])
    return ttnn.to_torch(ta).float(), ttnn.to_torch(tb).float(), ttnn.to_torch(out)


@pytest.mark.parametrize("device,fidelity,fp32", arch_cases(
    [(fidelity, fp32) for fp32 in (True, False) for fidelity in PHASES], [0]), indirect=["device"])
def test_matmul_follows_the_fidelity_phases_and_accumulation(device, fidelity, fp32) -> None:
    torch.manual_seed(11)
    a, b = torch.randn(32, 32), torch.randn(32, 32) * 4
    ea, eb, got = matmul_tile(device, a, b, fidelity, fp32)
    want = dev.matmul(ea, eb, PHASES[fidelity], fp32)
    if not fp32:  # a 16-bit DST packs to Float32 by widening its bfloat16 values
        want = dev.pack_bf16(want).float()
    assert torch.equal(got, want)


def test_lofi_keeps_four_bits_of_in1_and_six_of_in0(device) -> None:
    """in1 (SrcA) 1 + 15/128 keeps 1 + 1/16 at LoFi; in0 (SrcB) 1 + 127/128 keeps 1 + 63/64."""
    a, b = torch.zeros(32, 32), torch.zeros(32, 32)
    a[0, 0], b[0, 0] = 1 + 127 / 128, 1.0
    a[1, 0], b[0, 1] = 1.0, 1 + 15 / 128
    _, _, lofi = matmul_tile(device, a, b, ttnn.MathFidelity.LoFi, True)
    _, _, hifi2 = matmul_tile(device, a, b, ttnn.MathFidelity.HiFi2, True)
    _, _, hifi4 = matmul_tile(device, a, b, ttnn.MathFidelity.HiFi4, True)
    assert lofi[0, 0] == 1 + 63 / 64 and lofi[1, 1] == 1 + 1 / 16
    assert hifi2[0, 0] == 1 + 63 / 64 and hifi2[1, 1] == 1 + 15 / 128  # HiFi2 still drops in0's last bit
    assert hifi4[0, 0] == 1 + 127 / 128 and hifi4[1, 1] == 1 + 15 / 128


def test_products_are_aligned_per_group_of_eight_even_at_hifi4(device) -> None:
    """1 + 2^-20 summed with 2^-30 products: small products below the group's grid vanish; an
    exact fp32 sum would keep 1 + 2^-20 (fp32 DST, HiFi4)."""
    a, b = torch.zeros(32, 32), torch.zeros(32, 32)
    a[0, 0], b[0, 0] = 1.0, 1.0
    a[0, 1:8], b[1:8, 0] = 2.0 ** -10, 2.0 ** -10  # seven products of 2^-20 in the first group
    _, _, got = matmul_tile(device, a, b, ttnn.MathFidelity.HiFi4, True)
    ea, eb = a.bfloat16().float(), b.bfloat16().float()
    assert got[0, 0] == dev.matmul(ea, eb, 4, True)[0, 0]
    assert got[0, 0] == 1.0 and float((ea.double() @ eb.double())[0, 0]) == 1 + 7 * 2.0 ** -20


@pytest.mark.parametrize("device,op,fidelity,fp32", arch_cases(
    [(op, fidelity, fp32) for fp32 in (True, False) for fidelity in (ttnn.MathFidelity.LoFi, ttnn.MathFidelity.HiFi4)
     for op in ("add", "sub", "mul")], []), indirect=["device"])
def test_eltwise_follows_the_device(device, op, fidelity, fp32) -> None:
    if op != "mul" and fidelity != ttnn.MathFidelity.LoFi:
        pytest.skip("ELWADD/ELWSUB run one phase whatever the fidelity")
    torch.manual_seed(12)
    a, b = torch.randn(32, 32), torch.randn(32, 32) * torch.exp2(torch.randint(-12, 12, (32, 32)).float())
    ea, eb, got = binary_tiles(device, op, a, b, fidelity, fp32)
    want = dev.pack_bf16(dev.eltwise(op, ea, eb, PHASES[fidelity], fp32))
    assert torch.equal(got, want)


def test_lofi_multiply_is_low_on_average(device) -> None:
    torch.manual_seed(13)
    a, b = torch.rand(32, 32) + 1, torch.rand(32, 32) + 1
    ea, eb, got = binary_tiles(device, "mul", a, b, ttnn.MathFidelity.LoFi, True, ttnn.float32)
    ratio = (got.double() / (ea.double() * eb.double())).mean()
    assert 0.96 < ratio < 0.995  # truncated operand bits: the product is low


@pytest.mark.parametrize("device", arch_cases([()], [0]), indirect=True)
def test_pack_rounds_ties_away_and_nan_becomes_inf(device) -> None:
    """fp32 DST values (Float32 inputs times 1.0, exact at HiFi4) packed to bfloat16."""
    a = torch.ones(32, 32)
    b = torch.zeros(32, 32)
    b[0, :5] = torch.tensor([1 + 2.0 ** -8, -(1 + 5 * 2.0 ** -8), 1 + 2.0 ** -9, float("nan"), 3.0])
    _, _, got = binary_tiles(device, "mul", a, b, ttnn.MathFidelity.HiFi4, True, in_dtype=ttnn.float32)
    want = [1 + 2.0 ** -7, -(1 + 3 * 2.0 ** -7), 1.0, float("inf"), 3.0]
    assert got[0, :5].float().tolist() == want
    assert dev.pack_bf16(b[0, :5]).float().tolist() == want  # the golden agrees


@pytest.mark.parametrize("device,bits,dtype,precise", arch_cases(
    [(bits, dtype, precise) for precise in (False, True) for bits, dtype in ((7, ttnn.bfloat8_b), (3, ttnn.bfloat4_b))],
    [0]), indirect=["device"])
def test_block_float_pack_rounds_twice_or_truncates(device, bits, dtype, precise) -> None:
    """One face row spans 2^4 .. 2^-12: the shared exponent is the largest; bfloat8_b rounds to 7
    bits first unless bfp8_pack_precise, bfloat4_b keeps the top three bits of the rounded seven."""
    torch.manual_seed(14)
    a = torch.randn(32, 32) * torch.exp2(torch.randint(-12, 5, (32, 32)).float())
    a[0, :4] = torch.tensor([16.0, 1 + 3 * 2.0 ** -8, -(1 + 2.0 ** -3 + 2.0 ** -6), 2.0 ** -12])
    b = torch.ones(32, 32)
    ea, _, got = binary_tiles(device, "mul", a, b, ttnn.MathFidelity.HiFi4, True, out_dtype=dtype,
                              precise=precise)
    assert torch.equal(got.float(), dev.pack_block_float(ea, bits, precise))


def run_gelu(device, x: torch.Tensor, call: str) -> torch.Tensor:
    tx = dram(device, x, ttnn.float32)
    out = output(device, x.shape, ttnn.float32)
    k = compute(KERNELS / "compute_unary.cpp", rt=[1], fp32=True, unpack_to_dest=[0], defines=[("SFPU_OPS", call)])
    run([tx, out], [reader(tx, 0, 1), k, writer(out, 16, 1)], [cb(0, ttnn.float32), cb(16, ttnn.float32)])
    return ttnn.to_torch(out)


def test_default_gelu_is_the_piecewise_table(device) -> None:
    """gelu_tile() (fast_and_approx) is a 6-segment linear table on the device: within 0.025 of
    GELU, off by 0.023 near |x| = 0.25, exact beyond 3; gelu_tile<false>() is accurate."""
    x = torch.linspace(-6, 6, 1024).reshape(32, 32)
    x[0, :6] = torch.tensor([0.25, -0.25, 0.5, 2.9999, 3.0, -3.5])
    got = run_gelu(device, x, "gelu_tile_init(); gelu_tile(0);")
    exact = torch.nn.functional.gelu(x.double())
    assert torch.equal(got, dev.gelu_table(x))
    assert (got.double() - exact).abs().max() < 0.025 and abs(got[0, 0].item() - exact[0, 0].item()) > 0.02
    accurate = run_gelu(device, x, "gelu_tile_init<false>(); gelu_tile<false>(0);")
    assert (accurate.double() - exact).abs().max() < 1e-3
