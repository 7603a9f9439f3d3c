// Copying CB tiles into DST (0.81.1 api/compute/tile_move_copy.h): through SrcA (fp32 data as TF32)
// unless the CB is in UnpackToDestFp32 mode.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"
#include "api/compute/reconfig_data_format.h"

namespace ckernel {

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void copy_init(std::uint32_t cbid, std::uint32_t transpose = 0, std::uint32_t transpose_within_16x16_face = false,
                    std::uint32_t call_line = __builtin_LINE(), TC_LOC) {
    (void)call_line;
    ::tc::init_mode(transpose ? ::tc::Mode::Transpose : ::tc::Mode::Copy, cbid, 0, 0, tc_loc);
    (void)transpose_within_16x16_face;
}

ALWI void dummy_unpack(std::uint32_t cb_id, TC_LOC) {
    (void)cb_id;
    (void)tc_loc;
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void copy_tile(std::uint32_t in_cb_id, std::uint32_t in_tile_index, std::uint32_t dst_tile_index, TC_LOC) {
    ::tc::copy_tile(in_cb_id, in_tile_index, dst_tile_index, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void copy_block(std::uint32_t in_cb_id, std::uint32_t start_in_tile_index, std::uint32_t start_dst_tile_index,
                     std::uint32_t ntiles, TC_LOC) {
    for (std::uint32_t i = 0; i < ntiles; ++i)
        ::tc::copy_tile(in_cb_id, start_in_tile_index + i, start_dst_tile_index + i, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
[[deprecated("Renamed to copy_init(). This will be removed after 20-09-2026.")]] ALWI void copy_tile_init(
    std::uint32_t cbid, std::uint32_t call_line = __builtin_LINE(), TC_LOC) {
    (void)call_line;
    ::tc::init_mode(::tc::Mode::Copy, cbid, 0, 0, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
[[deprecated("Renamed to copy_init(). This will be removed after 20-09-2026.")]] ALWI void copy_tile_to_dst_init_short(
    std::uint32_t cbid, std::uint32_t transpose = 0, std::uint32_t transpose_within_16x16_face = false,
    std::uint32_t call_line = __builtin_LINE(), TC_LOC) {
    (void)call_line;
    (void)transpose_within_16x16_face;
    ::tc::init_mode(transpose ? ::tc::Mode::Transpose : ::tc::Mode::Copy, cbid, 0, 0, tc_loc);
}

}  // namespace ckernel
