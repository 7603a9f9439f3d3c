// reverse power (0.81.1 api/compute/eltwise_unary/rpow.h): base^x
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

ALWI void rpow_tile_init(TC_LOC) {
    TC_SFPU_INIT(Rpow);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void rpow_tile(uint32_t idst, uint32_t base_val, VectorMode vector_mode = VectorMode::RC, TC_LOC) {
    TC_NOT_MODELLED_IF(vector_mode != VectorMode::RC, "rpow_tile with a VectorMode other than VectorMode::RC");
    TC_SFPU(Rpow, idst, base_val, 0, 0);
}

}  // namespace ckernel
