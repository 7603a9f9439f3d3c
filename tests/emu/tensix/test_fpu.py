"""The matrix unit (FPU) of the Tensix machine: its instructions on SrcA/SrcB/Dst as the ISA states them.

Each test writes a script for fpu_driver.cpp (compiled once): Src rows filled with datums, config
fields set by their cfg_defines.h names, instructions encoded with the wheel's TT_OP_* macros, Dst
read back. Products and sums are held bit for bit to tilecraft/device_arith.py, an independent
float64 model of the fidelity phases and grouped accumulation (SrcASrcB.md, MVMUL.md, ELWMUL.md,
ELWADD.md and ttsim's accumulation), and to torch where the arithmetic is exact.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from tilecraft import device_arith as dev
from tests.emu.tensix import prng_model

DRIVER = (Path(__file__).parent / "fpu_driver.cpp").read_text()
BF16, TF32, FP16 = 5, 4, 1  # DataFormat codes

# ADDR_MOD_0 steps SrcA, SrcB and Dst by 8 rows; ADDR_MOD_1 clears them and moves to the next
# fidelity phase; ADDR_MOD_2 steps SrcB and Dst only (MVMUL keeps its 16 SrcA rows).
ADDR_MODS = [
    "thd ADDR_MOD_AB_SEC0_SrcAIncr 8", "thd ADDR_MOD_AB_SEC0_SrcBIncr 8", "thd ADDR_MOD_DST_SEC0_DestIncr 8",
    "thd ADDR_MOD_AB_SEC1_SrcAClear 1", "thd ADDR_MOD_AB_SEC1_SrcBClear 1", "thd ADDR_MOD_DST_SEC1_DestClear 1",
    "thd ADDR_MOD_DST_SEC1_FidelityIncr 1",
    "thd ADDR_MOD_AB_SEC2_SrcBIncr 8", "thd ADDR_MOD_DST_SEC2_DestIncr 8",
]


def bits(t: torch.Tensor) -> list[str]:
    return [f"{v & 0xFFFFFFFF:08x}" for v in t.float().contiguous().view(torch.int32).flatten().tolist()]


def src_rows(which: str, t: torch.Tensor, bank: int = 0, row0: int = 0) -> list[str]:
    t = t.reshape(-1, 16)
    return [f"{which} {bank} {row0 + r} " + " ".join(bits(t[r])) for r in range(t.shape[0])]


def setup(fmt: int = BF16, fp32_dst: bool = True) -> list[str]:
    return [f"cfg ALU_FORMAT_SPEC_REG0_SrcA {fmt}", f"cfg ALU_FORMAT_SPEC_REG1_SrcB {fmt}",
            f"cfg ALU_ACC_CTRL_Fp32_enabled {int(fp32_dst)}", *ADDR_MODS, "dvalid 1 0 1 0"]


def run(tensix_unit_test, script: list[str]) -> list[str]:
    return tensix_unit_test(DRIVER, stdin="\n".join(script) + "\n").splitlines()


def words(lines: list[str]) -> np.ndarray:
    return np.array([[int(x, 16) for x in ln.split()] for ln in lines], dtype=np.uint32)


def dst_fp32(lines: list[str]) -> torch.Tensor:
    return torch.from_numpy(words(lines).view(np.float32).copy())


def dst_bf16(lines: list[str]) -> torch.Tensor:
    """Dst16 BF16 datums (Sign, Man7, Exp8 per Dst.md) as float32."""
    d = words(lines)
    b = (d & 0x8000) | ((d & 0xFF) << 7) | ((d >> 8) & 0x7F)
    return torch.from_numpy((b << 16).astype(np.uint32).view(np.float32).copy())


def bf16(t: torch.Tensor) -> torch.Tensor:
    return t.to(torch.bfloat16).float()


def truncated(t: torch.Tensor, keep_mask: int) -> torch.Tensor:
    return (t.float().view(torch.int32) & keep_mask).view(torch.float32)


def src_datum(v: float) -> int:
    """A value's TF32 Src datum per SrcASrcB.md: Sign[18], Man10[17:8], Exp8[7:0]."""
    f = int(np.float32(v).view(np.uint32))
    return ((f >> 31) << 18) | (((f >> 13) & 0x3FF) << 8) | ((f >> 23) & 0xFF)


