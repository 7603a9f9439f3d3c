// Fast untilize (0.81.1 api/compute/experimental/fast_untilize.h): on Wormhole the API itself is
// pack_untilize over the whole row; on Blackhole the device uses its own unpacker path, which
// moves the same values (the formats it accepts, bfloat16 and block floats into bfloat16, are
// exact through it), so the emulator runs pack_untilize on both.
#pragma once

#include <cstdint>

#include "api/compute/pack_untilize.h"

namespace ckernel {

template <std::uint32_t full_ct_dim, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void fast_untilize_init(uint32_t icb, uint32_t ocb, uint32_t call_line = __builtin_LINE(), TC_LOC) {
    static_assert(full_ct_dim > 0, "fast_untilize full_ct_dim must be greater than 0");
    pack_untilize_init<full_ct_dim, full_ct_dim, is_fp32_dest_acc_en>(icb, ocb, call_line, tc_loc);
}

template <std::uint32_t full_ct_dim, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void fast_untilize_init_skip_remap(uint32_t icb, uint32_t ocb, uint32_t call_line = __builtin_LINE(), TC_LOC) {
    fast_untilize_init<full_ct_dim, is_fp32_dest_acc_en>(icb, ocb, call_line, tc_loc);
}

template <std::uint32_t full_ct_dim, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void fast_untilize_block(uint32_t icb, uint32_t ocb, uint32_t input_tile_index = 0,
                              uint32_t output_tile_index = 0, TC_LOC) {
    TC_NOT_MODELLED_IF(input_tile_index != 0 || output_tile_index != 0,
                       "fast_untilize_block with an input or output tile index other than 0");
    pack_untilize_block<full_ct_dim, full_ct_dim, is_fp32_dest_acc_en>(icb, 1, ocb, 0, tc_loc);
}

template <std::uint32_t full_ct_dim, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void fast_untilize_uninit(uint32_t ocb, TC_LOC) {
    pack_untilize_uninit<is_fp32_dest_acc_en>(ocb, tc_loc);
}

}  // namespace ckernel
