// Remote (global) circular buffers (0.81.1 api/remote_circular_buffer.h): a CB whose pages another
// core pushes through the NoC, as the matmul's in1 reader uses with ENABLE_GLOBAL_CB (the weights
// prefetcher). Declared so that kernels including the header compile; the emulator does not model
// global CBs, so a call stops the run (E5009) at the kernel's line.
#pragma once

#include <cstdint>

#include "tc_emu/base.h"
#include "tc_emu/noc_addr.h"
#include "tc_emu/runtime.h"

namespace experimental {

FORCE_INLINE void remote_cb_wait_front(uint32_t cb_id, uint32_t num_pages, TC_LOC) {
    (void)cb_id;
    (void)num_pages;
    ::tc::not_modelled("remote_cb_wait_front (global circular buffers)", tc_loc);
}

FORCE_INLINE void remote_cb_pop_front(uint32_t cb_id, uint32_t num_pages, uint8_t noc = noc_index, TC_LOC) {
    (void)cb_id;
    (void)num_pages;
    (void)noc;
    ::tc::not_modelled("remote_cb_pop_front (global circular buffers)", tc_loc);
}

FORCE_INLINE void update_remote_cb_config_in_l1(uint32_t remote_cb_index, TC_LOC) {
    (void)remote_cb_index;
    ::tc::not_modelled("update_remote_cb_config_in_l1 (global circular buffers)", tc_loc);
}

}  // namespace experimental
