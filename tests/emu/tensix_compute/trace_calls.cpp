// The compute API calls whose trace events test_tensix_compute.py compares across the two engines:
// reconfigurations (both operands, one, the packer; with and without the old CB), inits (FPU binary,
// broadcast, unary broadcast and its uninit, copy, SFPU), the broadcast forms (named and templated)
// and SFPU calls whose operation the name does not say (negative_tile). CBs 0 and 1 hold one tile
// each; six tiles go to CB 16.
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
    compute_kernel_hw_startup(0, 1, 16);
    cb_wait_front(0, 1);
    cb_wait_front(1, 1);
    reconfig_data_format(0, 1);
    reconfig_data_format(0, 0, 1, 1);
    reconfig_data_format_srca(0);
    reconfig_data_format_srcb(1, 1);
    pack_reconfig_data_format(16);
    pack_reconfig_data_format(16, 16);
    tile_regs_acquire();
    add_init(0, 1);
    add_tiles(0, 1, 0, 0, 0);
    add_bcast_rows_init(0, 1);
    add_tiles_bcast_rows(0, 1, 0, 0, 1);
    mul_bcast_cols_init(0, 1);
    mul_tiles_bcast_cols(0, 1, 0, 0, 2);
    sub_bcast_scalar_init(0, 1);
    sub_tiles_bcast<BroadcastType::SCALAR>(0, 1, 0, 0, 3);
    unary_bcast_init<BroadcastType::COL>(1);
    unary_bcast<BroadcastType::COL>(1, 0, 4);
    unary_bcast_uninit<BroadcastType::COL>(1);
    copy_init(0);
    copy_tile(0, 0, 5);
    exp_tile_init();
    exp_tile(5);
    negative_tile_init();
    negative_tile(5);
    add_binary_tile_init();
    add_binary_tile(4, 5, 5);
    tile_regs_commit();
    cb_pop_front(0, 1);
    cb_pop_front(1, 1);
    cb_reserve_back(16, 6);
    tile_regs_wait();
    for (uint32_t i = 0; i < 6; ++i) pack_tile(i, 16);
    tile_regs_release();
    cb_push_back(16, 6);
}
