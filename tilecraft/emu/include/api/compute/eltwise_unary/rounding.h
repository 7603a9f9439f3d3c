// rounding (0.81.1 api/compute/eltwise_unary/rounding.h)
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

ALWI void rounding_op_tile_init(TC_LOC) {
    TC_SFPU_INIT(Floor);
}

ALWI void ceil_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Ceil), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void floor_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Floor), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void trunc_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Trunc), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void round_tile(uint32_t idst, int32_t decimals, TC_LOC) {
    TC_SFPU(Round, idst, std::uint32_t(decimals), 0, 0);
}

ALWI void frac_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Frac), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

}  // namespace ckernel
