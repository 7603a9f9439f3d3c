// negation (0.81.1 api/compute/eltwise_unary/negative.h)
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

ALWI void negative_tile_init(TC_LOC) {
    TC_SFPU_INIT(Neg);
}

ALWI void negative_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Neg), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

}  // namespace ckernel
