// Tile transpose into DST (0.81.1 api/compute/transpose.h): the whole 32x32 tile is transposed
// (faces swapped and each face transposed).
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"
#include "api/compute/common.h"

namespace ckernel {

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void transpose_init(uint32_t icb, uint32_t call_line = __builtin_LINE(), TC_LOC) {
    (void)call_line;
    ::tc::init_mode(::tc::Mode::Transpose, icb, 0, 0, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void transpose_tile(uint32_t icb, uint32_t itile, uint32_t idst, TC_LOC) {
    ::tc::transpose_tile(icb, itile, idst, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void transpose_block(uint32_t icb, uint32_t start_itile, uint32_t start_idst, uint32_t ntiles, TC_LOC) {
    for (uint32_t i = 0; i < ntiles; ++i) ::tc::transpose_tile(icb, start_itile + i, start_idst + i, tc_loc);
}

}  // namespace ckernel