def test_datum_layouts_follow_the_isa(tensix_unit_test) -> None:
    """Src holds Sign,Man10,Exp8 (BF16 with the low 3 mantissa bits zero); Dst16 BF16 Sign,Man7,Exp8;
    Dst32 FP32 Sign,ManHi7,Exp8,ManLo16. MOVA2D moves a BF16 row exactly; with SrcA as TF32 into a
    32-bit Dst it keeps the 10 mantissa bits."""
    x = torch.tensor([1.0, -2.5, 0.15625, 3.0e-38, 65504.0, -1.0e30, 0.0, -0.0] * 2)
    xt, xb = truncated(x, -8192), truncated(x, -65536)  # the TF32 datum, its BF16 truncation
    out = run(tensix_unit_test, [*setup(BF16, fp32_dst=False), *src_rows("srca", x.reshape(1, 16)),
                                 "srcrow A 0 0", "op MOVA2D 0 0 3 0 0", "dst16 0 1",
                                 "cfg ALU_FORMAT_SPEC_REG_SrcA_override 1", f"cfg ALU_FORMAT_SPEC_REG_SrcA_val {TF32}",
                                 "cfg ALU_ACC_CTRL_Fp32_enabled 1", "op MOVA2D 0 0 3 0 16", "dst32 16 1"])
    src = [int(v, 16) for v in out[0].split()]
    assert src[0] == 0x7F and src[1] == (1 << 18) | (0x100 << 8) | 0x80  # 1.0; -2.5 = -1.25 * 2^1
    assert src == [src_datum(v) for v in x.tolist()]
    assert dst_bf16(out[1:2])[0].tolist() == xb.tolist()
    assert words(out[1:2])[0][0] == 0x007F  # 1.0 in Dst16: exponent in the low byte
    assert dst_fp32(out[2:3])[0].tolist() == xt.tolist()


def test_elwadd_is_exact_onto_fp32_dst_and_follows_the_11_bit_window(tensix_unit_test) -> None:
    torch.manual_seed(1)
    sign = torch.randint(0, 2, (2, 16, 16)) * 2 - 1
    near = bf16(sign * (1 + 7 * torch.rand(2, 16, 16)))  # exponents within 2: every sum is exact
    wide = bf16(torch.randn(2, 16, 16) * torch.exp2(torch.randint(-8, 8, (2, 16, 16)).float()))
    for a, b, exact in ((near[0], near[1], True), (wide[0], wide[1], False)):
        out = run(tensix_unit_test, [*setup(), *src_rows("srca", a), *src_rows("srcb", b),
                                     "op ELWADD 0 0 0 0 0", "op ELWADD 3 0 0 0 0", "dst32 0 16", "banks", "rwc"])
        got = dst_fp32(out[:16])
        assert torch.equal(got, dev.eltwise("add", a, b, 1, True))
        if exact:
            assert torch.equal(got, a + b)
        # the second ELWADD released both banks to the unpackers and moved to bank 1
        assert out[16] == "banks 1 1 0 0 0 0 0 0"
        assert out[17] == "rwc 16 0 16 0 16 0 0"


def test_elwsub_and_row_broadcast_onto_bf16_dst(tensix_unit_test) -> None:
    """ELWSUB negates SrcB; BroadcastSrcBRow takes SrcB's row at the counter for all 8 rows; a 16-bit
    Dst rounds each result to bfloat16 with ties away from zero."""
    torch.manual_seed(2)
    a, b = bf16(torch.randn(16, 16)), bf16(torch.randn(16, 16) * 3)
    out = run(tensix_unit_test, [*setup(fp32_dst=False), *src_rows("srca", a), *src_rows("srcb", b),
                                 "op ELWSUB 0 0 2 0 0", "dst16 0 8"])
    want = dev.eltwise("sub", a[:8], b[0].expand(8, 16), 1, False)
    assert torch.equal(dst_bf16(out), want)


