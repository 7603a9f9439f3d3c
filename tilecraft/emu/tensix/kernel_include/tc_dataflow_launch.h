// What the kernel emulator hands a data-movement kernel (BRISC or NCRISC) that runs on the real
// 0.81.1 dataflow API (runtime/noc_niu.cpp fills it, tc_dataflow_main.h reads it): the parts of
// tt-metal's launch message and of the firmware's L1 tables that brisc.cc/ncrisc.cc read before the
// kernel runs. Every L1 address in it is the host address of that byte in the emulator's L1 window
// (below 2 GiB), so the kernel's own casts of these addresses reach its core's L1.
#pragma once

#include <cstddef>
#include <cstdint>
#include <source_location>

namespace tc_tensix {

constexpr int kDataflowCbs = 64;     // NUM_CIRCULAR_BUFFERS on Blackhole; Wormhole uses the first 32
constexpr int kDataflowBanks = 256;  // MEM_BANK_TO_NOC_XY_SCRATCH's room (dataflow_api_common.h)
constexpr int kDataflowGrid = 64;    // worker columns/rows the logical-to-virtual maps hold

// Where the architecture's NIU, CB counter and wall-clock registers lie, as the kernel's own build
// of the wheel's headers defines them (noc_parameters.h, noc_nonblocking_api.h,
// noc_overlay_parameters.h, tensix.h; tc_dataflow_main.h fills it from their macros): Wormhole B0
// and Blackhole place them differently (command buffers 0x400 or 0x800 apart, NOC_CMD_CTRL at 0x28
// or 0x40, a NoC address's coordinates in NOC_*_ADDR_MID or NOC_*_ADDR_HI, NOC_ID_LOGICAL word 0xE
// or 0x12, the CB counters in stream registers 3/4 or 8/10). Offsets of command-buffer registers
// are from the buffer's base.
struct NiuLayout {
    std::uint32_t regs_start = 0, instance_bits = 0, cmd_buf_bits = 0;
    std::uint32_t targ_lo = 0, targ_mid = 0, targ_coordinate = 0, ret_lo = 0, ret_mid = 0, ret_coordinate = 0,
                  packet_tag = 0, ctrl = 0, at_len_be = 0, at_data = 0, cmd_ctrl = 0, node_id = 0, endpoint_id = 0,
                  clear_outstanding = 0;
    std::uint32_t coordinate_shift = 0;  // NOC_ADDR_COORD_SHIFT: the coordinate register's place in a NoC address
    std::uint32_t cfg_base = 0, status_base = 0, noc_id_logical = 0;  // NOC_CFG(0), NOC_STATUS(0), a NOC_CFG word
    std::uint32_t overlay_start = 0, stream_space = 0, tiles_acked_reg = 0, tiles_received_reg = 0;
    std::uint32_t wall_clock_lo = 0, wall_clock_hi = 0;
};

struct DataflowLaunch {
    NiuLayout niu;  // the kernel's (set before tc_dataflow_launch is called)
    std::uint32_t* rta = nullptr;       // this core's runtime args
    std::uint32_t* crta = nullptr;      // the kernel's common runtime args
    std::uint32_t* semaphores = nullptr;  // semaphore 0 (the others follow at L1_ALIGNMENT strides)
    // The host's local CB configuration as the firmware finds it: per CB its address (a host
    // address), size, page count and page size in bytes; `cb_mask` has a bit per configured CB.
    std::uint32_t cb_config[kDataflowCbs][4] = {};
    std::uint64_t cb_mask = 0;
    std::uint8_t logical_x = 0, logical_y = 0;
    // The bank tables (per NoC the bank's coordinates, y << 6 | x; the kernel shifts them to its
    // architecture's NOC_XY_ENCODING, and the bank offsets), as noc_bank_table_init copies them.
    std::uint16_t dram_xy[2][kDataflowBanks] = {}, l1_xy[2][kDataflowBanks] = {};
    std::int32_t dram_offset[kDataflowBanks] = {}, l1_offset[kDataflowBanks] = {};
    std::uint8_t col_to_virtual[kDataflowGrid] = {}, row_to_virtual[kDataflowGrid] = {};
    // Where the emulator keeps the RISC's last API call: the kernel's SiteScopes write its call
    // sites there (tc_tensix_kernel.h), and the emulator's findings name it.
    std::source_location* call_site = nullptr;
    // and the name of that call (the API function the kernel called), which a deadlock report names
    const char** call_name = nullptr;
    // counts the kernel's API calls (each outermost scope adds one): the transfers one call issues
    // packet by packet are one call in the profiling trace
    std::uint64_t* call_serial = nullptr;
};

// Fills `launch` for the calling kernel's core and RISC (a data-movement fiber of the emulator).
extern "C" void tc_dataflow_launch(DataflowLaunch* launch);

// The emulator's own checks of the dataflow API's calls (tilecraft/emu/dataflow_checks.py: the
// machine tree opens each listed function with TC_API_CHECK, tc_tensix_kernel.h): `a` and `b` are
// two of the call's parameters (the CB and its pages, an argument index, a semaphore id, a
// multicast's NoC address and destination count, a barrier's NoC), `c` a third value (the RISC's
// own CB pointer at a push or pop, a multicast's NoC, whether a poll found its pages). The emulator
// checks them against the state it keeps (runtime/noc_niu.cpp), reports at the RISC's last call
// site (the kernel's line) and records the call in the profiling trace when one is recorded.
enum class ApiCheck : int {
    CbReserve, CbWait, CbPush, CbPop,
    CbReservable, CbAvailable,  // a poll's result (c: found the pages)
    CbWritePtr, CbReadPtr, Arg, CommonArg, Semaphore,
    // a multicast's destination count against its rectangle
    WriteMulticast, WriteMulticastLoopback, SemaphoreSetMulticast, SemaphoreSetMulticastLoopback, SemaphoreIncMulticast,
    // a semaphore wait (its L1 word and value): the wait a deadlock report names
    SemaphoreWait, SemaphoreWaitMin,
    // a local semaphore set (its word and value); a remote one (the write it issues is the semaphore's)
    SemaphoreSet, SemaphoreSetRemote,
    // the barriers, in tc::Barrier's order (a: the NoC)
    ReadBarrier, WriteBarrier, WritesFlushed, PostedWritesFlushed, AtomicBarrier, FullBarrier
};
void api_check(ApiCheck call, std::uint64_t a, std::uint32_t b, std::uint32_t c);

}  // namespace tc_tensix

namespace tc {
// ASSERT(condition) failed in the kernel (E5008 at `site`; runtime/device.cpp).
void assert_failed(const char* condition, std::source_location site);
}  // namespace tc

// get_named_compile_time_arg_val of a name the host did not pass (E5116 at `site`; runtime/dataflow.cpp).
void tc_named_compile_time_arg_is_not_defined(const char* name, std::size_t length, std::source_location site);
