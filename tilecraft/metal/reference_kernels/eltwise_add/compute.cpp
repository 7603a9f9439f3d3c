// Elementwise C = A + B, compute.  Hand-written tilecraft reference kernel, tt-metal 0.81.1.
//
// Adds `block` tile pairs per DST acquisition (block <= 8: half of DST for 16-bit data with
// the default half-sync mode), with the binary init issued once for the whole kernel.
//
// Compile-time args: block.
// Runtime args:      num_tiles (a multiple of block).
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/eltwise_binary.h"

void kernel_main() {
    const uint32_t num_tiles = get_arg_val<uint32_t>(0);
    constexpr uint32_t block = get_compile_time_arg_val(0);

    constexpr uint32_t cb_a = tt::CBIndex::c_0;
    constexpr uint32_t cb_b = tt::CBIndex::c_1;
    constexpr uint32_t cb_out = tt::CBIndex::c_16;

    compute_kernel_hw_startup(cb_a, cb_b, cb_out);
    add_init(cb_a, cb_b);

    for (uint32_t done = 0; done < num_tiles; done += block) {
        cb_wait_front(cb_a, block);
        cb_wait_front(cb_b, block);
        tile_regs_acquire();
        for (uint32_t i = 0; i < block; ++i) {
            add_tiles(cb_a, cb_b, i, i, i);
        }
        tile_regs_commit();
        cb_pop_front(cb_a, block);
        cb_pop_front(cb_b, block);

        cb_reserve_back(cb_out, block);
        tile_regs_wait();
        for (uint32_t i = 0; i < block; ++i) {
            pack_tile(i, cb_out);
        }
        tile_regs_release();
        cb_push_back(cb_out, block);
    }
}
