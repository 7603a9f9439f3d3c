// Pack untilize (0.81.1 api/compute/pack_untilize.h): tiles of the input CB are copied into DST
// (unpack A, datacopy) and the packer writes them out as row-major rows: pack_untilize_block puts
// `block_ct_dim` tiles at column block `block_c_index` of a row-major block `full_ct_dim` tiles wide
// at the output CB's reserved back; pack_untilize_dest packs DST tiles the kernel computed the same
// way (after tile_regs_wait). The inits reprogram the packer for the output CB's format, as the
// device's do; DST holds the block, so a block is at most DST's capacity. Not modelled (stop with
// E5009): pack_untilize_block with block_rt_dim other than 1; narrow-row, diagonal, dense and
// DST-offset packing.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"
#include "api/compute/common.h"

namespace ckernel {

template <uint32_t block_ct_dim = 8, uint32_t full_ct_dim = block_ct_dim, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void pack_untilize_init(uint32_t icb, uint32_t ocb, uint32_t call_line = __builtin_LINE(), TC_LOC) {
    (void)call_line;
    static_assert(full_ct_dim % block_ct_dim == 0, "pack_untilize: full_ct_dim must be a multiple of block_ct_dim");
    ::tc::pack_untilize_init(icb, ocb, block_ct_dim, full_ct_dim, tc_loc);
}

template <uint32_t block_ct_dim = 8, uint32_t full_ct_dim = block_ct_dim, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void pack_untilize_init_skip_remap(uint32_t icb, uint32_t ocb, uint32_t call_line = __builtin_LINE(), TC_LOC) {
    pack_untilize_init<block_ct_dim, full_ct_dim, is_fp32_dest_acc_en>(icb, ocb, call_line, tc_loc);
}

template <uint32_t block_ct_dim = 8, uint32_t full_ct_dim = block_ct_dim, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void pack_untilize_block(uint32_t icb, uint32_t block_rt_dim, uint32_t ocb, uint32_t block_c_index = 0, TC_LOC) {
    ::tc::pack_untilize_block(icb, block_rt_dim, ocb, block_c_index, block_ct_dim, full_ct_dim, tc_loc);
}

template <uint32_t block_ct_dim = 8, uint32_t full_ct_dim = block_ct_dim, bool narrow_row = false,
          std::uint32_t row_num_datums = TILE_C_DIM, bool dense = false, bool configure_remap = true,
          bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void pack_untilize_dest_init(uint32_t ocb, uint32_t call_line = __builtin_LINE(), TC_LOC) {
    (void)call_line;
    static_assert(full_ct_dim % block_ct_dim == 0, "pack_untilize: full_ct_dim must be a multiple of block_ct_dim");
    TC_NOT_MODELLED_IF(narrow_row || row_num_datums != TILE_C_DIM || dense,
                       "pack_untilize_dest_init with narrow rows, a row width other than 32 or dense packing");
    ::tc::pack_untilize_dest_init(ocb, block_ct_dim, full_ct_dim, tc_loc);
}

template <uint32_t block_ct_dim = 8, uint32_t full_ct_dim = block_ct_dim, bool diagonal = false,
          bool narrow_row = false, std::uint32_t row_num_datums = TILE_C_DIM, uint32_t tile_dst_ct_offset = 0,
          bool dense = false>
ALWI void pack_untilize_dest(uint32_t ocb, uint32_t block_rt_dim = 1, uint32_t block_c_index = 0,
                             uint32_t tile_dst_rt_offset = 0, TC_LOC) {
    TC_NOT_MODELLED_IF(diagonal || narrow_row || row_num_datums != TILE_C_DIM || tile_dst_ct_offset != 0 || dense ||
                           tile_dst_rt_offset != 0,
                       "pack_untilize_dest with diagonal, narrow-row, dense or DST-offset packing");
    ::tc::pack_untilize_dest(ocb, block_rt_dim, block_c_index, block_ct_dim, full_ct_dim, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void pack_untilize_uninit(uint32_t ocb, TC_LOC) {
    ::tc::pack_untilize_uninit(ocb, tc_loc);
}

}  // namespace ckernel
