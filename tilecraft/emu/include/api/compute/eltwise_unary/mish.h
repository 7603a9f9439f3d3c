// mish (0.81.1 api/compute/eltwise_unary/mish.h): x * tanh(softplus(x))
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

template <bool APPROXIMATION_MODE, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void mish_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Mish), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

template <bool APPROXIMATION_MODE>
ALWI void mish_tile_init(TC_LOC) {
    TC_SFPU_INIT(Mish);
}

}  // namespace ckernel
