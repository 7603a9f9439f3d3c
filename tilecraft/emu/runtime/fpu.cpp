// The matrix unit's arithmetic and the packer's roundings: see fpu.h and docs/numerics.md section 8.
#include "fpu.h"

// the always-inlined vector helpers pass AVX vectors by value; their ABI never crosses a call
#pragma GCC diagnostic ignored "-Wpsabi"

#include <algorithm>
#include <cstring>

namespace tc::fpu {

namespace {

// A partial result in sign-magnitude: `mag` counts units of 2^(exp - 150), so a normal fp32 value
// with biased exponent `exp` has its implicit one at bit 23 of `mag`.
struct Term {
    std::uint32_t neg = 0;
    std::int32_t exp = 0;
    std::uint64_t mag = 0;
};

Term dst_term(std::uint32_t bits) {
    Term t;
    t.neg = bits >> 31;
    t.exp = std::int32_t((bits >> 23) & 0xFFu);
    t.mag = t.exp ? ((bits & 0x7FFFFFu) | 0x800000u) : 0;  // a denormal DST value reads as zero
    return t;
}

// mag / 2^d to the nearest integer. Product sums round their ties toward +inf (a tie of a negative
// value loses magnitude: `tie_down`), DST values round ties away from zero.
std::uint64_t shift_round(std::uint64_t mag, std::int32_t d, std::uint32_t tie_down) {
    if (d <= 0) return mag;
    if (d > 40) return 0;
    return (mag + (std::uint64_t(1) << (d - 1)) - tie_down) >> d;
}

// DST + up to two product sums: aligned to the largest exponent (the low 13 bits of each rounded
// away when DST is 16-bit), added, normalised and rounded once, ties away from zero, to DST's
// precision (24 significant bits, or bfloat16's 8). Underflow gives +0, overflow inf.
std::uint32_t accumulate(Term s0, Term s1, Term d, bool fp32_dst) {
    const std::int32_t top = std::max({s0.exp, s1.exp, d.exp});
    if (top <= 0) return 0;
    s0.mag = shift_round(s0.mag, top - s0.exp, s0.neg);
    s1.mag = shift_round(s1.mag, top - s1.exp, s1.neg);
    d.mag = shift_round(d.mag, top - d.exp, 0);
    if (!fp32_dst) {
        const std::uint64_t grid = ~std::uint64_t(0x1FFF);
        s0.mag = (s0.mag + 0x1000 - s0.neg) & grid;
        s1.mag = (s1.mag + 0x1000 - s1.neg) & grid;
        d.mag = (d.mag + 0x1000) & grid;
    }
    auto signed_of = [](const Term& t) { return t.neg ? -std::int64_t(t.mag) : std::int64_t(t.mag); };
    const std::int64_t total = signed_of(d) + signed_of(s0) + signed_of(s1);
    if (total == 0) return 0;
    const std::uint32_t neg = total < 0;
    std::uint64_t mag = std::uint64_t(total < 0 ? -total : total);
    const int lead = 63 - __builtin_clzll(mag);
    std::int32_t exp = top + (lead - 23);
    const int keep = fp32_dst ? 24 : 8;  // significant bits DST holds
    const int drop = lead + 1 - keep;
    if (drop > 0) {
        mag = (mag + (std::uint64_t(1) << (drop - 1))) >> drop;  // ties away from zero
        if (mag >> keep) {                                       // rounded up to the next power of two
            mag >>= 1;
            exp += 1;
        }
        mag <<= 24 - keep;
    } else {
        mag <<= -drop + (24 - keep);
    }
    if (exp <= 0) return 0;
    if (exp >= 255) return (neg << 31) | 0x7F800000u;
    return (neg << 31) | (std::uint32_t(exp) << 23) | std::uint32_t(mag & 0x7FFFFFu);
}

std::uint32_t mantissa11(std::uint32_t bits) { return ((bits >> 13) & 0x3FFu) | 0x400u; }

// One operand's piece for one fidelity phase (see Split).
struct Piece {
    std::int32_t exp;
    std::uint32_t man;
    std::uint32_t neg;
    bool zero;
};

Piece src_a_piece(std::uint32_t bits, int phase) {
    const std::int32_t e = std::int32_t((bits >> 23) & 0xFFu);
    const std::uint32_t m = mantissa11(bits);
    const bool low = phase & 1;
    return {low ? e - 5 : e, low ? (m >> 1) & 31u : m >> 6, bits >> 31, e == 0};
}

Piece src_b_piece(std::uint32_t bits, int phase) {
    const std::int32_t e = std::int32_t((bits >> 23) & 0xFFu);
    const std::uint32_t m = mantissa11(bits);
    const bool low = phase & 2;
    return {low ? e - 7 : e, low ? (m & 15u) << 3 : m >> 4, bits >> 31, e == 0};
}

// a zero operand's piece: its products vanish and never set a group's exponent above zero
constexpr std::int32_t kZeroExp = -(1 << 20);

typedef std::int32_t v8i __attribute__((vector_size(32)));

// One MVMUL's sum for one group of eight products: aligned to the group's largest exponent
// (rounded to the nearest unit, ties away from zero) and added as integers: about 12 significant
// bits. Zero when that exponent is not positive. One product per 32-bit lane.
__attribute__((always_inline)) inline Term group_sum(const Split& a, int ia, const Split& b, int ib) {
    v8i ea, eb, ma, mb, na, nb;
    std::memcpy(&ea, a.exp + ia, sizeof ea);
    std::memcpy(&eb, b.exp + ib, sizeof eb);
    std::memcpy(&ma, a.man + ia, sizeof ma);
    std::memcpy(&mb, b.man + ib, sizeof mb);
    std::memcpy(&na, a.neg + ia, sizeof na);
    std::memcpy(&nb, b.neg + ib, sizeof nb);
    const v8i e = ea + eb - 127, m = ma * mb, neg = na ^ nb;
    std::int32_t top = e[0];
    for (int k = 1; k < 8; ++k) top = std::max(top, e[k]);
    Term t;
    if (top <= 0) return t;
    v8i d = top - e;
    d = d > 30 ? v8i{} + 30 : d;
    const v8i one = v8i{} + 1;
    v8i v = ((m << 1) + (one << d)) >> (d + 1);
    v = (v ^ -neg) + neg;
    std::int32_t sum = 0;
    for (int k = 0; k < 8; ++k) sum += v[k];
    t.neg = sum < 0;
    t.exp = top;
    t.mag = std::uint64_t(sum < 0 ? -sum : sum) << 13;
    return t;
}

typedef std::uint32_t v8u __attribute__((vector_size(32)));

// Eight DST elements' partial results in sign-magnitude, one per 32-bit lane (see Term): every
// magnitude here stays below 2^30 (a group sum below 2^28, DST's significand 2^24), so the
// arithmetic of accumulate() fits in 32 bits lane by lane.
struct Terms {
    v8i neg{}, exp{}, mag{};
};

// group_sum() for eight outputs at once, in two steps. Lane j multiplies column j0 + j of the
// transposed SrcA split (element (k, j) at k * stride + j) with the one SrcB vector; the eight
// products of a lane are visited one after another, so nothing crosses lanes. A fidelity phase
// moves every nonzero piece's exponent by the same amount (SrcA's second piece 5 below the first,
// SrcB's 7), so the alignment of a group's products is the same in every phase: Align holds it,
// computed once from the first pieces, and only the group's exponent moves with the phase.
struct Align {
    v8i top;       // the group's exponent in phase 0
    v8i half[8];   // per product: 2^d for d the shift to the group's exponent (at most 30)
    v8i shift[8];  // d + 1
};

__attribute__((always_inline)) inline void align8(const Split& at, int ia, int stride, const Split& b, int ib,
                                                  Align& out) {
    v8i e[8];
    for (int k = 0; k < 8; ++k) {
        std::memcpy(&e[k], at.exp + ia + k * stride, sizeof e[k]);
        e[k] += b.exp[ib + k] - 127;
    }
    v8i top = e[0];
    for (int k = 1; k < 8; ++k) top = top > e[k] ? top : e[k];
    const v8i one = v8i{} + 1;
    for (int k = 0; k < 8; ++k) {
        v8i d = top - e[k];
        d = d > 30 ? v8i{} + 30 : d;  // a zero operand's piece: shifted out, its product is 0 anyway
        out.half[k] = one << d;
        out.shift[k] = d + 1;
    }
    out.top = top;
}

// The group's sum in phase `phase` (its pieces in `at` and b): each product rounded to the
// group's exponent (ties away from zero), added as integers.
__attribute__((always_inline)) inline Terms group_sum8(const Split& at, int ia, int stride, const Split& b, int ib,
                                                       const Align& g, int phase) {
    v8i sum{};
    for (int k = 0; k < 8; ++k) {
        v8i ma, na;
        std::memcpy(&ma, at.man + ia + k * stride, sizeof ma);
        std::memcpy(&na, at.neg + ia + k * stride, sizeof na);
        const v8i neg = na ^ b.neg[ib + k];
        const v8i v = (ma * (2 * b.man[ib + k]) + g.half[k]) >> g.shift[k];
        sum += (v ^ -neg) + neg;
    }
    const v8i top = g.top - ((phase & 1) ? 5 : 0) - ((phase & 2) ? 7 : 0);
    const v8i one = v8i{} + 1, live = top > 0;  // all ones where the group's exponent is positive
    Terms t;
    t.neg = (sum < 0) & live & one;
    t.exp = top & live;
    t.mag = ((sum < 0 ? -sum : sum) << 13) & live;
    return t;
}

// shift_round() lane by lane; a shift of 31 or more leaves 0 as it does in 64 bits (mag < 2^30)
__attribute__((always_inline)) inline v8u shift_round8(const v8u& mag, const v8i& d, const v8u& tie_down) {
    const v8i zero{};
    const v8u dc = v8u(d > 31 ? v8i{} + 31 : d < 0 ? zero : d);
    const v8u half = (v8u{} + 1u) << dc >> 1;
    return (mag + half - (tie_down & v8u(d > 0))) >> dc;
}

// accumulate() for eight lanes, bit for bit.
__attribute__((always_inline)) inline v8u accumulate8(const Terms& s0, const Terms& s1, const v8u& dst, bool fp32_dst) {
    const v8i dexp = v8i((dst >> 23) & 0xFFu);
    v8u dmag = ((dst & 0x7FFFFFu) | 0x800000u) & v8u(dexp != 0);
    v8i top = s0.exp > s1.exp ? s0.exp : s1.exp;
    top = top > dexp ? top : dexp;
    v8u m0 = shift_round8(v8u(s0.mag), top - s0.exp, v8u(s0.neg));
    v8u m1 = shift_round8(v8u(s1.mag), top - s1.exp, v8u(s1.neg));
    dmag = shift_round8(dmag, top - dexp, v8u{});
    if (!fp32_dst) {
        const v8u grid = v8u{} + ~0x1FFFu;
        m0 = (m0 + 0x1000u - v8u(s0.neg)) & grid;
        m1 = (m1 + 0x1000u - v8u(s1.neg)) & grid;
        dmag = (dmag + 0x1000u) & grid;
    }
    const v8i dneg = v8i(dst >> 31);
    const v8i total = (v8i(dmag) ^ -dneg) + dneg + (v8i(m0) ^ -s0.neg) + s0.neg + (v8i(m1) ^ -s1.neg) + s1.neg;
    const v8i neg = total < 0;  // all ones where negative
    const v8i mag = total < 0 ? -total : total;
    // the leading bit: the exponent of mag as a float, one less where rounding carried it up
    v8i lead;
    {
        typedef float v8f __attribute__((vector_size(32)));
        const v8f f = __builtin_convertvector(mag, v8f);
        v8i fb;
        std::memcpy(&fb, &f, sizeof fb);
        lead = ((fb >> 23) & 0xFF) - 127;
        lead = lead < 0 ? v8i{} : lead;
        lead += (v8i(v8u(mag) >> v8u(lead)) == 0);  // a true comparison is -1
    }
    v8i exp = top + (lead - 23);
    const int keep = fp32_dst ? 24 : 8;
    const v8i drop = lead + (1 - keep);
    const v8u dropc = v8u(drop > 0 ? drop : v8i{}), up = v8u(drop > 0 ? v8i{} : -drop);
    v8u r = (v8u(mag) + ((v8u{} + 1u) << dropc >> 1)) >> dropc;
    const v8i carry = v8i(r >> keep) != 0;  // rounded up to the next power of two
    r = r >> v8u(-carry);
    exp -= carry;
    r = (r << up) << (24 - keep);
    v8u out = (v8u(neg) & 0x80000000u) | (v8u(exp) << 23) | (r & 0x7FFFFFu);
    out = exp >= 255 ? (v8u(neg) & 0x80000000u) | 0x7F800000u : out;
    const v8i zero = (top <= 0) | (total == 0) | (exp <= 0);
    return out & ~v8u(zero);
}

}  // namespace

__attribute__((target_clones("avx2", "default"))) void dot8(const Split* const a_t[2], int a_offset, int stride,
                                                            const Split* const b[2], int b_offset, int n,
                                                            std::uint32_t dst[8], int phases, bool fp32_dst) {
    static thread_local Align groups[Split::kMax / 8];
    for (int g = 0; g < n / 8; ++g) align8(*a_t[0], a_offset + g * 8 * stride, stride, *b[0], b_offset + g * 8, groups[g]);
    v8u d;
    std::memcpy(&d, dst, sizeof d);
    for (int phase = 0; phase < phases; ++phase) {
        const Split& x = *a_t[phase & 1];
        const Split& y = *b[(phase >> 1) & 1];
        for (int k = 0; k < n; k += 16)
            d = accumulate8(group_sum8(x, a_offset + k * stride, stride, y, b_offset + k, groups[k / 8], phase),
                            group_sum8(x, a_offset + (k + 8) * stride, stride, y, b_offset + k + 8, groups[k / 8 + 1],
                                       phase),
                            d, fp32_dst);
    }
    std::memcpy(dst, &d, sizeof d);
}

void transpose(const Split& in, int rows, int cols, Split& out) {
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            out.exp[c * rows + r] = in.exp[r * cols + c];
            out.man[c * rows + r] = in.man[r * cols + c];
            out.neg[c * rows + r] = in.neg[r * cols + c];
        }
}

