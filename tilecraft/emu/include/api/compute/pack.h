// Packing DST tiles into CB pages (0.81.1 api/compute/pack.h). pack_tile<false> (the default)
// writes the next page after the ones packed since the last cb_push_back, whatever
// output_tile_index says; pack_tile<true> writes page output_tile_index.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

ALWI void pack_init(std::uint32_t ocb, std::uint32_t call_line = __builtin_LINE(), TC_LOC) {
    (void)ocb;
    (void)call_line;
    (void)tc_loc;
}

template <bool out_of_order_output = false, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void pack_tile(std::uint32_t ifrom_dst, std::uint32_t icb, std::uint32_t output_tile_index = 0, TC_LOC) {
    ::tc::pack_tile(ifrom_dst, icb, output_tile_index, out_of_order_output, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void pack_block(std::uint32_t ifrom_dst, std::uint32_t icb, std::uint32_t ntiles, TC_LOC) {
    for (std::uint32_t i = 0; i < ntiles; ++i) ::tc::pack_tile(ifrom_dst + i, icb, 0, false, tc_loc);
}

ALWI void pack_reconfig_l1_acc(const std::uint32_t l1_acc_en, TC_LOC) { ::tc::pack_l1_acc(l1_acc_en != 0, tc_loc); }

// The packer's ReLU: only "no ReLU" is modelled; a ReLU mode stops the run at the call (E5009).
ALWI void pack_relu_config(const ReluConfig& config, TC_LOC) {
    TC_NOT_MODELLED_IF(config.get_mode() != ReluType::NO_RELU, "pack_relu_config with a ReLU mode (the packer's ReLU)");
}

}  // namespace ckernel
