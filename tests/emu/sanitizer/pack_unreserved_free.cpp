#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/eltwise_unary/fill.h"

// a tile packed into a page never reserved, of an empty CB: the page is free, so it arrives (a warning)
void kernel_main() {
    compute_kernel_hw_startup(16, 16);
    tile_regs_acquire();
    fill_tile_init();
    fill_tile(0, 1.0f);
    tile_regs_commit();
    tile_regs_wait();
    pack_tile(0, 16);  // FINDING-HERE
    tile_regs_release();
}
