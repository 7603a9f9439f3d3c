// recip (0.81.1 api/compute/eltwise_unary/recip.h): 1 / x
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

enum class ReciprocalDestAcc { BF16, FP32 };
enum class ReciprocalApproxMode { Default, Precise, Approximate };

template <ReciprocalDestAcc dest_acc = DST_ACCUM_MODE ? ReciprocalDestAcc::FP32 : ReciprocalDestAcc::BF16, ReciprocalApproxMode approximation = ReciprocalApproxMode::Default>
ALWI void recip_tile_init(TC_LOC) {
    TC_SFPU_INIT(Recip);
}

template <ReciprocalDestAcc dest_acc = DST_ACCUM_MODE ? ReciprocalDestAcc::FP32 : ReciprocalDestAcc::BF16, ReciprocalApproxMode approximation = ReciprocalApproxMode::Default>
ALWI void recip_tile(uint32_t idst, VectorMode vector_mode = VectorMode::RC, TC_LOC) {
    TC_NOT_MODELLED_IF(vector_mode != VectorMode::RC, "recip_tile with a VectorMode other than VectorMode::RC");
    TC_SFPU(Recip, idst, 0, 0, 0);
}

}  // namespace ckernel
