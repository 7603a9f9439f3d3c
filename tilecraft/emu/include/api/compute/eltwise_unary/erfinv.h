// erfinv_tile, the inverse error function (0.81.1 api/compute/eltwise_unary/erfinv.h): declared, not modelled
// (tc_emu/unmodelled_sfpu.h).
#pragma once

#include "tc_emu/unmodelled_sfpu.h"

TC_UNMODELLED_UNARY(erfinv)
