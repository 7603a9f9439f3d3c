// copying one DST tile into another (0.81.1 api/compute/copy_dest_values.h)
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

template <DataFormat DATA_FORMAT>
ALWI void copy_dest_values(uint32_t idst_in, uint32_t idst_out, TC_LOC) {
    ::tc::copy_dest_values(idst_in, idst_out, tc_loc);
}

ALWI void copy_dest_values(uint32_t idst_in, uint32_t idst_out, TC_LOC) {
    ::tc::copy_dest_values(idst_in, idst_out, tc_loc);
}

ALWI void copy_dest_values_init(TC_LOC) {
    ::tc::sfpu_init(0, tc_loc);
}

}  // namespace ckernel