@pytest.mark.parametrize("fp32_dst", [True, False])
def test_elwmul_fidelity_phases(tensix_unit_test, fp32_dst) -> None:
    """One ELWMUL per fidelity phase (ADDR_MOD_1 moves to the next phase): each phase multiplies
    5 bits of SrcA by 7 of SrcB, so LoFi is low on average and HiFi4 exact onto fp32 Dst."""
    torch.manual_seed(3)
    a, b = bf16(torch.randn(16, 16)), bf16(torch.randn(16, 16))
    got = {}
    for phases in (1, 2, 4):
        per_phase = ["op ELWMUL 0 0 0 0 0", "op ELWMUL 0 0 0 1 0"]
        out = run(tensix_unit_test, [*setup(fp32_dst=fp32_dst), *src_rows("srca", a), *src_rows("srcb", b),
                                     *per_phase * phases,
                                     "dst32 0 16" if fp32_dst else "dst16 0 16"])
        got[phases] = dst_fp32(out) if fp32_dst else dst_bf16(out)
        assert torch.equal(got[phases], dev.eltwise("mul", a, b, phases, fp32_dst)), phases
    exact = a * b
    if fp32_dst:
        assert torch.equal(got[4], exact)
    lofi_err = ((got[1] - exact).abs() / exact.abs().clamp_min(1e-30)).mean()
    assert lofi_err > 5e-3  # LoFi drops SrcA's low mantissa bits: visibly low
    if fp32_dst:
        assert (got[1].abs() <= exact.abs()).all()  # the dropped bits only ever lower the magnitude


@pytest.mark.parametrize("fp32_dst", [True, False])
def test_mvmul_fidelity_and_grouped_accumulation(tensix_unit_test, fp32_dst) -> None:
    """Dst += SrcB @ SrcA in two 8-row MVMULs per phase; bit for bit the device's grouped sums."""
    torch.manual_seed(4)
    a = bf16(torch.randn(16, 16))  # SrcA: 16x16 (k, n)
    b = bf16(torch.randn(16, 16) * 4)  # SrcB: 16 rows (m, k)
    got = {}
    for phases in (1, 2, 3, 4):
        per_phase = ["op MVMUL 0 0 2 0", "op MVMUL 0 0 1 0"]
        out = run(tensix_unit_test, [*setup(fp32_dst=fp32_dst), *src_rows("srca", a), *src_rows("srcb", b),
                                     *per_phase * phases,
                                     "dst32 0 16" if fp32_dst else "dst16 0 16"])
        got[phases] = dst_fp32(out) if fp32_dst else dst_bf16(out)
        assert torch.equal(got[phases], dev.matmul(b, a, phases, fp32_dst)), phases
    exact = b.double() @ a.double()
    rms = exact.pow(2).mean().sqrt()
    err = {p: ((got[p].double() - exact).pow(2).mean().sqrt() / rms).item() for p in got}
    assert err[1] > (10 if fp32_dst else 5) * err[4]  # LoFi is far from HiFi4, as on the device
    # even HiFi4 onto fp32 Dst is not exact: each group of eight products is summed on the grid of its
    # largest product's 12 bits
    assert 1e-6 < err[4] < (1e-3 if fp32_dst else 1e-2)


def test_gapool_and_mvmul_row_broadcast(tensix_unit_test) -> None:
    """GAPOOL is MVMUL with 4 rows; MVMUL's SrcB row broadcast writes every other row of 7."""
    torch.manual_seed(5)
    a, b = bf16(torch.randn(16, 16)), bf16(torch.randn(16, 16))
    out = run(tensix_unit_test, [*setup(), *src_rows("srca", a), *src_rows("srcb", b),
                                 "op GAPOOL 0 1 0 0 0", "dst32 0 8",
                                 "op SETRWC 0 0 0 3 0 7", "op MVMUL 0 1 0 16", "dst32 16 8"])
    pooled, bcast = dst_fp32(out[:8]), dst_fp32(out[8:16])
    assert torch.equal(pooled[:4], dev.matmul(b[:4], a, 1, True))
    assert torch.equal(pooled[4:], torch.zeros(4, 16))
    row = dev.matmul(b[3:4], a, 1, True)[0]  # SrcB row 3 (the counter), broadcast
    for r in range(8):
        assert torch.equal(bcast[r], row if r in (0, 2, 4, 6) else torch.zeros(16)), r


def test_gmpool_column_max_reads_zeroacc_rows_as_minus_infinity(tensix_unit_test) -> None:
    torch.manual_seed(6)
    a = bf16(-torch.rand(16, 16) - 0.5)  # all negative
    ones = torch.ones(16, 16)
    common = [*setup(fp32_dst=False), *src_rows("srca", a), *src_rows("srcb", ones)]
    after_zeroacc = run(tensix_unit_test, [*common, "op ZEROACC 3 0 0", "op GMPOOL 0 1 0 0 0", "dst16 0 4"])
    onto_zero = run(tensix_unit_test, [*common, "op GMPOOL 0 1 0 0 0", "dst16 0 4"])
    got = dst_bf16(after_zeroacc)
    assert torch.equal(got[0], a.max(dim=0).values)
    assert torch.equal(got[1:], torch.zeros(3, 16))
    assert torch.equal(dst_bf16(onto_zero)[0], torch.zeros(16))  # max with Dst's 0


