// i0_tile, the modified Bessel function I0 (0.81.1 api/compute/eltwise_unary/i0.h): declared, not modelled
// (tc_emu/unmodelled_sfpu.h).
#pragma once

#include "tc_emu/unmodelled_sfpu.h"

TC_UNMODELLED_UNARY(i0)
