// fill (0.81.1 api/compute/eltwise_unary/fill.h): every element of a DST tile set to a value
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

ALWI void fill_tile(uint32_t idst, float param0, TC_LOC) {
    TC_SFPU(Fill, idst, __builtin_bit_cast(std::uint32_t, param0), 0, 0);
}

ALWI void fill_tile_bitcast(uint32_t idst, uint32_t param0, TC_LOC) {
    TC_SFPU(FillBits, idst, param0, 0, 0);
}

ALWI void fill_tile_init(TC_LOC) {
    TC_SFPU_INIT(Fill);
}

}  // namespace ckernel
