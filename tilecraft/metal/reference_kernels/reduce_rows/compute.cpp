// Row sums, compute.  Hand-written tilecraft reference kernel, tt-metal 0.81.1.
//
// For each band, reduce_tile<SUM, REDUCE_ROW> accumulates its Wt tiles into one DST tile (column 0
// of the result holds the row sums), one pack per band. A row SUM reduce runs on the matrix unit
// with the scaler in SrcA and the data in SrcB, so the unpackers are configured that way round.
// reduce_uninit comes after the last pack: it clears the packer's edge mask the packs rely on.
//
// Compile-time args: Wt.
// Runtime args:      num_bands.
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/reconfig_data_format.h"
#include "api/compute/reduce.h"

void kernel_main() {
    const uint32_t num_bands = get_arg_val<uint32_t>(0);
    constexpr uint32_t Wt = get_compile_time_arg_val(0);

    constexpr uint32_t cb_in = tt::CBIndex::c_0;
    constexpr uint32_t cb_scaler = tt::CBIndex::c_2;
    constexpr uint32_t cb_out = tt::CBIndex::c_16;

    compute_kernel_hw_startup(cb_in, cb_scaler, cb_out);
    reconfig_data_format(cb_scaler, cb_in);
    reduce_init<PoolType::SUM, ReduceDim::REDUCE_ROW>(cb_in, cb_scaler, cb_out);

    cb_wait_front(cb_scaler, 1);
    for (uint32_t band = 0; band < num_bands; ++band) {
        cb_wait_front(cb_in, Wt);
        tile_regs_acquire();
        for (uint32_t t = 0; t < Wt; ++t) {
            reduce_tile<PoolType::SUM, ReduceDim::REDUCE_ROW>(cb_in, cb_scaler, t, 0, 0);
        }
        tile_regs_commit();
        cb_pop_front(cb_in, Wt);

        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(0, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
    }
    cb_pop_front(cb_scaler, 1);
    reduce_uninit(cb_in);
}