void split(const std::uint32_t* bits, int n, bool src_a, bool low, Split& out) {
    const int phase = low ? (src_a ? 1 : 2) : 0;
    for (int k = 0; k < n; ++k) {
        const Piece p = src_a ? src_a_piece(bits[k], phase) : src_b_piece(bits[k], phase);
        out.exp[k] = p.zero ? kZeroExp : p.exp;
        out.man[k] = p.zero ? 0 : std::int32_t(p.man);
        out.neg[k] = std::int32_t(p.neg);
    }
}

// AVX2 where the CPU has it: a group of eight products fills one vector of 32-bit lanes
__attribute__((target_clones("avx2", "default"))) std::uint32_t dot(const Split* const a[2], int a_offset,
                                                                    const Split* const b[2], int b_offset, int n,
                                                                    std::uint32_t dst, int phases, bool fp32_dst) {
    for (int phase = 0; phase < phases; ++phase) {
        const Split& x = *a[phase & 1];
        const Split& y = *b[(phase >> 1) & 1];
        for (int k = 0; k < n; k += 16)
            dst = accumulate(group_sum(x, a_offset + k, y, b_offset + k),
                             group_sum(x, a_offset + k + 8, y, b_offset + k + 8), dst_term(dst), fp32_dst);
    }
    return dst;
}

