// Scale the columns (y = x * g), compute.  Hand-written tilecraft reference kernel, tt-metal 0.81.1.
//
// mul_tiles_bcast_rows multiplies each tile of a band by row 0 of the matching g tile, broadcast
// down its 32 rows, on the FPU; a band's Wt tiles go through DST in groups of at most `group` tiles
// (half of DST: 8 bfloat16 tiles), one pack per tile.
//
// Compile-time args: Wt, group.
// Runtime args:      num_bands.
#include <cstdint>

#include "api/compute/bcast.h"
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"

void kernel_main() {
    const uint32_t num_bands = get_arg_val<uint32_t>(0);
    constexpr uint32_t Wt = get_compile_time_arg_val(0);
    constexpr uint32_t group = get_compile_time_arg_val(1);

    constexpr uint32_t cb_x = tt::CBIndex::c_0;
    constexpr uint32_t cb_g = tt::CBIndex::c_1;
    constexpr uint32_t cb_out = tt::CBIndex::c_16;

    compute_kernel_hw_startup(cb_x, cb_g, cb_out);
    mul_bcast_rows_init(cb_x, cb_g);

    cb_wait_front(cb_g, Wt);
    for (uint32_t band = 0; band < num_bands; ++band) {
        cb_wait_front(cb_x, Wt);
        cb_reserve_back(cb_out, Wt);
        for (uint32_t first = 0; first < Wt; first += group) {
            const uint32_t count = Wt - first < group ? Wt - first : group;
            tile_regs_acquire();
            for (uint32_t i = 0; i < count; ++i) {
                mul_tiles_bcast_rows(cb_x, cb_g, first + i, first + i, i);
            }
            tile_regs_commit();
            tile_regs_wait();
            for (uint32_t i = 0; i < count; ++i) {
                pack_tile(i, cb_out);
            }
            tile_regs_release();
        }
        cb_pop_front(cb_x, Wt);
        cb_push_back(cb_out, Wt);
    }
    cb_pop_front(cb_g, Wt);
}
