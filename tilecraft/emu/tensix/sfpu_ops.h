// The Vector Unit's (SFPU's) lane arithmetic as plain functions over 32-bit lane values, shared by
// the SFP* instruction handlers (sfpu.cpp) and our SFPI interface (vFloat, vInt, v_if ... in sfpi.h),
// so that an SFPU kernel computes the same bits whether its SFPI code or its TTI_SFP* words run.
//
// Facts come from tenstorrent/tt-isa-documentation (WormholeB0/TensixTile/TensixCoprocessor:
// VectorUnit.md, LReg.md, FloatBitPatterns.md and one page per instruction) and, for the exact
// rounding of the multiply-add, from ttsim's fma model; everything here is written in our own words.
//
// Conventions: every value is the raw 32 bits of one lane (FP32, two's complement or sign-magnitude
// integer as the instruction reads it). Lane masks are 32-bit sets, bit i = lane i (lanes form a
// 4x8 grid: lane = row*8 + column). Nothing here touches Dst or the machine; Dst conversions take
// and return the raw Dst bits.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "arch.h"
#include "datum_layout.h"
#include "prng.h"

namespace tc_tensix::sfpu {

constexpr int kLanes = 32;
constexpr uint32_t kAllLanes = 0xffffffffu;
constexpr uint32_t kSignBit = 0x80000000u;
constexpr uint32_t kFp32One = 0x3f800000u;
constexpr uint32_t kFp32Inf = 0x7f800000u;

// ------------------------------------------------------------------------------------------------
// Bit views
// ------------------------------------------------------------------------------------------------
inline uint32_t bits_of(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
inline float float_of(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
constexpr uint32_t exp_field(uint32_t x) { return (x >> 23) & 0xffu; }
constexpr uint32_t man_field(uint32_t x) { return x & 0x7fffffu; }
constexpr uint32_t with_fields(uint32_t sign, uint32_t exp, uint32_t man) {
    return ((sign & 1u) << 31) | ((exp & 0xffu) << 23) | (man & 0x7fffffu);
}
constexpr uint32_t clz32(uint32_t v) { return v == 0 ? 32u : uint32_t(__builtin_clz(v)); }

// Power-on contents of LReg[idx] (LReg.md): 8 = 0.8373, 9 = 0, 10 = 1.0, 15 = lane*2 are read-only;
// LReg[11..14] are written only through SFPCONFIG and start as SFPCONFIG's defaults (-1.0 for
// LReg[11], which the SFPI compiler relies on, 1/65536, -0.67487759, -0.34484843); 0..7 start zero.
inline uint32_t initial_lreg(unsigned idx, int lane) {
    switch (idx) {
    case 8: return 0x3f56594bu;
    case 10: return kFp32One;
    case 11: return bits_of(-1.0f);
    case 12: return bits_of(1.0f / 65536.0f);
    case 13: return bits_of(-0.67487759f);
    case 14: return bits_of(-0.34484843f);
    case 15: return uint32_t(lane) * 2u;
    default: return 0u;
    }
}
// Instructions write LReg[0..7] and LReg[16] (which only SFPLOADMACRO-scheduled instructions can
// name); LReg[11..14] only through SFPCONFIG.
inline bool lreg_writable(unsigned idx) { return idx < 8 || idx == 16; }

// ------------------------------------------------------------------------------------------------
// FP32 multiply-add (MAD sub-unit: SFPMAD/SFPADD/SFPMUL/SFPADDI/SFPMULI/SFPLUT*)
// ------------------------------------------------------------------------------------------------
// The SFPU's d = a*b + c. What differs from an IEEE fused multiply-add (SFPMAD.md, ttsim fma.cpp):
//  * denormal inputs count as zero;
//  * the 48-bit product is cut to 24 bits + 3 guard bits (sticky) before the add, so the fusion is
//    partial; an addend shifted entirely out of range leaves no sticky bit behind;
//  * one rounding, to nearest even.
// Wormhole B0: a denormal or negative-zero result becomes +0; NaN results have the low mantissa bit
// set and may carry mantissa bits of the finite sum.
// Blackhole (ttsim's fma_model_bh): every NaN result is the canonical +NaN 0x7fc00000 (the LLK's
// GELU' relies on x*1 canonicalising a NaN); a zero result keeps the sign sign_c & sign_p; a result
// below the normal range is rounded at exponent 0 (one place further right), so it either rounds up
// to the smallest normal or flushes to a zero with the result's sign; an overflowing finite product
// meeting an infinite c of the other sign gives c, not NaN.
// Adding +0 or multiplying by 1.0 gives the plain IEEE product / sum (with the flushing above).
namespace detail {

// Right shift that keeps a sticky bit for the bits shifted out, but only if something survives.
inline uint64_t shift_right_keep_sticky(uint64_t v, int32_t by) {
    if (by <= 0) return v;
    if (by >= 64) return 0;
    const uint64_t kept = v >> by;
    if (kept == 0) return 0;
    return kept | uint64_t((kept << by) != v);
}

}  // namespace detail

constexpr uint32_t kCanonicalNan = 0x7fc00000u;

template <Arch A>
inline uint32_t mad_on(uint32_t a, uint32_t b, uint32_t c) {
    constexpr bool bh = A == Arch::Blackhole;
    const uint32_t exp_a = exp_field(a), exp_b = exp_field(b), exp_c = exp_field(c);
    // Significands with the hidden bit; an exponent field of 0 (zero or denormal) reads as zero.
    const uint64_t sig_a = exp_a ? (man_field(a) | 0x800000u) : 0;
    const uint64_t sig_b = exp_b ? (man_field(b) | 0x800000u) : 0;
    uint64_t sig_c = exp_c ? (uint64_t(man_field(c) | 0x800000u) << 3) : 0;  // 26 fraction bits
    const uint32_t sign_p = (a ^ b) & kSignBit, sign_c = c & kSignBit;
    const uint32_t zero = bh ? (sign_c & sign_p) : 0u;  // the sign a zero result keeps

    // Product to 26 fraction bits (24-bit significand + guard/round/sticky), exponent like c's.
    const uint64_t full = sig_a * sig_b;  // 46 fraction bits
    uint64_t sig_p = (full >> 20) | uint64_t((full & 0xfffffu) != 0);
    int32_t exp_p = int32_t(exp_a) + int32_t(exp_b) - 127;

    const bool a_nan = exp_a == 255 && man_field(a) != 0, b_nan = exp_b == 255 && man_field(b) != 0;
    const bool a_inf = exp_a == 255 && !a_nan, b_inf = exp_b == 255 && !b_nan;
    const bool c_nan = exp_c == 255 && man_field(c) != 0, c_inf = exp_c == 255 && !c_nan;
    const bool p_huge = exp_a == 255 || exp_b == 255 || exp_p >= 255;  // infinite (or overflowing) product

    // Wormhole: a NaN result still runs the finite datapath below, whose bits leak into its mantissa.
    uint32_t nan = 0;
    if (p_huge || exp_c == 255) {
        const bool invalid = a_nan || b_nan || (a_inf && sig_b == 0) || (b_inf && sig_a == 0);
        const bool inf_clash = c_inf && sign_c != sign_p && (bh ? (a_inf || b_inf) : p_huge);
        if (bh && (invalid || inf_clash || c_nan)) return kCanonicalNan;
        if (invalid || inf_clash) {
            nan = sign_p | kFp32Inf | 1u;
        } else if (c_nan) {
            nan = sign_c | kFp32Inf | 1u;
        } else if (c_inf) {
            return c;
        } else {
            return sign_p | kFp32Inf;
        }
        if (exp_p > 255) exp_p = 255;
    }

    if (sig_p == 0 || exp_p < 0) {  // product is zero or underflows on its own
        if (!nan) return sig_c ? c : zero;
        sig_p = 0;
        exp_p = 0;
    }

    // Align to the larger exponent and add magnitudes.
    int32_t exp_r = exp_p > int32_t(exp_c) ? exp_p : int32_t(exp_c);
    sig_p = detail::shift_right_keep_sticky(sig_p, exp_r - exp_p);
    sig_c = detail::shift_right_keep_sticky(sig_c, exp_r - int32_t(exp_c));
    const uint32_t sign_r = sig_p >= sig_c ? sign_p : sign_c;
    uint32_t sig_r = uint32_t(sign_p == sign_c ? sig_p + sig_c : (sig_p >= sig_c ? sig_p - sig_c : sig_c - sig_p));
    if (sig_r == 0) return bh ? zero : nan;  // exact cancellation

    // Normalise to the leading one at bit 26 (23 mantissa bits + 3 guard bits below it).
    int32_t norm = 5 - int32_t(clz32(sig_r));
    exp_r += norm;
    if (exp_r >= 255) return nan ? nan : (sign_r | kFp32Inf);
    if (!bh && exp_r < 0) return nan;  // far below the normal range: flushed before rounding
    if (bh && exp_r <= 0) {            // rounded as a denormal of exponent 0
        norm += 1;
        exp_r = 0;
    }
    if (norm < 0) {
        sig_r <<= -norm;
    } else if (norm > 0) {  // the bits shifted out that stay sticky: bit 0 (and bit 1 for Blackhole's 2-place shift)
        sig_r = (sig_r >> norm) | uint32_t((sig_r & (bh ? uint32_t(norm | 1) : 1u)) != 0);
    }
    uint32_t r = (uint32_t(exp_r) << 23) + ((sig_r >> 3) & 0x7fffffu);
    const uint32_t guard = sig_r & 7u;
    if (guard > 4 || (guard == 4 && (r & 1u))) r += 1;  // nearest, ties to even (may carry into exp)
    if ((r >> 23) == 0) return bh ? sign_r : nan;  // denormal after rounding: a zero
    return (nan ? nan : sign_r) | r;
}

inline uint32_t mad(uint32_t a, uint32_t b, uint32_t c) { return mad_on<kArch>(a, b, c); }
inline uint32_t add(uint32_t a, uint32_t c) { return mad(a, kFp32One, c); }   // SFPADD: a*1.0 + c
inline uint32_t mul(uint32_t a, uint32_t b) { return mad(a, b, 0u); }         // SFPMUL: a*b + 0
inline uint32_t bf16_to_fp32(uint32_t imm16) { return (imm16 & 0xffffu) << 16; }

// ------------------------------------------------------------------------------------------------
// Field manipulation (simple sub-unit)
// ------------------------------------------------------------------------------------------------
// SFPEXEXP: the exponent field, optionally minus the bias 127 (two's complement result).
inline uint32_t exexp(uint32_t c, bool debias) { return uint32_t(int32_t(exp_field(c)) - (debias ? 127 : 0)); }
// SFPEXMAN: the mantissa field, with the hidden bit (bit 23) unless `pad9` (upper 9 bits zero).
inline uint32_t exman(uint32_t c, bool pad9) { return man_field(c) | (pad9 ? 0u : 0x800000u); }
// SFPSETEXP / SFPSETMAN / SFPSETSGN: replace one field of c.
inline uint32_t setexp(uint32_t c, uint32_t exp8) { return with_fields(c >> 31, exp8, man_field(c)); }
inline uint32_t setman(uint32_t c, uint32_t man23) { return with_fields(c >> 31, exp_field(c), man23); }
inline uint32_t setsgn(uint32_t c, uint32_t sign1) { return with_fields(sign1, exp_field(c), man_field(c)); }
// SFPDIVP2: add imm8 to the exponent (wrapping, Inf/NaN unchanged) or replace it.
inline uint32_t divp2(uint32_t c, uint32_t imm8, bool add_to_exp) {
    if (!add_to_exp) return setexp(c, imm8);
    if (exp_field(c) == 255) return c;
    return setexp(c, (exp_field(c) + imm8) & 0xffu);
}
// SFPABS: float mode clears the sign except of a -NaN, which stays (-Inf becomes +Inf: ttsim; the
// ISA page's model compares with >= and would keep -Inf, against its own comment); integer mode
// negates two's complement (-2^31 stays).
inline uint32_t abs_float(uint32_t x) { return (x & kSignBit) && x <= 0xff800000u ? (x & ~kSignBit) : x; }
inline uint32_t abs_int(uint32_t x) { return (x & kSignBit) ? uint32_t(0u - x) : x; }
// SFPLZ: count of leading zeros (32 for zero), optionally ignoring the sign bit.
inline uint32_t lz(uint32_t c, bool ignore_sign) { return clz32(ignore_sign ? (c & ~kSignBit) : c); }
// SFPSHFT / SFPSHFT2 bit shift: left by amount (mod 32) if amount >= 0, else logical right by -amount.
inline uint32_t shift(uint32_t v, int32_t amount) {
    return amount >= 0 ? v << (uint32_t(amount) & 31u) : v >> (uint32_t(-amount) & 31u);
}
// SFPIADD's 12-bit immediate is signed.
inline uint32_t sign_extend(uint32_t v, int bits) { return uint32_t(int32_t(v << (32 - bits)) >> (32 - bits)); }

// Comparison used by SFPSWAP's min/max: sign-magnitude order, which for FP32 is the total order
// -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN.
inline bool signmag_less(uint32_t c, uint32_t d) {
    auto key = [](uint32_t v) { return int32_t(v ^ (uint32_t(int32_t(v) >> 30) >> 1)); };
    return key(c) < key(d);
}

// ------------------------------------------------------------------------------------------------
// Conversions (round sub-unit, SFPCAST, SFPLOADI)
// ------------------------------------------------------------------------------------------------
// The SFPU's PRNG (VectorUnit.md): one 32-bit LFSR per lane, seeded from the PRNG_SEED config
// register (prng.h); deterministic, so runs are reproducible.
using Prng = LanePrng<kLanes>;

// SFPCAST: sign-magnitude integer -> FP32, rounding to nearest even or stochastically with 7 PRNG bits.
inline uint32_t cast_signmag_to_fp32(uint32_t c, bool stochastic, uint32_t prng_value) {
    const uint32_t mag = c & ~kSignBit;
    const uint32_t lead = mag ? clz32(mag) : 157u;  // 157 makes a zero magnitude produce +-0
    const uint32_t norm = mag << (lead & 31u);
    uint32_t d = (c & kSignBit) + ((157u - lead) << 23) + (norm >> 8);
    if (stochastic) {
        if ((norm & 0xfeu) > ((prng_value >> 9) & 0xfeu)) d += 1;
    } else if ((norm & 0x80u) && (norm & 0x17fu)) {
        d += 1;
    }
    return d;
}

// SFPSTOCHRND modes (Mod1) and the rounding threshold: round-to-nearest (ties away) uses 0x400000,
// stochastic rounding the low 23 bits of the lane's PRNG value.
enum StochRndMode : uint32_t {
    kRndFp32ToFp16a = 0, kRndFp32ToFp16b = 1, kRndFp32ToUint8 = 2, kRndFp32ToInt8 = 3,
    kRndInt32ToUint8 = 4, kRndInt32ToInt8 = 5, kRndFp32ToUint16 = 6, kRndFp32ToInt16 = 7,
};
inline uint32_t stochrnd_threshold(bool stochastic, uint32_t prng_value) {
    return stochastic ? rounding::stochastic_threshold(prng_value) : rounding::kNearest;
}
// Float -> float: keep 10 (fp16a) or 7 (fp16b) mantissa bits; zero/denormal -> +0, Inf/NaN -> +-Inf.
inline uint32_t stochrnd_fp_to_fp(uint32_t x, bool to_fp16b, uint32_t threshold) {
    const uint32_t e = exp_field(x);
    if (e == 0) return 0u;
    if (e == 255) return x & 0xff800000u;
    const int dropped_bits = to_fp16b ? 16 : 13;
    const uint32_t dropped = x & ((1u << dropped_bits) - 1u);
    x -= dropped;
    if ((dropped << (23 - dropped_bits)) >= threshold) x += 1u << dropped_bits;
    return x;
}
// Float -> sign-magnitude integer clamped to +-127 / +-32767, or |x| clamped to 255 / 65535.
inline uint32_t stochrnd_fp_to_int(uint32_t c, uint32_t mode, uint32_t threshold) {
    const bool keep_sign = mode == kRndFp32ToInt8 || mode == kRndFp32ToInt16;
    const uint32_t max_mag = mode == kRndFp32ToInt8 ? 127u : mode == kRndFp32ToUint8 ? 255u
                           : mode == kRndFp32ToInt16 ? 32767u : 65535u;
    uint32_t sign = keep_sign ? (c & kSignBit) : 0u;
    const int32_t e = int32_t(exp_field(c)) - 127;
    uint64_t mag;
    if (e < -1) return 0u;  // |x| < 0.5
    if (e >= 16) {
        mag = max_mag;  // also NaN/Inf
    } else {
        mag = uint64_t(man_field(c) | 0x800000u);
        mag = e >= 0 ? mag << e : mag >> -e;
        mag = (mag >> 23) + uint64_t((mag & 0x7fffffu) >= threshold);
        if (mag > max_mag) mag = max_mag;
        if (mag == 0) sign = 0;
    }
    return sign + uint32_t(mag);
}
// Sign-magnitude integer >> shift (rounded) -> clamped to +-127 or |.| to 255.
inline uint32_t stochrnd_int_to_int(uint32_t c, uint32_t shift_by, bool to_uint8, uint32_t threshold) {
    uint32_t sign = c & kSignBit;
    uint64_t mag = uint64_t(c & ~kSignBit) << 23;
    mag >>= (shift_by & 31u);
    mag = (mag >> 23) + uint64_t((mag & 0x7fffffu) >= threshold);
    if (to_uint8) {
        if (mag > 255) mag = 255;
        sign = 0;
    } else {
        if (mag > 127) mag = 127;
        if (mag == 0) sign = 0;
    }
    return sign + uint32_t(mag);
}

// SFPLOADI: the 32-bit lane value for Mod0 and Imm16 given the lane's old value; false for an
// undefined Mod0.
enum LoadImmMode : uint32_t { kImmFloatB = 0, kImmFloatA = 1, kImmUShort = 2, kImmShort = 4, kImmUpper = 8, kImmLower = 10 };
inline bool loadi_value(uint32_t mod0, uint32_t imm16, uint32_t old, uint32_t& out) {
    imm16 &= 0xffffu;
    switch (mod0) {
    case kImmFloatB: out = imm16 << 16; return true;
    case kImmFloatA:  // exponent widened and rebiased; no denormal/Inf/NaN handling
        out = ((imm16 >> 15) << 31) | ((((imm16 >> 10) & 0x1fu) + 112u) << 23) | ((imm16 & 0x3ffu) << 13);
        return true;
    case kImmUShort: out = imm16; return true;
    case kImmShort: out = sign_extend(imm16, 16); return true;
    case kImmUpper: out = (imm16 << 16) | (old & 0xffffu); return true;
    case kImmLower: out = (old & 0xffff0000u) | imm16; return true;
    default: return false;
    }
}

// ------------------------------------------------------------------------------------------------
// Look-up tables (SFPLUT, SFPLUTFP32): d = A * |LReg[3]| + C with A, C picked by |LReg[3]|
// ------------------------------------------------------------------------------------------------
// 8-bit table entry: sign, 3-bit negative exponent, 4-bit mantissa; 0xff is zero.
inline uint32_t lut8_to_fp32(uint32_t x) {
    x &= 0xffu;
    if (x == 0xffu) return 0u;
    return with_fields(x >> 7, 127u - ((x >> 4) & 7u), (x & 0xfu) << 19);
}
// 16-bit table entry: FP16 layout, exponent 31 reads as zero, exponent 0 is not denormal.
inline uint32_t lut16_to_fp32(uint32_t x) {
    x &= 0xffffu;
    const uint32_t e = (x >> 10) & 0x1fu;
    return with_fields(x >> 15, e == 0x1fu ? 0u : 112u + e, (x & 0x3ffu) << 13);
}
// Which of the three table entries |x| selects: [0,1), [1,2), [2,inf).
inline unsigned lut_segment(uint32_t l3) {
    const float b = float_of(l3 & ~kSignBit);
    return b < 1.0f ? 0u : b < 2.0f ? 1u : 2u;
}
enum LutMode : uint32_t { kLutSignRetain = 4, kLutIndirectVd = 8 };
// SFPLUT: coefficients are the 8-bit entries in bits [15:8] (A) and [7:0] (C) of LReg[0..2].
inline uint32_t lut(const uint32_t l012[3], uint32_t l3, uint32_t mod0) {
    const uint32_t coeffs = l012[lut_segment(l3)];
    uint32_t d = mad(lut8_to_fp32(coeffs >> 8), l3 & ~kSignBit, lut8_to_fp32(coeffs));
    if (mod0 & kLutSignRetain) d = (d & ~kSignBit) | (l3 & kSignBit);
    return d;
}
enum LutFp32Mode : uint32_t { kLutFp16Table = 2, kLutFp16Table2 = 3 /* low 2 bits */, kLutFp16ThreeEntry = 10 };
// SFPLUTFP32: `l` is LReg[0..6] of the lane (l[3] is the input). Modes: FP32 A/C pairs in
// LReg[i]/LReg[4+i]; FP16 pairs packed in LReg[i]; or six FP16 entries with a finer segmenting.
inline uint32_t lutfp32(const uint32_t l[7], uint32_t mod1) {
    const uint32_t l3 = l[3];
    const unsigned i = lut_segment(l3);
    uint32_t a, c;
    if (mod1 & 2u) {
        if ((mod1 & kLutFp16ThreeEntry) == kLutFp16ThreeEntry) {
            a = lut16_to_fp32(l[i] >> 16);
            c = lut16_to_fp32(l[i]);
        } else {
            const float b = float_of(l3 & ~kSignBit);
            const float cut = (mod1 & 1u) ? 4.0f : 3.0f;
            const bool high = (b >= 0.5f && b < 1.0f) || (b >= 1.5f && b < 2.0f) || b >= cut;
            const unsigned j = high ? 16u : 0u;
            a = lut16_to_fp32(l[i] >> j);
            c = lut16_to_fp32(l[4 + i] >> j);
        }
    } else {
        a = l[i];
        c = l[4 + i];
    }
    uint32_t d = mad(a, l3 & ~kSignBit, c);
    if (mod1 & kLutSignRetain) d = (d & ~kSignBit) | (l3 & kSignBit);
    return d;
}

// ------------------------------------------------------------------------------------------------
// Dst <-> LReg conversions (SFPLOAD / SFPSTORE; Dst holds floats as Sign,Man,Exp: Dst.md)
// ------------------------------------------------------------------------------------------------
enum DstFormat : uint32_t {
    kFmtSrcB = 0, kFmtFp16 = 1, kFmtBf16 = 2, kFmtFp32 = 3, kFmtInt32 = 4, kFmtInt8 = 5, kFmtUint16 = 6,
    kFmtHi16 = 7, kFmtInt16 = 8, kFmtLo16 = 9, kFmtInt32All = 10, kFmtZero = 11, kFmtInt32Sm = 12,
    kFmtInt8Comp = 13, kFmtLo16Only = 14, kFmtHi16Only = 15,
};
// SFPLOAD reads the Dst32b view only in the FP32/INT32 modes (LO16/HI16 read a 16-bit datum);
// SFPSTORE also writes 32 bits in LO16/HI16 modes (SFPLOAD.md / SFPSTORE.md functional models).
inline bool load_reads_dst32(uint32_t mod0) {
    return mod0 == kFmtFp32 || mod0 == kFmtInt32 || mod0 == kFmtInt32All || mod0 == kFmtInt32Sm;
}
inline bool store_writes_dst32(uint32_t mod0) { return load_reads_dst32(mod0) || mod0 == kFmtLo16 || mod0 == kFmtHi16; }
// Dst's bit layouts (Sign,Man,Exp: Dst.md) are datum_layout.h's, shared with the other units.
inline uint32_t signmag_to_twos(uint32_t x) { return (x & kSignBit) ? uint32_t(0u - (x & ~kSignBit)) : x; }
inline uint32_t twos_to_signmag(uint32_t x) { return (x & kSignBit) ? (kSignBit | ((0u - x) & ~kSignBit)) : x; }

// Dst FP16 (Sign,Man10,Exp5) -> FP32; with `fp16a_inf` the largest pattern reads as Infinity.
// Denormals become FP32 denormals (which arithmetic then treats as zero).
inline uint32_t fp32_from_dst_fp16(uint32_t x, bool fp16a_inf) {
    const uint32_t man = (x >> 5) & 0x3ffu;
    uint32_t e = x & 0x1fu;
    uint32_t m = man;
    if (fp16a_inf && e == 0x1fu && man == 0x3ffu) {
        e = 255, m = 0;
    } else if (e != 0) {
        e += 112;
    }
    return ((x >> 15) << 31) | (e << 23) | (m << 13);
}
// FP32 -> FP16 as SFPSTORE does: flush underflow to signed zero, saturate overflow (and Inf/NaN)
// to the largest pattern, truncate the mantissa. Returned in IEEE layout (Sign,Exp,Man).
inline uint32_t fp32_to_fp16_store(uint32_t x) {
    int32_t e = int32_t(exp_field(x)) - 112;
    uint32_t m = man_field(x);
    if (e <= 0) {
        e = 0, m = 0;
    } else if (e > 31) {
        e = 31, m = 0x7fffffu;
    }
    return ((x >> 31) << 15) | (uint32_t(e) << 10) | (m >> 13);
}
// FP32 -> BF16 as SFPSTORE does: denormals to signed zero, then truncate. IEEE layout.
inline uint32_t fp32_to_bf16_store(uint32_t x) {
    if (exp_field(x) == 0) x &= kSignBit;
    return x >> 16;
}
// Integer "8" in Dst (overlaid on FP16 with a fixed exponent 16): sign + 10-bit magnitude.
inline uint32_t int8_to_dst(uint32_t signmag) {
    return dst16_from_fp16(uint16_t(((signmag >> 31) << 15) | (16u << 10) | (signmag & 0x3ffu)));
}

// SFPLOAD from a 16-bit Dst datum: the new lane value (`old` is the lane's previous value).
inline uint32_t load_from_dst16(uint32_t mod0, uint32_t raw, uint32_t old, bool fp16a_inf) {
    switch (mod0) {
    case kFmtFp16: return fp32_from_dst_fp16(raw, fp16a_inf);
    case kFmtBf16: return uint32_t(bf16_from_dst16(uint16_t(raw))) << 16;
    case kFmtInt8: return ((raw >> 15) << 31) | ((raw >> 5) & 0x7fu);
    case kFmtInt8Comp: return signmag_to_twos(((raw >> 15) << 31) | ((raw >> 5) & 0x3ffu));
    case kFmtLo16Only: return (old & 0xffff0000u) | raw;
    case kFmtHi16Only: return (raw << 16) | (old & 0xffffu);
    case kFmtInt16: return ((raw >> 15) << 31) | (raw & 0x7fffu);
    case kFmtUint16:
    case kFmtLo16: return raw;
    case kFmtHi16: return raw << 16;
    default: return 0u;  // kFmtZero
    }
}
// SFPLOAD from a 32-bit Dst datum (FP32 / INT32 / INT32_ALL as is; INT32_SM to two's complement).
inline uint32_t load_from_dst32(uint32_t mod0, uint32_t raw) {
    const uint32_t v = fp32_from_dst32(raw);
    return mod0 == kFmtInt32Sm ? signmag_to_twos(v) : v;
}
// SFPSTORE to a 16-bit Dst datum.
inline uint32_t store_to_dst16(uint32_t mod0, uint32_t v) {
    switch (mod0) {
    case kFmtFp16: return dst16_from_fp16(uint16_t(fp32_to_fp16_store(v)));
    case kFmtBf16: return dst16_from_bf16(uint16_t(fp32_to_bf16_store(v)));
    case kFmtInt8: return int8_to_dst(v);
    case kFmtInt8Comp: return int8_to_dst(twos_to_signmag(v));
    case kFmtLo16Only:
    case kFmtUint16: return v & 0xffffu;
    case kFmtHi16Only: return v >> 16;
    case kFmtInt16: return ((v >> 31) << 15) | (v & 0x7fffu);
    default: return 0u;  // kFmtZero
    }
}
// SFPSTORE to a 32-bit Dst datum.
inline uint32_t store_to_dst32(uint32_t mod0, uint32_t v) {
    switch (mod0) {
    case kFmtInt32Sm: return dst32_from_fp32(twos_to_signmag(v));
    case kFmtLo16: return (v << 16) | (v >> 16);
    case kFmtHi16: return v;
    default: return dst32_from_fp32(v);  // FP32 / INT32 / INT32_ALL
    }
}

// ------------------------------------------------------------------------------------------------
// Lane predication (VectorUnit.md "Lane Predication Masks"; SFPENCC/SETCC/PUSHC/POPC/COMPC)
// ------------------------------------------------------------------------------------------------
// Per lane: LaneFlags and UseLaneFlagsForLaneEnable, plus a stack (depth 8) of both. A lane is
// enabled when its row is not masked (SFPCONFIG ROW_MASK) and either it does not use its flags or
// its flag is set. Masks hold one bit per lane.
struct Predication {
    struct Entry {
        uint32_t flags = 0, use_flags = 0;
    };
    static constexpr int kStackDepth = 8;

    uint32_t flags = 0;      // LaneFlags
    uint32_t use_flags = 0;  // UseLaneFlagsForLaneEnable
    std::array<Entry, kStackDepth> stack{};
    int depth = 0;

    bool same_as(const Predication& o) const {
        if (flags != o.flags || use_flags != o.use_flags || depth != o.depth) return false;
        for (int i = 0; i < depth; ++i)
            if (stack[i].flags != o.stack[i].flags || stack[i].use_flags != o.stack[i].use_flags) return false;
        return true;
    }

    // Lanes an instruction writes, given the lanes whose row is masked off.
    uint32_t enabled(uint32_t row_masked = 0) const { return ~row_masked & (~use_flags | flags); }

    // Set LaneFlags of the `lanes` to `value` (instructions that set flags only in enabled lanes).
    void set_flags(uint32_t lanes, uint32_t value) { flags = (flags & ~lanes) | (value & lanes); }

    // SFPENCC (all lanes): Mod1 bit 1: UseLaneFlags = imm bit 0; else bit 0: invert UseLaneFlags.
    // Mod1 bit 3: LaneFlags = imm bit 1; else LaneFlags = true.
    void encc(uint32_t mod1, uint32_t imm) {
        if (mod1 & 2u) {
            use_flags = (imm & 1u) ? kAllLanes : 0u;
        } else if (mod1 & 1u) {
            use_flags = ~use_flags;
        }
        flags = (mod1 & 8u) ? ((imm & 2u) ? kAllLanes : 0u) : kAllLanes;
    }
    // SFPSETCC in the enabled lanes: lanes that do not use flags get false; others `cond`.
    void setcc(uint32_t lanes, uint32_t cond) { set_flags(lanes, cond & use_flags); }
    // SFPPUSHC: false if the stack is full (undefined on hardware; the caller reports it).
    bool push() {
        if (depth >= kStackDepth) return false;
        stack[depth++] = Entry{flags, use_flags};
        return true;
    }
    // SFPPOPC: Mod1 0 pops (false if empty: undefined on hardware); 1..12 combine LaneFlags with the
    // top's flags without popping; 13 inverts; 14/15 set UseLaneFlags and LaneFlags to true/false.
    bool pop(uint32_t mod1) {
        const Entry top = depth > 0 ? stack[depth - 1] : Entry{};
        if (mod1 == 0) {
            if (depth == 0) return false;
            --depth;
            flags = top.flags;
            use_flags = top.use_flags;
            return true;
        }
        if (depth == kStackDepth) stack[0] = top;  // hardware quirk of peeking a full stack
        const uint32_t a = flags, b = top.flags;
        switch (mod1) {
        case 1: flags = b; break;
        case 2: flags = ~b; break;
        case 3: flags = a & b; break;
        case 4: flags = a | b; break;
        case 5: flags = a & ~b; break;
        case 6: flags = a | ~b; break;
        case 7: flags = ~a & b; break;
        case 8: flags = ~a | b; break;
        case 9: flags = ~a & ~b; break;
        case 10: flags = ~a | ~b; break;
        case 11: flags = a ^ b; break;
        case 12: flags = ~(a ^ b); break;
        case 13: flags = ~a; return true;
        case 14: use_flags = kAllLanes, flags = kAllLanes; return true;
        default: use_flags = kAllLanes, flags = 0; return true;  // 15
        }
        use_flags = top.use_flags;
        return true;
    }
    // SFPCOMPC ("else"): LaneFlags = top.flags & !LaneFlags where both levels use flags, else false.
    void compc() {
        const Entry top = depth > 0 ? stack[depth - 1] : Entry{kAllLanes, kAllLanes};
        flags = top.use_flags & use_flags & top.flags & ~flags;
    }
};


// SFPCONFIG's per-lane LaneConfig bits (SFPCONFIG.md).
enum LaneConfigBit : uint32_t {
    kCfgFp16aInf = 1u << 0, kCfgDisableBackdoorLoad = 1u << 1, kCfgEnableDestIndex = 1u << 2,
    kCfgCaptureDefaultDestIndex = 1u << 3, kCfgBlockDestWrite = 1u << 4, kCfgBlockDestRead = 1u << 5,
    kCfgDestReadColExchange = 1u << 6, kCfgDestWriteColExchange = 1u << 7, kCfgExchangeSrcbSrcc = 1u << 8,
};

// Whether an instruction of another unit lets SFPLOADMACRO-scheduled SFPU instructions that are
// due run first (sfpu_drain): any backend instruction outside the SFPU's opcodes 0x70..0x95 does;
// the frontend's MOP (0x01), MOP_CFG (0x03) and REPLAY (0x04) expand into instructions instead.
constexpr bool drains_sfpu_schedule(uint32_t opcode) {
    return !(opcode >= 0x70 && opcode <= 0x95) && opcode != 0x01 && opcode != 0x03 && opcode != 0x04;
}

// One decoded SFPU instruction: sfpu.cpp decodes issued words into it, and SFPLOADMACRO builds
// them from its instruction templates with some operands replaced (VD may then be 16).
struct SfpuInsn {
    uint32_t word = 0;        // the instruction word (or template) it came from, for diagnostics
    uint32_t opcode = 0;
    uint32_t va = 0, vb = 0, vc = 0, vd = 0;  // operands; an implicit VB or VC is VD, as each model says
    uint32_t mod = 0;         // Mod0 or Mod1
    uint32_t imm = 0;         // the immediate of the instruction's layout (Imm12, Imm16, Imm10 or Imm5)
    uint32_t addr_mod = 0;    // SFPLOAD / SFPSTORE / SFPLOADMACRO
    bool stochastic = false;  // SFP_STOCH_RND's rounding mode bit
    bool scheduled = false;   // run by SFPLOADMACRO: no template load, no ADDR_MOD, `dst_addr` given
    uint32_t dst_addr = 0;    // a scheduled SFPSTORE's Dst address (computed by its SFPLOADMACRO)
};

// SFPLOADMACRO's configuration (SFPLOADMACRO.md), written by SFPCONFIG and template loads.
struct LoadMacroConfig {
    std::array<uint32_t, 4> templates{};  // instruction words
    std::array<uint32_t, 4> sequence{};   // per macro: 8 bits per sub-unit (simple, MAD, round, store)
    uint32_t misc = 0;                    // StoreMod0 [3:0], UsesLoadMod0ForStore [7:4], UnitDelayKind [11:8]
    bool same_as(const LoadMacroConfig& o) const { return templates == o.templates && sequence == o.sequence && misc == o.misc; }
};

// An instruction SFPLOADMACRO scheduled on a sub-unit (0 simple, 1 MAD, 2 round, 3 store), to run
// once `countdown` reaches zero.
struct ScheduledInsn {
    SfpuInsn insn;
    int unit = 0;
    int countdown = 0;
    bool by_instructions = false;  // counts issued SFPU instructions (UnitDelayKind 1), else cycles
    uint64_t issued_at = 0;        // the SFPU step that scheduled it (it does not count that step)
};

// The Vector Unit's state besides the LRegs (which are MachineState::lreg): predication, PRNG,
// the SFPCONFIG lane configuration and the SFPLOADMACRO machinery.
struct SfpuState {
    Predication cc;
    Prng prng{kSfpuStream};
    std::array<LoadMacroConfig, kLanes> macro{};
    std::vector<ScheduledInsn> scheduled;
    uint64_t step = 0;  // SFPU instructions issued so far
    std::array<uint32_t, kLanes> lane_config{};
    // What the last lane rotation of SFPSHFT2 read; SFPSHFT2's shift mode leaks it into lane 0 of
    // each row (a hardware bug the ISA documents).
    std::array<uint32_t, kLanes> last_rotate_source{};
    // The lanes whose row is masked off by LaneConfig[column].ROW_MASK (bits 12..15, one per row).
    // Every predicated write asks, so per column: its four row bits spread to lanes c, c+8, c+16, c+24.
    uint32_t row_masked() const {
        uint32_t m = 0;
        for (int column = 0; column < 8; ++column) {
            const uint32_t rows = (lane_config[column] >> 12) & 0xfu;
            m |= ((rows & 1u) | ((rows & 2u) << 7) | ((rows & 4u) << 14) | ((rows & 8u) << 21)) << column;
        }
        return m;
    }
    uint32_t enabled() const { return cc.enabled(row_masked()); }
};

// --- Blackhole: SFPARECIP's approximate reciprocal (ttsim's model): the sign kept, the magnitude
// from a 128-entry table of 7-bit mantissas indexed by the top 7 mantissa bits; zero and denormals
// give infinity, magnitudes from 2^126 up give zero. SFPARECIP and sfpi::approx_recip use it. ---
inline uint32_t approx_recip_magnitude(uint32_t x) {
    static const uint8_t kMantissa[128] = {
        127, 125, 123, 121, 119, 117, 116, 114, 112, 110, 109, 107, 105, 104, 102, 100, 99, 97, 96, 94, 93, 91,
        90,  88,  87,  85,  84,  83,  81,  80,  79,  77,  76,  75,  74,  72,  71,  70,  69, 68, 66, 65, 64, 63,
        62,  61,  60,  59,  58,  57,  56,  55,  54,  53,  52,  51,  50,  49,  48,  47,  46, 45, 44, 43, 42, 41,
        40,  40,  39,  38,  37,  36,  35,  35,  34,  33,  32,  31,  31,  30,  29,  28,  28, 27, 26, 25, 25, 24,
        23,  23,  22,  21,  21,  20,  19,  19,  18,  17,  17,  16,  15,  15,  14,  14,  13, 12, 12, 11, 11, 10,
        9,   9,   8,   8,   7,   7,   6,   5,   5,   4,   4,   3,   3,   2,   2,   1,   1,  0};
    if (x < 0x800000u) return kFp32Inf;  // zero and denormals
    if (x >= 0x7e800000u) return 0u;     // 2^126 and above
    return ((253u - (x >> 23)) << 23) | (uint32_t(kMantissa[(x >> 16) & 0x7fu]) << 16);
}
// Blackhole's arithmetic SFPSHFT (Mod1 ARITHMETIC): left for a non-negative amount, else right with the
// sign bit filling the vacated bits; the amount's low 5 bits count.
inline uint32_t shift_arithmetic(uint32_t x, int32_t amount) {
    if (amount >= 0) return shift(x, amount);
    return uint32_t(int32_t(x) >> (uint32_t(-amount) & 31u));
}
// Blackhole's SFPMUL24: the low 23 bits of the 32-bit product, or the high 23 bits of the product of
// the two 23-bit mantissa fields (Mod1 1).
inline uint32_t mul24(uint32_t a, uint32_t b, bool upper) {
    return upper ? uint32_t((uint64_t(a & 0x7fffffu) * uint64_t(b & 0x7fffffu)) >> 23) : (a * b) & 0x7fffffu;
}
// Blackhole's SFPLE / SFPGT compare sign-magnitude patterns in this total order (-0 below +0).
inline int32_t sign_magnitude_order(uint32_t x) { return int32_t((x & kSignBit) ? x ^ 0x7fffffffu : x); }
inline uint32_t approx_recip(uint32_t x) { return (x & kSignBit) | approx_recip_magnitude(x & ~kSignBit); }

}  // namespace tc_tensix::sfpu
