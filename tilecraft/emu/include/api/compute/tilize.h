// Tilize (0.81.1 api/compute/tilize.h): `block` tiles' worth of row-major rows from the input CB
// become `block` tiles in the output CB, through SrcA (or DST directly, see the runtime), DST and
// the packer. The fast variants are the same move on the emulator, except that they always unpack
// through SrcA (a Float32 input keeps TF32 precision, as on the device).
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"
#include "api/compute/common.h"

namespace tc {
// both block calls: tile indices other than 0 (packing out of order) are not modelled
ALWI void tilize_block_api(uint32_t icb, uint32_t block, uint32_t ocb, uint32_t input_tile_index,
                           uint32_t output_tile_index, bool fast, ::tc::Loc tc_loc) {
    TC_NOT_MODELLED_IF(input_tile_index != 0 || output_tile_index != 0,
                       "tilize_block / fast_tilize_block with an input or output tile index other than 0");
    ::tc::tilize_block(icb, block, ocb, fast, tc_loc);
}
}  // namespace tc

namespace ckernel {

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void tilize_init(uint32_t icb, uint32_t block, uint32_t ocb, uint32_t call_line = __builtin_LINE(), TC_LOC) {
    (void)call_line;
    (void)block;
    ::tc::init_mode(::tc::Mode::Tilize, icb, ocb, 0, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void tilize_block(uint32_t icb, uint32_t block, uint32_t ocb, uint32_t input_tile_index = 0,
                       uint32_t output_tile_index = 0, TC_LOC) {
    ::tc::tilize_block_api(icb, block, ocb, input_tile_index, output_tile_index, false, tc_loc);
}

ALWI void tilize_uninit(uint32_t icb, uint32_t ocb, TC_LOC) {
    (void)icb;
    (void)ocb;
    ::tc::init_mode(::tc::Mode::None, 0, 0, 0, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void fast_tilize_init(uint32_t icb, uint32_t full_dim, uint32_t ocb, uint32_t call_line = __builtin_LINE(),
                           TC_LOC) {
    (void)call_line;
    (void)full_dim;
    ::tc::init_mode(::tc::Mode::Tilize, icb, ocb, 1, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void fast_tilize_init_skip_remap(uint32_t icb, uint32_t full_dim, uint32_t ocb,
                                      uint32_t call_line = __builtin_LINE(), TC_LOC) {
    fast_tilize_init<is_fp32_dest_acc_en>(icb, full_dim, ocb, call_line, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void fast_tilize_block(uint32_t icb, uint32_t block, uint32_t ocb, uint32_t input_tile_index = 0,
                            uint32_t output_tile_index = 0, TC_LOC) {
    ::tc::tilize_block_api(icb, block, ocb, input_tile_index, output_tile_index, true, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void fast_tilize_uninit(uint32_t icb, uint32_t ocb, uint32_t full_dim, TC_LOC) {
    (void)full_dim;
    tilize_uninit(icb, ocb, tc_loc);
}

}  // namespace ckernel
