#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/eltwise_unary/fill.h"
#include "api/compute/pack_untilize.h"

// a row-major block two tiles wide (two pages' worth of rows) untilized into one reserved page
void kernel_main() {
    compute_kernel_hw_startup(0, 0);
    cb_reserve_back(0, 2);
    tile_regs_acquire();
    fill_tile_init();
    fill_tile(0, 1.0f);
    fill_tile(1, 2.0f);
    tile_regs_commit();
    tile_regs_wait();
    pack_tile(0, 0);
    pack_tile(1, 0);
    tile_regs_release();
    cb_push_back(0, 2);
    cb_wait_front(0, 2);
    pack_untilize_init<2, 2>(0, 16);
    cb_reserve_back(16, 1);
    pack_untilize_block<2, 2>(0, 1, 16);  // FINDING-HERE
}
