#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/eltwise_unary/fill.h"
#include "api/compute/matmul.h"
#include "api/compute/pack.h"

// in0 is CB 0 (bfloat16), in1 is CB 2 (bfloat8_b). The regular startup order configures SrcA for
// in0 and SrcB for in1, but matmul unpacks in0 through SrcB and in1 through SrcA: it needs
// compute_kernel_hw_startup<SrcOrder::Reverse>.
void kernel_main() {
    compute_kernel_hw_startup(0, 2, 16);
    for (uint32_t cb : {0u, 2u}) {  // one tile of ones in each input CB
        cb_reserve_back(cb, 1);
        tile_regs_acquire();
        fill_tile_init();
        fill_tile(0, 1.0f);
        tile_regs_commit();
        tile_regs_wait();
        pack_reconfig_data_format(cb);
        pack_tile(0, cb);
        tile_regs_release();
        cb_push_back(cb, 1);
    }
    cb_wait_front(0, 1);
    cb_wait_front(2, 1);
    matmul_init(0, 2);
    tile_regs_acquire();
    matmul_tiles(0, 2, 0, 0, 0);  // FINDING-HERE
    tile_regs_commit();
}