def test_rwcs_address_modifiers_and_moves(tensix_unit_test) -> None:
    """SETRWC/INCRWC with carriage returns; MOVB2D broadcasts; MOVD2B / MOVB2A / TRNSPSRCB move rows."""
    x = bf16(torch.arange(256, dtype=torch.float32).reshape(16, 16) - 100)
    out = run(tensix_unit_test, [
        *setup(fp32_dst=False), *src_rows("srcb", x),
        "op SETRWC 0 0 4 2 1 7", "rwc", "op INCRWC 7 3 2 1", "rwc", "op INCRWC 0 1 1 1", "rwc",
        "op SETRWC 0 8 0 0 0 4", "rwc",  # DstCtoCr: Dst += 0, copied to its carriage return
        "op SETRWC 0 0 0 0 0 15", "op MOVB2D 0 5 3 3 0", "dst16 0 8",  # row 5, broadcast to 8 rows and column 0
        "op MOVB2D 0 0 3 4 32", "dst16 32 4",  # 4 rows
        "op MOVD2B 0 16 3 2 32", "op TRNSPSRCB", "srcrow B 0 16", "srcrow B 0 17",
        "op MOVB2A 0 3 2 16", "srcrow A 0 1",
    ])
    assert out[:4] == ["rwc 1 1 2 2 4 4 0", "rwc 2 2 4 4 7 7 0", "rwc 3 2 5 4 8 7 0", "rwc 3 2 5 4 8 8 0"]
    assert torch.equal(dst_bf16(out[4:12]), x[5, 0].expand(8, 16))
    assert torch.equal(dst_bf16(out[12:16]), x[:4])
    # MOVD2B put Dst rows 32..35 (= x rows 0..3) in SrcB rows 16..19; TRNSPSRCB transposed rows 16..31
    # (rows 20..31 zero), so SrcB row 16 holds column 0 of x's first 4 rows
    b16 = [int(v, 16) for v in out[16].split()]
    b17 = [int(v, 16) for v in out[17].split()]
    assert b16[:4] == [src_datum(x[r, 0].item()) for r in range(4)] and b16[4:] == [0] * 12
    assert b17[:4] == [src_datum(x[r, 1].item()) for r in range(4)]
    assert [int(v, 16) for v in out[18].split()] == b17  # MOVB2A: SrcB rows 16..19 to SrcA rows 0..3


def test_movb2a_moves_one_row_or_an_aligned_block_of_four(tensix_unit_test) -> None:
    """MOVB2A as MOVD2B.md's model moves Src rows: instr_mod 0 one row at the immediates plus the
    RWCs, 2 the aligned block of four (rows masked to a multiple of 4); SrcB datums with a zero
    exponent land in SrcA as 0 unless Zero_Flag_disabled_src; AddrMode then advances the RWCs.
    instr_mod 1 and 3 have no documented meaning and fail (test_unmodelled_... has 1). Blackhole's
    fields (AddrMode from bit 14) are in test_blackhole.py."""
    x = bf16(torch.arange(256, dtype=torch.float32).reshape(16, 16) * 0.75 - 90)
    x[9, 0] = torch.tensor([0x00400000], dtype=torch.int32).view(torch.float32)  # a denormal: exponent 0
    out = run(tensix_unit_test, [
        *setup(fp32_dst=False), *src_rows("srcb", x),
        "thd ADDR_MOD_AB_SEC3_SrcAIncr 4", "thd ADDR_MOD_AB_SEC3_SrcBIncr 8",
        "op SETRWC 0 0 0 0 0 15",
        "op MOVB2A 5 3 0 9", "srcrow A 0 5", "srcrow A 0 4", "srcrow A 0 6", "rwc",  # SrcB 9 -> SrcA 5
        "op MOVB2A 6 1 2 3", *(f"srcrow A 0 {r}" for r in range(8, 13)), "rwc",  # (6+4, 3+8) & ~3: rows 8..11
        "cfg ALU_ACC_CTRL_Zero_Flag_disabled_src 1", "op MOVB2A 0 0 2 8", "srcrow A 0 1",  # no flush
        "op MOVB2A 0 0 3 0",
    ])
    row = [[int(v, 16) for v in line.split()] for line in out[:3] + out[4:9] + out[10:11]]
    datums = [[src_datum(v) for v in x[r].tolist()] for r in range(16)]
    assert datums[9][0] == 0x20000  # a nonzero mantissa under a zero exponent
    flushed = [[0 if (d & 0xFF) == 0 else d for d in ds] for ds in datums]
    assert row[0] == flushed[9] and row[1] == [0] * 16 and row[2] == [0] * 16
    assert out[3] == "rwc 4 0 8 0 0 0 0"
    assert row[3:7] == flushed[8:12] and row[7] == [0] * 16
    assert out[9] == "rwc 0 0 0 0 0 0 1"  # ADDR_MOD_1 (setup) clears them and steps the fidelity phase
    assert row[8] == datums[9] and row[8][0] == 0x20000
    assert "MOVB2A instr_mod 3 has no documented meaning" in out[11]
    assert len(out) == 12


