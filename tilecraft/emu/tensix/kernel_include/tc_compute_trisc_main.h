// The firmware side of one TRISC of a ttnn compute kernel on tilecraft's Tensix machine: included
// at the end of the translation unit that includes the JIT build's chlkc_list.h
// (tilecraft/emu/tensix_compute.py).
//
// It takes the place of tt-metal's TRISC firmware (hw/firmware/src/tt-1xx/trisc.cc and
// trisck.cc): the globals they define, with the machine's proxies for the PC buffer and the
// mailboxes, and what trisc.cc's main does before it jumps to the kernel (GPRs cleared, config
// state reset, the PRNG seed zeroed, the local CB interfaces set up from the host's CB
// configuration by tt-metal's own setup_local_cb_read_write_interfaces, the runtime-arg bases).
// run_kernel (chlkc_list.h) and everything under it are Tenstorrent's.
#pragma once

#include <algorithm>
#include <cstdint>

#include "ckernel.h"
#include "internal/circular_buffer_init.h"
#include "tc_boot.h"
#include "tc_ckernel_globals.h"
#include "tc_compute_launch.h"
#include "tc_tensix_kernel.h"

// trisck.cc's globals
uint32_t unp_cfg_context = 0;
uint32_t pack_sync_tile_dst_ptr = 0;
uint32_t math_sync_tile_dst_index = 0;
uint32_t gl_alu_format_spec_reg = 0;
uint32_t op_info_offset = 0;
// trisc.cc's globals
uint32_t tt_l1_ptr* rta_l1_base = nullptr;
uint32_t tt_l1_ptr* crta_l1_base = nullptr;
uint8_t my_logical_x_ = 0;
uint8_t my_logical_y_ = 0;
uint8_t my_relative_x_ = 0;
uint8_t my_relative_y_ = 0;
CBInterface cb_interface[NUM_CIRCULAR_BUFFERS];


// Runs this TRISC's compute kernel as trisc.cc's main does for one launch.
extern "C" TC_TENSIX_EXPORT void tc_compute_trisc_main(const ::tc_tensix::ComputeLaunch* launch) {
    ckernel::regfile = ::tc_tensix::mmio_cast<volatile std::uint32_t*>(REGFILE_BASE);
#if defined(UCK_CHLKC_UNPACK)
    tc_boot_coprocessor();  // BRISC's device_setup, done before it releases the TRISCs
#endif
    std::fill(ckernel::regfile, ckernel::regfile + 64, 0);
    ckernel::reset_cfg_state_id();
    ckernel::get_cfg_pointer()[PRNG_SEED_Seed_Val_ADDR32] = 0;
    my_logical_x_ = my_relative_x_ = launch->logical_x;
    my_logical_y_ = my_relative_y_ = launch->logical_y;
#if !defined(UCK_CHLKC_MATH)
    constexpr bool read = COMPILE_FOR_TRISC == 0, write = COMPILE_FOR_TRISC == 2;
    auto* config = const_cast<uint32_t*>(&launch->cb_config[0][0]);
    setup_local_cb_read_write_interfaces<read, write, write, false>(
        config, 0, static_cast<uint32_t>(launch->cb_mask & 0xFFFFFFFFu));
#if defined(ARCH_BLACKHOLE)
    setup_local_cb_read_write_interfaces<read, write, write, false>(config, 32, static_cast<uint32_t>(launch->cb_mask >> 32));
#endif
#endif
    rta_l1_base = launch->rta;
    crta_l1_base = launch->crta;
    run_kernel();
    ckernel::tensix_sync();
}
