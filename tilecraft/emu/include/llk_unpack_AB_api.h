// The unpack half of an FPU binary init (0.81.1 hw/ckernels/<arch>/metal/llk_api/llk_unpack_AB_api.h),
// which ttnn's kernel_lib calls below the compute API for its broadcast inits. The emulator's
// unpackers take the broadcast from the binary mode the math half sets (llk_math_binary_api.h),
// so there is nothing to set here.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

template <ckernel::BroadcastType BType = ckernel::BroadcastType::NONE>
inline void llk_unpack_AB_init(const std::uint32_t operandA, const std::uint32_t operandB, TC_LOC) {
    (void)operandA;
    (void)operandB;
    (void)tc_loc;
}
