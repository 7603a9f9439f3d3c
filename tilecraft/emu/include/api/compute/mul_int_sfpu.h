// mul_int_tile (0.81.1 api/compute/mul_int_sfpu.h): integer multiply of two DST tiles. Not
// modelled: the header exists (kernels include it beside the ops they use), and a call stops at
// compile time naming it (E5002).
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

template <DataFormat data_format>
ALWI void mul_int_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {
    static_assert(data_format != data_format, "not modelled by the tilecraft emulator: mul_int_tile");
}

template <DataFormat data_format>
ALWI void mul_int_tile_init() {
    static_assert(data_format != data_format, "not modelled by the tilecraft emulator: mul_int_tile_init");
}

}  // namespace ckernel
