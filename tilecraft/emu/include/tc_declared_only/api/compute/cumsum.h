// 0.81.1 api/compute/cumsum.h, declared only (tilecraft/emu/build.py DECLARED_ONLY): ttnn's
// kernel_lib names cumsum_tile in a template, so the names are declared with their signatures, as
// templates whose instantiation stops the build naming the call (E5002): not modelled yet.
#pragma once

#include "api/compute/common_globals.h"

namespace ckernel {

template <bool tc_called = true>
ALWI void cumsum_tile(uint32_t idst, bool first = true) {
    static_assert(!tc_called, "not modelled by the tilecraft emulator: cumsum_tile");
}

template <bool tc_called = true>
ALWI void cumsum_tile_init() {
    static_assert(!tc_called, "not modelled by the tilecraft emulator: cumsum_tile_init");
}

}  // namespace ckernel
