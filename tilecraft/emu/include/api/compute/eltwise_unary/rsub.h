// reverse subtraction (0.81.1 api/compute/eltwise_unary/rsub.h): scalar - x
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"
#include "api/compute/eltwise_unary/binop_with_scalar.h"

namespace ckernel {

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void rsub_tile(uint32_t idst, uint32_t scalar, TC_LOC) {
    ::tc::sfpu_unary(TC_U(RsubScalar), idst, scalar, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void rsub_tile_init(TC_LOC) {
    TC_SFPU_INIT(RsubScalar);
}

}  // namespace ckernel
