// Pack-untilize (0.81.1 api/compute/pack_untilize.h): the packer writes DST tiles as row-major
// rows into the output CB. Declared so that kernels including the header compile (the matmul's
// compute kernels name it for an untilized output); the emulator does not model it yet, so a call
// stops the run (E5009) at the kernel's line.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"
#include "api/compute/common.h"
#include "ckernel_defs.h"

namespace ckernel {

template <uint32_t block_ct_dim = 8, uint32_t full_ct_dim = block_ct_dim, bool narrow_row = false,
          std::uint32_t row_num_datums = TILE_C_DIM, bool dense = false, bool configure_remap = true,
          bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void pack_untilize_dest_init(uint32_t ocb, uint32_t call_line = __builtin_LINE(), TC_LOC) {
    (void)ocb;
    (void)call_line;
    ::tc::not_modelled("pack_untilize_dest_init (pack-untilize)", tc_loc);
}

template <uint32_t block_ct_dim = 8, uint32_t full_ct_dim = block_ct_dim, bool diagonal = false,
          bool narrow_row = false, std::uint32_t row_num_datums = TILE_C_DIM, uint32_t tile_dst_ct_offset = 0,
          bool dense = false>
ALWI void pack_untilize_dest(uint32_t ocb, uint32_t block_rt_dim = 1, uint32_t block_c_index = 0,
                             uint32_t tile_dst_rt_offset = 0, TC_LOC) {
    (void)ocb;
    (void)block_rt_dim;
    (void)block_c_index;
    (void)tile_dst_rt_offset;
    ::tc::not_modelled("pack_untilize_dest (pack-untilize)", tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void pack_untilize_uninit(uint32_t ocb, TC_LOC) {
    (void)ocb;
    ::tc::not_modelled("pack_untilize_uninit (pack-untilize)", tc_loc);
}

}  // namespace ckernel