def test_each_thread_has_its_own_rwcs_and_address_modifiers(tensix_unit_test) -> None:
    """RWCs.md: RWCs[CurrentThread], ADDR_MOD sets in that thread's config, ExtraAddrModBit per
    thread. SFPU code the PACK thread runs between its packs (the LLK's fused SFPU kernels) sets and
    steps its own counters; the MATH thread's stay where they were."""
    x = bf16(torch.arange(256, dtype=torch.float32).reshape(16, 16) - 100)
    out = run(tensix_unit_test, [
        *setup(fp32_dst=False), *src_rows("srcb", x),
        "op SETRWC 0 0 4 2 1 7", "op@pack SETRWC 0 0 8 6 3 7", "rwc", "rwc@pack",
        "op@pack INCRWC 0 1 1 1", "rwc", "rwc@pack",
        # PACK's set 0 flips its ExtraAddrModBit, so its next AddrMode 0 names set 4
        "thd@pack ADDR_MOD_BIAS_SEC0_BiasIncr 1", "thd@pack ADDR_MOD_DST_SEC4_DestIncr 16",
        "thd@pack ADDR_MOD_DST_SEC4_FidelityIncr 1",
        "op@pack MOVB2D 0 0 0 0 0", "rwc@pack", "op@pack MOVB2D 0 0 0 0 0", "rwc@pack",
        "op MOVB2D 0 0 0 0 0", "rwc",  # MATH's AddrMode 0 is still its set 0 (+8 each, setup)
        "dst16 4 1", "dst16 9 1",
    ])
    assert out[:4] == ["rwc 1 1 2 2 4 4 0", "rwc 3 3 6 6 8 8 0", "rwc 1 1 2 2 4 4 0", "rwc 4 3 7 6 9 8 0"]
    assert out[4:7] == ["rwc 4 3 7 6 9 8 0", "rwc 4 3 7 6 25 8 1", "rwc 9 1 10 2 12 4 0"]
    assert torch.equal(dst_bf16(out[7:8])[0], x[2])  # MATH: SrcB row 2 to Dst row 4
    assert torch.equal(dst_bf16(out[8:9])[0], x[7])  # PACK: SrcB row 7 to Dst row 9


def test_unmodelled_and_misused_instructions_fail_naming_them(tensix_unit_test) -> None:
    out = run(tensix_unit_test, [
        "cfg ALU_FORMAT_SPEC_REG0_SrcA 5",
        "op ELWADD 0 0 0 0 0",  # no data handed over
        "dvalid 1 0 1 0", "op DOTPV 0 0 0 0 0",
        "thd FIDELITY_BASE_Phase 1", "op ELWADD 0 0 0 0 0",
        "op MOVB2A 0 0 1 0",  # instr_mod bit 0: no documented meaning
        "op GMPOOL 0 1 0 1 0",
        "dvalid 1 0 0 0", "op SETRWC 2 0 0 0 0 0",  # hands back a SrcB bank the unpacker never handed over
    ])
    assert "SrcA and SrcB data for ELWADD" in out[0]
    assert "DOTPV" in out[1] and "not modelled" in out[1]
    assert "opcode 0x28 ELWADD" in out[2] and "fidelity phase 1" in out[2]
    assert "MOVB2A instr_mod 1 has no documented meaning" in out[3]
    assert "argmax" in out[4]
    assert "SrcB data for SETRWC" in out[5]
    assert all(line.startswith("error: ") for line in out)


