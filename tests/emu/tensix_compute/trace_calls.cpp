// The compute API calls whose trace events test_tensix_compute.py checks, each line's events in
// its `// TRACE:` comment (the kind, then the fields a-d: a CB operand as its page bytes, a CB
// index, an init's Mode, a binary's Fpu and Bcast, an SFPU operation's code): reconfigurations (both
// operands, one, the packer; with and without the old CB), inits (FPU binary, broadcast, unary
// broadcast and its uninit, copy, SFPU), the broadcast forms (named and templated) and SFPU calls
// whose operation the name does not say (negative_tile). CBs 0 and 1 hold one tile each; six tiles
// go to CB 16.
#include <cstdint>
#include "api/compute/bcast.h"
#include "api/compute/cb_api.h"
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/eltwise_binary.h"
#include "api/compute/eltwise_binary_sfpu.h"
#include "api/compute/eltwise_unary/exp.h"
#include "api/compute/eltwise_unary/negative.h"
#include "api/compute/pack.h"
#include "api/compute/reconfig_data_format.h"
#include "api/compute/reg_api.h"
#include "api/compute/tile_move_copy.h"

void kernel_main() {
    compute_kernel_hw_startup(0, 1, 16);  // TRACE: HW_STARTUP 0 1 16 0
    cb_wait_front(0, 1);  // TRACE: CB_WAIT 0 1 0 0
    cb_wait_front(1, 1);  // TRACE: CB_WAIT 1 1 0 0
    reconfig_data_format(0, 1);  // TRACE: RECONFIG 0 0 0 0; RECONFIG 1 0 0 0
    reconfig_data_format(0, 0, 1, 1);  // TRACE: RECONFIG 0 0 0 0; RECONFIG 1 0 0 0
    reconfig_data_format_srca(0);  // TRACE: RECONFIG 0 0 0 0
    reconfig_data_format_srcb(1, 1);  // TRACE: RECONFIG 1 0 0 0
    pack_reconfig_data_format(16);  // TRACE: RECONFIG 16 1 0 0
    pack_reconfig_data_format(16, 16);  // TRACE: RECONFIG 16 1 0 0
    tile_regs_acquire();  // TRACE: ACQUIRE 0 0 0 0
    add_init(0, 1);  // TRACE: INIT 2 0 1 0
    add_tiles(0, 1, 0, 0, 0);  // TRACE: BINARY 2048 2048 0 0
    add_bcast_rows_init(0, 1);  // TRACE: INIT 3 0 1 0
    add_tiles_bcast_rows(0, 1, 0, 0, 1);  // TRACE: BINARY 2048 2048 0 1
    mul_bcast_cols_init(0, 1);  // TRACE: INIT 3 0 1 0
    mul_tiles_bcast_cols(0, 1, 0, 0, 2);  // TRACE: BINARY 2048 2048 2 2
    sub_bcast_scalar_init(0, 1);  // TRACE: INIT 3 0 1 0
    sub_tiles_bcast<BroadcastType::SCALAR>(0, 1, 0, 0, 3);  // TRACE: BINARY 2048 2048 1 3
    unary_bcast_init<BroadcastType::COL>(1);  // TRACE: INIT 4 1 0 0
    unary_bcast<BroadcastType::COL>(1, 0, 4);  // TRACE: UNARY_BCAST 2048 0 0 0
    unary_bcast_uninit<BroadcastType::COL>(1);  // TRACE: INIT 0 0 0 0
    copy_init(0);  // TRACE: INIT 1 0 0 0
    copy_tile(0, 0, 5);  // TRACE: COPY 2048 0 0 0
    exp_tile_init();  // TRACE: SFPU_INIT 0 0 0 0
    exp_tile(5);  // TRACE: SFPU_UNARY 0 0 0 0
    negative_tile_init();  // TRACE: SFPU_INIT 20 0 0 0
    negative_tile(5);  // TRACE: SFPU_UNARY 20 0 0 0
    add_binary_tile_init();  // TRACE: SFPU_INIT 0 0 0 0
    add_binary_tile(4, 5, 5);  // TRACE: SFPU_BINARY 0 0 0 0
    tile_regs_commit();  // TRACE: COMMIT 0 0 0 0
    cb_pop_front(0, 1);  // TRACE: CB_POP 0 1 0 0
    cb_pop_front(1, 1);  // TRACE: CB_POP 1 1 0 0
    cb_reserve_back(16, 6);  // TRACE: CB_RESERVE 16 6 0 0
    tile_regs_wait();  // TRACE: REGS_WAIT 0 0 0 0
    for (uint32_t i = 0; i < 6; ++i) pack_tile(i, 16);  // TRACE: PACK 2048 0 0 0
    tile_regs_release();  // TRACE: RELEASE 0 0 0 0
    cb_push_back(16, 6);  // TRACE: CB_PUSH 16 6 0 0
}
