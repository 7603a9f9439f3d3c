#pragma once
// tensix_types.h (0.81.1): the DataFormat enum and tile constants kernels include it for; the
// emulator defines DataFormat in tc_emu/base.h.
#include "tc_emu/base.h"
