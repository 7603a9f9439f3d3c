// Reduce, compute: each output tile is reduce_tile folded over the input tiles of one tile row
// (REDUCE_ROW) or one tile column (REDUCE_COL) into DST tile 0.
//
// The host picks the reduction with the defines REDUCE_OP (a PoolType) and REDUCE_DIM (a
// ReduceDim), as ttnn's reduce programs do. reduce_init programs the packer's edge masks: a row
// reduction's result is column 0 of the output tile, a column reduction's is row 0, and the
// packer writes every other datum as zero.
//
// Compile-time args: tiles folded into each output (Wt for REDUCE_ROW, Ht for REDUCE_COL)
// Runtime args:      number of outputs (this core's share)
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/reconfig_data_format.h"
#include "api/compute/reduce.h"

#if !defined(REDUCE_OP) || !defined(REDUCE_DIM)
#error "the host must define REDUCE_OP (e.g. PoolType::SUM) and REDUCE_DIM (e.g. ReduceDim::REDUCE_ROW)"
#endif

void kernel_main() {
    constexpr uint32_t tiles_per_output = get_compile_time_arg_val(0);
    const uint32_t num_outputs = get_arg_val<uint32_t>(0);

    constexpr uint32_t cb_in = tt::CBIndex::c_0;
    constexpr uint32_t cb_scaler = tt::CBIndex::c_2;
    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    constexpr uint32_t dst = 0;

    compute_kernel_hw_startup(cb_in, cb_scaler, cb_out);
    // A SUM or AVG along rows runs as a matrix multiply with the operands swapped (the scaler in
    // SrcA, the data in SrcB), so the unpackers' formats must be set up that way round first.
    if constexpr (REDUCE_DIM == ReduceDim::REDUCE_ROW && REDUCE_OP != PoolType::MAX) {
        reconfig_data_format(cb_scaler, cb_in);
    }
    reduce_init<REDUCE_OP, REDUCE_DIM>(cb_in, cb_scaler, cb_out);

    cb_wait_front(cb_scaler, 1);
    for (uint32_t o = 0; o < num_outputs; ++o) {
        tile_regs_acquire();
        for (uint32_t i = 0; i < tiles_per_output; ++i) {
            cb_wait_front(cb_in, 1);
            reduce_tile<REDUCE_OP, REDUCE_DIM>(cb_in, cb_scaler, 0, 0, dst);
            cb_pop_front(cb_in, 1);
        }
        tile_regs_commit();

        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(dst, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
    }
    cb_pop_front(cb_scaler, 1);
    // The edge masks outlive the loop unless cleared: put the packer back in its default state.
    reduce_uninit(cb_in);
}
