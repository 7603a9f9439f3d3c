// x * log(y) of two DST tiles (0.81.1 api/compute/xlogy.h)
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void xlogy_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, TC_LOC) {
    ::tc::sfpu_binary(TC_B(Xlogy), idst0, idst1, odst, ::tc::kNoFormat, tc_loc);
}

ALWI void xlogy_binary_tile_init(TC_LOC) {
    ::tc::sfpu_init(0, tc_loc);
}

}  // namespace ckernel
