// Test compute: Y[i] = X[i]^T for each tile. Runtime args: tile count.
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/transpose.h"

void kernel_main() {
    const uint32_t count = get_arg_val<uint32_t>(0);
    compute_kernel_hw_startup(0, 16);
    transpose_init(0);
    for (uint32_t i = 0; i < count; ++i) {
        cb_wait_front(0, 1);
        cb_reserve_back(16, 1);
        tile_regs_acquire();
        transpose_tile(0, 0, 0);
        tile_regs_commit();
        tile_regs_wait();
        pack_tile(0, 16);
        tile_regs_release();
        cb_push_back(16, 1);
        cb_pop_front(0, 1);
    }
}
