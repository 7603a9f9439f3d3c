// Untilize (0.81.1 api/compute/untilize.h): tiles from the input CB become row-major rows in the
// output CB.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"
#include "api/compute/common.h"

namespace ckernel {

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void untilize_init(uint32_t icb, uint32_t call_line = __builtin_LINE(), TC_LOC) {
    (void)call_line;
    ::tc::init_mode(::tc::Mode::Untilize, icb, 0, 0, tc_loc);
}

template <uint32_t block_ct_dim = 1, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void untilize_block(uint32_t icb, uint32_t full_ct_dim, uint32_t ocb, TC_LOC) {
    ::tc::untilize_block(icb, full_ct_dim, ocb, tc_loc);
}

ALWI void untilize_uninit(uint32_t icb, TC_LOC) {
    (void)icb;
    ::tc::init_mode(::tc::Mode::None, 0, 0, 0, tc_loc);
}

}  // namespace ckernel
