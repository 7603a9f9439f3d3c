// Element-wise binary FPU operations on two CB tiles (0.81.1 api/compute/eltwise_binary.h).
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"
#include "api/compute/common.h"
#include "llk_math_binary_api.h"
#include "llk_unpack_AB_api.h"

namespace ckernel {

template <bool full_init, EltwiseBinaryType eltwise_binary_type>
ALWI void binary_tiles_init(std::uint32_t icb0, std::uint32_t icb1, bool acc_to_dest = false,
                            std::uint32_t call_line = __builtin_LINE(), TC_LOC) {
    (void)call_line;
    constexpr ::tc::Fpu op = ::tc::tc_fpu_of(eltwise_binary_type);
    ::tc::init_mode(::tc::Mode::Binary, icb0, icb1, ::tc::tc_binary_param(op, ::tc::Bcast::None, acc_to_dest), tc_loc);
}

ALWI void add_init(std::uint32_t icb0, std::uint32_t icb1, bool acc_to_dest = false,
                   std::uint32_t call_line = __builtin_LINE(), TC_LOC) {
    binary_tiles_init<false, EltwiseBinaryType::ELWADD>(icb0, icb1, acc_to_dest, call_line, tc_loc);
}

ALWI void sub_init(std::uint32_t icb0, std::uint32_t icb1, bool acc_to_dest = false,
                   std::uint32_t call_line = __builtin_LINE(), TC_LOC) {
    binary_tiles_init<false, EltwiseBinaryType::ELWSUB>(icb0, icb1, acc_to_dest, call_line, tc_loc);
}

ALWI void mul_init(std::uint32_t icb0, std::uint32_t icb1, bool acc_to_dest = true,
                   std::uint32_t call_line = __builtin_LINE(), TC_LOC) {
    binary_tiles_init<false, EltwiseBinaryType::ELWMUL>(icb0, icb1, acc_to_dest, call_line, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void mul_tiles(std::uint32_t icb0, std::uint32_t icb1, std::uint32_t itile0, std::uint32_t itile1,
                    std::uint32_t idst, TC_LOC) {
    ::tc::binary_tiles(::tc::Fpu::Mul, ::tc::Bcast::None, icb0, icb1, itile0, itile1, idst, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void add_tiles(std::uint32_t icb0, std::uint32_t icb1, std::uint32_t itile0, std::uint32_t itile1,
                    std::uint32_t idst, TC_LOC) {
    ::tc::binary_tiles(::tc::Fpu::Add, ::tc::Bcast::None, icb0, icb1, itile0, itile1, idst, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sub_tiles(std::uint32_t icb0, std::uint32_t icb1, std::uint32_t itile0, std::uint32_t itile1,
                    std::uint32_t idst, TC_LOC) {
    ::tc::binary_tiles(::tc::Fpu::Sub, ::tc::Bcast::None, icb0, icb1, itile0, itile1, idst, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void mul_block(std::uint32_t icb0, std::uint32_t icb1, std::uint32_t start_itile0, std::uint32_t start_itile1,
                    std::uint32_t start_idst, std::uint32_t ntiles, TC_LOC) {
    for (std::uint32_t i = 0; i < ntiles; ++i)
        ::tc::binary_tiles(::tc::Fpu::Mul, ::tc::Bcast::None, icb0, icb1, start_itile0 + i, start_itile1 + i,
                           start_idst + i, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void add_block(std::uint32_t icb0, std::uint32_t icb1, std::uint32_t start_itile0, std::uint32_t start_itile1,
                    std::uint32_t start_idst, std::uint32_t ntiles, TC_LOC) {
    for (std::uint32_t i = 0; i < ntiles; ++i)
        ::tc::binary_tiles(::tc::Fpu::Add, ::tc::Bcast::None, icb0, icb1, start_itile0 + i, start_itile1 + i,
                           start_idst + i, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sub_block(std::uint32_t icb0, std::uint32_t icb1, std::uint32_t start_itile0, std::uint32_t start_itile1,
                    std::uint32_t start_idst, std::uint32_t ntiles, TC_LOC) {
    for (std::uint32_t i = 0; i < ntiles; ++i)
        ::tc::binary_tiles(::tc::Fpu::Sub, ::tc::Bcast::None, icb0, icb1, start_itile0 + i, start_itile1 + i,
                           start_idst + i, tc_loc);
}

// DST-reuse: one operand is a DST tile moved into SrcA (DEST_TO_SRCA) or SrcB (DEST_TO_SRCB)
template <EltwiseBinaryType eltwise_binary_type, EltwiseBinaryReuseDestType reuse_dest>
ALWI void binary_reuse_dest_init(std::uint32_t icb0, std::uint32_t call_line, TC_LOC) {
    (void)call_line;
    constexpr ::tc::ReuseDest reuse =
        reuse_dest == EltwiseBinaryReuseDestType::DEST_TO_SRCA ? ::tc::ReuseDest::ToSrcA : ::tc::ReuseDest::ToSrcB;
    ::tc::init_mode(::tc::Mode::ReuseDest, icb0, 0,
                    (std::uint32_t(::tc::tc_fpu_of(eltwise_binary_type)) << 4) | std::uint32_t(reuse), tc_loc);
}

template <EltwiseBinaryReuseDestType reuse_dest>
ALWI void add_reuse_dest_init(std::uint32_t icb, std::uint32_t call_line = __builtin_LINE(), TC_LOC) {
    binary_reuse_dest_init<EltwiseBinaryType::ELWADD, reuse_dest>(icb, call_line, tc_loc);
}

template <EltwiseBinaryReuseDestType reuse_dest>
ALWI void sub_reuse_dest_init(std::uint32_t icb, std::uint32_t call_line = __builtin_LINE(), TC_LOC) {
    binary_reuse_dest_init<EltwiseBinaryType::ELWSUB, reuse_dest>(icb, call_line, tc_loc);
}

template <EltwiseBinaryReuseDestType reuse_dest>
ALWI void mul_reuse_dest_init(std::uint32_t icb, std::uint32_t call_line = __builtin_LINE(), TC_LOC) {
    binary_reuse_dest_init<EltwiseBinaryType::ELWMUL, reuse_dest>(icb, call_line, tc_loc);
}

template <EltwiseBinaryType eltwise_binary_type, EltwiseBinaryReuseDestType reuse_dest,
          bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void binary_reuse_dest_tiles(std::uint32_t in_cb_id, std::uint32_t in_tile_index, std::uint32_t dst_tile_index,
                                  TC_LOC) {
    constexpr ::tc::ReuseDest reuse =
        reuse_dest == EltwiseBinaryReuseDestType::DEST_TO_SRCA ? ::tc::ReuseDest::ToSrcA : ::tc::ReuseDest::ToSrcB;
    ::tc::reuse_dest_tiles(::tc::tc_fpu_of(eltwise_binary_type), reuse, in_cb_id, in_tile_index, dst_tile_index, tc_loc);
}

template <EltwiseBinaryReuseDestType reuse_dest, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void add_reuse_dest_tiles(std::uint32_t in_cb_id, std::uint32_t in_tile_index, std::uint32_t dst_tile_index,
                               TC_LOC) {
    binary_reuse_dest_tiles<EltwiseBinaryType::ELWADD, reuse_dest>(in_cb_id, in_tile_index, dst_tile_index, tc_loc);
}

template <EltwiseBinaryReuseDestType reuse_dest, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sub_reuse_dest_tiles(std::uint32_t in_cb_id, std::uint32_t in_tile_index, std::uint32_t dst_tile_index,
                               TC_LOC) {
    binary_reuse_dest_tiles<EltwiseBinaryType::ELWSUB, reuse_dest>(in_cb_id, in_tile_index, dst_tile_index, tc_loc);
}

template <EltwiseBinaryReuseDestType reuse_dest, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void mul_reuse_dest_tiles(std::uint32_t in_cb_id, std::uint32_t in_tile_index, std::uint32_t dst_tile_index,
                               TC_LOC) {
    binary_reuse_dest_tiles<EltwiseBinaryType::ELWMUL, reuse_dest>(in_cb_id, in_tile_index, dst_tile_index, tc_loc);
}

}  // namespace ckernel
