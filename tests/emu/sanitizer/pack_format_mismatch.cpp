#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/eltwise_unary/fill.h"

// the packer is configured for CB 16 (bfloat16); CB 1 holds Float32
void kernel_main() {
    compute_kernel_hw_startup(0, 0, 16);
    cb_reserve_back(1, 1);
    tile_regs_acquire();
    fill_tile_init();
    fill_tile(0, 1.0f);
    tile_regs_commit();
    tile_regs_wait();
    pack_tile(0, 1);  // FINDING-HERE
    tile_regs_release();
    cb_push_back(1, 1);
}
