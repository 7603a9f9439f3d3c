#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/eltwise_unary/fill.h"

// no compute_kernel_hw_startup: nothing configures the packer
void kernel_main() {
    tile_regs_acquire();
    fill_tile_init();
    fill_tile(0, 1.0f);  // FINDING-HERE
}
