"""Blackhole's FP8 (Lf8) conversions (format_decode.cpp, format_encode.cpp) against value goldens.

Blackhole's Lf8 is E4M3 when the unpacker's ``Unp_LF8_4b_exp`` / the packer's ``Pac_LF8_4b_exp``
is set (the LLK's ``Fp8_e4m3``), E5M2 otherwise. The ISA documentation has no Blackhole format
pages; the facts are ttsim's Blackhole unpacker and packer. Tensix FP16 has no NaN or infinity
(exponent 31 is a normal), and neither has its FP8: the one E4M3 pattern that is NaN in OCP's
``float8_e4m3fn`` (0x7f) widens to the largest FP16 magnitude of exponent 15.

One C++ program (the machine built for Blackhole) prints every conversion exhaustively: the 256
FP8 codes decoded both ways, all 65,536 FP16 patterns packed into E4M3 by the late conversion,
all 65,536 BF16 patterns through the early ``Round_10b_mant`` read of Dst16b into FP16 (the LLK's
Float16_b-to-Fp8_e4m3 pack), the ``Round_10b_mant`` read of Dst32b into FP16 (its Float32 one)
with ReLU between its rounding and its rebias, and the conversions that stay refused. The goldens are computed from
values (torch's float8 and float16 types, the E4M3 value table), not from the C++'s bit operations.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

_CPP = r'''
#include <cstdio>
#include <stdexcept>
#include "datum_layout.h"
#include "format_decode.h"
#include "format_encode.h"
using namespace tc_tensix;

static void blob(const char* tag, unsigned n, unsigned (*f)(unsigned)) {
    std::printf("%s", tag);
    for (unsigned i = 0; i < n; ++i) std::printf(" %x", f(i));
    std::printf("\n");
}

static void refused(const char* tag, uint32_t from) {
    try {
        fmt::late_convert(from, FP8, 0x3c00u, true);
        std::printf("%s no error\n", tag);
    } catch (const fmt::UnsupportedConversion& e) {
        std::printf("%s %s\n", tag, e.what());
    }
}

int main() {
    blob("dec_e4m3", 256, [](unsigned c) -> unsigned { return decode::fp8_to_fp16(uint8_t(c), true); });
    blob("dec_e5m2", 256, [](unsigned c) -> unsigned { return decode::fp8_to_fp16(uint8_t(c), false); });
    // Through the unpacker's conversion into SrcA, in the Src register layout (datum_layout.h).
    blob("src_e4m3", 256, [](unsigned c) -> unsigned {
        uint32_t v = 0;
        decode::DatumMode mode;
        mode.fp8_e4m3 = true;
        if (decode::convert(FP8, FP8, c, 0, false, mode, v)) return 0xdeadu;
        return v == src_from_fp16(decode::fp8_to_fp16(uint8_t(c), true)) ? 1u : 0u;
    });
    blob("enc_e4m3", 65536, [](unsigned x) -> unsigned { return fmt::late_convert(FP16, FP8, x, true); });
    blob("early_bf16_fp16", 65536, [](unsigned b) -> unsigned {
        fmt::EarlyConfig cfg;
        cfg.round_10b_mant = true;
        cfg.round_10b_into_fp16 = true;
        cfg.intermediate = FP16;
        return fmt::early_convert(cfg, dst16_from_bf16(uint16_t(b)));
    });
    // Round_10b_mant from Dst32b into FP16 with each ReLU mode, threshold 0x3f80 (1.0 as BF16).
    static const uint32_t kFp32[] = {0x3f000000u, 0x3f800000u, 0x3fc00000u, 0x3ff33333u, 0x40400000u, 0xc0000000u,
                                     0x49000000u, 0x35800000u, 0x3f801000u, 0x3f800fffu};
    for (uint32_t mode = 0; mode < 4; ++mode) {
        std::printf("relu_dst32_fp16_%u", mode);
        for (uint32_t x : kFp32) {
            fmt::EarlyConfig cfg;
            cfg.read_32b = cfg.round_10b_mant = cfg.round_10b_into_fp16 = true;
            cfg.intermediate = FP16;
            cfg.relu_mode = mode;
            cfg.relu_threshold = 0x3f80u;
            std::printf(" %x", fmt::early_convert(cfg, dst32_from_fp32(x)));
        }
        std::printf("\n");
    }
    refused("refused_fp32", FP32);
    refused("refused_bf16", BF16);
}
'''


@pytest.fixture(scope="module")
def printed(tensix_unit_test) -> dict[str, str]:
    out = tensix_unit_test(_CPP, arch="blackhole")
    return dict(line.split(" ", 1) for line in out.splitlines())


def _ints(printed: dict[str, str], tag: str) -> np.ndarray:
    return np.array([int(v, 16) for v in printed[tag].split()], dtype=np.int64)


def _fp16_values(bits: np.ndarray) -> np.ndarray:
    """IEEE fp16 values of patterns whose exponent is 1..30 (where Tensix FP16 agrees with IEEE)."""
    return bits.astype(np.uint16).view(np.float16).astype(np.float64)


CODES = np.arange(256)
SIGN, EXP, MANT = CODES >> 7, (CODES >> 3) & 15, CODES & 7


def test_e4m3_normal_codes_decode_to_their_values(printed):
    fp16 = _fp16_values(_ints(printed, "dec_e4m3"))
    normal = (EXP != 0) & ((CODES & 0x7F) != 0x7F)
    golden = torch.tensor(CODES, dtype=torch.uint8).view(torch.float8_e4m3fn).double().numpy()
    np.testing.assert_array_equal(fp16[normal], golden[normal])
    assert normal.sum() == 2 * (15 * 8 - 1)


def test_e4m3_special_codes_keep_tensix_patterns(printed):
    bits = _ints(printed, "dec_e4m3")
    # Exponent 0: no E4M3 denormals; the mantissa lands under a zero FP16 exponent (0x00 is +0).
    zero_exp = EXP == 0
    np.testing.assert_array_equal(bits[zero_exp], (SIGN[zero_exp] << 15) | (MANT[zero_exp] << 7))
    assert bits[0x00] == 0 and bits[0x80] == 0x8000
    # 0x7f / 0xff (NaN in float8_e4m3fn): exponent 15 + 8, mantissa all ones, i.e. 511.75.
    assert bits[0x7F] == 0x5FFF and bits[0xFF] == 0xDFFF
    assert _fp16_values(np.array([0x5FFF]))[0] == 511.75


def test_blackhole_e5m2_reads_all_ones_as_the_largest_fp16(printed):
    bits = _ints(printed, "dec_e5m2")
    all_ones = (CODES & 0x7F) == 0x7F
    np.testing.assert_array_equal(bits[~all_ones], CODES[~all_ones] << 8)
    assert bits[0x7F] == 0x7FFF and bits[0xFF] == 0xFFFF
    ordinary = ~all_ones & (((CODES >> 2) & 31) != 31) & (((CODES >> 2) & 31) != 0)
    golden = torch.tensor(CODES, dtype=torch.uint8).view(torch.float8_e5m2).double().numpy()
    np.testing.assert_array_equal(_fp16_values(bits[ordinary]), golden[ordinary])


def test_unpacker_conversion_honours_the_e4m3_mode(printed):
    assert set(printed["src_e4m3"].split()) == {"1"}


def _e4m3_golden(fp16_bits: np.ndarray) -> np.ndarray:
    """The E4M3 code the packer writes for each Tensix FP16 pattern, from values: the largest E4M3
    normal magnitude not above |v| (truncation), signed zero below 2^-6, 0x7f from 480 up."""
    sign = (fp16_bits >> 15) & 1
    exp = (fp16_bits >> 10) & 31
    mant = fp16_bits & 0x3FF
    # Tensix FP16 value (exponent 31 is a normal number; exponent 0 as the hardware's denormal).
    magnitude = np.where(exp == 0, mant / 1024 * 2.0**-14, (1 + mant / 1024) * 2.0 ** (exp - 15))
    table = np.array([(1 + m / 8) * 2.0 ** (e - 7) for e in range(1, 16) for m in range(8)])  # codes 0x08..0x7f
    index = np.searchsorted(table, magnitude, side="right") - 1
    code = np.where(index < 0, 0, index + 8)
    return (sign << 7) | code


def test_every_fp16_pattern_packs_into_e4m3_by_truncation_and_saturation(printed):
    fp16 = np.arange(65536, dtype=np.int64)
    np.testing.assert_array_equal(_ints(printed, "enc_e4m3"), _e4m3_golden(fp16))


@pytest.mark.parametrize(
    ("value_bits", "code"),
    [
        (0x3C00, 0x38),  # 1.0
        (0x3C40, 0x38),  # 1.0625, the tie between 1.0 and 1.125: truncated, not rounded
        (0x3C7F, 0x38),  # just below 1.125
        (0xBC40, 0xB8),  # -1.0625
        (0x5F00, 0x7E),  # 448, OCP's largest E4M3
        (0x5F7F, 0x7E),  # just below 480
        (0x5F80, 0x7F),  # 480
        (0x7BFF, 0x7F),  # 65504 saturates
        (0x7FFF, 0x7F),  # Tensix FP16's largest (exponent 31) saturates
        (0xFFFF, 0xFF),
        (0x2400, 0x08),  # 2^-6, the smallest E4M3 normal
        (0x23FF, 0x00),  # just below it: no E4M3 denormals
        (0xA000, 0x80),  # -2^-7 flushes to a signed zero
        (0x0001, 0x00),  # an FP16 denormal
    ],
)
def test_e4m3_packing_edges(printed, value_bits, code):
    assert _ints(printed, "enc_e4m3")[value_bits] == code


def test_round_10b_mant_reads_dst16b_as_bf16_and_rebiases_into_fp16(printed):
    bf16 = np.arange(65536, dtype=np.int64)
    sign, exp, mant = (bf16 >> 15) & 1, (bf16 >> 7) & 255, bf16 & 0x7F
    got = _ints(printed, "early_bf16_fp16")
    # Exponents 113..142: the same value in IEEE fp16 (7 mantissa bits fit without rounding).
    normal = (exp >= 113) & (exp <= 142)
    values = torch.tensor(bf16[normal].astype(np.uint16).view(np.int16)).view(torch.bfloat16).double().numpy()
    np.testing.assert_array_equal(_fp16_values(got[normal]), values)
    # Below (zero and denormals included): signed zero. Above (infinity, NaN): the largest pattern.
    np.testing.assert_array_equal(got[exp < 112], sign[exp < 112] << 15)
    np.testing.assert_array_equal(got[exp > 143], (sign[exp > 143] << 15) | 0x7FFF)
    # The edges keep their mantissa: exponent 143 is Tensix FP16 exponent 31, 112 exponent 0.
    np.testing.assert_array_equal(got[exp == 143], (sign[exp == 143] << 15) | (31 << 10) | (mant[exp == 143] << 3))
    np.testing.assert_array_equal(got[exp == 112], (sign[exp == 112] << 15) | (mant[exp == 112] << 3))


def test_e4m3_from_other_intermediates_is_refused_by_name(printed):
    for tag, name in (("refused_fp32", "FP32"), ("refused_bf16", "BF16")):
        assert printed[tag] == f"late conversion {name} -> FP8 E4M3 is not modelled (the LLK packs E4M3 from an FP16 intermediate only)"


_RELU_INPUTS = np.array([0x3F000000, 0x3F800000, 0x3FC00000, 0x3FF33333, 0x40400000, 0xC0000000,
                         0x49000000, 0x35800000, 0x3F801000, 0x3F800FFF], dtype=np.uint32).view(np.float32)


def _round_10b(v: float) -> float:
    """|v| rounded to 10 mantissa bits, ties away from zero (Round_10b_mant)."""
    if v == 0:
        return 0.0
    quantum = 2.0 ** (np.floor(np.log2(abs(v))) - 10)
    steps = abs(v) / quantum
    return float(np.copysign(np.floor(steps + 0.5) * quantum, v))


def _fp16_bits(v: float) -> int:
    """Tensix FP16 of a value: below 2^-14 signed zero, from 2^16 on the largest pattern."""
    sign = 0x8000 if np.signbit(v) else 0
    if abs(v) < 2.0**-14:
        return sign
    if abs(v) >= 2.0**16:
        return sign | 0x7FFF
    return int(np.array(v, dtype=np.float16).view(np.uint16))


@pytest.mark.parametrize("mode", [0, 1, 2, 3])
def test_round_10b_mant_from_dst32b_applies_relu_before_the_rebias(printed, mode):
    threshold = 1.0  # 0x3f80 read as BF16 (as FP16 it would be 1.875)
    expected = []
    for x in _RELU_INPUTS.astype(np.float64):
        v = _round_10b(x)
        if mode >= 1 and v < 0:
            v = 0.0
        if mode == 2 and v <= threshold:
            v = 0.0
        if mode == 3 and v > threshold:
            v = threshold
        expected.append(_fp16_bits(v))
    got = [int(b, 16) for b in printed[f"relu_dst32_fp16_{mode}"].split()]
    assert got == expected
    # 2^19 is above FP16's range: kept by a threshold compared before the rebias, then saturated.
    assert got[6] == (0x7FFF if mode != 3 else 0x3C00)
