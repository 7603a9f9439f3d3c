// compute_kernel_hw_startup (0.81.1): configures the unpackers' SrcA/SrcB formats and the
// packer's output format from the given CBs. The formats stay until a reconfig call changes them.
#pragma once

#include "api/compute/common_globals.h"
#include "api/compute/src_order.h"

namespace ckernel {

template <SrcOrder src_order = SrcOrder::Regular>
ALWI void compute_kernel_hw_startup(uint32_t icb0, uint32_t icb1, uint32_t ocb, TC_LOC) {
    constexpr bool reverse = src_order == SrcOrder::Reverse;
    ::tc::hw_startup(reverse ? icb1 : icb0, reverse ? icb0 : icb1, ocb, tc_loc);
}

ALWI void compute_kernel_hw_startup(uint32_t icb0, uint32_t ocb, TC_LOC) {
    ::tc::hw_startup(icb0, icb0, ocb, tc_loc);
}

ALWI void enable_fp32_dest_acc(TC_LOC) { ::tc::set_fp32_dest_acc(true, tc_loc); }

ALWI void disable_fp32_dest_acc(TC_LOC) { ::tc::set_fp32_dest_acc(false, tc_loc); }

template <bool enable>
ALWI void set_fp32_dest_acc(TC_LOC) {
    if constexpr (enable != static_cast<bool>(DST_ACCUM_MODE)) {
        ::tc::set_fp32_dest_acc(enable, tc_loc);
    }
}

template <bool enable>
ALWI void restore_fp32_dest_acc(TC_LOC) {
    if constexpr (enable != static_cast<bool>(DST_ACCUM_MODE)) {
        ::tc::set_fp32_dest_acc(DST_ACCUM_MODE, tc_loc);
    }
}

}  // namespace ckernel
