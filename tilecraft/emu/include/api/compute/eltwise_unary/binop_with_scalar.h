// binary operations with a scalar (0.81.1 api/compute/eltwise_unary/binop_with_scalar.h); the scalar is an fp32 bit pattern
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void add_unary_tile(uint32_t idst, uint32_t param1, TC_LOC) {
    ::tc::sfpu_unary(TC_U(AddScalar), idst, param1, 0, 0, ::tc::kNoFormat, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sub_unary_tile(uint32_t idst, uint32_t param1, TC_LOC) {
    ::tc::sfpu_unary(TC_U(SubScalar), idst, param1, 0, 0, ::tc::kNoFormat, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void mul_unary_tile(uint32_t idst, uint32_t param1, TC_LOC) {
    ::tc::sfpu_unary(TC_U(MulScalar), idst, param1, 0, 0, ::tc::kNoFormat, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void div_unary_tile(uint32_t idst, uint32_t param1, TC_LOC) {
    ::tc::sfpu_unary(TC_U(DivScalar), idst, param1, 0, 0, ::tc::kNoFormat, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void rsub_unary_tile(uint32_t idst, uint32_t param1, TC_LOC) {
    ::tc::sfpu_unary(TC_U(RsubScalar), idst, param1, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void binop_with_scalar_tile_init(TC_LOC) {
    TC_SFPU_INIT(AddScalar);
}

}  // namespace ckernel
