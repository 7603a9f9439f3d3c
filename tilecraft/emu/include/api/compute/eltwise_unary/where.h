// where (0.81.1 api/compute/eltwise_unary/where.h): out = cond != 0 ? a : b. The DataFormat must be the format DST holds.
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

template <DataFormat data_format>
ALWI void where_tile(uint32_t idst0, uint32_t idst1, uint32_t idst2, uint32_t odst, TC_LOC) {
    ::tc::sfpu_ternary(static_cast<std::uint32_t>(::tc::SfpuTernary::Where), idst0, idst1, idst2, odst, std::uint32_t(data_format), tc_loc);
}

ALWI void where_tile_init(TC_LOC) {
    ::tc::sfpu_init(0, tc_loc);
}

}  // namespace ckernel
