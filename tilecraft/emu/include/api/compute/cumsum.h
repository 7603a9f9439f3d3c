// cumsum_tile, a running sum down a tile's columns (0.81.1 api/compute/cumsum.h): declared, not
// modelled. ttnn's kernel_lib names it in a chain element every kernel including the chain compiles,
// so it is declared; a call stops the run at its line (E5009) naming the function.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

ALWI void cumsum_tile(uint32_t idst, bool first = true, TC_LOC) { ::tc::not_modelled("cumsum_tile", tc_loc); }

ALWI void cumsum_tile_init(TC_LOC) { ::tc::not_modelled("cumsum_tile_init", tc_loc); }

}  // namespace ckernel
