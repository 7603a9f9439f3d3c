// Test compute: C[i] = A[i] <op> B[i] on the FPU (OP: add, sub or mul; BCAST: none or a broadcast).
// Runtime args: tile count.
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/bcast.h"
#include "api/compute/eltwise_binary.h"

void kernel_main() {
    const uint32_t count = get_arg_val<uint32_t>(0);
    compute_kernel_hw_startup(0, 1, 16);
    INIT(0, 1);
    for (uint32_t i = 0; i < count; ++i) {
        cb_wait_front(0, 1);
        cb_wait_front(1, 1);
        tile_regs_acquire();
        CALL(0, 1, 0, 0, 0);
        tile_regs_commit();
        cb_pop_front(0, 1);
        cb_pop_front(1, 1);
        cb_reserve_back(16, 1);
        tile_regs_wait();
        pack_tile(0, 16);
        tile_regs_release();
        cb_push_back(16, 1);
    }
}
