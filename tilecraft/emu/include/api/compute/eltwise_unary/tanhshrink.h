// tanhshrink (0.81.1 api/compute/eltwise_unary/tanhshrink.h): x - tanh(x)
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void tanhshrink_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Tanhshrink), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void tanhshrink_tile_init(TC_LOC) {
    TC_SFPU_INIT(Tanhshrink);
}

}  // namespace ckernel
