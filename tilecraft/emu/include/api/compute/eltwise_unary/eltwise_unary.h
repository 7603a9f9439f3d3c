// unary-op setup (0.81.1 api/compute/eltwise_unary/eltwise_unary.h): start-up plus a copy init
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/tile_move_copy.h"

namespace ckernel {

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void unary_op_init_common(uint32_t icb, uint32_t ocb, uint32_t call_line = __builtin_LINE(), TC_LOC) {
    (void)call_line;
    ::tc::hw_startup(icb, icb, ocb, tc_loc);
    ::tc::init_mode(::tc::Mode::Copy, icb, 0, 0, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void init_sfpu(uint32_t icb, uint32_t ocb, uint32_t call_line = __builtin_LINE(), TC_LOC) {
    (void)call_line;
    ::tc::hw_startup(icb, icb, ocb, tc_loc);
    ::tc::init_mode(::tc::Mode::Copy, icb, 0, 0, tc_loc);
}

}  // namespace ckernel
