// logical not (0.81.1 api/compute/eltwise_unary/logical_not.h): 1 where x == 0
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

template <DataFormat DATA_FORMAT>
ALWI void logical_not_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(LogicalNot), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void logical_not_tile_init(TC_LOC) {
    TC_SFPU_INIT(LogicalNot);
}

}  // namespace ckernel
