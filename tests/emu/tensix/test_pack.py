"""The Tensix packers (tilecraft/emu/tensix/pack.cpp, format_encode.cpp) against torch and the ISA.

One C++ program (one compile) fills Dst with each case's datums (in Dst's register layout), configures the four packers by
config-field name the way the LLK's ``configure_pack`` / ``set_packer_l1_offset`` do, issues one
``TT_OP_PACR`` over a whole 32x32 tile and prints the L1 bytes. The goldens are torch conversions
plus the rules of tt-isa-documentation's Packers/FormatConversion.md that torch does not share:
ties round away from zero, NaN becomes infinity and denormals flush on rounding conversions, BFP
blocks share the largest exponent and BFP4 truncates the rounded BFP8 magnitude.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from tests.emu.tensix import prng_model

N = 1024  # datums in a 32x32 tile: four 16x16 faces, face f in Dst rows 16f..16f+15
SEED = 0x6A09E667  # PRNG_SEED_Seed_Val of every case (only the stochastic ones read it)
FP32, FP16, BF16, BFP8, BFP4, INT32, INT8 = 0, 1, 5, 6, 7, 8, 14

_CPP = r'''
#include <cstdio>
#include <stdexcept>
#include <vector>
#include "cfg_defines.h"
#include "ckernel_ops.h"
#include "machine.h"
using namespace tc_tensix;

constexpr uint32_t kPac = 0b100;  // p_setadc::PAC: the packers' ADCs (CntSetMask)
static const uint32_t kBase[4] = {THCON_SEC0_REG1_Row_start_section_size_ADDR32, THCON_SEC0_REG8_Row_start_section_size_ADDR32,
                                  THCON_SEC1_REG1_Row_start_section_size_ADDR32, THCON_SEC1_REG8_Row_start_section_size_ADDR32};
static void set(Machine& m, uint32_t addr, uint32_t shamt, uint32_t mask, uint32_t v) {
    uint32_t& w = m.cfg_word(kPack, addr);
    w = (w & ~mask) | ((v << shamt) & mask);
}
#define SET(NAME, v) set(m, NAME##_ADDR32, NAME##_SHAMT, NAME##_MASK, (v))
#define SETP(i, NAME, v) set(m, THCON_SEC0_REG1_##NAME##_ADDR32 - kBase[0] + kBase[i], THCON_SEC0_REG1_##NAME##_SHAMT, \
                             THCON_SEC0_REG1_##NAME##_MASK, (v))

struct Case {
    const char* name; const uint32_t* dst; bool read32; uint32_t in_fmt, out_fmt;
    uint32_t relu_mode, relu_thr, edge_mask, edge_neg_inf, l1_acc, compress, dst_row;  // dst_row: the tile's first Dst row
    uint32_t adc_y;  // rows the packers' ADC Y skips, set by another thread (the tile starts at dst_row + adc_y)
    uint32_t srnd;   // stochastic rounding: bit 0 Gasket_srnd_en (early conversion), bit 1 Packer_srnd_en (BFP)
};

static bool bfp(uint32_t f) { return f == 2 || f == 3 || f == 6 || f == 7 || f == 11 || f == 15; }
static uint32_t tile_bytes(uint32_t f) {
    if (f == 6 || f == 2) return 64 + 1024;
    if (f == 7 || f == 3) return 64 + 512;
    return (f & 3) == 0 ? 4096 : (f & 3) == 1 ? 2048 : 1024;
}

static void configure(Machine& m, const Case& c, uint32_t out_base, bool acc) {
    const uint32_t x = (c.in_fmt & 3) == 0 ? 4 : (c.in_fmt & 3) == 1 ? 2 : 1;  // set_packer_strides
    SET(PCK0_ADDR_CTRL_XY_REG_0_Xstride, x); SET(PCK0_ADDR_CTRL_XY_REG_0_Ystride, 16 * x);
    SET(PCK0_ADDR_CTRL_ZW_REG_0_Zstride, 256 * x); SET(PCK0_ADDR_CTRL_ZW_REG_0_Wstride, 1024 * x);
    SET(ALU_FORMAT_SPEC_REG2_Dstacc, c.in_fmt);
    SET(PCK_DEST_RD_CTRL_Read_32b_data, c.read32);
    SET(STACC_RELU_ApplyRelu, c.relu_mode); SET(STACC_RELU_ReluThreshold, c.relu_thr);
    SET(PCK_EDGE_OFFSET_SEC0_mask, c.edge_mask); SET(PCK_EDGE_MODE_mode, c.edge_neg_inf);
    SET(ALU_ROUNDING_MODE_Gasket_srnd_en, c.srnd & 1); SET(ALU_ROUNDING_MODE_Packer_srnd_en, c.srnd >> 1);
    SET(PRNG_SEED_Seed_Val, @SEED@u);
    const uint32_t face16 = bfp(c.out_fmt) ? 1 : (c.out_fmt & 3) == 0 ? 64 : (c.out_fmt & 3) == 1 ? 32 : 16;
    const uint32_t mant16 = c.out_fmt == 7 ? 8 : 16;  // BFP datum bytes per face row, in 16 B
    for (uint32_t i = 0; i < 4; ++i) {
        SETP(i, Disable_zero_compress, c.compress ? 0 : 1);
        SETP(i, In_data_format, c.in_fmt); SETP(i, Out_data_format, c.out_fmt);
        // set_packer_config: no exponent section for INT8/FP8, num_faces for packer 0, bfp_exp_section_size otherwise
        const uint32_t exp_section = (c.out_fmt == 14 || c.out_fmt == 10) ? 0 : (i == 0 || !bfp(c.out_fmt)) ? 4 : 1 + 4 + i * mant16 - (i + 1);
        SETP(i, Exp_section_size, exp_section);
        SETP(i, L1_Dest_addr, i == 0 ? (1u << 31) | (out_base / 16 - 1) : i * face16 - 1);  // set_packer_l1_offset
        SETP(i, Pack_L1_Acc, acc ? 1 : 0);
        set(m, DEST_TARGET_REG_CFG_PACK_SEC0_Offset_ADDR32 + i, 0, 0xfff, c.dst_row + 16 * i);
        set(m, PACK_COUNTERS_SEC0_pack_reads_per_xy_plane_ADDR32 + i, PACK_COUNTERS_SEC0_pack_reads_per_xy_plane_SHAMT,
            PACK_COUNTERS_SEC0_pack_reads_per_xy_plane_MASK, 1);
    }
}

static void run(const Case& c) {
    std::vector<uint8_t> l1(1 << 15, 0xab);
    Machine m;
    m.s.l1 = l1.data(); m.s.l1_size = l1.size();
    const uint32_t row0 = c.dst_row + c.adc_y;
    for (uint32_t k = 0; k < 1024; ++k) {
        if (c.read32) m.dst32_write(row0 + k / 16, k % 16, c.dst[k]);
        else m.s.dst[row0 + k / 16][k % 16] = uint16_t(c.dst[k]);
    }
    m.issue(kPack, TT_OP_SETADCXX(kPac, 255, 0));  // _llk_pack_init_: the packers' X end
    // The UNPACK thread sets the PACK thread's packer ADC (ThreadOverride 3 = thread 2, bits 18..19):
    // one record per thread serves both units, so the PACR below starts adc_y rows further on.
    if (c.adc_y) m.issue(kUnpack, TT_OP_SETADCXY(kPac, 0, 0, c.adc_y, 0, 0b0010) | (3u << 18));
    const uint32_t out_base = 0x1000;
    std::printf("%s ", c.name);
    try {
        for (uint32_t pass = 0; pass < (c.l1_acc ? 2u : 1u); ++pass) {
            configure(m, c, out_base, pass == 1);
            m.issue(kPack, TT_OP_PACR(0, 0, 0xf, 0, 0, 0, 1));
        }
    } catch (const std::runtime_error& e) {
        std::printf("ERROR %s\n", e.what());
        return;
    }
    for (uint32_t b = out_base; b < out_base + tile_bytes(c.out_fmt) + 16; ++b) std::printf("%02x", l1[b]);
    std::printf("\n");
}

@DATA@
int main() {
@CASES@
}
'''


def _u32(values: np.ndarray) -> np.ndarray:
    return np.asarray(values, dtype=np.float32).view(np.uint32)


def _bf16_bits(values: np.ndarray) -> np.ndarray:
    """Bit patterns of float values already representable in bf16."""
    return (_u32(values) >> 16).astype(np.uint32)


def _rng_values(seed: int, scale: float = 1.0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(N) * scale).astype(np.float32)


# --- inputs -----------------------------------------------------------------------------------

_FP32_EDGES = [
    0x3F808000,  # 1 + 2^-8: a tie; away from zero -> 0x3F81 (torch's nearest-even gives 0x3F80)
    0xBF808000,  # -(1 + 2^-8): tie -> 0xBF81
    0x3F818000,  # a tie whose even neighbour is also away: 0x3F82
    0x3F80_7FFF,  # just below a tie -> 0x3F80
    0x7FC00000, 0xFFC00001,  # NaNs -> +-inf
    0x7F800000, 0xFF800000,  # infinities stay
    0x00400000, 0x80400000,  # denormals -> +0
    0x80000000,  # -0 -> +0
    0x7F7FFFFF,  # largest finite rounds up to inf
    0x00800000,  # smallest normal stays
]


def _fp32_case_input(seed: int) -> np.ndarray:
    data = _u32(_rng_values(seed, 100.0)).copy()
    data[: len(_FP32_EDGES)] = _FP32_EDGES
    return data


def _bf16_case_input(seed: int) -> np.ndarray:
    values = torch.from_numpy(_rng_values(seed, 4.0)).to(torch.bfloat16).float().numpy()
    data = _bf16_bits(values)
    data[:6] = [0x7FC1, 0xFFC0, 0x0040, 0x8001, 0x8000, 0x7F80]  # NaN, -NaN, denormals, -0, inf
    return data


def _fp16_case_input(seed: int) -> np.ndarray:
    values = torch.from_numpy(_rng_values(seed, 50.0)).half()
    data = values.view(torch.int16).numpy().view(np.uint16).astype(np.uint32)
    data[:4] = [0x0001, 0x83FF, 0x8000, 0x7FFF]  # denormals and -0 flush; 0x7FFF is Tensix fp16's largest
    return data


def _bfp_block_input(seed: int) -> np.ndarray:
    """bf16 datums where each 16-datum block mixes huge and tiny exponents and rounding carries."""
    values = torch.from_numpy(_rng_values(seed, 3.0)).to(torch.bfloat16).float().numpy()
    data = _bf16_bits(values)
    block = [0x4780, 0x3F80, 0x0080, 0xC77F, 0x3FFF, 0xBFFF, 0x0000, 0x8000,
             0x4001, 0x4000, 0x477F, 0x3400, 0x4781, 0xC781, 0x3F81, 0x0040]
    data[:16] = block  # 2^16, 1.0, smallest normal, -65280, 1.99.., ties at the bfp8 lsb, zeros ...
    data[16:32] = [0x3FFF] * 16  # all equal: the mantissa's low bit rounds away and saturates at 127
    return data


def _stochastic_input(seed: int) -> np.ndarray:
    """fp32 values: every fourth one exact in bf16, every odd one a quarter of a bf16 ulp above the grid,
    the rest arbitrary (normal numbers throughout)."""
    data = _u32(_rng_values(seed, 100.0)).copy()
    k = np.arange(N)
    data = np.where(k % 4 == 0, data & 0xFFFF0000, data)
    return np.where(k % 2 == 1, (data & 0xFFFF0000) | 0x4000, data).astype(np.uint32)


# --- goldens ----------------------------------------------------------------------------------


def _torch_bf16_bits(values) -> np.ndarray:
    """torch's (round-to-nearest-even) bf16 bit patterns of float values."""
    t = torch.as_tensor(np.asarray(values, dtype=np.float32).copy())
    return t.to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16).astype(np.uint32)


