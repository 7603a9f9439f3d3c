#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/eltwise_unary/fill.h"
#include "api/compute/eltwise_unary/where.h"

// DST holds fp32 (fp32_dest_acc_en) but where_tile is told Float16_b
void kernel_main() {
    compute_kernel_hw_startup(1, 1);
    tile_regs_acquire();
    fill_tile_init();
    fill_tile(0, 1.0f);
    fill_tile(1, 2.0f);
    fill_tile(2, 3.0f);
    where_tile_init();
    where_tile<DataFormat::Float16_b>(0, 1, 2, 0);  // FINDING-HERE
    tile_regs_commit();
}
