// fpu_lanes.h: fpu_arith.h's multiply/accumulate with one Dst column per 32-bit vector lane.
#include "fpu_lanes.h"

// the always-inlined vector helpers pass vectors by value; their ABI never crosses a call
#pragma GCC diagnostic ignored "-Wpsabi"

#include <cstring>

namespace tc_tensix::fpu_lanes {

namespace {

using fpu_arith::DstKind;

// Eight lanes: one AVX2 register (wider vectors are split by the compiler, badly); a row of 16
// Dst columns is two halves.
constexpr int kLanes = 8;
typedef int32_t v8i __attribute__((vector_size(4 * kLanes)));
typedef uint32_t v8u __attribute__((vector_size(4 * kLanes)));
typedef float v8f __attribute__((vector_size(4 * kLanes)));

#define TC_INLINE __attribute__((always_inline)) inline

TC_INLINE v8u load(const uint32_t* p) {
    v8u v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
TC_INLINE v8i splat(int32_t x) { return v8i{} + x; }
TC_INLINE v8i vmax(v8i a, v8i b) { return a > b ? a : b; }
TC_INLINE v8i vmin(v8i a, v8i b) { return a < b ? a : b; }

// Partial results, one per lane, in sign-magnitude: sign (0/1), biased exponent, and a magnitude
// below 2^30 counting units of 2^(exp - 150), so a value with fp32 exponent `exp` has its implicit
// one at bit 23.
struct Terms {
    v8i neg{}, exp{}, mag{};
};

// Src operands as the multipliers and adders see them, one per lane: the biased fp32 exponent, the
// 11-bit significand (implicit one at bit 10), the sign, and a mask of zero operands (all ones
// where the exponent is zero; their significand and sign read as 0).
struct Operands {
    v8i exp, sig, neg, zero;
};

// Src datums as values (fpu.cpp's src_value: FP16 data rebased to an 8-bit exponent, BF16 data
// with seven mantissa bits, TF32 with ten).
TC_INLINE Operands operands(v8u v, bool fp16, bool tf32) {
    const v8i sign = v8i((v >> 18) & 1u);
    v8i man = v8i((v >> 8) & 0x3ffu), exp;
    if (fp16) {
        const v8i e5 = v8i(v & 0x1fu);
        exp = (e5 + 112) & (e5 != 0);
    } else {
        exp = v8i(v & 0xffu);
        if (!tf32) man &= 0x3f8;
    }
    Operands o;
    o.zero = exp == 0;
    o.exp = exp;
    o.sig = (man | 0x400) & ~o.zero;
    o.neg = sign & ~o.zero;
    return o;
}

// The operands with their significands cut to the piece one fidelity phase multiplies (SrcA: 5
// bits, the implicit one and the top four or the next five; SrcB: 7 bits, the implicit one and the
// top six or the last four moved up by 3); a zero operand's piece is 0.
struct Pieces {
    v8i exp, piece, neg, zero;
};

TC_INLINE Pieces pieces(v8u v, bool fp16, bool tf32, bool src_a, int phase) {
    const Operands o = operands(v, fp16, tf32);
    Pieces p{o.exp, {}, o.neg, o.zero};
    if (src_a) p.piece = (phase & 1) ? (o.sig >> 1) & 31 : o.sig >> 6;
    else p.piece = (phase & 2) ? (o.sig & 15) << 3 : o.sig >> 4;
    return p;
}

// mag / 2^d to the nearest integer, ties away from zero except that a tie of a negative product
// sum (`tie_down` 1) rounds toward +infinity; a shift of 31 or more leaves 0 (every mag is below 2^30).
TC_INLINE v8i align(v8i mag, v8i d, v8i tie_down) {
    const v8u dc = v8u(vmin(d, splat(31)));  // d >= 0: the exponents are aligned to their maximum
    const v8u half = (v8u{} + 1u) << dc >> 1;
    return v8i((v8u(mag) + half - v8u(tie_down & (d > 0))) >> dc);
}

// Dst + s0 + s1: aligned to the largest of the three exponents (a 16-bit Dst first rounds each to
// 11 significant bits), added, and rounded once to Dst's precision (24 bits for FP32, 8 for BF16,
// 11 for FP16): ties away from zero, or, with `thresholds` (the lanes' 23-bit stochastic rounding
// thresholds, prng.h), up in magnitude where the dropped bits scaled to 23 bits reach the lane's
// threshold. Zero at or below the floor exponent; an FP32/BF16 overflow is infinity, an FP16 one
// saturates. `dst` and the result are fp32 bit patterns.
TC_INLINE v8u accumulate(const Terms& s0, const Terms& s1, v8u dst, const DstKind& k, const uint32_t* thresholds) {
    const v8i floor = splat(k.floor_exp());
    const v8i dexp = v8i((dst >> 23) & 0xffu);
    const v8i dneg = v8i(dst >> 31);
    v8i dmag = v8i((dst & 0x7fffffu) | 0x800000u) & (dexp != 0);
    const v8i top = vmax(vmax(s0.exp, s1.exp), dexp);
    v8i m0 = align(s0.mag, top - s0.exp, s0.neg);
    v8i m1 = align(s1.mag, top - s1.exp, s1.neg);
    dmag = align(dmag, top - dexp, v8i{});
    if (!k.fp32) {  // a 16-bit Dst adds on a grid 13 bits coarser
        m0 = (m0 + 0x1000 - s0.neg) & ~0x1fff;
        m1 = (m1 + 0x1000 - s1.neg) & ~0x1fff;
        dmag = (dmag + 0x1000) & ~0x1fff;
    }
    const v8i total = (dmag ^ -dneg) + dneg + (m0 ^ -s0.neg) + s0.neg + (m1 ^ -s1.neg) + s1.neg;
    const v8i neg = total < 0;  // all ones where negative
    const v8i mag = neg ? -total : total;
    // the leading bit: the exponent of mag as a float, one less where the conversion rounded up
    v8i lead;
    {
        const v8f f = __builtin_convertvector(mag, v8f);
        v8i fb;
        std::memcpy(&fb, &f, sizeof fb);
        lead = vmax(((fb >> 23) & 0xff) - 127, v8i{});
        lead += (v8i(v8u(mag) >> v8u(lead)) == 0);  // a true comparison is -1
    }
    v8i shift = 23 - lead;  // left shift that puts the leading one at bit 23
    // Wormhole's normaliser miscounts a sum of exactly -1 unit (its leading-sign count sees every
    // bit set): it shifts right by 4 instead of left by 23, as ttsim reproduces.
    shift -= (neg & (mag == 1)) & 27;
    v8i exp = top - shift;
    const int coarse = 24 - k.keep_bits();
    shift -= coarse;
    const v8u right = v8u(vmax(-shift, v8i{})), left = v8u(vmax(shift, v8i{}));
    v8u kept;  // the significand at Dst's precision, its last place at bit 0
    if (thresholds) {  // one last place up where the dropped bits reach the threshold (none dropped: where it is 0)
        const v8u dropped = v8u(mag) & ~(~v8u{} << right);
        const v8u scaled = right <= 23u ? dropped << (23u - right) : dropped >> (right - 23u);
        kept = ((v8u(mag) >> right) << left) - v8u(scaled >= load(thresholds));  // a true comparison is -1
    } else {
        kept = ((v8u(mag) + ((v8u{} + 1u) << right >> 1)) >> right) << left;
    }
    v8u m = kept << coarse;
    exp += v8i(m >> 24) & 1;  // rounding carried into the next binade
    const v8u sign = v8u(neg) & 0x80000000u;
    v8u out = sign | (v8u(exp) << 23) | (m & 0x7fffffu);
    if (k.fp16 && !k.fp32) out = exp >= 112 + 32 ? sign | (143u << 23) | (0x3ffu << 13) : out;  // FP16 saturates
    else out = exp >= 255 ? sign | 0x7f800000u : out;
    const v8i zero = (top <= floor) | (total == 0) | (exp <= floor);
    return out & ~v8u(zero);
}

// One SrcB operand as the scalars a group's lanes share.
struct Scalar {
    int32_t exp, piece, neg, zero;
};

// MVMUL's group of eight products a[k][j] * b[k], k0 <= k < k0 + 8, for the lanes' columns: each
// aligned to the lane's largest exponent (nearest, ties away from zero) and summed exactly.
TC_INLINE Terms group(const Pieces a[16], const Scalar b[16], int k0, int phase, const DstKind& k) {
    const v8i zero_exp = splat(k.zero_product_exp(phase));
    const int32_t bias = 127 + DstKind::phase_shift(phase);
    v8i e[8];
    for (int i = 0; i < 8; ++i) {
        const Pieces& x = a[k0 + i];
        const Scalar& y = b[k0 + i];
        const v8i zero = x.zero | -y.zero;
        e[i] = zero ? zero_exp : x.exp + (y.exp - bias);
    }
    v8i top = e[0];
    for (int i = 1; i < 8; ++i) top = vmax(top, e[i]);
    v8i sum{};
    for (int i = 0; i < 8; ++i) {
        const Pieces& x = a[k0 + i];
        const Scalar& y = b[k0 + i];
        const v8i d = vmin(top - e[i], splat(30));
        const v8i m = x.piece * y.piece;  // zero where either operand is zero: its piece is 0
        const v8i v = ((m << 1) + (splat(1) << d)) >> (d + 1);
        const v8i n = -(x.neg ^ y.neg);  // all ones where negative
        sum += (v ^ n) - n;
    }
    const v8i live = top > splat(k.floor_exp());
    Terms t;
    t.neg = (sum < 0) & live & 1;
    t.exp = top & live;
    t.mag = ((sum < 0 ? -sum : sum) << 13) & live;
    return t;
}

// ELWADD's term (ELWSUB's b arrives negated): the operand of smaller magnitude aligned to the
// larger one's exponent within 11 bits (nearest, ties away from zero), then added or subtracted
// exactly; the sign is the larger one's. Zero plus zero sits at the exponent a zero sum carries.
TC_INLINE Terms sum(const Operands& x, const Operands& y, const DstKind& k) {
    const v8i mx = ((x.exp << 10) | (x.sig & 0x3ff)) & ~x.zero, my = ((y.exp << 10) | (y.sig & 0x3ff)) & ~y.zero;
    const v8i swap = mx < my;
    const v8i big_exp = swap ? y.exp : x.exp, big_sig = swap ? y.sig : x.sig, big_neg = swap ? y.neg : x.neg;
    const v8i big_zero = swap ? y.zero : x.zero;
    const v8i small_exp = swap ? x.exp : y.exp, small_sig = swap ? x.sig : y.sig, small_neg = swap ? x.neg : y.neg;
    const v8i small_zero = swap ? x.zero : y.zero;
    const v8i d = big_exp - small_exp;
    const v8u dc = v8u(vmin(vmax(d, splat(1)), splat(11)));
    const v8i shifted = v8i((v8u(small_sig) + ((v8u{} + 1u) << (dc - 1u))) >> dc) & (d < 12);
    const v8i small = (~small_zero & (d > 0)) ? shifted : small_sig;
    const v8i add = big_zero | small_zero | (big_neg == small_neg);
    Terms t;
    t.neg = big_neg;  // 0 for a zero operand
    t.mag = (add ? big_sig + small : big_sig - small) << 13;
    t.exp = big_zero ? splat(!k.fp16 ? 0 : (k.fp32 ? 97 : 112)) : big_exp;
    return t;
}

}  // namespace

__attribute__((target_clones("avx2", "default"))) void matmul(const uint32_t a[16][16], const uint32_t* const b[8],
                                                              uint32_t dst[8][16], int rows, int step, int phase,
                                                              const SrcRead& src, const DstKind& kind,
                                                              const uint32_t (*thresholds)[16]) {
    Scalar bs[8][16];  // SrcB row i's operand k, shared by the lanes
    for (int i = 0; i < rows; i += step)
        for (int h = 0; h < 16; h += kLanes) {
            const Pieces row = pieces(load(b[i] + h), src.fp16, src.b_tf32, false, phase);
            for (int k = 0; k < kLanes; ++k) bs[i][h + k] = {row.exp[k], row.piece[k], row.neg[k], row.zero[k] & 1};
        }
    for (int h = 0; h < 16; h += kLanes) {  // the columns of one half
        Pieces at[16];  // SrcA row k across the half's columns
        for (int k = 0; k < 16; ++k) at[k] = pieces(load(a[k] + h), src.fp16, src.a_tf32, true, phase);
        for (int i = 0; i < rows; i += step) {
            const Terms lo = group(at, bs[i], 0, phase, kind), hi = group(at, bs[i], 8, phase, kind);
            const v8u out = accumulate(lo, hi, load(dst[i] + h), kind, thresholds ? thresholds[i] + h : nullptr);
            std::memcpy(dst[i] + h, &out, sizeof out);
        }
    }
}

__attribute__((target_clones("avx2", "default"))) void multiply_row(const uint32_t a[16], const uint32_t b[16],
                                                                    uint32_t dst[16], int phase, const SrcRead& src,
                                                                    const DstKind& kind, const uint32_t* thresholds) {
    for (int h = 0; h < 16; h += kLanes) {
        // the product on Dst's grid, or zero at the zero-product exponent when an operand is zero or
        // the exponent is out of range (a nonzero operand whose piece is 0 still sets the grid)
        const Pieces x = pieces(load(a + h), src.fp16, src.a_tf32, true, phase);
        const Pieces y = pieces(load(b + h), src.fp16, src.b_tf32, false, phase);
        const v8i exp = x.exp + y.exp - (127 + DstKind::phase_shift(phase));
        const v8i zero = x.zero | y.zero | (exp <= splat(kind.floor_exp()));
        Terms t;
        t.neg = (x.neg ^ y.neg) & ~zero;
        t.exp = zero ? splat(kind.zero_product_exp(phase)) : exp;
        t.mag = ((x.piece * y.piece) << 13) & ~zero;
        const v8u out = accumulate(t, Terms{}, load(dst + h), kind, thresholds ? thresholds + h : nullptr);
        std::memcpy(dst + h, &out, sizeof out);
    }
}


__attribute__((target_clones("avx2", "default"))) void add_row(const uint32_t a[16], const uint32_t b[16], uint32_t dst[16],
                                                               const SrcRead& src, const DstKind& kind,
                                                               const uint32_t* thresholds) {
    for (int h = 0; h < 16; h += kLanes) {
        const v8u out = accumulate(sum(operands(load(a + h), src.fp16, src.a_tf32), operands(load(b + h), src.fp16, src.b_tf32), kind),
                                   Terms{}, load(dst + h), kind, thresholds ? thresholds + h : nullptr);
        std::memcpy(dst + h, &out, sizeof out);
    }
}

}  // namespace tc_tensix::fpu_lanes
