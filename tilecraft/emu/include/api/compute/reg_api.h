// DST ownership (0.81.1 api/compute/reg_api.h): math owns DST from tile_regs_acquire to
// tile_regs_commit, the packer from tile_regs_wait to tile_regs_release.
#pragma once

#include "api/compute/common_globals.h"

namespace ckernel {

// acquire_dst: math waits for a free DST half and the packer for math's commit (as the device's
// three threads do: release_dst's commit ends the packer's wait)
[[deprecated("Use tile_regs_acquire() instead")]]
ALWI void acquire_dst(TC_LOC) {
    ::tc::regs_acquire(tc_loc);
    ::tc::regs_wait(tc_loc);
}

ALWI void tile_regs_acquire(TC_LOC) { ::tc::regs_acquire(tc_loc); }

ALWI void tile_regs_wait(TC_LOC) { ::tc::regs_wait(tc_loc); }

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
[[deprecated("Use tile_regs_release() instead")]]
ALWI void release_dst(TC_LOC) {
    ::tc::regs_commit(tc_loc);
    ::tc::regs_release(tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void tile_regs_commit(TC_LOC) {
    ::tc::regs_commit(tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void tile_regs_release(TC_LOC) {
    ::tc::regs_release(tc_loc);
}

}  // namespace ckernel
