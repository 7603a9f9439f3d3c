// The SFPU's multiply-add (sfpu_ops.h, mad_on) for all 32 lanes of an SFPI value at once,
// eight lanes per AVX2 register: the hot path of Tenstorrent's SFPU kernels through our SFPI.
//
// Lanes whose operands or product are infinite or NaN (any exponent field 255, or a product
// exponent overflowing) take the scalar function; every other lane runs the finite datapath
// below in 32-bit lanes. Its one wide step, the 24x24-bit significand product, is formed from
// 12-bit halves, so no lane needs 64 bits. The bits are mad_on's: test_arith_golden.py holds
// both to the same hashes over 1.2 million triples and an edge-case cross product, and the SFPU
// kernels' outputs to theirs. On Blackhole the lanes whose result is a zero of the product's and
// c's common negative sign, or falls below the normal range, also take the scalar function (its
// signed zeros and exponent-0 rounding are not in the datapath below).
#include "sfpi/sfpi_host.h"

// the always-inlined vector helpers pass vectors by value; their ABI never crosses a call
#pragma GCC diagnostic ignored "-Wpsabi"

#include <cstring>

namespace tc_tensix::sfpi_host {

namespace {

typedef uint32_t v8u __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));
typedef float v8f __attribute__((vector_size(32)));

#define TC_INLINE __attribute__((always_inline)) inline

// Right shift keeping a sticky bit for what is shifted out, if anything survives (v < 2^31, so a
// shift of 31 leaves nothing, as any longer one does).
TC_INLINE v8u shift_right_keep_sticky(v8u v, v8i by) {
    const v8u n = v8u(by < 0 ? v8i{} : (by > 31 ? v8i{} + 31 : by));
    const v8u kept = v >> n;
    return kept | (v8u((kept != 0) & ((kept << n) != v)) & 1u);
}

// Eight lanes of a * b + c; `slow` gets the lanes the scalar function must compute.
TC_INLINE v8u mad8(v8u a, v8u b, v8u c, v8i& slow) {
    const v8i ea = v8i((a >> 23) & 0xffu), eb = v8i((b >> 23) & 0xffu), ec = v8i((c >> 23) & 0xffu);
    const v8u sig_a = ((a & 0x7fffffu) | 0x800000u) & v8u(ea != 0);
    const v8u sig_b = ((b & 0x7fffffu) | 0x800000u) & v8u(eb != 0);
    const v8u sig_c = (((c & 0x7fffffu) | 0x800000u) << 3) & v8u(ec != 0);
    const v8u sign_p = (a ^ b) & 0x80000000u, sign_c = c & 0x80000000u;
    v8i exp_p = ea + eb - 127;
    slow = (ea == 255) | (eb == 255) | (ec == 255) | (exp_p >= 255);

    // The product cut to 26 fraction bits and a sticky bit: full = H * 2^24 + L, L < 2^24.
    const v8u ah = sig_a >> 12, al = sig_a & 0xfffu, bh = sig_b >> 12, bl = sig_b & 0xfffu;
    const v8u mid = ah * bl + al * bh;
    const v8u t = al * bl + ((mid & 0xfffu) << 12);
    const v8u low = t & 0xffffffu;
    const v8u high = ah * bh + (mid >> 12) + (t >> 24);
    const v8u sig_p = (high << 4) | (low >> 20) | (v8u((low & 0xfffffu) != 0) & 1u);

    // A zero or underflowing product leaves c (or +0 for a zero or denormal c).
    const v8i early = (sig_p == 0) | (exp_p < 0);
    const v8u early_value = c & v8u(sig_c != 0);

    // Align to the larger exponent and add magnitudes.
    v8i exp_r = exp_p > ec ? exp_p : ec;
    const v8u p = shift_right_keep_sticky(sig_p, exp_r - exp_p);
    const v8u q = shift_right_keep_sticky(sig_c, exp_r - ec);
    const v8i p_big = p >= q;
    const v8u sign_r = p_big ? sign_p : sign_c;
    v8u sig_r = sign_p == sign_c ? p + q : (p_big ? p - q : q - p);

    // Normalise to the leading one at bit 26: its position from the float conversion of sig_r
    // (below 2^30), one less where the conversion rounded up to the next power of two.
    v8i lead;
    {
        const v8f f = __builtin_convertvector(v8i(sig_r), v8f);
        v8i fb;
        std::memcpy(&fb, &f, sizeof fb);
        lead = ((fb >> 23) & 0xff) - 127;
        lead = lead < 0 ? v8i{} : lead;
        lead += v8i((sig_r >> v8u(lead)) == 0);  // a true comparison is -1
    }
    const v8i norm = lead - 26;
    exp_r += norm;
    const v8u left = v8u(norm < 0 ? -norm : v8i{}), right = v8u(norm > 0 ? norm : v8i{});
    sig_r = ((sig_r << left) >> right) | (sig_r & v8u(norm > 0) & 1u);  // the sticky bit survives a right shift
    v8u r = (v8u(exp_r) << 23) + ((sig_r >> 3) & 0x7fffffu);
    const v8u guard = sig_r & 7u;
    r += v8u((guard > 4) | ((guard == 4) & v8i((r & 1u) != 0))) & 1u;  // nearest, ties to even

    v8u out = sign_r | r;
    out = ((exp_r < 0) | ((r >> 23) == 0)) ? v8u{} : out;  // below the normal range: +0
    out = exp_r >= 255 ? sign_r | 0x7f800000u : out;
    out = sig_r == 0 ? v8u{} : out;  // exact cancellation: +0
    if constexpr (kArch == Arch::Blackhole)
        slow |= early ? ((sig_c == 0) & v8i((sign_c & sign_p) != 0)) : (exp_r <= 0);
    return early ? early_value : out;
}

}  // namespace

__attribute__((target_clones("avx2", "default"))) Vec mad(const Vec& a, const Vec& b, const Vec& c) {
    Vec out;
    for (int g = 0; g < sfpu::kLanes; g += 8) {
        v8u x, y, z;
        std::memcpy(&x, &a[g], sizeof x);
        std::memcpy(&y, &b[g], sizeof y);
        std::memcpy(&z, &c[g], sizeof z);
        v8i slow;
        const v8u d = mad8(x, y, z, slow);
        std::memcpy(&out[g], &d, sizeof d);
        for (int i = 0; i < 8; ++i)
            if (slow[i]) out[g + i] = sfpu::mad(a[g + i], b[g + i], c[g + i]);
    }
    return out;
}

}  // namespace tc_tensix::sfpi_host
