// softplus (0.81.1 api/compute/eltwise_unary/softplus.h): beta_reciprocal * log(1 + e^(beta x)), x past the threshold
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void softplus_tile(uint32_t idst, uint32_t beta, uint32_t beta_reciprocal, uint32_t threshold, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Softplus), idst, beta, beta_reciprocal, threshold, ::tc::kNoFormat, tc_loc);
}

ALWI void softplus_tile_init(TC_LOC) {
    TC_SFPU_INIT(Softplus);
}

}  // namespace ckernel
