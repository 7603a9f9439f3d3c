#include <cstdint>
#include "api/compute/cb_api.h"
#include "api/compute/common.h"
#include "api/compute/eltwise_binary_sfpu.h"
#include "api/compute/tile_move_copy.h"

// DST tiles 0 and 1 hold Int32 data (copied from the Int32 CB 3) and a float SFPU binary reads
// them: the device would add their bit patterns as floats
void kernel_main() {
    compute_kernel_hw_startup(3, 3, 16);
    cb_reserve_back(3, 1);
    cb_push_back(3, 1);
    cb_wait_front(3, 1);
    tile_regs_acquire();
    copy_init(3);
    copy_tile(3, 0, 0);
    copy_tile(3, 0, 1);
    add_binary_tile_init();
    add_binary_tile(0, 1, 0);  // FINDING-HERE
    tile_regs_commit();
}