def fp16_bits(t: torch.Tensor) -> list[str]:
    return [f"{v & 0xFFFF:04x}" for v in t.to(torch.float16).view(torch.int16).flatten().tolist()]


def dst_fp16(lines: list[str]) -> np.ndarray:
    """Dst16 FP16 datums (Sign, Man10, Exp5 per Dst.md) as IEEE half bit patterns."""
    d = words(lines)
    return ((d & 0x8000) | ((d & 0x1F) << 10) | ((d >> 5) & 0x3FF)).astype(np.uint16)


def test_fp16_data_keeps_ten_mantissa_bits_and_saturates(tensix_unit_test) -> None:
    """FP16 Src data onto a 16-bit (FP16) Dst: integer sums and HiFi4 products are exact, LoFi uses
    five bits of SrcA (63 becomes 62), and a sum past FP16's range saturates to its largest pattern."""
    # IEEE's inf pattern (exponent 31, mantissa 0) is 65536 on the Tensix (FloatBitPatterns.md)
    a = torch.tensor([63.0, 5.0, -7.0, 1000.0, float("inf"), 0.5, 3.0, 2.0] * 2)
    b = torch.tensor([1.0, 3.0, 11.0, -24.0, float("inf"), 0.25, -3.0, 2.0] * 2)
    rows = [f"srca16 0 0 {' '.join(fp16_bits(a))}", f"srcb16 0 0 {' '.join(fp16_bits(b))}"]
    out = run(tensix_unit_test, [*setup(FP16, fp32_dst=False), *rows, "op ELWADD 0 0 0 3 0", "dst16 0 1",
                                 "op ELWMUL 0 0 0 3 8", "dst16 8 1"])
    add, mul_lofi = dst_fp16(out[0:1])[0], dst_fp16(out[1:2])[0]
    want_add = (a + b).to(torch.float16).view(torch.int16).numpy().astype(np.uint16)
    assert list(add[[0, 1, 2, 3, 5, 6, 7]]) == list(want_add[[0, 1, 2, 3, 5, 6, 7]])
    assert add[4] == 0x7FFF  # 65536 + 65536 saturates: exponent 31, mantissa all ones
    assert np.float16(add[0].view(np.float16)) == 64.0
    lofi = mul_lofi.view(np.float16).astype(np.float32)
    assert lofi[0] == 62.0 and lofi[1] == 15.0 and lofi[2] == -77.0  # 63 -> 62 (five bits of SrcA)


def int8_bits(values: torch.Tensor) -> list[str]:
    """Integer "8" datums as the FP16 patterns they overlay (SrcASrcB.md): exponent 16, magnitude in
    the mantissa, exponent 0 for zero."""
    out = []
    for v in values.int().flatten().tolist():
        out.append("0000" if v == 0 else f"{((v < 0) << 15) | (16 << 10) | abs(v):04x}")
    return out


def dst_int32(lines: list[str]) -> torch.Tensor:
    d = words(lines).astype(np.int64)
    return torch.from_numpy(np.where(d >> 31, -(d & 0x7FFFFFFF), d & 0x7FFFFFFF))


def test_int8_math_is_exact_over_all_phases_into_int32_dst(tensix_unit_test) -> None:
    """INT8 math: ELWADD and, over all four phases, MVMUL are exact into the sign-magnitude INT32 Dst;
    phase 0 alone (LoFi) uses only SrcA's magnitude bits 5-7 and SrcB's bits 4-9."""
    torch.manual_seed(9)
    a, b = torch.randint(-127, 128, (16, 16)), torch.randint(-127, 128, (16, 16))
    rows = [f"srca16 0 {r} {' '.join(int8_bits(a[r]))}" for r in range(16)]
    rows += [f"srcb16 0 {r} {' '.join(int8_bits(b[r]))}" for r in range(16)]
    base = [*setup(14), "cfg ALU_ACC_CTRL_INT8_math_enabled 1", *rows]
    added = run(tensix_unit_test, [*base, "op ELWADD 0 0 0 3 0", "dst32 0 8"])
    assert torch.equal(dst_int32(added), a[:8] + b[:8])
    per_phase = ["op MVMUL 0 0 2 0", "op MVMUL 0 0 1 0"]
    for phases in (1, 4):
        got = dst_int32(run(tensix_unit_test, [*base, *per_phase * phases, "dst32 0 16"]))
        if phases == 4:
            assert torch.equal(got, b @ a)
        else:
            hi_a = a.sign() * (a.abs() & 0xE0)
            hi_b = b.sign() * (b.abs() & 0x3F0)
            assert torch.equal(got, hi_b @ hi_a)


