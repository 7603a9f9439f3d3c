// add_int_tile (0.81.1 api/compute/add_int_sfpu.h): integer add of two DST tiles. Not modelled: the
// header exists (ttnn's kernel_lib includes it for its Int32 SFPU reduce), and a call stops at
// compile time naming it (E5002).
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

template <DataFormat data_format>
ALWI void add_int_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {
    static_assert(data_format != data_format, "not modelled by the tilecraft emulator: add_int_tile");
}

// not a template in 0.81.1; one here so that only a call, not the declaration, stops the build
template <bool tc_called = true>
ALWI void add_int_tile_init() {
    static_assert(!tc_called, "not modelled by the tilecraft emulator: add_int_tile_init");
}

}  // namespace ckernel