std::uint32_t dot(const std::uint32_t* a, const std::uint32_t* b, int n, std::uint32_t dst, int phases,
                  bool fp32_dst) {
    static Split sa[2], sb[2];
    for (int low = 0; low < 2; ++low) {
        split(a, n, true, low, sa[low]);
        split(b, n, false, low, sb[low]);
    }
    const Split* const x[2] = {&sa[0], &sa[1]};
    const Split* const y[2] = {&sb[0], &sb[1]};
    return dot(x, 0, y, 0, n, dst, phases, fp32_dst);
}

std::uint32_t mul(std::uint32_t a, std::uint32_t b, std::uint32_t dst, int phase, bool fp32_dst) {
    const Piece x = src_a_piece(a, phase), y = src_b_piece(b, phase);
    Term p;
    const std::int32_t exp = x.exp + y.exp - 127;
    if (!(x.zero || y.zero || exp <= 0)) {
        p.neg = x.neg ^ y.neg;
        p.exp = exp;
        p.mag = std::uint64_t(x.man * y.man) << 13;
    }
    return accumulate(p, Term{}, dst_term(dst), fp32_dst);
}

std::uint32_t add(std::uint32_t a, std::uint32_t b, std::uint32_t dst, bool accumulate_dst, bool fp32_dst) {
    // 19-bit register values; a zero or denormal operand is zero
    auto reg = [](std::uint32_t bits) { return ((bits >> 23) & 0xFFu) ? (bits >> 13) & 0x7FFFFu : 0u; };
    std::uint32_t x = reg(a), y = reg(b);
    if ((x & 0x3FFFFu) < (y & 0x3FFFFu)) std::swap(x, y);  // |x| >= |y|
    const std::int32_t ex = std::int32_t((x >> 10) & 0xFFu), ey = std::int32_t((y >> 10) & 0xFFu);
    const std::uint32_t mx = x ? (x & 0x3FFu) | 0x400u : 0, my0 = y ? (y & 0x3FFu) | 0x400u : 0;
    // the smaller operand is aligned within an 11-bit window, rounded to nearest (ties away)
    const std::int32_t d = ex - ey;
    const std::uint32_t my = d <= 0 ? my0 : d < 12 ? (my0 + (1u << (d - 1))) >> d : 0;
    Term s;
    s.neg = x >> 18;
    s.exp = ex;
    s.mag = std::uint64_t(((x >> 18) == (y >> 18)) ? mx + my : mx - my) << 13;
    return accumulate(s, Term{}, accumulate_dst ? dst_term(dst) : Term{}, fp32_dst);
}

