// y = gelu(a @ b + bias), compute.  Hand-written tilecraft reference kernel, tt-metal 0.81.1.
//
// Per output block (BM x BN tiles, at most half of an fp32 DST): matmul_block accumulates every K
// block into DST, which holds the sum across K (no pack per K step); the sum is packed once into an
// fp32 CB, then add_tiles_bcast_rows adds the bias row on the FPU and gelu_tile (the accurate form,
// as the language's gelu) finishes in DST before the pack to the output, as ttnn's matmul with a
// fused bias does.
//
// Compile-time args: BM, BN, BK.
// Runtime args:      blocks, k_blocks.
#include <cstdint>

#include "api/compute/bcast.h"
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/eltwise_unary/gelu.h"
#include "api/compute/matmul.h"
#include "api/compute/pack.h"
#include "api/compute/reconfig_data_format.h"
#include "api/compute/reg_api.h"

void kernel_main() {
    const uint32_t blocks = get_arg_val<uint32_t>(0);
    const uint32_t k_blocks = get_arg_val<uint32_t>(1);
    constexpr uint32_t BM = get_compile_time_arg_val(0);
    constexpr uint32_t BN = get_compile_time_arg_val(1);
    constexpr uint32_t BK = get_compile_time_arg_val(2);
    constexpr uint32_t tiles = BM * BN;

    constexpr uint32_t cb_a = tt::CBIndex::c_0;
    constexpr uint32_t cb_b = tt::CBIndex::c_1;
    constexpr uint32_t cb_bias = tt::CBIndex::c_2;
    constexpr uint32_t cb_sum = tt::CBIndex::c_24;
    constexpr uint32_t cb_out = tt::CBIndex::c_16;

    compute_kernel_hw_startup(cb_a, cb_b, cb_sum);
    for (uint32_t block = 0; block < blocks; ++block) {
        tile_regs_acquire();
        reconfig_data_format(cb_b, cb_a);
        matmul_block_init(cb_a, cb_b, 0, BN, BM, BK);
        for (uint32_t kb = 0; kb < k_blocks; ++kb) {
            cb_wait_front(cb_a, BM * BK);
            cb_wait_front(cb_b, BK * BN);
            for (uint32_t k = 0; k < BK; ++k) {
                matmul_block(cb_a, cb_b, k, k * BN, 0, 0, BN, BM, BK);
            }
            cb_pop_front(cb_a, BM * BK);
            cb_pop_front(cb_b, BK * BN);
        }
        tile_regs_commit();
        cb_reserve_back(cb_sum, tiles);
        tile_regs_wait();
        pack_reconfig_data_format(cb_sum);
        for (uint32_t t = 0; t < tiles; ++t) {
            pack_tile(t, cb_sum);
        }
        tile_regs_release();
        cb_push_back(cb_sum, tiles);

        cb_wait_front(cb_sum, tiles);
        cb_wait_front(cb_bias, BN);
        tile_regs_acquire();
        reconfig_data_format(cb_sum, cb_bias);
        add_bcast_rows_init(cb_sum, cb_bias);
        for (uint32_t t = 0; t < tiles; ++t) {
            add_tiles_bcast_rows(cb_sum, cb_bias, t, t % BN, t);
        }
        gelu_tile_init<false>();
        for (uint32_t t = 0; t < tiles; ++t) {
            gelu_tile<false>(t);
        }
        tile_regs_commit();
        cb_pop_front(cb_sum, tiles);
        cb_pop_front(cb_bias, BN);
        cb_reserve_back(cb_out, tiles);
        tile_regs_wait();
        pack_reconfig_data_format(cb_out);
        for (uint32_t t = 0; t < tiles; ++t) {
            pack_tile(t, cb_out);
        }
        tile_regs_release();
        cb_push_back(cb_out, tiles);
    }
}
