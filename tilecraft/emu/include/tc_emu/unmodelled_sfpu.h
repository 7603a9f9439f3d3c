// Declarations of 0.81.1 SFPU functions the emulator does not model. Headers such as kernel_lib's
// eltwise/unary/special.hpp name them in chain elements that every kernel including the chain
// compiles, so they must be declared; a call stops the run at its line (E5009) naming the function.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

// NAME_tile(idst) and NAME_tile_init(), as 0.81.1 declares a one-tile SFPU function
#define TC_UNMODELLED_UNARY(name)                                                           \
    namespace ckernel {                                                                     \
    ALWI void name##_tile(uint32_t idst, TC_LOC) { ::tc::not_modelled(#name "_tile", tc_loc); } \
    ALWI void name##_tile_init(TC_LOC) { ::tc::not_modelled(#name "_tile_init", tc_loc); }      \
    }