std::uint32_t pack_bf16(std::uint32_t word) {
    if ((word & 0x7FFFFFFFu) > 0x7F800000u) word = (word & 0x80000000u) | 0x7F800000u;  // NaN -> inf
    std::uint32_t h = (word + 0x8000u) >> 16;  // nearest, ties away from zero
    if ((h & 0x7FFFu) < 0x80u) h = 0;           // denormal (or zero) -> +0
    return h << 16;
}

std::uint32_t pack_fp32(std::uint32_t word, bool fp32_dst) { return fp32_dst ? word : pack_bf16(word); }

std::uint8_t pack_block(const std::uint32_t* words, int mantissa_bits, bool fp32_dst, bool precise,
                        std::uint8_t* codes) {
    // first the packer's intermediate bfloat16 value: truncated from fp32 DST, and unless
    // bfp8_pack_precise rounded once more to 6 mantissa bits (ties away): the first rounding of two
    std::uint32_t h[16];
    for (int i = 0; i < 16; ++i) {
        std::uint32_t w = words[i];
        if (fp32_dst && precise) {
            h[i] = w >> 16;
        } else {
            if ((w & 0x7FFFFFFFu) > 0x7F800000u) w = (w & 0x80000000u) | 0x7F800000u;  // NaN -> inf
            h[i] = w >> 16;
            if (!fp32_dst && (h[i] & 0x7FFFu) < 0x80u) h[i] = 0;
            if (!precise) h[i] = (h[i] + 1u) & ~1u;
        }
        if ((h[i] & 0x7FFFu) < 0x80u) h[i] = 0;  // denormals -> +0
    }
    std::uint32_t shared = 0;
    for (int i = 0; i < 16; ++i) shared = std::max(shared, (h[i] >> 7) & 0xFFu);
    for (int i = 0; i < 16; ++i) {
        const std::uint32_t e = (h[i] >> 7) & 0xFFu, shift = shared - e;
        std::uint32_t m = (h[i] & 0x7Fu) | (e ? 0x80u : 0u);
        // the second rounding: to 7 bits below the shared exponent, ties away, saturating
        m = shift >= 8 ? 0 : std::min((m + (1u << shift)) >> (shift + 1), 127u);
        if (mantissa_bits == 3) m >>= 4;  // Bfp4_b keeps the top three of those bits: truncation
        codes[i] = m ? std::uint8_t(((h[i] >> 15) << mantissa_bits) | m) : 0;  // no -0: it would read as -inf
    }
    return std::uint8_t(shared);
}

}  // namespace tc::fpu
