// Test compute: reduce each Ht x Wt block of X (POOL, DIM from defines) against a scaler tile of
// ones the kernel makes itself; one output tile per block. Compile-time args: Ht, Wt, blocks.
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/reduce.h"
#include "api/compute/eltwise_unary/fill.h"

void kernel_main() {
    constexpr uint32_t Ht = get_compile_time_arg_val(0), Wt = get_compile_time_arg_val(1);
    constexpr uint32_t blocks = get_compile_time_arg_val(2);
    compute_kernel_hw_startup(0, 2, 2);
    cb_reserve_back(2, 1);
    tile_regs_acquire();
    fill_tile_init();
    fill_tile(0, 1.0f);
    tile_regs_commit();
    tile_regs_wait();
    pack_tile(0, 2);
    tile_regs_release();
    cb_push_back(2, 1);
    cb_wait_front(2, 1);
    pack_reconfig_data_format(16);
    // REDUCE_ROW sums read the scaler through SrcA and the data through SrcB
    if (SWAP) {
        reconfig_data_format(2, 0);
    } else {
        reconfig_data_format(0, 2);
    }
    for (uint32_t b = 0; b < blocks; ++b) {
        cb_wait_front(0, Ht * Wt);
        tile_regs_acquire();
        reduce_init<POOL, DIM>(0, 2, 16);
        for (uint32_t i = 0; i < Ht * Wt; ++i) {
            reduce_tile<POOL, DIM>(0, 2, i, 0, 0);
        }
        tile_regs_commit();
        cb_reserve_back(16, 1);
        tile_regs_wait();
        pack_tile(0, 16);
        reduce_uninit();
        tile_regs_release();
        cb_push_back(16, 1);
        cb_pop_front(0, Ht * Wt);
    }
}
