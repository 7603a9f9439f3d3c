// Test compute: C[i] = f(A[i], B[i]) with f an SFPU binary call (OP define) on DST tiles 0 and 1.
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/tile_move_copy.h"
#include "api/compute/eltwise_binary_sfpu.h"
#include "api/compute/binary_max_min.h"
#include "api/compute/eltwise_unary/where.h"
#include "api/compute/mask.h"

void kernel_main() {
    const uint32_t count = get_arg_val<uint32_t>(0);
    compute_kernel_hw_startup(0, 1, 16);
    for (uint32_t i = 0; i < count; ++i) {
        cb_wait_front(0, 1);
        cb_wait_front(1, 1);
        tile_regs_acquire();
        copy_init(0);
        copy_tile(0, 0, 0);
        reconfig_data_format_srca(1);
        copy_init(1);
        copy_tile(1, 0, 1);
        reconfig_data_format_srca(0);
        OP;
        tile_regs_commit();
        cb_pop_front(0, 1);
        cb_pop_front(1, 1);
        cb_reserve_back(16, 1);
        tile_regs_wait();
        pack_tile(0, 16);
        tile_regs_release();
        cb_push_back(16, 1);
    }
}
