// SELU (0.81.1 api/compute/eltwise_unary/selu.h): scale * (x > 0 ? x : alpha * (e^x - 1))
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void selu_tile(uint32_t idst, uint32_t scale, uint32_t alpha, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Selu), idst, scale, alpha, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void selu_tile_init(TC_LOC) {
    TC_SFPU_INIT(Selu);
}

}  // namespace ckernel