def _golden_bf16_from_fp32(bits: np.ndarray) -> np.ndarray:
    """torch's fp32 -> bf16, then the packer's rules: ties away, NaN -> inf, denormals -> +0."""
    rne = _torch_bf16_bits(bits.astype(np.uint32).view(np.float32))
    low = bits & 0xFFFF
    out = np.where(low == 0x8000, (bits >> 16) + 1, rne)  # a tie rounds the magnitude up
    mag = bits & 0x7FFFFFFF
    out = np.where(mag > 0x7F800000, ((bits >> 16) & 0x8000) | 0x7F80, out)
    out = np.where((out & 0x7FFF) < 0x80, 0, out)
    return out.astype(np.uint32)


def _golden_bfp(entries: np.ndarray, bits: int, prng_values: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(shared exponents, sign|magnitude datums) of BFP8/BFP4 blocks from bf16 entries; with
    `prng_values` (one per entry) the BFP8 magnitudes round stochastically (a zero one stays zero)."""
    exps, datums = [], []
    randoms = iter(prng_values) if prng_values is not None else None
    for block in entries.reshape(-1, 16):
        e = (block >> 7) & 0xFF
        m = (block & 0x7F) | np.where(e != 0, 0x80, 0)
        shared = int(e.max())
        exps.append(shared)
        for sign, ei, mi in zip(block >> 15, e, m):
            shift = shared - int(ei)
            if randoms is not None:
                r = int(next(randoms))
                mag = min(prng_model.drop_bits(int(mi), min(shift + 1, 31), r), 127) if mi else 0
            else:
                mag = 0 if shift >= 8 else min(math.floor(int(mi) / 2 ** (shift + 1) + 0.5), 127)
            mag >>= 8 - bits
            datums.append(((int(sign) << (bits - 1)) | mag) if mag else 0)
    return np.array(exps, dtype=np.uint32), np.array(datums, dtype=np.uint32)


def _decode(hex_bytes: str) -> np.ndarray:
    return np.frombuffer(bytes.fromhex(hex_bytes), dtype=np.uint8)


def _words(raw: np.ndarray, nbytes: int) -> np.ndarray:
    dtype = {4: "<u4", 2: "<u2", 1: "u1"}[nbytes]
    return raw.view(dtype).astype(np.uint32)


def _bfp_split(raw: np.ndarray, bits: int) -> tuple[np.ndarray, np.ndarray]:
    exps = raw[:64].astype(np.uint32)
    data = raw[64:]
    if bits == 8:
        return exps, data.astype(np.uint32)
    nibbles = np.stack([data & 0xF, data >> 4], axis=1).reshape(-1)
    return exps, nibbles.astype(np.uint32)


def _assert_bfp_tile(packed, name: str, entries: np.ndarray, bits: int,
                     prng_values: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The BFP tile `name` (exponent section, then datums) equals the golden blocks of `entries`."""
    exps, datums = _bfp_split(_tile(packed, name, 64 + N * bits // 8), bits)
    want_exps, want = _golden_bfp(entries, bits, prng_values)
    np.testing.assert_array_equal(exps, want_exps, err_msg=name)
    np.testing.assert_array_equal(datums, want, err_msg=name)
    return exps, datums


def _fp16_from_fp32_truncating(bits: np.ndarray) -> np.ndarray:
    """fp32 -> Tensix fp16 per FormatConversion.md: saturate, then truncate; tiny -> signed zero."""
    sign = (bits >> 16) & 0x8000
    e = ((bits >> 23) & 0xFF).astype(np.int64) - 112
    out = sign | (np.clip(e, 0, 31).astype(np.uint32) << 10) | ((bits & 0x7FFFFF) >> 13)
    out = np.where(e < 0, sign, out)
    return np.where(e > 31, sign | 0x7FFF, out).astype(np.uint32)


# --- the program ------------------------------------------------------------------------------

_CASES: dict[str, tuple] = {}


def _case(name, data, read32, in_fmt, out_fmt, relu_mode=0, relu_thr=0, edge_mask=0xFFFF, edge_neg_inf=0, l1_acc=0,
          compress=0, dst_row=0, adc_y=0, srnd=0):
    _CASES[name] = (np.asarray(data, dtype=np.uint32), read32, in_fmt, out_fmt, relu_mode, relu_thr, edge_mask,
                    edge_neg_inf, l1_acc, compress, dst_row, adc_y, srnd)


_case("fp32_bf16", _fp32_case_input(1), 1, BF16, BF16)
_case("fp32_fp32", _fp32_case_input(2), 1, FP32, FP32)
# the high half of Dst (half-sync's second bank: packer offsets from DEST_REGISTER_HALF_SIZE = 512)
_case("fp32_fp32_high_half", _fp32_case_input(20), 1, FP32, FP32, dst_row=512 + 64)
_case("bf16_bf16", _bf16_case_input(3), 0, BF16, BF16)
_case("fp32_fp16", _u32(np.concatenate([_rng_values(4, 1000.0)[:1000],
                                          np.float32([1e6, -1e6, 2.0 ** -15 * 1.5, 2.0 ** -16, 65504.0, np.nan,
                                                      np.inf, -3.0e-5, 6.1e-5, 0.0, -0.0, 1.0 + 2.0 ** -11,
                                                      1.0 + 2.0 ** -10 - 2.0 ** -20, -7.0, 0.5, 2.0 ** 15 * 1.99,
                                                      2.0 ** 16, 1e-10, 123.456, -0.1, 0.1, 3.0, 4.0, 5.0])])), 1, FP32, FP16)
_case("fp16_fp16", _fp16_case_input(18), 0, FP16, FP16)
_case("fp16_fp32", _fp16_case_input(19), 0, FP16, FP32)
_case("bf16_bfp8", _bfp_block_input(5), 0, BF16, BFP8)
_case("bf16_bfp4", _bfp_block_input(6), 0, BF16, BFP4)
_case("fp32_e8m6_bfp8", _fp32_case_input(7), 1, BFP8, BFP8)
_case("fp32_fp32_bfp8", _fp32_case_input(8), 1, FP32, BFP8)
_case("int32", np.where(np.arange(N) % 2 == 1, np.arange(N) | 0x80000000, np.arange(N) * 4099), 1, INT32, INT32)
_case("int8", np.where(np.arange(N) % 3 == 0, (np.arange(N) * 7) | 0x80000000, np.arange(N) * 5 % 300), 1, INT8, INT8)
_case("relu_zero", _bf16_case_input(9), 0, BF16, BF16, relu_mode=1)
_case("relu_max", _bf16_case_input(10), 0, BF16, BF16, relu_mode=3, relu_thr=0x3F80)
_case("relu_min", _bf16_case_input(11), 0, BF16, BF16, relu_mode=2, relu_thr=0x3F80)
_case("edge_zero", _bf16_case_input(12), 0, BF16, BF16, edge_mask=0x00F3)
_case("edge_neginf", _bf16_case_input(13), 0, BF16, BF16, edge_mask=0x0F0F, edge_neg_inf=1)
_case("l1_acc_fp32", _u32(_rng_values(14, 10.0)), 1, FP32, FP32, l1_acc=1)
_case("l1_acc_bf16", _bf16_case_input(15), 0, BF16, BF16, l1_acc=1)
_case("l1_acc_fp16", _fp16_case_input(21), 0, FP16, FP16, l1_acc=1)
_case("compressed", _bf16_case_input(16), 0, BF16, BF16, compress=1)
_case("bf16_int8_16b", _bf16_case_input(17), 0, INT8, INT8)
# the packers' ADC Y set by another thread's SETADCXY (ThreadOverride) moves the PACR's Dst start
_case("adc_y_from_unpack_thread", _bf16_case_input(22), 0, BF16, BF16, dst_row=64, adc_y=5)
_case("fp32_bf16_stochastic", _stochastic_input(24), 1, BF16, BF16, srnd=1)
_case("bf16_bfp8_stochastic", _bfp_block_input(25), 0, BF16, BFP8, srnd=2)


def _dst_layout(values: np.ndarray, read32: int, in_fmt: int) -> np.ndarray:
    """Plain bit patterns in Dst's register layout (Dst.md): BF16 as Sign|Man7|Exp8, FP16 as
    Sign|Man10|Exp5, Dst32b with the BF16 shuffle in the high half (FP32 and INT32 alike)."""
    v = values.astype(np.uint32)

    def bf16(x):
        return (x & 0x8000) | ((x & 0x7F) << 8) | ((x >> 7) & 0xFF)

    if read32:
        return (bf16(v >> 16) << 16) | (v & 0xFFFF)
    if in_fmt in (BF16, BFP8):
        return bf16(v)
    if in_fmt == FP16:
        return (v & 0x8000) | ((v & 0x3FF) << 5) | ((v >> 10) & 0x1F)
    return v


def _program() -> str:
    data, cases = [], []
    for k, (name, (values, read32, in_fmt, out_fmt, relu_mode, relu_thr, edge_mask, neg_inf, acc, compress, dst_row,
                   adc_y, srnd)) in enumerate(_CASES.items()):
        words = _dst_layout(values, read32, in_fmt)
        data.append(f"static const uint32_t d{k}[1024] = {{{','.join(f'0x{int(v):x}u' for v in words)}}};")
        cases.append(f'    run(Case{{"{name}", d{k}, {read32}, {in_fmt}, {out_fmt}, {relu_mode}, {relu_thr}, {edge_mask}, '
                     f"{neg_inf}, {acc}, {compress}, {dst_row}, {adc_y}, {srnd}}});")
    return (_CPP.replace("@DATA@", "\n".join(data)).replace("@CASES@", "\n".join(cases))
            .replace("@SEED@", f"0x{SEED:x}"))


@pytest.fixture(scope="module")
def packed(tensix_unit_test) -> dict[str, str]:
    out = tensix_unit_test(_program())
    return dict(line.split(" ", 1) for line in out.splitlines())


def _tile(packed, name: str, nbytes: int) -> np.ndarray:
    raw = _decode(packed[name])
    assert (raw[nbytes:] == 0xAB).all(), f"{name}: the packer wrote past the tile"
    return raw[:nbytes]


def _input(name: str) -> np.ndarray:
    return _CASES[name][0]


# --- tests ------------------------------------------------------------------------------------


def test_fp32_to_bf16_rounds_ties_away_nan_to_inf_flushes_denormals(packed):
    got = _words(_tile(packed, "fp32_bf16", 2048), 2)
    bits = _input("fp32_bf16")
    assert list(got[:13]) == [0x3F81, 0xBF81, 0x3F82, 0x3F80, 0x7F80, 0xFF80, 0x7F80, 0xFF80, 0, 0, 0, 0x7F80, 0x0080]
    np.testing.assert_array_equal(got, _golden_bf16_from_fp32(bits))
    # away from the ties the packer agrees with torch's round-to-nearest
    not_tie = (bits & 0xFFFF) != 0x8000
    torch_bits = _torch_bf16_bits(bits.view(np.float32))
    assert (got[13:][not_tie[13:]] == torch_bits[13:][not_tie[13:]]).all()


def test_fp32_identity_keeps_nan_and_denormals(packed):
    np.testing.assert_array_equal(_words(_tile(packed, "fp32_fp32", 4096), 4), _input("fp32_fp32"))
    # Dst32b rows from 512 (a 10-bit row whose AdjRow keeps bit 9) read the high half of Dst
    np.testing.assert_array_equal(_words(_tile(packed, "fp32_fp32_high_half", 4096), 4), _input("fp32_fp32_high_half"))


def test_fp16_flushes_denormals_and_widens_to_fp32(packed):
    src = _input("fp16_fp16")
    got = _words(_tile(packed, "fp16_fp16", 2048), 2)
    assert list(got[:4]) == [0, 0, 0, 0x7FFF]
    np.testing.assert_array_equal(got[4:], src[4:])
    wide = _words(_tile(packed, "fp16_fp32", 4096), 4)
    src = _input("fp16_fp32")
    assert list(wide[:3]) == [0, 0, 0] and wide[3] == 0x47FFE000  # Tensix fp16 max = 131008, not NaN
    ref = torch.from_numpy(src[4:].astype(np.uint16).view(np.int16).copy()).view(torch.float16).float()
    np.testing.assert_array_equal(wide[4:], ref.numpy().view(np.uint32))


def test_packer_adc_set_by_another_thread_moves_the_pack(packed):
    """ADCs.md: one set of ADCs per thread; a SETADCXY from the UNPACK thread with ThreadOverride
    writes the PACK thread's packer counters, which the PACK thread's PACR reads (Y = 5 rows on)."""
    got = _words(_tile(packed, "adc_y_from_unpack_thread", 2048), 2)
    want = _input("adc_y_from_unpack_thread").copy()
    want[:6] = [0x7F80, 0xFF80, 0, 0, 0, 0x7F80]  # the bf16 rounding path (NaN -> inf, denormals flush)
    np.testing.assert_array_equal(got, want)


def test_bf16_rounding_path_flushes_and_turns_nan_into_inf(packed):
    got = _words(_tile(packed, "bf16_bf16", 2048), 2)
    assert list(got[:6]) == [0x7F80, 0xFF80, 0, 0, 0, 0x7F80]
    np.testing.assert_array_equal(got[6:], _input("bf16_bf16")[6:])


def test_fp32_to_fp16_saturates_and_truncates(packed):
    bits = _input("fp32_fp16")
    got = _words(_tile(packed, "fp32_fp16", 2048), 2)
    np.testing.assert_array_equal(got, _fp16_from_fp32_truncating(bits))
    # against torch: truncation is never further than one fp16 ulp from round-to-nearest
    values = bits.view(np.float32)
    normal = (np.abs(values) >= 2.0 ** -14) & (np.abs(values) <= 65504)
    ours = torch.from_numpy(got.astype(np.uint16).view(np.int16).copy()).view(torch.float16).float().numpy()
    ref = torch.from_numpy(values.copy()).half().float().numpy()
    assert (np.abs(ours[normal] - ref[normal]) <= np.abs(ref[normal]) * 2.0 ** -10).all()
    assert got[1000] == 0x7FFF and got[1001] == 0xFFFF  # +-1e6 saturate to the largest pattern
    assert got[1005] == 0x7FFF  # NaN -> saturated


def test_bfp8_shares_the_largest_exponent_and_rounds_half_away(packed):
    entries = _input("bf16_bfp8")
    # packer i writes face i: exponents of face i at 16*i, its datums at 64 + 256*i
    exps, datums = _assert_bfp_tile(packed, "bf16_bfp8", entries, 8)
    assert exps[0] == 0x8F and list(datums[:4]) == [0x40, 0x00, 0x00, 0xC0]  # 2^16 block: 1.0 vanishes
    assert exps[1] == 0x7F and (datums[16:32] == 0x7F).all()  # 1.99.. rounds up and saturates at 127
    # decoded, every datum is within half a block ulp of the torch value (or saturated)
    values = torch.from_numpy((entries << 16).astype(np.uint32).view(np.float32)).numpy()
    mag = (datums & 0x7F).astype(np.float64) * 2.0 ** (np.repeat(exps, 16).astype(np.float64) - 127 - 6)
    decoded = np.where(datums & 0x80, -mag, mag)
    ulp = 2.0 ** (np.repeat(exps, 16).astype(np.float64) - 127 - 6)
    finite = np.isfinite(values) & (np.abs(values) < 2.0 ** 120)
    assert (np.abs(decoded - values)[finite] <= ulp[finite] * 1.0 + 1e-30).all()


def test_bfp4_truncates_the_rounded_bfp8_magnitude(packed):
    _, datums = _assert_bfp_tile(packed, "bf16_bfp4", _input("bf16_bfp4"), 4)
    assert (datums[16:32] == 0x7).all()  # 0x7F >> 4: truncation, not rounding


def test_fp32_to_bfp8_via_e8m6_double_rounds(packed):
    bits = _input("fp32_e8m6_bfp8")
    nan = (bits & 0x7FFFFFFF) > 0x7F800000
    e8m6 = ((np.where(nan, (bits & 0x80000000) | 0x7F800000, bits).astype(np.uint64) + 0x10000) >> 17 << 1) & 0xFFFF
    e8m6 = np.where((e8m6 & 0x7FFF) < 0x80, 0, e8m6).astype(np.uint32)
    _assert_bfp_tile(packed, "fp32_e8m6_bfp8", e8m6, 8)


def test_fp32_to_bfp8_late_truncates_to_bf16_first(packed):
    bits = _input("fp32_fp32_bfp8")
    bf16 = bits >> 16
    bf16 = np.where((bf16 & 0x7FFF) < 0x80, 0, bf16).astype(np.uint32)
    _assert_bfp_tile(packed, "fp32_fp32_bfp8", bf16, 8)


def test_int32_passes_through_and_int8_saturates_sign_magnitude(packed):
    np.testing.assert_array_equal(_words(_tile(packed, "int32", 4096), 4), _input("int32"))
    src = _input("int8")
    sign, mag = src >> 31, src & 0x7FFFFFFF
    np.testing.assert_array_equal(_words(_tile(packed, "int8", 1024), 1), (sign << 7) | np.minimum(mag, 127))


def _bf16_values(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


def test_relu_modes(packed):
    for name, fn in (("relu_zero", lambda x: np.where(x > 0, x, 0)),
                     ("relu_max", lambda x: np.where(x <= 0, 0, np.minimum(x, 1.0))),
                     ("relu_min", lambda x: np.where(x <= 1.0, 0, x))):
        src = _input(name)
        got = _bf16_values(_words(_tile(packed, name, 2048), 2))
        # the rounding path first turns NaN into inf and flushes denormals
        flushed = _golden_bf16_from_fp32(src << 16)
        want = fn(_bf16_values(flushed))
        np.testing.assert_array_equal(got, want.astype(np.float32), err_msg=name)


def test_edge_masks_replace_columns_with_zero_or_negative_infinity(packed):
    col = np.arange(N) % 16
    for name, mask, fill in (("edge_zero", 0x00F3, 0), ("edge_neginf", 0x0F0F, 0xFF80)):
        got = _words(_tile(packed, name, 2048), 2)
        kept = ((mask >> col) & 1) == 1
        want = np.where(kept, _golden_bf16_from_fp32(_input(name) << 16), fill)
        np.testing.assert_array_equal(got, want, err_msg=name)


def test_l1_accumulation_adds_onto_l1(packed):
    src = _input("l1_acc_fp32").view(np.float32)
    got = _words(_tile(packed, "l1_acc_fp32", 4096), 4).view(np.float32)
    np.testing.assert_array_equal(got, (torch.from_numpy(src.copy()) * 2).numpy())
    bf = _golden_bf16_from_fp32(_input("l1_acc_bf16") << 16)
    got16 = _words(_tile(packed, "l1_acc_bf16", 2048), 2)
    want = _torch_bf16_bits(_bf16_values(bf) * np.float32(2))
    np.testing.assert_array_equal(got16, want)
    half = _words(_tile(packed, "l1_acc_fp16", 2048), 2)
    src = _input("l1_acc_fp16")
    assert list(half[:4]) == [0, 0, 0, 0x7FFF]  # flushed datums add to +0; the largest pattern saturates
    doubled = torch.from_numpy(src[4:].astype(np.uint16).view(np.int16).copy()).view(torch.float16) * 2
    np.testing.assert_array_equal(half[4:], doubled.view(torch.int16).numpy().view(np.uint16))


def test_unmodelled_configurations_stop_the_machine(packed):
    assert packed["compressed"].startswith("ERROR TRISC PACK issued 0x41000f01 (opcode 0x41 PACR)")
    assert "zero compression" in packed["compressed"]
    assert packed["bf16_int8_16b"].startswith("ERROR ") and "Dst16b to INT8" in packed["bf16_int8_16b"]


def _packer_prng_values() -> np.ndarray:
    """The PRNG values the four packers draw for a tile, one per datum: packer f packs face f (datums
    256f..256f+255) and steps the lane of each datum's column (prng.h)."""
    out = []
    for f in range(4):
        state = prng_model.seeded(SEED, 16, prng_model.PACKER_STREAM + 16 * f)
        for j in range(256):
            out.append(state[j % 16])
            state[j % 16] = prng_model.step(state[j % 16])
    return np.array(out, dtype=np.uint32)


def test_stochastic_early_rounding_follows_the_packer_prng_and_is_unbiased(packed):
    """Gasket_srnd_en: the early conversion fp32 -> bf16 rounds each magnitude up when its dropped 16
    bits, scaled to 23, reach the low 23 bits of the packer's PRNG value, else down."""
    got = _words(_tile(packed, "fp32_bf16_stochastic", 2048), 2)
    bits = _input("fp32_bf16_stochastic")
    prng = _packer_prng_values()
    want = np.array([(int(b) >> 16) + prng_model.rounds_up(int(b) & 0xFFFF, 16, int(r)) for b, r in zip(bits, prng)])
    np.testing.assert_array_equal(got, want)
    k = np.arange(N)
    assert (got[k % 4 == 0] == bits[k % 4 == 0] >> 16).all()  # values bf16 holds stay exact
    quarter_up = (got[k % 2 == 1] != bits[k % 2 == 1] >> 16).mean()  # to nearest: never
    assert abs(quarter_up - 0.25) < 5 * math.sqrt(0.25 * 0.75 / (N // 2)), quarter_up
    # the rest lands on one of the two bf16 neighbours, as often above as the value's place between them
    rest = (k % 2 == 0) & (k % 4 != 0)
    fraction = (bits[rest] & 0xFFFF) / 65536.0
    ups = (got[rest] != bits[rest] >> 16).astype(float)
    assert ((got[rest] - (bits[rest] >> 16)) <= 1).all()
    assert abs((ups - fraction).mean()) < 5 * math.sqrt(0.25 / rest.sum())


def test_stochastic_bfp8_rounding_follows_the_packer_prng(packed):
    """Packer_srnd_en: BFP8's magnitudes (aligned to the block's exponent) round by the same rule, a
    lane per position in the block; the shared exponents are unchanged."""
    entries = _input("bf16_bfp8_stochastic")
    _, datums = _assert_bfp_tile(packed, "bf16_bfp8_stochastic", entries, 8, _packer_prng_values())
    _, nearest = _golden_bfp(entries, 8)
    differs = (datums & 0x7F).astype(int) - (nearest & 0x7F).astype(int)
    assert set(np.unique(differs)) <= {-1, 0, 1} and (differs != 0).any()
