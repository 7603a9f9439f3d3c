// 0.81.1 api/compute/binary_shift.h, declared only (tilecraft/emu/build.py DECLARED_ONLY): ttnn's kernel_lib
// includes it with every other op header of its eltwise chain. The emulator does not model its
// functions yet, so none is declared: a kernel that calls one does not compile (E5002, naming it).
#pragma once

#include "api/compute/common_globals.h"
