// The matrix unit's multiply/accumulate arithmetic, bit for bit, on values given as fp32 bit
// patterns (FP16 data travels as the same value in fp32: its exponent rebased by 112).
//
// Why integer arithmetic and not float: the ISA's functional models (MVMUL.md, ELWMUL.md,
// ELWADD.md) call their float code "a rough guide"; the device forms products from a few mantissa
// bits per fidelity phase and adds them in fixed-point groups. The facts used here:
//   - fidelity phases (SrcASrcB.md): a SrcA operand gives 5 significant bits per phase (the
//     implicit one and the top four mantissa bits when phase bit 0 is clear, the next five when
//     set), a SrcB operand 7 (the implicit one and the top six when phase bit 1 is clear, the last
//     four when set); the product's exponent drops by 5 / 7 for the low pieces;
//   - accumulation (ttsim v1.10.0 src/tensix.cpp, mvmul / elwmul / elwadd and its normalisation):
//     MVMUL's 16 products per output form two groups of eight, each aligned to its largest
//     exponent (rounded to the nearest unit, ties away from zero) and summed exactly; the group
//     sums and Dst are aligned to the largest exponent of the three, a 16-bit Dst first rounds
//     each to 11 significant bits, they are added and the sum rounded once (ties away from zero)
//     to Dst's precision: 24 bits (FP32), 8 (BF16) or 11 (FP16). Denormals are zero; an FP32/BF16
//     overflow is infinity, an FP16 one saturates.
// docs/numerics.md states the same model; tilecraft/device_arith.py is an independent float64
// implementation of it that the unit tests hold this code to.
#pragma once

#include <algorithm>
#include <cstdint>

namespace tc_tensix::fpu_arith {

// What kind of Dst a result goes to, which fixes its precision and range.
struct DstKind {
    bool fp32 = false;  // FP32 Dst (Dst32b) or a 16-bit Dst
    bool fp16 = false;  // Src data in FP16 style (5-bit exponent)

