// hardtanh (0.81.1 api/compute/eltwise_unary/hardtanh.h): min(max(x, param0), param1)
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

ALWI void hardtanh_tile(uint32_t idst, uint32_t param0, uint32_t param1, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Hardtanh), idst, param0, param1, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void hardtanh_tile_init(TC_LOC) {
    TC_SFPU_INIT(Hardtanh);
}

}  // namespace ckernel
