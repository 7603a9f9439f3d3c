// Test compute: reduce each Ht x Wt block of X against a scaler tile of ones the kernel makes
// itself; one output tile per block. Compile-time args: Ht, Wt, blocks. Runtime arg 0 picks the
// reduction (one kernel for all six, so a test of each compiles it once): SUM or MAX (bit 0) over
// REDUCE_ROW, REDUCE_COL or REDUCE_SCALAR (arg / 2).
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/reduce.h"
#include "api/compute/eltwise_unary/fill.h"

template <PoolType pool, ReduceDim dim>
void reduce_blocks() {
    constexpr uint32_t Ht = get_compile_time_arg_val(0), Wt = get_compile_time_arg_val(1);
    constexpr uint32_t blocks = get_compile_time_arg_val(2);
    // REDUCE_ROW sums read the scaler through SrcA and the data through SrcB
    if (pool == PoolType::SUM && dim == ReduceDim::REDUCE_ROW) {
        reconfig_data_format(2, 0);
    } else {
        reconfig_data_format(0, 2);
    }
    for (uint32_t b = 0; b < blocks; ++b) {
        cb_wait_front(0, Ht * Wt);
        tile_regs_acquire();
        reduce_init<pool, dim>(0, 2, 16);
        for (uint32_t i = 0; i < Ht * Wt; ++i) {
            reduce_tile<pool, dim>(0, 2, i, 0, 0);
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

template <PoolType pool>
void reduce_over(uint32_t dim) {
    switch (dim) {
        case 0: reduce_blocks<pool, ReduceDim::REDUCE_ROW>(); break;
        case 1: reduce_blocks<pool, ReduceDim::REDUCE_COL>(); break;
        default: reduce_blocks<pool, ReduceDim::REDUCE_SCALAR>(); break;
    }
}

void kernel_main() {
    const uint32_t which = get_arg_val<uint32_t>(0);
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
    if (which & 1) {
        reduce_over<PoolType::MAX>(which / 2);
    } else {
        reduce_over<PoolType::SUM>(which / 2);
    }
}
