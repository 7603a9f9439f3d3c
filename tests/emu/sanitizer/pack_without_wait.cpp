#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/eltwise_unary/fill.h"

// math committed DST, but the packer never waited for it
void kernel_main() {
    compute_kernel_hw_startup(16, 16);
    cb_reserve_back(16, 1);
    tile_regs_acquire();
    fill_tile_init();
    fill_tile(0, 1.0f);
    tile_regs_commit();
    pack_tile(0, 16);  // FINDING-HERE
}