def test_clearing_shifting_and_bank_hand_over(tensix_unit_test) -> None:
    """ZEROACC clears one row, 16 rows of Dst16b or of Dst32b (32 DstBits rows); ZEROSRC clears the
    matrix unit's bank or, as minus infinity, both SrcA banks; SHIFTXA/SHIFTXB shift rows left;
    SETDVALID hands the unpackers' banks over, CLEARDVALID takes them back (or resets all)."""
    x = bf16(torch.arange(1, 17, dtype=torch.float32))
    fill = [*src_rows("srcb", x.reshape(1, 16)), *[f"op MOVB2D 0 0 3 2 {8 * n}" for n in range(8)]]  # Dst rows 0..63
    out = run(tensix_unit_test, [
        *setup(fp32_dst=False), *fill,
        "op ZEROACC 0 3 5", "op ZEROACC 1 3 1", "op ZEROACC 5 3 1", "dst16 0 64",
        *src_rows("srca", x.reshape(1, 16)), "op SHIFTXA 0 3", "srcrow A 0 0",
        "op SHIFTXB 3 1 0", "srcrow B 0 0",
        "op ZEROSRC 0 1 0 1", "srcrow A 0 0", "op ZEROSRC 1 0 1 1", "srcrow A 1 5",
        "banks", "op SETDVALID 3", "banks", "op SETDVALID 3", "banks", "op CLEARDVALID 3 0", "banks",
        "op CLEARDVALID 0 1", "banks",
    ])
    rows = dst_bf16(out[:64])
    zero = {5} | set(range(16, 32)) | set(range(32, 64))  # one row; Dst16b rows 16..31; Dst32b rows 16..31
    for r in range(64):
        assert torch.equal(rows[r], torch.zeros(16) if r in zero else x), r
    shifted = [src_datum(v) for v in [*x[1:].tolist(), 0.0]]
    assert [int(v, 16) for v in out[64].split()] == shifted  # SHIFTXA left: column 15 shifts in 0
    b_row = [int(v, 16) for v in out[65].split()]
    assert b_row[:14] == shifted[:14] and b_row[14] == src_datum(15.0) and b_row[15] == 0  # as SHIFTXB.md states
    assert out[66].split() == ["00000"] * 16
    assert out[67].split() == ["7ffff"] * 16
    # banks: SrcA/SrcB math bank, SrcA/SrcB unpack bank, dvalid of SrcA[0], SrcA[1], SrcB[0], SrcB[1]
    assert out[68:] == ["banks 0 0 0 0 1 0 1 0", "banks 0 0 1 1 1 0 1 0", "banks 0 0 0 0 1 1 1 1",
                        "banks 1 1 0 0 0 1 0 1", "banks 0 0 0 0 0 0 0 0"]


# --- stochastic rounding into Dst (ALU_ROUNDING_MODE_Fpu_srnd_en) ---

SEED = 0x2545F491


def rounded_into_bf16(exact: np.ndarray, prng_values: np.ndarray | None) -> np.ndarray:
    """fp32 values (bit patterns, each exact in 16 significant bits) rounded to bfloat16 bits the way the
    matrix unit rounds into a 16-bit Dst: the magnitude goes up when the dropped 16 bits, scaled to 23,
    reach the threshold (prng.h): half of 2^23 without stochastic rounding, else the PRNG's low 23 bits."""
    dropped = exact & 0xFFFF
    if prng_values is None:
        up = dropped >= 0x8000
    else:
        up = np.array([prng_model.rounds_up(int(d), 16, int(r)) for d, r in zip(dropped.ravel(), prng_values.ravel())])
        up = up.reshape(exact.shape)
    out = (exact >> 16) + up
    return np.where((exact & 0x7FFFFFFF) == 0, 0, out).astype(np.uint32)


def fpu_prng_values(seed: int, rows: int) -> np.ndarray:
    """The values the matrix unit's PRNG hands out for `rows` Dst rows of results: lane c, column c."""
    state = prng_model.seeded(seed, 16, prng_model.FPU_STREAM)
    out = []
    for _ in range(rows):
        out.append(state)
        state = [prng_model.step(s) for s in state]
    return np.array(out, dtype=np.uint32)


