// Single-core matmul C[M,N] = A[M,K] @ B[K,N], compute.
//
// For each output tile (m, n), matmul_tiles accumulates the Kt products A(m, k) @ B(k, n) into
// DST tile 0 (it adds to DST, so the acquire's zeroed DST is the accumulator's start). A's row
// is held in CB c_0 for the whole row of outputs and indexed by k without popping; B's column
// is popped after each output tile.
//
// Matmul feeds in0 (A) to the FPU's SrcB and in1 (B) to SrcA, the reverse of every other FPU
// op, so the one-time hardware startup is told so with SrcOrder::Reverse; the unpackers'
// formats are then programmed for the registers the operands really land in.
//
// Compile-time args: Mt, Kt, Nt (in tiles)
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/matmul.h"

void kernel_main() {
    constexpr uint32_t Mt = get_compile_time_arg_val(0);
    constexpr uint32_t Kt = get_compile_time_arg_val(1);
    constexpr uint32_t Nt = get_compile_time_arg_val(2);

    constexpr uint32_t cb_a = tt::CBIndex::c_0;
    constexpr uint32_t cb_b = tt::CBIndex::c_1;
    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    constexpr uint32_t dst = 0;

    compute_kernel_hw_startup<SrcOrder::Reverse>(cb_a, cb_b, cb_out);
    matmul_init(cb_a, cb_b);

    for (uint32_t m = 0; m < Mt; ++m) {
        cb_wait_front(cb_a, Kt);
        for (uint32_t n = 0; n < Nt; ++n) {
            cb_wait_front(cb_b, Kt);

            tile_regs_acquire();
            for (uint32_t k = 0; k < Kt; ++k) {
                matmul_tiles(cb_a, cb_b, k, k, dst);
            }
            tile_regs_commit();

            cb_pop_front(cb_b, Kt);

            cb_reserve_back(cb_out, 1);
            tile_regs_wait();
            pack_tile(dst, cb_out);
            tile_regs_release();
            cb_push_back(cb_out, 1);
        }
        cb_pop_front(cb_a, Kt);
    }
}
