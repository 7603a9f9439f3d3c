// mask (0.81.1 api/compute/mask.h): zero (or +inf) the elements of a DST tile where a mask tile is
// zero. As on the device (ckernel_sfpu_mask.h), the mask is read from the tile after the data tile
// (idst_data + 1); the idst2_mask argument is not used by the LLK, so not here either.
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

ALWI void mask_tile_init(TC_LOC) {
    ::tc::sfpu_init(0, tc_loc);
}

ALWI void mask_tile(uint32_t idst_data, uint32_t idst2_mask, DataFormat data_format = DataFormat::Float16_b,
                    TC_LOC) {
    (void)idst2_mask;
    TC_NOT_MODELLED_IF(data_format == DataFormat::Int32, "mask_tile with DataFormat::Int32 (calculate_int_mask)");
    ::tc::sfpu_binary(TC_B(Mask), idst_data, idst_data + 1, idst_data, ::tc::kNoFormat, tc_loc);
}

ALWI void mask_posinf_tile(uint32_t idst_data, uint32_t idst2_mask, TC_LOC) {
    (void)idst2_mask;
    ::tc::sfpu_binary(TC_B(MaskPosinf), idst_data, idst_data + 1, idst_data, ::tc::kNoFormat, tc_loc);
}

}  // namespace ckernel
