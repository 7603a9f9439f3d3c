// Test compute: each input tile X[i] broadcast three ways with unary_bcast into DST (tile 0: row 0
// down every row, BroadcastType::ROW; tile 1: column 0 across every column, COL; tile 2: element
// [0, 0] everywhere, SCALAR), the three packed in that order. Runtime args: tile count.
#include <cstdint>

#include "api/compute/bcast.h"
#include "api/compute/cb_api.h"
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/pack.h"
#include "api/compute/reg_api.h"

void kernel_main() {
    const uint32_t count = get_arg_val<uint32_t>(0);
    compute_kernel_hw_startup(0, 16);
    for (uint32_t i = 0; i < count; ++i) {
        cb_wait_front(0, 1);
        tile_regs_acquire();
        unary_bcast_init<BroadcastType::ROW>(0);
        unary_bcast<BroadcastType::ROW>(0, 0, 0);
        unary_bcast_init<BroadcastType::COL>(0);
        unary_bcast<BroadcastType::COL>(0, 0, 1);
        unary_bcast_init<BroadcastType::SCALAR>(0);
        unary_bcast<BroadcastType::SCALAR>(0, 0, 2);
        tile_regs_commit();
        cb_pop_front(0, 1);
        cb_reserve_back(16, 3);
        tile_regs_wait();
        pack_tile(0, 16);
        pack_tile(1, 16);
        pack_tile(2, 16);
        tile_regs_release();
        cb_push_back(16, 3);
    }
}
