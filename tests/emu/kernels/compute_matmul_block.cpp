// Test compute: C = A @ B with matmul_block on 2 x 2 output sub-blocks (Mt, Nt even), the K loop
// inside each sub-block; the sub-block is packed tile by tile in row-major order into a CB page
// order that is sub-block major. Compile-time args: Mt, Kt, Nt.
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/matmul.h"

void kernel_main() {
    constexpr uint32_t Mt = get_compile_time_arg_val(0), Kt = get_compile_time_arg_val(1);
    constexpr uint32_t Nt = get_compile_time_arg_val(2);
    constexpr uint32_t SH = 2, SW = 2;
    compute_kernel_hw_startup<SrcOrder::Reverse>(0, 1, 16);
    matmul_block_init(0, 1, false, SW, SH, Kt);
    cb_wait_front(0, Mt * Kt);
    cb_wait_front(1, Kt * Nt);
    for (uint32_t sm = 0; sm < Mt / SH; ++sm) {
        for (uint32_t sn = 0; sn < Nt / SW; ++sn) {
            tile_regs_acquire();
            for (uint32_t k = 0; k < Kt; ++k) {
                matmul_block(0, 1, sm * SH * Kt + k, k * Nt + sn * SW, 0, false, SW, SH, Kt);
            }
            tile_regs_commit();
            cb_reserve_back(16, SH * SW);
            tile_regs_wait();
            pack_block(0, 16, SH * SW);
            tile_regs_release();
            cb_push_back(16, SH * SW);
        }
    }
}
