#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/eltwise_unary/fill.h"
#include "api/compute/untilize.h"

// untilize_block after fill_tile_init: the unpacker and math were never initialised for an untilize
void kernel_main() {
    compute_kernel_hw_startup(0, 16);
    cb_reserve_back(0, 1);
    tile_regs_acquire();
    fill_tile_init();
    fill_tile(0, 1.0f);
    tile_regs_commit();
    tile_regs_wait();
    pack_tile(0, 0);
    tile_regs_release();
    cb_push_back(0, 1);
    cb_wait_front(0, 1);
    cb_reserve_back(16, 1);
    untilize_block(0, 1, 16);  // FINDING-HERE
}
