#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/eltwise_unary/fill.h"
#include "api/compute/tile_move_copy.h"

// tile 1 of CB 0 is read after waiting for 1 page
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
    cb_wait_front(0, 1);
    copy_init(0);
    tile_regs_acquire();
    copy_tile(0, 1, 0);  // FINDING-HERE
    tile_regs_commit();
}
