// Broadcast binary FPU operations and unary broadcasts (0.81.1 api/compute/bcast.h). The second
// operand's row 0 (ROW), column 0 (COL) or element [0, 0] (SCALAR) is replicated over the tile.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"
#include "api/compute/common.h"

namespace ckernel {

template <BroadcastType bcast_type, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void unary_bcast_init(uint32_t icb, TC_LOC) {
    ::tc::init_mode(::tc::Mode::UnaryBcast, icb, 0, std::uint32_t(::tc::tc_bcast_of(bcast_type)), tc_loc);
}

template <BroadcastType bcast_type, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void unary_bcast(uint32_t icb, uint32_t in_tile_index, uint32_t dst_tile_index, TC_LOC) {
    ::tc::unary_bcast(::tc::tc_bcast_of(bcast_type), icb, in_tile_index, dst_tile_index, tc_loc);
}

template <BroadcastType bcast_type>
ALWI void unary_bcast_uninit(uint32_t icb, TC_LOC) {
    (void)icb;
    ::tc::init_mode(::tc::Mode::None, 0, 0, 0, tc_loc);
}

template <EltwiseBinaryType tBcastOp, BroadcastType tBcastDim>
ALWI void bcast_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE(), TC_LOC) {
    (void)call_line;
    ::tc::init_mode(::tc::Mode::BinaryBcast, icb0, icb1,
                    ::tc::tc_binary_param(::tc::tc_fpu_of(tBcastOp), ::tc::tc_bcast_of(tBcastDim), false), tc_loc);
}

template <EltwiseBinaryType tBcastOp, BroadcastType tBcastDim, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void any_tiles_bcast(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                          uint32_t bcast_row_idx = 0, TC_LOC) {
    TC_NOT_MODELLED_IF(bcast_row_idx != 0, "any_tiles_bcast with a bcast_row_idx other than 0");
    ::tc::binary_tiles(::tc::tc_fpu_of(tBcastOp), ::tc::tc_bcast_of(tBcastDim), icb0, icb1, itile0, itile1, idst, tc_loc);
}

template <BroadcastType tBcastDim, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void add_tiles_bcast(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                          uint32_t bcast_row_idx = 0, TC_LOC) {
    any_tiles_bcast<EltwiseBinaryType::ELWADD, tBcastDim>(icb0, icb1, itile0, itile1, idst, bcast_row_idx, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void add_tiles_bcast_rows(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst, uint32_t bcast_row_idx = 0,
                              TC_LOC) {
    any_tiles_bcast<EltwiseBinaryType::ELWADD, BroadcastType::ROW>(icb0, icb1, itile0, itile1, idst, bcast_row_idx, tc_loc);
}

ALWI void add_bcast_rows_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE(), TC_LOC) {
    bcast_init<EltwiseBinaryType::ELWADD, BroadcastType::ROW>(icb0, icb1, call_line, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void add_tiles_bcast_cols(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                              TC_LOC) {
    any_tiles_bcast<EltwiseBinaryType::ELWADD, BroadcastType::COL>(icb0, icb1, itile0, itile1, idst, 0, tc_loc);
}

ALWI void add_bcast_cols_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE(), TC_LOC) {
    bcast_init<EltwiseBinaryType::ELWADD, BroadcastType::COL>(icb0, icb1, call_line, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void add_tiles_bcast_scalar(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                              TC_LOC) {
    any_tiles_bcast<EltwiseBinaryType::ELWADD, BroadcastType::SCALAR>(icb0, icb1, itile0, itile1, idst, 0, tc_loc);
}

ALWI void add_bcast_scalar_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE(), TC_LOC) {
    bcast_init<EltwiseBinaryType::ELWADD, BroadcastType::SCALAR>(icb0, icb1, call_line, tc_loc);
}

template <BroadcastType tBcastDim, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sub_tiles_bcast(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                          uint32_t bcast_row_idx = 0, TC_LOC) {
    any_tiles_bcast<EltwiseBinaryType::ELWSUB, tBcastDim>(icb0, icb1, itile0, itile1, idst, bcast_row_idx, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sub_tiles_bcast_rows(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst, uint32_t bcast_row_idx = 0,
                              TC_LOC) {
    any_tiles_bcast<EltwiseBinaryType::ELWSUB, BroadcastType::ROW>(icb0, icb1, itile0, itile1, idst, bcast_row_idx, tc_loc);
}

ALWI void sub_bcast_rows_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE(), TC_LOC) {
    bcast_init<EltwiseBinaryType::ELWSUB, BroadcastType::ROW>(icb0, icb1, call_line, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sub_tiles_bcast_cols(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                              TC_LOC) {
    any_tiles_bcast<EltwiseBinaryType::ELWSUB, BroadcastType::COL>(icb0, icb1, itile0, itile1, idst, 0, tc_loc);
}

ALWI void sub_bcast_cols_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE(), TC_LOC) {
    bcast_init<EltwiseBinaryType::ELWSUB, BroadcastType::COL>(icb0, icb1, call_line, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sub_tiles_bcast_scalar(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                              TC_LOC) {
    any_tiles_bcast<EltwiseBinaryType::ELWSUB, BroadcastType::SCALAR>(icb0, icb1, itile0, itile1, idst, 0, tc_loc);
}

ALWI void sub_bcast_scalar_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE(), TC_LOC) {
    bcast_init<EltwiseBinaryType::ELWSUB, BroadcastType::SCALAR>(icb0, icb1, call_line, tc_loc);
}

template <BroadcastType tBcastDim, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void mul_tiles_bcast(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                          uint32_t bcast_row_idx = 0, TC_LOC) {
    any_tiles_bcast<EltwiseBinaryType::ELWMUL, tBcastDim>(icb0, icb1, itile0, itile1, idst, bcast_row_idx, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void mul_tiles_bcast_rows(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst, uint32_t bcast_row_idx = 0,
                              TC_LOC) {
    any_tiles_bcast<EltwiseBinaryType::ELWMUL, BroadcastType::ROW>(icb0, icb1, itile0, itile1, idst, bcast_row_idx, tc_loc);
}

ALWI void mul_bcast_rows_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE(), TC_LOC) {
    bcast_init<EltwiseBinaryType::ELWMUL, BroadcastType::ROW>(icb0, icb1, call_line, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void mul_tiles_bcast_cols(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                              TC_LOC) {
    any_tiles_bcast<EltwiseBinaryType::ELWMUL, BroadcastType::COL>(icb0, icb1, itile0, itile1, idst, 0, tc_loc);
}

ALWI void mul_bcast_cols_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE(), TC_LOC) {
    bcast_init<EltwiseBinaryType::ELWMUL, BroadcastType::COL>(icb0, icb1, call_line, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void mul_tiles_bcast_scalar(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                              TC_LOC) {
    any_tiles_bcast<EltwiseBinaryType::ELWMUL, BroadcastType::SCALAR>(icb0, icb1, itile0, itile1, idst, 0, tc_loc);
}

ALWI void mul_bcast_scalar_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE(), TC_LOC) {
    bcast_init<EltwiseBinaryType::ELWMUL, BroadcastType::SCALAR>(icb0, icb1, call_line, tc_loc);
}

}  // namespace ckernel
