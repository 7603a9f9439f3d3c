// rsqrt (0.81.1 api/compute/eltwise_unary/rsqrt.h): 1 / sqrt(x)
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

enum class RsqrtMode { Default, Fast };

ALWI void rsqrt_tile_init(TC_LOC) {
    TC_SFPU_INIT(Rsqrt);
}

template <RsqrtMode mode = RsqrtMode::Default, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void rsqrt_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Rsqrt), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

}  // namespace ckernel
