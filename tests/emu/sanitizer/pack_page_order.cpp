#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/eltwise_unary/fill.h"

// in-order packing writes page 0 first, whatever the index says
void kernel_main() {
    compute_kernel_hw_startup(16, 16);
    cb_reserve_back(16, 2);
    tile_regs_acquire();
    fill_tile_init();
    fill_tile(0, 1.0f);
    tile_regs_commit();
    tile_regs_wait();
    pack_tile(0, 16, 1);  // FINDING-HERE
    tile_regs_release();
}
