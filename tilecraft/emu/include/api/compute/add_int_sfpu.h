// add_int_tile (0.81.1 api/compute/add_int_sfpu.h): integer add of two DST tiles. Not modelled: the
// header exists (ttnn's kernel_lib includes it for its Int32 SFPU reduce); add_int_tile stops the
// build naming itself (E5002), add_int_tile_init (not a template) stops the run at its line (E5009).
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

template <DataFormat data_format>
ALWI void add_int_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {
    static_assert(data_format != data_format, "not modelled by the tilecraft emulator: add_int_tile");
}

ALWI void add_int_tile_init(TC_LOC) { ::tc::not_modelled("add_int_tile_init", tc_loc); }

}  // namespace ckernel