@pytest.mark.parametrize("stochastic", [False, True])
def test_elwadd_rounds_into_bf16_dst_stochastically_with_the_prng(tensix_unit_test, stochastic) -> None:
    """128 ELWADDs of the same rows: a + b is exact in 11 bits (b is a multiple of an eighth of a's
    bfloat16 ulp), then rounded into the 16-bit Dst. Column c's sums lie c % 8 eighths of an ulp
    above the bfloat16 grid: to nearest they round down below a half and up from it; stochastically
    each rounds up with that probability, one PRNG step per result, the lanes being the columns."""
    rng = np.random.default_rng(7)
    sign = np.where(np.arange(16) % 3 == 0, -1.0, 1.0)
    ulp = np.exp2(rng.integers(-6, 6, 16).astype(np.float64) - 7)  # of a's bfloat16 binade
    a = sign * (128 + rng.integers(0, 127, 16)) * ulp  # bfloat16 values below the binade's top
    b = sign * (np.arange(16) % 8) / 8.0 * ulp  # eighths of a's ulp: bfloat16 values
    exact = (a.astype(np.float64) + b).astype(np.float32)  # 11 significant bits at most: exact
    rows_a = torch.from_numpy(np.tile(a.astype(np.float32), (8, 1)))
    rows_b = torch.from_numpy(np.tile(b.astype(np.float32), (8, 1)))
    script = [f"cfg ALU_FORMAT_SPEC_REG0_SrcA {BF16}", f"cfg ALU_FORMAT_SPEC_REG1_SrcB {BF16}",
              "cfg ALU_ACC_CTRL_Fp32_enabled 0", f"cfg ALU_ROUNDING_MODE_Fpu_srnd_en {int(stochastic)}",
              f"cfg PRNG_SEED_Seed_Val {SEED}", "dvalid 1 0 1 0", *src_rows("srca", rows_a), *src_rows("srcb", rows_b),
              *[f"op ELWADD 0 0 0 3 {8 * n}" for n in range(128)], "dst16 0 1024"]  # ADDR_MOD_3: no steps
    got = dst_bf16(run(tensix_unit_test, script)).numpy().view(np.uint32) >> 16
    exact_bits = np.tile(exact.view(np.uint32), (1024, 1))
    want = rounded_into_bf16(exact_bits, fpu_prng_values(SEED, 1024) if stochastic else None)
    np.testing.assert_array_equal(got, want)
    up = (got != exact_bits >> 16).mean(axis=0)  # per column: how often the magnitude went up
    fraction = (np.arange(16) % 8) / 8.0
    if not stochastic:
        np.testing.assert_array_equal(up, (fraction >= 0.5).astype(float))
        return
    # unbiased: each column rounds up about as often as its sum lies above the grid (1024 draws each)
    assert (np.abs(up - fraction) <= 5 * np.sqrt(fraction * (1 - fraction) / 1024) + 1e-9).all(), up
    assert (up[fraction == 0] == 0).all()  # values the Dst format holds stay exact
    decoded = (got << 16).astype(np.uint32).view(np.float32).astype(np.float64)
    bias = (decoded - exact.astype(np.float64)).mean(axis=0) * sign / ulp
    assert (np.abs(bias) < 0.1).all(), bias  # rounding to nearest is off by up to half an ulp here


def test_mvmul_stochastic_rounding_stays_within_an_ulp_of_nearest(tensix_unit_test) -> None:
    """MVMUL's results round into a 16-bit Dst by the same rule: against rounding to nearest, each
    is the same or one bfloat16 ulp away, and both occur."""
    torch.manual_seed(5)
    a, b = bf16(torch.randn(16, 16)), bf16(torch.randn(16, 16) * 4)
    results = {}
    for stochastic in (0, 1):
        out = run(tensix_unit_test, [*setup(fp32_dst=False), f"cfg ALU_ROUNDING_MODE_Fpu_srnd_en {stochastic}",
                                     *src_rows("srca", a), *src_rows("srcb", b),
                                     "op MVMUL 0 0 2 0", "op MVMUL 0 0 2 0", "dst16 0 16"])
        results[stochastic] = dst_bf16(out)
    nearest, stoch = results[0], results[1]
    assert torch.equal(nearest, dev.matmul(b, a, 1, False))
    ulp = torch.exp2(torch.floor(torch.log2(nearest.abs().clamp_min(1e-30))) - 7)
    diff = (stoch - nearest).abs()
    assert ((diff == 0) | (diff <= ulp * 1.0001)).all()
    assert (diff > 0).any() and (diff == 0).any()
