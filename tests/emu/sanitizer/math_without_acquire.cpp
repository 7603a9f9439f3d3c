#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/eltwise_unary/fill.h"

// DST written before tile_regs_acquire
void kernel_main() {
    compute_kernel_hw_startup(16, 16);
    fill_tile_init();
    fill_tile(0, 1.0f);  // FINDING-HERE
}
