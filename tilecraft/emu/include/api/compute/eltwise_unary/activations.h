// activations (0.81.1 api/compute/eltwise_unary/activations.h)
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

ALWI void hardsigmoid_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Hardsigmoid), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void hardsigmoid_tile_init(TC_LOC) {
    TC_SFPU_INIT(Hardsigmoid);
}

ALWI void softsign_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Softsign), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void softsign_tile_init(TC_LOC) {
    TC_SFPU_INIT(Softsign);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void celu_tile(uint32_t idst, uint32_t alpha, uint32_t alpha_recip, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Celu), idst, alpha, alpha_recip, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void celu_tile_init(TC_LOC) {
    TC_SFPU_INIT(Celu);
}

ALWI void softshrink_tile(uint32_t idst, uint32_t param0, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Softshrink), idst, param0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void softshrink_tile_init(TC_LOC) {
    TC_SFPU_INIT(Softshrink);
}

ALWI void hardshrink_tile(uint32_t idst, uint32_t param0, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Hardshrink), idst, param0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void hardshrink_tile_init(TC_LOC) {
    TC_SFPU_INIT(Hardshrink);
}

}  // namespace ckernel
