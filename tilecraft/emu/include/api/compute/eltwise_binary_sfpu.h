// binary SFPU operations on two DST tiles (0.81.1 api/compute/eltwise_binary_sfpu.h)
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void div_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, TC_LOC) {
    ::tc::sfpu_binary(TC_B(Div), idst0, idst1, odst, ::tc::kNoFormat, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void mul_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, TC_LOC) {
    ::tc::sfpu_binary(TC_B(Mul), idst0, idst1, odst, ::tc::kNoFormat, tc_loc);
}

template <ckernel::DstRoundingMode dst_rounding_mode = ckernel::DstRoundingMode::Default, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void add_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, TC_LOC) {
    ::tc::sfpu_binary(TC_B(Add), idst0, idst1, odst, std::uint32_t(dst_rounding_mode) << 8 | ::tc::kNoFormat, tc_loc);
}

template <ckernel::DstRoundingMode dst_rounding_mode = ckernel::DstRoundingMode::Default, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sub_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, TC_LOC) {
    ::tc::sfpu_binary(TC_B(Sub), idst0, idst1, odst, std::uint32_t(dst_rounding_mode) << 8 | ::tc::kNoFormat, tc_loc);
}

template <ckernel::DstRoundingMode dst_rounding_mode = ckernel::DstRoundingMode::Default, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void rsub_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, TC_LOC) {
    ::tc::sfpu_binary(TC_B(Rsub), idst0, idst1, odst, std::uint32_t(dst_rounding_mode) << 8 | ::tc::kNoFormat, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void power_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, TC_LOC) {
    ::tc::sfpu_binary(TC_B(Pow), idst0, idst1, odst, ::tc::kNoFormat, tc_loc);
}

ALWI void eq_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, TC_LOC) {
    ::tc::sfpu_binary(TC_B(Eq), idst0, idst1, odst, ::tc::kNoFormat, tc_loc);
}

ALWI void ne_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, TC_LOC) {
    ::tc::sfpu_binary(TC_B(Ne), idst0, idst1, odst, ::tc::kNoFormat, tc_loc);
}

ALWI void lt_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, TC_LOC) {
    ::tc::sfpu_binary(TC_B(Lt), idst0, idst1, odst, ::tc::kNoFormat, tc_loc);
}

ALWI void gt_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, TC_LOC) {
    ::tc::sfpu_binary(TC_B(Gt), idst0, idst1, odst, ::tc::kNoFormat, tc_loc);
}

ALWI void le_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, TC_LOC) {
    ::tc::sfpu_binary(TC_B(Le), idst0, idst1, odst, ::tc::kNoFormat, tc_loc);
}

ALWI void ge_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, TC_LOC) {
    ::tc::sfpu_binary(TC_B(Ge), idst0, idst1, odst, ::tc::kNoFormat, tc_loc);
}

ALWI void div_binary_tile_init(TC_LOC) {
    ::tc::sfpu_init(0, tc_loc);
}

ALWI void mul_binary_tile_init(TC_LOC) {
    ::tc::sfpu_init(0, tc_loc);
}

ALWI void add_binary_tile_init(TC_LOC) {
    ::tc::sfpu_init(0, tc_loc);
}

ALWI void sub_binary_tile_init(TC_LOC) {
    ::tc::sfpu_init(0, tc_loc);
}

ALWI void rsub_binary_tile_init(TC_LOC) {
    ::tc::sfpu_init(0, tc_loc);
}

ALWI void power_binary_tile_init(TC_LOC) {
    ::tc::sfpu_init(0, tc_loc);
}

ALWI void eq_binary_tile_init(TC_LOC) {
    ::tc::sfpu_init(0, tc_loc);
}

ALWI void ne_binary_tile_init(TC_LOC) {
    ::tc::sfpu_init(0, tc_loc);
}

ALWI void lt_binary_tile_init(TC_LOC) {
    ::tc::sfpu_init(0, tc_loc);
}

ALWI void gt_binary_tile_init(TC_LOC) {
    ::tc::sfpu_init(0, tc_loc);
}

ALWI void le_binary_tile_init(TC_LOC) {
    ::tc::sfpu_init(0, tc_loc);
}

ALWI void ge_binary_tile_init(TC_LOC) {
    ::tc::sfpu_init(0, tc_loc);
}

}  // namespace ckernel
