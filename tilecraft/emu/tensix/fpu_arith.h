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
// implementation of it that the unit tests hold the machine to. The floating-point arithmetic
// itself is fpu_lanes.h's, one Dst column per vector lane; this header keeps what the model is
// parameterised by (DstKind) and the integer ("INT8 math") arithmetic.
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

// --- integer "8" arithmetic (INT8 math: Dst is sign-magnitude int32) ---

inline int32_t saturating_add(int32_t x, int32_t y) {
    const int64_t r = int64_t(x) + int64_t(y);
    return int32_t(std::clamp<int64_t>(r, -0x7fffffffLL, 0x7fffffffLL));
}
inline int32_t int32_of_sign_magnitude(uint32_t v) { return (v >> 31) ? -int32_t(v & 0x7fffffffu) : int32_t(v & 0x7fffffffu); }
inline uint32_t sign_magnitude_of(int32_t v) { return v < 0 ? 0x80000000u | uint32_t(-int64_t(v)) : uint32_t(v); }

}  // namespace tc_tensix::fpu_arith
