#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/eltwise_unary/fill.h"

// 2 tiles packed into 1 reserved page, when the 2-page CB has only that page free
void kernel_main() {
    compute_kernel_hw_startup(16, 16);
    cb_reserve_back(16, 1);
    tile_regs_acquire();
    fill_tile_init();
    fill_tile(0, 1.0f);
    fill_tile(1, 2.0f);
    tile_regs_commit();
    tile_regs_wait();
    pack_tile(0, 16);
    cb_push_back(16, 1);
    cb_reserve_back(16, 1);
    pack_tile(0, 16);
    pack_tile(1, 16);  // FINDING-HERE
    tile_regs_release();
}
