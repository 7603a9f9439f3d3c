// Tilize (0.81.1 api/compute/tilize.h): `block` tiles' worth of row-major rows from the input CB
// become `block` tiles in the output CB.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"
#include "api/compute/common.h"

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
    (void)input_tile_index;
    (void)output_tile_index;
    ::tc::tilize_block(icb, block, ocb, tc_loc);
}

ALWI void tilize_uninit(uint32_t icb, uint32_t ocb, TC_LOC) {
    (void)icb;
    (void)ocb;
    ::tc::init_mode(::tc::Mode::None, 0, 0, 0, tc_loc);
}

}  // namespace ckernel
