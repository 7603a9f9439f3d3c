// The lgamma pieces (0.81.1 api/compute/eltwise_unary/lgamma.h: Stirling series, its float form,
// the reflection adjustment): declared with the real signatures, not modelled; kernel_lib's unary
// chain names them (tc_emu/unmodelled_sfpu.h says why), and a call stops the run at its line (E5009).
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void lgamma_stirling_tile(uint32_t idst, TC_LOC) {
    ::tc::not_modelled("lgamma_stirling_tile", tc_loc);
}

ALWI void lgamma_stirling_tile_init(TC_LOC) {
    ::tc::not_modelled("lgamma_stirling_tile_init", tc_loc);
}

ALWI void lgamma_stirling_float_tile(uint32_t idst0, uint32_t idst1, uint32_t idst2, TC_LOC) {
    ::tc::not_modelled("lgamma_stirling_float_tile", tc_loc);
}

ALWI void lgamma_stirling_float_tile_init(TC_LOC) {
    ::tc::not_modelled("lgamma_stirling_float_tile_init", tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void lgamma_adjusted_tile(uint32_t idst0, uint32_t idst1, uint32_t idst2, uint32_t idst3, TC_LOC) {
    ::tc::not_modelled("lgamma_adjusted_tile", tc_loc);
}

ALWI void lgamma_adjusted_tile_init(TC_LOC) {
    ::tc::not_modelled("lgamma_adjusted_tile_init", tc_loc);
}

}  // namespace ckernel
