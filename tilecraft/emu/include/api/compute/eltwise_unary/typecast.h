// typecast (0.81.1 api/compute/eltwise_unary/typecast.h): IN_DTYPE/OUT_DTYPE are DataFormat values
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

template <uint32_t IN_DTYPE, uint32_t OUT_DTYPE, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void typecast_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_typecast(IN_DTYPE, OUT_DTYPE, idst, tc_loc);
}

template <uint32_t IN_DTYPE, uint32_t OUT_DTYPE>
ALWI void typecast_tile_init(TC_LOC) {
    ::tc::sfpu_init(0, tc_loc);
}

}  // namespace ckernel
