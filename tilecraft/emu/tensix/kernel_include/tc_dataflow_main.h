// The firmware side of a data-movement kernel (BRISC or NCRISC) that runs on the real 0.81.1
// dataflow API in tilecraft's kernel emulator: included at the end of the translation unit that
// tilecraft/emu/tensix_dataflow.py lays out as brisck.cc / ncrisck.cc do (the firmware's headers,
// then the kernel).
//
// It takes the place of tt-metal's brisc.cc/ncrisc.cc and brisck.cc/ncrisck.cc: the globals they
// define, and what they do before and after the kernel: the bank tables and the logical-to-virtual
// maps (noc_bank_table_init, noc_worker_logical_to_virtual_map_init), the core's NoC coordinates
// (risc_init), the runtime-arg and semaphore bases (firmware_config_init), the local CB interfaces
// from the host's CB configuration by tt-metal's own setup_local_cb_read_write_interfaces, the NoC
// counters from the NIU (noc_local_state_init, in dedicated NoC mode). Everything the kernel calls
// is Tenstorrent's; the emulator's runtime backs the NIU and the other device registers.
#pragma once

#include <algorithm>
#include <cstdint>

#include "internal/circular_buffer_init.h"
#include "tc_dataflow_launch.h"
#include "tc_tensix_kernel.h"

// brisc.cc / ncrisck.cc
uint32_t noc_reads_num_issued[NUM_NOCS];
uint32_t noc_nonposted_writes_num_issued[NUM_NOCS];
uint32_t noc_nonposted_writes_acked[NUM_NOCS];
uint32_t noc_nonposted_atomics_acked[NUM_NOCS];
uint32_t noc_posted_writes_num_issued[NUM_NOCS];
uint8_t my_x[NUM_NOCS];
uint8_t my_y[NUM_NOCS];
uint8_t my_logical_x_ = 0;
uint8_t my_logical_y_ = 0;
uint8_t my_relative_x_ = 0;
uint8_t my_relative_y_ = 0;
uint32_t tt_l1_ptr* rta_l1_base = nullptr;
uint32_t tt_l1_ptr* crta_l1_base = nullptr;
uint32_t tt_l1_ptr* sem_l1_base[ProgrammableCoreType::COUNT] = {};
bank_noc_xy_t dram_bank_to_noc_xy[NUM_NOCS][NUM_DRAM_BANKS];
int32_t bank_to_dram_offset[NUM_DRAM_BANKS];
bank_noc_xy_t l1_bank_to_noc_xy[NUM_NOCS][NUM_L1_BANKS];
int32_t bank_to_l1_offset[NUM_L1_BANKS];
uint8_t worker_logical_col_to_virtual_col[round_up_to_mult_of_4(noc_size_x)];
uint8_t worker_logical_row_to_virtual_row[round_up_to_mult_of_4(noc_size_y)];
CBInterface cb_interface[NUM_CIRCULAR_BUFFERS];

namespace tc_tensix {
// The NIU and the other registers as this build of the wheel's headers places them (the emulator
// decodes the kernel's register accesses by it, runtime/noc_niu.cpp).
inline NiuLayout niu_layout() {
    NiuLayout l;
    l.regs_start = NOC_REGS_START_ADDR;
    l.instance_bits = NOC_INSTANCE_OFFSET_BIT;
    l.cmd_buf_bits = NOC_CMD_BUF_OFFSET_BIT;
    l.targ_lo = NOC_TARG_ADDR_LO - NOC_REGS_START_ADDR;
    l.targ_mid = NOC_TARG_ADDR_MID - NOC_REGS_START_ADDR;
    l.targ_coordinate = NOC_TARG_ADDR_COORDINATE - NOC_REGS_START_ADDR;
    l.ret_lo = NOC_RET_ADDR_LO - NOC_REGS_START_ADDR;
    l.ret_mid = NOC_RET_ADDR_MID - NOC_REGS_START_ADDR;
    l.ret_coordinate = NOC_RET_ADDR_COORDINATE - NOC_REGS_START_ADDR;
    l.packet_tag = NOC_PACKET_TAG - NOC_REGS_START_ADDR;
    l.ctrl = NOC_CTRL - NOC_REGS_START_ADDR;
    l.at_len_be = NOC_AT_LEN_BE - NOC_REGS_START_ADDR;
    l.at_data = NOC_AT_DATA - NOC_REGS_START_ADDR;
    l.cmd_ctrl = NOC_CMD_CTRL - NOC_REGS_START_ADDR;
    l.node_id = NOC_NODE_ID - NOC_REGS_START_ADDR;
    l.endpoint_id = NOC_ENDPOINT_ID - NOC_REGS_START_ADDR;
    l.clear_outstanding = NOC_CLEAR_OUTSTANDING_REQ_CNT - NOC_REGS_START_ADDR;
    l.coordinate_shift = NOC_ADDR_COORD_SHIFT;
    l.cfg_base = NOC_CFG(0) - NOC_REGS_START_ADDR;
    l.status_base = NOC_STATUS(0) - NOC_REGS_START_ADDR;
    l.noc_id_logical = NOC_ID_LOGICAL;
    l.overlay_start = NOC_OVERLAY_START_ADDR;
    l.stream_space = NOC_STREAM_REG_SPACE_SIZE;
    l.tiles_acked_reg = STREAM_REMOTE_DEST_BUF_START_REG_INDEX;     // get_cb_tiles_acked_ptr (stream_io_map.h)
    l.tiles_received_reg = STREAM_REMOTE_DEST_BUF_SIZE_REG_INDEX;   // get_cb_tiles_received_ptr
    l.wall_clock_lo = RISCV_DEBUG_REG_WALL_CLOCK_L;
    l.wall_clock_hi = RISCV_DEBUG_REG_WALL_CLOCK_H;
    return l;
}
}  // namespace tc_tensix

