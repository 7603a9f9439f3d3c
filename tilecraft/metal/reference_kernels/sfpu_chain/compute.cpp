// SFPU chain y = sqrt(relu(exp(x))), compute.  Hand-written tilecraft reference kernel,
// tt-metal 0.81.1.
//
// One tile at a time: unpack it into DST[0] (copy_tile), run the three SFPU ops in place, pack.
// The copy init is issued once; each SFPU op's init must precede it on every tile because the
// next op's init reprograms the SFPU (its constants and address modes).
//
// Runtime args: num_tiles.
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/tile_move_copy.h"
#include "api/compute/eltwise_unary/eltwise_unary.h"
#include "api/compute/eltwise_unary/exp.h"
#include "api/compute/eltwise_unary/relu.h"
#include "api/compute/eltwise_unary/sqrt.h"

void kernel_main() {
    const uint32_t num_tiles = get_arg_val<uint32_t>(0);

    constexpr uint32_t cb_in = tt::CBIndex::c_0;
    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    constexpr uint32_t dst = 0;

    compute_kernel_hw_startup(cb_in, cb_out);
    copy_init(cb_in);

    for (uint32_t t = 0; t < num_tiles; ++t) {
        cb_wait_front(cb_in, 1);
        tile_regs_acquire();
        copy_tile(cb_in, 0, dst);
        exp_tile_init();
        exp_tile(dst);
        relu_tile_init();
        relu_tile(dst);
        sqrt_tile_init();
        sqrt_tile(dst);
        tile_regs_commit();
        cb_pop_front(cb_in, 1);

        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(dst, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
    }
}
