// rdiv (0.81.1 api/compute/eltwise_unary/rdiv.h): value / x for every element x of a DST tile,
// `value` a float's bit pattern, then truncated or floored per RoundingMode.
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

ALWI void rdiv_tile_init(TC_LOC) {
    TC_SFPU_INIT(Rdiv);
}

template <RoundingMode rounding_mode = RoundingMode::None, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void rdiv_tile(uint32_t dst_index, uint32_t value, VectorMode vector_mode = VectorMode::RC, TC_LOC) {
    if (vector_mode != VectorMode::RC) ::tc::assert_failed("rdiv_tile: only VectorMode::RC is modelled", tc_loc);
    ::tc::sfpu_unary(TC_U(Rdiv), dst_index, value, uint32_t(rounding_mode), 0, ::tc::kNoFormat, tc_loc);
}

}  // namespace ckernel