// Runs the kernel as brisc.cc/ncrisc.cc run one launch.
extern "C" TC_TENSIX_EXPORT void tc_kernel_entry() {
    static_assert(NUM_DRAM_BANKS <= ::tc_tensix::kDataflowBanks && NUM_L1_BANKS <= ::tc_tensix::kDataflowBanks);
    static ::tc_tensix::DataflowLaunch launch;  // per core: the emulator loads one copy of the kernel per core
    launch.niu = ::tc_tensix::niu_layout();
    tc_dataflow_launch(&launch);
    ::tc_tensix::g_call_site = launch.call_site;
    ::tc_tensix::g_call_name = launch.call_name;
    ::tc_tensix::g_call_serial = launch.call_serial;
    ::tc_tensix::g_call_depth = 0;  // a run that stopped inside an API call left its scope open
    const auto encoding = [](std::uint16_t xy) { return bank_noc_xy_t(xy << NOC_COORD_REG_OFFSET); };
    for (uint32_t noc = 0; noc < NUM_NOCS; ++noc) {
        std::transform(launch.dram_xy[noc], launch.dram_xy[noc] + NUM_DRAM_BANKS, dram_bank_to_noc_xy[noc], encoding);
        std::transform(launch.l1_xy[noc], launch.l1_xy[noc] + NUM_L1_BANKS, l1_bank_to_noc_xy[noc], encoding);
    }
    std::copy_n(launch.dram_offset, NUM_DRAM_BANKS, bank_to_dram_offset);
    std::copy_n(launch.l1_offset, NUM_L1_BANKS, bank_to_l1_offset);
    std::copy_n(launch.col_to_virtual, std::min<std::size_t>(sizeof worker_logical_col_to_virtual_col,
                                                             ::tc_tensix::kDataflowGrid),
                worker_logical_col_to_virtual_col);
    std::copy_n(launch.row_to_virtual, std::min<std::size_t>(sizeof worker_logical_row_to_virtual_row,
                                                             ::tc_tensix::kDataflowGrid),
                worker_logical_row_to_virtual_row);
    risc_init();
    my_logical_x_ = my_relative_x_ = launch.logical_x;
    my_logical_y_ = my_relative_y_ = launch.logical_y;
    rta_l1_base = launch.rta;
    crta_l1_base = launch.crta;
    sem_l1_base[ProgrammableCoreType::TENSIX] = launch.semaphores;
    auto* config = &launch.cb_config[0][0];
    setup_local_cb_read_write_interfaces<true, true, false, false>(config, 0,
                                                                   static_cast<uint32_t>(launch.cb_mask & 0xFFFFFFFFu));
#if defined(ARCH_BLACKHOLE)
    setup_local_cb_read_write_interfaces<true, true, false, false>(config, 32, static_cast<uint32_t>(launch.cb_mask >> 32));
#endif
    if constexpr (NOC_MODE == DM_DEDICATED_NOC) {
        noc_local_state_init(NOC_INDEX);
    }
    kernel_main();
    ::tc_tensix::dataflow_done();
}
