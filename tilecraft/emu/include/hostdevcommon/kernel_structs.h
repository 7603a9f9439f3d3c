// tt::CBIndex (0.81.1 hostdevcommon/kernel_structs.h); the emulator defines it in tc_emu/base.h.
#pragma once

#include "tc_emu/base.h"