    // Significant bits a result keeps.
    int keep_bits() const { return fp32 ? 24 : (fp16 ? 11 : 8); }
    // Biased (fp32) exponent at or below which a sum is zero: FP16 Dst cannot hold smaller values.
    int32_t floor_exp() const { return (fp16 && !fp32) ? 112 : 0; }
    // The exponent a zero product carries into its group's alignment (the hardware clamps the
    // product exponent offset at zero, which only matters for FP16 data into FP32 Dst).
    int32_t zero_product_exp(int phase) const {
        if (!fp16) return 0;
        if (!fp32) return 112;
        return std::max(97 - phase_shift(phase), 0);
    }
    static int phase_shift(int phase) { return ((phase & 1) ? 5 : 0) + ((phase & 2) ? 7 : 0); }
};

// A signed partial result: |value| = mag * 2^(exp - 150), so an fp32 value with biased exponent
// `exp` has its implicit one at bit 23 of `mag`.
struct Term {
    uint32_t neg = 0;
    int32_t exp = 0;
    uint64_t mag = 0;
};

// An operand as the multipliers and adders see it: sign, biased fp32 exponent, 11-bit significand.
struct Operand {
    uint32_t neg = 0;
    int32_t exp = 0;
    uint32_t sig = 0;  // implicit one at bit 10
    bool zero = true;
};

inline Operand operand_of(uint32_t fp32) {
    Operand o;
    o.neg = fp32 >> 31;
    o.exp = int32_t((fp32 >> 23) & 0xffu);
    o.zero = o.exp == 0;
    o.sig = o.zero ? 0 : (((fp32 >> 13) & 0x3ffu) | 0x400u);
    return o;
}

// The 5-bit piece of a SrcA significand and the 7-bit piece of a SrcB significand a phase uses.
inline uint32_t piece_a(uint32_t sig, int phase) { return (phase & 1) ? (sig >> 1) & 31u : sig >> 6; }
inline uint32_t piece_b(uint32_t sig, int phase) { return (phase & 2) ? (sig & 15u) << 3 : sig >> 4; }

// One product of one phase, unaligned: its 12-bit significand and exponent. A zero operand gives
// a zero significand at the zero-product exponent.
struct Product {
    uint32_t neg = 0;
    int32_t exp = 0;
    uint32_t sig = 0;
};

inline Product product(const Operand& a, const Operand& b, int phase, const DstKind& k) {
    if (a.zero || b.zero) return {0, k.zero_product_exp(phase), 0};
    return {a.neg ^ b.neg, a.exp + b.exp - 127 - DstKind::phase_shift(phase), piece_a(a.sig, phase) * piece_b(b.sig, phase)};
}

// ELWMUL's term: the product on Dst's grid, or zero when an operand is zero or the exponent is
// out of range. A nonzero operand whose piece is all zeros still brings its exponent, which sets
// the grid Dst is aligned to.
inline Term product_term(const Operand& a, const Operand& b, int phase, const DstKind& k) {
    const Product p = product(a, b, phase, k);
    if (a.zero || b.zero || p.exp <= k.floor_exp()) return {0, k.zero_product_exp(phase), 0};
    return {p.neg, p.exp, uint64_t(p.sig) << 13};
}

// Sixteen operands (a SrcA column or a SrcB row) as one phase's multipliers see them, laid out so
// that a group of products is a few loops the compiler vectorises: MVMUL forms 2048 products per
// instruction, which dominates the machine's time in a matmul.
struct Pieces {
    int32_t exp[16], sig[16], neg[16], zero[16];
};

inline Pieces pieces(const Operand* ops, bool src_a, int phase) {
    Pieces p;
    for (int i = 0; i < 16; ++i) {
        p.exp[i] = ops[i].exp;
        p.sig[i] = int32_t(src_a ? piece_a(ops[i].sig, phase) : piece_b(ops[i].sig, phase));
        p.neg[i] = int32_t(ops[i].neg);
        p.zero[i] = ops[i].zero;
    }
    return p;
}

// MVMUL's term for the group of eight products a[k] * b[k], k0 <= k < k0 + 8: each aligned to the
// group's largest exponent, rounded to the nearest unit (ties away from zero), summed exactly.
inline Term group_term(const Pieces& a, const Pieces& b, int k0, int phase, const DstKind& k) {
    const int32_t zero_exp = k.zero_product_exp(phase), bias = 127 + DstKind::phase_shift(phase);
    int32_t e[8], m[8], n[8];
    for (int i = 0; i < 8; ++i) {
        const bool zero = a.zero[k0 + i] | b.zero[k0 + i];
        e[i] = zero ? zero_exp : a.exp[k0 + i] + b.exp[k0 + i] - bias;
        m[i] = zero ? 0 : a.sig[k0 + i] * b.sig[k0 + i];
        n[i] = zero ? 0 : a.neg[k0 + i] ^ b.neg[k0 + i];
    }
    int32_t top = e[0];
    for (int i = 1; i < 8; ++i) top = std::max(top, e[i]);
    if (top <= k.floor_exp()) return {};
    int32_t sum = 0;
    for (int i = 0; i < 8; ++i) {
        const int32_t d = std::min(top - e[i], 30);
        const int32_t v = ((m[i] << 1) + (1 << d)) >> (d + 1);  // m < 2^12: no overflow
        sum += n[i] ? -v : v;
    }
    Term t;
    t.neg = sum < 0;
    t.exp = top;
    t.mag = uint64_t(sum < 0 ? -int64_t(sum) : sum) << 13;
    return t;
}

// ELWADD's term (ELWSUB negates b first): the smaller operand's significand aligned to the larger
// one's exponent within 11 bits (ties away from zero), then added or subtracted exactly.
inline Term sum_term(Operand a, Operand b, const DstKind& k) {
    auto magnitude = [](const Operand& o) { return o.zero ? 0u : (uint32_t(o.exp) << 10) | (o.sig & 0x3ffu); };
    if (magnitude(a) < magnitude(b)) std::swap(a, b);
    uint32_t small = b.sig;
    const int32_t d = a.exp - b.exp;
    if (!b.zero && d > 0) small = d < 12 ? (small + (1u << (d - 1))) >> d : 0;
    Term t;
    t.neg = a.zero ? 0 : a.neg;
    const uint32_t big = a.sig;
    t.mag = uint64_t((a.zero || b.zero || a.neg == b.neg) ? big + small : big - small) << 13;
    if (!a.zero) t.exp = a.exp;
    else t.exp = !k.fp16 ? 0 : (k.fp32 ? 97 : 112);
    return t;
}

// a / 2^d to the nearest integer; `tie_down` (1 for a negative product sum) rounds a tie toward
// +infinity instead of away from zero. Shifts of 31 or more leave nothing.
inline uint64_t align(uint64_t mag, int32_t d, uint32_t tie_down) {
    if (d <= 0) return mag;
    if (d >= 31) return 0;
    return (mag + (uint64_t(1) << (d - 1)) - tie_down) >> d;
}

// Dst + s0 + s1, rounded once to Dst's precision; `dst` and the result are fp32 bit patterns.
inline uint32_t accumulate(Term s0, Term s1, uint32_t dst, const DstKind& k) {
    Term d;
    d.neg = dst >> 31;
    d.exp = int32_t((dst >> 23) & 0xffu);
    d.mag = d.exp ? ((dst & 0x7fffffu) | 0x800000u) : 0;
    const int32_t top = std::max({s0.exp, s1.exp, d.exp});
    if (top <= k.floor_exp()) return 0;
    s0.mag = align(s0.mag, top - s0.exp, s0.neg);
    s1.mag = align(s1.mag, top - s1.exp, s1.neg);
    d.mag = align(d.mag, top - d.exp, 0);
    if (!k.fp32) {  // a 16-bit Dst adds on a grid 13 bits coarser
        constexpr uint64_t kGrid = ~uint64_t(0x1fff);
        s0.mag = (s0.mag + 0x1000 - s0.neg) & kGrid;
        s1.mag = (s1.mag + 0x1000 - s1.neg) & kGrid;
        d.mag = (d.mag + 0x1000) & kGrid;
    }
    auto value = [](const Term& t) { return t.neg ? -int64_t(t.mag) : int64_t(t.mag); };
    const int64_t total = value(d) + value(s0) + value(s1);
    if (total == 0) return 0;
    const uint32_t neg = total < 0;
    uint64_t mag = uint64_t(neg ? -total : total);
    const int lead = 63 - __builtin_clzll(mag);
    int shift = 23 - lead;  // left shift that puts the leading one at bit 23
    // Wormhole's normaliser miscounts a sum of exactly -1 unit (its leading-sign count sees every
    // bit set): it shifts right by 4 instead of left by 23, as ttsim reproduces.
    if (neg && mag == 1) shift -= 27;
    int32_t exp = top - shift;
    const int coarse = 24 - k.keep_bits();
    shift -= coarse;
    if (shift < 0) mag = (mag + (uint64_t(1) << (-shift - 1))) >> -shift;
    else mag <<= shift;
    mag <<= coarse;
    if (mag & (uint64_t(1) << 24)) ++exp;  // rounding carried into the next binade
    const uint32_t frac = uint32_t(mag) & 0x7fffffu;
    if (exp <= k.floor_exp()) return 0;
    if (k.fp16 && !k.fp32) {
        if (exp >= 112 + 32) return (neg << 31) | (143u << 23) | (0x3ffu << 13);  // FP16 saturates
    } else if (exp >= 255) {
        return (neg << 31) | 0x7f800000u;
    }
    return (neg << 31) | (uint32_t(exp) << 23) | frac;
}

// --- integer "8" arithmetic (INT8 math: Dst is sign-magnitude int32) ---

inline int32_t saturating_add(int32_t x, int32_t y) {
    const int64_t r = int64_t(x) + int64_t(y);
    return int32_t(std::clamp<int64_t>(r, -0x7fffffffLL, 0x7fffffffLL));
}
inline int32_t int32_of_sign_magnitude(uint32_t v) { return (v >> 31) ? -int32_t(v & 0x7fffffffu) : int32_t(v & 0x7fffffffu); }
inline uint32_t sign_magnitude_of(int32_t v) { return v < 0 ? 0x80000000u | uint32_t(-int64_t(v)) : uint32_t(v); }

}  // namespace tc_tensix::fpu_arith
