// element-wise max/min of two DST tiles (0.81.1 api/compute/binary_max_min.h); NaN propagates
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

ALWI void binary_max_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, VectorMode vector_mode = VectorMode::RC, TC_LOC) {
    TC_NOT_MODELLED_IF(vector_mode != VectorMode::RC, "binary_max_tile with a VectorMode other than VectorMode::RC");
    ::tc::sfpu_binary(TC_B(Max), idst0, idst1, odst, ::tc::kNoFormat, tc_loc);
}

ALWI void binary_max_tile_init(TC_LOC) {
    ::tc::sfpu_init(0, tc_loc);
}

ALWI void binary_min_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, VectorMode vector_mode = VectorMode::RC, TC_LOC) {
    TC_NOT_MODELLED_IF(vector_mode != VectorMode::RC, "binary_min_tile with a VectorMode other than VectorMode::RC");
    ::tc::sfpu_binary(TC_B(Min), idst0, idst1, odst, ::tc::kNoFormat, tc_loc);
}

ALWI void binary_min_tile_init(TC_LOC) {
    ::tc::sfpu_init(0, tc_loc);
}

// Int32 max/min (kernel_lib's Int32 SFPU reduce names them): not modelled; a call stops the run at
// its line (E5009) instead of computing something else.
ALWI void binary_max_int32_tile(uint32_t, uint32_t, uint32_t, TC_LOC) {
    ::tc::not_modelled("binary_max_int32_tile", tc_loc);
}
ALWI void binary_max_int32_tile_init(TC_LOC) {
    ::tc::not_modelled("binary_max_int32_tile_init", tc_loc);
}
ALWI void binary_min_int32_tile(uint32_t, uint32_t, uint32_t, TC_LOC) {
    ::tc::not_modelled("binary_min_int32_tile", tc_loc);
}
ALWI void binary_min_int32_tile_init(TC_LOC) {
    ::tc::not_modelled("binary_min_int32_tile_init", tc_loc);
}

}  // namespace ckernel
