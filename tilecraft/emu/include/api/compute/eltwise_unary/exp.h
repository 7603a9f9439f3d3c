// exp (0.81.1 api/compute/eltwise_unary/exp.h): e^x; scale_en multiplies x by the bfloat16 `scale` first.
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

enum class InputClamping : uint8_t {
    ClampToNegative = 1,
    None = 0,
};

template <bool approx = false, uint32_t scale = 0x3F800000, InputClamping input_clamping = InputClamping::ClampToNegative, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void exp_tile_init(TC_LOC) {
    TC_SFPU_INIT(Exp);
}

template <bool approx = false, bool scale_en = false, InputClamping input_clamping = InputClamping::ClampToNegative, int iterations = 8, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void exp_tile(uint32_t idst, VectorMode vector_mode = VectorMode::RC, uint16_t scale = p_sfpu::kCONST_1_FP16B, TC_LOC) {
    TC_NOT_MODELLED_IF(vector_mode != VectorMode::RC, "exp_tile with a VectorMode other than VectorMode::RC");
    if constexpr (scale_en) {
        ::tc::sfpu_unary(TC_U(MulScalar), idst, std::uint32_t(scale) << 16, 0, 0, ::tc::kNoFormat, tc_loc);
    }
    TC_SFPU(Exp, idst, 0, 0, 0);
}

}  // namespace ckernel
