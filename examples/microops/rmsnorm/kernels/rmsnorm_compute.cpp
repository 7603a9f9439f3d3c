// Fused RMSNorm on a height-sharded tensor, compute: for each tile row of this core's shard,
//     y = x * rsqrt(mean(x^2, along W) + eps) * gamma
// in four steps, all on data already in L1:
//   1. x^2 on the FPU, into the scratch CB;
//   2. the row sums of x^2 with reduce_tile (REDUCE_ROW; the scaler tile holds 1/W, so the sums
//      come out as means), then eps added and rsqrt taken on the SFPU in the same DST tile;
//      packed, the result is one tile whose column 0 holds each row's 1/rms;
//   3. x times that column, broadcast along the rows (mul_tiles_bcast_cols), into scratch again
//      (step 2 emptied it, so one scratch CB serves both steps);
//   4. times gamma's row 0, broadcast down the columns (mul_tiles_bcast_rows), into the output
//      CB, which is aliased to the output shard.
// Steps 1, 3 and 4 go through DST dst_tiles tiles at a time: half of DST, 8 tiles of 16-bit data
// or 4 with fp32 accumulation.
//
// Every CB is bfloat16, so the unpacker and packer formats set by the startup hold for every
// step. The one reconfig_data_format pair is the row reduction's documented contract (its scaler
// goes to SrcA and the data to SrcB, the reverse of the other ops) and its undoing; with CBs of
// different formats each step would need its own.
//
// Compile-time args (named): Wt, shard_rows (tile rows in the shard), dst_tiles, epsilon (fp32 bits)
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/bcast.h"
#include "api/compute/eltwise_binary.h"
#include "api/compute/reconfig_data_format.h"
#include "api/compute/reduce.h"
#include "api/compute/eltwise_unary/binop_with_scalar.h"
#include "api/compute/eltwise_unary/rsqrt.h"

namespace {

constexpr uint32_t cb_x = tt::CBIndex::c_0;
constexpr uint32_t cb_gamma = tt::CBIndex::c_1;
constexpr uint32_t cb_scaler = tt::CBIndex::c_2;
constexpr uint32_t cb_rstd = tt::CBIndex::c_3;
constexpr uint32_t cb_out = tt::CBIndex::c_16;
constexpr uint32_t cb_scratch = tt::CBIndex::c_24;

// Runs `op(tile, dst)` for tiles [0, count) in groups of `dst_tiles`, packing each group into
// `cb_dst`. The current init must be the one `op` needs.
template <uint32_t dst_tiles, typename Op>
void for_tiles_in_dst_groups(uint32_t count, uint32_t cb_dst, Op op) {
    for (uint32_t first = 0; first < count; first += dst_tiles) {
        const uint32_t n = count - first < dst_tiles ? count - first : dst_tiles;
        tile_regs_acquire();
        for (uint32_t i = 0; i < n; ++i) {
            op(first + i, i);
        }
        tile_regs_commit();
        cb_reserve_back(cb_dst, n);
        tile_regs_wait();
        for (uint32_t i = 0; i < n; ++i) {
            pack_tile(i, cb_dst);
        }
        tile_regs_release();
        cb_push_back(cb_dst, n);
    }
}

}  // namespace

void kernel_main() {
    constexpr uint32_t Wt = get_named_compile_time_arg_val("Wt");
    constexpr uint32_t shard_rows = get_named_compile_time_arg_val("shard_rows");
    constexpr uint32_t dst_tiles = get_named_compile_time_arg_val("dst_tiles");
    constexpr uint32_t epsilon_bits = get_named_compile_time_arg_val("epsilon");

    compute_kernel_hw_startup(cb_x, cb_x, cb_scratch);
    cb_wait_front(cb_scaler, 1);
    cb_wait_front(cb_gamma, Wt);
    cb_wait_front(cb_x, shard_rows * Wt);

    for (uint32_t row = 0; row < shard_rows; ++row) {
        const uint32_t x0 = row * Wt;  // this tile row's first tile in the shard

        // 1. x^2
        mul_init(cb_x, cb_x);
        for_tiles_in_dst_groups<dst_tiles>(Wt, cb_scratch, [x0](uint32_t t, uint32_t dst) {
            mul_tiles(cb_x, cb_x, x0 + t, x0 + t, dst);
        });

        // 2. 1 / sqrt(mean(x^2) + eps), in column 0 of one tile
        reconfig_data_format(cb_scaler, cb_scratch);
        reduce_init<PoolType::SUM, ReduceDim::REDUCE_ROW>(cb_scratch, cb_scaler, cb_rstd);
        cb_wait_front(cb_scratch, Wt);
        tile_regs_acquire();
        for (uint32_t t = 0; t < Wt; ++t) {
            reduce_tile<PoolType::SUM, ReduceDim::REDUCE_ROW>(cb_scratch, cb_scaler, t, 0, 0);
        }
        binop_with_scalar_tile_init();
        add_unary_tile(0, epsilon_bits);
        rsqrt_tile_init();
        rsqrt_tile(0);
        tile_regs_commit();
        cb_pop_front(cb_scratch, Wt);
        cb_reserve_back(cb_rstd, 1);
        tile_regs_wait();
        pack_tile(0, cb_rstd);  // the reduce's edge mask zeroes every column but 0
        tile_regs_release();
        cb_push_back(cb_rstd, 1);
        // Full tiles are packed from here on: clear the reduce's packer edge mask first.
        reduce_uninit(cb_scratch);

        // 3. x * (1 / rms), column 0 broadcast along each row
        reconfig_data_format(cb_x, cb_rstd);
        mul_bcast_cols_init(cb_x, cb_rstd);
        cb_wait_front(cb_rstd, 1);
        for_tiles_in_dst_groups<dst_tiles>(Wt, cb_scratch, [x0](uint32_t t, uint32_t dst) {
            mul_tiles_bcast_cols(cb_x, cb_rstd, x0 + t, 0, dst);
        });
        cb_pop_front(cb_rstd, 1);

        // 4. * gamma, row 0 broadcast down each column
        mul_bcast_rows_init(cb_scratch, cb_gamma);
        cb_wait_front(cb_scratch, Wt);
        for_tiles_in_dst_groups<dst_tiles>(Wt, cb_out, [](uint32_t t, uint32_t dst) {
            mul_tiles_bcast_rows(cb_scratch, cb_gamma, t, t, dst);
        });
        cb_pop_front(cb_scratch, Wt);
    }
    cb_pop_front(cb_x, shard_rows * Wt);
}
