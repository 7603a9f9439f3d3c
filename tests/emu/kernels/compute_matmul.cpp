// Test compute: C (Mt x Nt tiles) = A (Mt x Kt) @ B (Kt x Nt), one output tile per DST acquire,
// the K loop accumulating in DST. All of A and B are waited for at once.
// Compile-time args: Mt, Kt, Nt.
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/matmul.h"

void kernel_main() {
    constexpr uint32_t Mt = get_compile_time_arg_val(0), Kt = get_compile_time_arg_val(1);
    constexpr uint32_t Nt = get_compile_time_arg_val(2);
    compute_kernel_hw_startup<SrcOrder::Reverse>(0, 1, 16);
    matmul_init(0, 1);
    cb_wait_front(0, Mt * Kt);
    cb_wait_front(1, Kt * Nt);
    for (uint32_t m = 0; m < Mt; ++m) {
        for (uint32_t n = 0; n < Nt; ++n) {
            tile_regs_acquire();
            for (uint32_t k = 0; k < Kt; ++k) {
                matmul_tiles(0, 1, m * Kt + k, k * Nt + n, 0);
            }
            tile_regs_commit();
            cb_reserve_back(16, 1);
            tile_regs_wait();
            pack_tile(0, 16);
            tile_regs_release();
            cb_push_back(16, 1);
        }
    }
    cb_pop_front(0, Mt * Kt);
    cb_pop_front(1, Kt * Nt);
}
