// i0_tile (modified Bessel function I0) (0.81.1 api/compute/eltwise_unary/i0.h): declared with the real
// signatures, not modelled: kernel_lib's unary chain elements name these, so kernels that include the chain
// compile; a call stops the run at its line (E5009).
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

ALWI void i0_tile(uint32_t idst, TC_LOC) {
    ::tc::not_modelled("i0_tile", tc_loc);
}

ALWI void i0_tile_init(TC_LOC) {
    ::tc::not_modelled("i0_tile_init", tc_loc);
}

}  // namespace ckernel
