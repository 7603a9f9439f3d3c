// The ckernel globals every TRISC's firmware defines (tt-metal's trisc.cc/trisck.cc, the LLK
// suite's ckernel_helper.h), with the machine's proxies for the two register windows whose
// accesses have side effects. Included once per TRISC translation unit, by its firmware stand-in
// (tc_trisc_main.h or tc_compute_trisc_main.h), which binds `regfile` to the TRISC's GPRs.
#pragma once

#include <cstdint>

#include "ckernel.h"
#include "tc_tensix_kernel.h"

namespace ckernel {
::tc_tensix::PcBuf pc_buf_base;
volatile std::uint32_t tt_reg_ptr* regfile = nullptr;
::tc_tensix::Mailbox mailbox_base[4] = {{0}, {1}, {2}, {3}};
std::uint32_t cfg_state_id = 0;
std::uint32_t dest_offset_id = 0;
}  // namespace ckernel
