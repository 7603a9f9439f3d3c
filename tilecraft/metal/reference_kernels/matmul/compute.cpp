// Tiled matmul C[M,N] = A[M,K] @ B[K,N], compute.  Hand-written tilecraft reference kernel,
// tt-metal 0.81.1.
//
// For each of the out_count output tiles: acquire DST once, let matmul_tiles accumulate the
// Kt products A(m, k) @ B(k, n) into DST[0], then pack the finished tile.
//
// Runtime args: out_count, Kt.
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/matmul.h"

void kernel_main() {
    const uint32_t out_count = get_arg_val<uint32_t>(0);
    const uint32_t Kt = get_arg_val<uint32_t>(1);

    constexpr uint32_t cb_a = tt::CBIndex::c_0;
    constexpr uint32_t cb_b = tt::CBIndex::c_1;
    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    constexpr uint32_t dst = 0;

    compute_kernel_hw_startup(cb_a, cb_b, cb_out);
    matmul_init(cb_a, cb_b);

    for (uint32_t out = 0; out < out_count; ++out) {
        tile_regs_acquire();
        for (uint32_t k = 0; k < Kt; ++k) {
            cb_wait_front(cb_a, 1);
            cb_wait_front(cb_b, 1);
            matmul_tiles(cb_a, cb_b, 0, 0, dst);
            cb_pop_front(cb_a, 1);
            cb_pop_front(cb_b, 1);
        }
        tile_regs_commit();

        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(dst, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
    }
}
