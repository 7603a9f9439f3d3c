// Elementwise binary, compute: C = A + B on the FPU, one tile at a time.
//
// The DST hand-off is split the way the three compute RISCs share it: MATH owns DST between
// tile_regs_acquire and tile_regs_commit, PACK between tile_regs_wait and tile_regs_release.
// The input pages are popped as soon as MATH is done with them (after the commit), so the
// reader can refill them while the packer is still busy with this tile.
//
// Runtime args: number of tiles (this core's share; the two core groups of the work split get
// different counts, so it cannot be a compile-time arg of the one kernel).
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/eltwise_binary.h"

void kernel_main() {
    const uint32_t num_tiles = get_arg_val<uint32_t>(0);

    constexpr uint32_t cb_a = tt::CBIndex::c_0;
    constexpr uint32_t cb_b = tt::CBIndex::c_1;
    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    constexpr uint32_t dst = 0;

    // Once per kernel: unpacker formats from the two inputs, packer format from the output.
    compute_kernel_hw_startup(cb_a, cb_b, cb_out);
    // The add configuration stays in force for the whole loop: nothing else runs on the FPU.
    add_init(cb_a, cb_b);

    for (uint32_t t = 0; t < num_tiles; ++t) {
        cb_wait_front(cb_a, 1);
        cb_wait_front(cb_b, 1);

        tile_regs_acquire();
        add_tiles(cb_a, cb_b, 0, 0, dst);
        tile_regs_commit();

        cb_pop_front(cb_a, 1);
        cb_pop_front(cb_b, 1);

        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(dst, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
    }
}
