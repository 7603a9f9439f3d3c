// erf, erfc (0.81.1 api/compute/eltwise_unary/erf_erfc.h)
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

template <bool fast_and_approx = true>
ALWI void erf_tile_init(TC_LOC) {
    TC_SFPU_INIT(Erf);
}

template <bool fast_and_approx = true>
ALWI void erf_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Erf), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void erfc_tile_init(TC_LOC) {
    TC_SFPU_INIT(Erfc);
}

ALWI void erfc_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Erfc), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

}  // namespace ckernel
