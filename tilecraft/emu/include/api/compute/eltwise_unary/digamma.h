// digamma_tile, the digamma function (0.81.1 api/compute/eltwise_unary/digamma.h): declared, not modelled
// (tc_emu/unmodelled_sfpu.h).
#pragma once

#include "tc_emu/unmodelled_sfpu.h"

TC_UNMODELLED_UNARY(digamma)
