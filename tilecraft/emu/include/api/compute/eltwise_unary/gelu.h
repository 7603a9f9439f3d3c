// GELU (0.81.1 api/compute/eltwise_unary/gelu.h): fast_and_approx (the default) is the LLK's
// piecewise-linear table, otherwise the tanh formula of numerics.md (runtime/sfpu.cpp)
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

template <bool fast_and_approx = true, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void gelu_tile_init(TC_LOC) {
    TC_SFPU_INIT(Gelu);
}

template <bool fast_and_approx = true, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void gelu_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Gelu), idst, fast_and_approx ? 1u : 0u, 0, 0, ::tc::kNoFormat, tc_loc);
}

}  // namespace ckernel
