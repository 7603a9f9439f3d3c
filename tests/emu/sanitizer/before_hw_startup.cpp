#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/eltwise_unary/fill.h"

// no compute_kernel_hw_startup: nothing configures the packer, nor initialises the semaphore
// tile_regs_acquire waits on (the device hangs there)
void kernel_main() {
    tile_regs_acquire();  // FINDING-HERE
    fill_tile_init();
    fill_tile(0, 1.0f);
}
