// The LLK's two-operand unpacker init (0.81.1 hw/ckernels llk_api/llk_unpack_AB_api.h), which
// kernel_lib's eltwise chain calls directly after llk_math_eltwise_binary_init. The emulator keeps
// one configuration for a binary's unpackers and math, which the math init sets (srcB's broadcast
// included); this call checks that it configures the unpackers for that same binary. The
// transposing overload is not provided: a kernel that calls it stops at compile time naming it.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

template <ckernel::BroadcastType BType = ckernel::BroadcastType::NONE>
inline void llk_unpack_AB_init(const std::uint32_t operandA, const std::uint32_t operandB, TC_LOC) {
    ::tc::unpack_ab_init(::tc::tc_bcast_of(BType), operandA, operandB, tc_loc);
}
