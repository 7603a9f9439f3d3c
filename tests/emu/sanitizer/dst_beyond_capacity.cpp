#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/eltwise_unary/fill.h"

// half-sync, 16-bit DST: math owns 8 tiles
void kernel_main() {
    compute_kernel_hw_startup(16, 16);
    tile_regs_acquire();
    fill_tile_init();
    fill_tile(9, 1.0f);  // FINDING-HERE
    tile_regs_commit();
}
