// Reconfiguring the unpackers' and the packer's data formats (0.81.1
// api/compute/reconfig_data_format.h). The (old, new) forms reprogram only when the two CBs'
// formats differ, as on the device.
#pragma once

#include "api/compute/common_globals.h"
#include "api/compute/src_order.h"

namespace ckernel {

template <SrcOrder src_order = SrcOrder::Regular>
ALWI void reconfig_data_format(const uint32_t icb0_new_operand, const uint32_t icb1_new_operand, TC_LOC) {
    constexpr bool reverse = src_order == SrcOrder::Reverse;
    ::tc::reconfig_src(0, 0, reverse ? icb1_new_operand : icb0_new_operand, false, tc_loc);
    ::tc::reconfig_src(1, 0, reverse ? icb0_new_operand : icb1_new_operand, false, tc_loc);
}

template <SrcOrder src_order = SrcOrder::Regular>
ALWI void reconfig_data_format(const uint32_t icb0_old_operand, const uint32_t icb0_new_operand,
                               const uint32_t icb1_old_operand, const uint32_t icb1_new_operand, TC_LOC) {
    constexpr bool reverse = src_order == SrcOrder::Reverse;
    ::tc::reconfig_src(0, reverse ? icb1_old_operand : icb0_old_operand,
                       reverse ? icb1_new_operand : icb0_new_operand, true, tc_loc);
    ::tc::reconfig_src(1, reverse ? icb0_old_operand : icb1_old_operand,
                       reverse ? icb0_new_operand : icb1_new_operand, true, tc_loc);
}

ALWI void reconfig_data_format_srca(const uint32_t srca_new_operand, TC_LOC) {
    ::tc::reconfig_src(0, 0, srca_new_operand, false, tc_loc);
}

ALWI void reconfig_data_format_srca(const uint32_t srca_old_operand, const uint32_t srca_new_operand, TC_LOC) {
    ::tc::reconfig_src(0, srca_old_operand, srca_new_operand, true, tc_loc);
}

ALWI void reconfig_data_format_srcb(const uint32_t srcb_new_operand, TC_LOC) {
    ::tc::reconfig_src(1, 0, srcb_new_operand, false, tc_loc);
}

ALWI void reconfig_data_format_srcb(const uint32_t srcb_old_operand, const uint32_t srcb_new_operand, TC_LOC) {
    ::tc::reconfig_src(1, srcb_old_operand, srcb_new_operand, true, tc_loc);
}

template <bool is_tile_dim_reconfig_en = false>
ALWI void pack_reconfig_data_format(const uint32_t new_cb_id, TC_LOC) {
    ::tc::reconfig_pack(0, new_cb_id, false, tc_loc);
}

template <bool is_tile_dim_reconfig_en = false>
ALWI void pack_reconfig_data_format(const uint32_t old_cb_id, const uint32_t new_cb_id, TC_LOC) {
    ::tc::reconfig_pack(old_cb_id, new_cb_id, true, tc_loc);
}

}  // namespace ckernel
