// digamma_tile (0.81.1 api/compute/eltwise_unary/digamma.h): declared with the real signatures, not modelled:
// kernel_lib's unary chain elements name these, so kernels that include the chain compile; a call stops the run
// at its line (E5009).
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

ALWI void digamma_tile(uint32_t idst, TC_LOC) {
    ::tc::not_modelled("digamma_tile", tc_loc);
}

ALWI void digamma_tile_init(TC_LOC) {
    ::tc::not_modelled("digamma_tile_init", tc_loc);
}

}  // namespace ckernel
