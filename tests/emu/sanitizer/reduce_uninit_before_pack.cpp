#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/eltwise_unary/fill.h"
#include "api/compute/reduce.h"

// reduce_uninit clears the packer mask before the result is packed
void kernel_main() {
    compute_kernel_hw_startup(0, 0, 16);
    cb_reserve_back(0, 2);
    for (uint32_t i = 0; i < 2; ++i) {
        tile_regs_acquire();
        fill_tile_init();
        fill_tile(0, 1.0f);
        tile_regs_commit();
        tile_regs_wait();
        pack_tile(0, 0);
        tile_regs_release();
    }
    cb_push_back(0, 2);
    cb_wait_front(0, 2);
    cb_reserve_back(16, 1);
    tile_regs_acquire();
    reduce_init<PoolType::SUM, ReduceDim::REDUCE_COL>(0, 0, 16);
    reduce_tile<PoolType::SUM, ReduceDim::REDUCE_COL>(0, 0, 0, 1, 0);
    reduce_uninit();
    tile_regs_commit();
    tile_regs_wait();
    pack_tile(0, 16);  // FINDING-HERE
    tile_regs_release();
}
