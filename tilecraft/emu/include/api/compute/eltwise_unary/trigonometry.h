// trigonometric functions (0.81.1 api/compute/eltwise_unary/trigonometry.h), radians
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

ALWI void sin_tile_init(TC_LOC) {
    TC_SFPU_INIT(Sin);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sin_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Sin), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void cos_tile_init(TC_LOC) {
    TC_SFPU_INIT(Cos);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void cos_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Cos), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void tan_tile_init(TC_LOC) {
    TC_SFPU_INIT(Tan);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void tan_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Tan), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void asin_tile_init(TC_LOC) {
    TC_SFPU_INIT(Asin);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void asin_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Asin), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void acos_tile_init(TC_LOC) {
    TC_SFPU_INIT(Acos);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void acos_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Acos), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void atan_tile_init(TC_LOC) {
    TC_SFPU_INIT(Atan);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void atan_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Atan), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void asinh_tile_init(TC_LOC) {
    TC_SFPU_INIT(Asinh);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void asinh_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Asinh), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void acosh_tile_init(TC_LOC) {
    TC_SFPU_INIT(Acosh);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void acosh_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Acosh), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void atanh_tile_init(TC_LOC) {
    TC_SFPU_INIT(Atanh);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void atanh_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Atanh), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void cosh_tile_init(TC_LOC) {
    TC_SFPU_INIT(Cosh);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void cosh_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Cosh), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sinh_tile_init(TC_LOC) {
    TC_SFPU_INIT(Sinh);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sinh_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Sinh), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

}  // namespace ckernel
