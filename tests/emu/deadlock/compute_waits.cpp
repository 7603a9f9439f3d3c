// Compute waits for an input tile that the reader never pushes.
#include <cstdint>

#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/tile_move_copy.h"
#include "api/compute/cb_api.h"
#include "api/compute/reg_api.h"
#include "api/compute/pack.h"

void kernel_main() {
    compute_kernel_hw_startup(0, 16);
    copy_tile_to_dst_init_short(0);
    cb_wait_front(0, 1);  // BLOCKED-COMPUTE
    tile_regs_acquire();
    copy_tile(0, 0, 0);
    tile_regs_commit();
    tile_regs_wait();
    cb_reserve_back(16, 1);
    pack_tile(0, 16);
    cb_push_back(16, 1);
    tile_regs_release();
    cb_pop_front(0, 1);
}
