// SFPU chain, compute: y = f_n(...f_1(x)), the chain of SFPU functions chosen by the host.
//
// The host passes the chain as the define SFPU_OP_CHAIN_0, a sequence of
// `<op>_tile_init(); <op>_tile(0);` on tile 0 of DST, plus one SFPU_OP_<FAMILY>_INCLUDE define
// per header the chain needs, which sfpu_split_includes.h turns into #includes. One kernel source
// serves every chain, and each compiled variant parses only the headers it uses.
//
// Each op's init sits next to its call, inside the tile loop: an SFPU init programs the SFPU's
// constants and address modes for its op, so the next op's init undoes the previous one.
//
// Runtime args: number of tiles.
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/tile_move_copy.h"
#include "api/compute/eltwise_unary/eltwise_unary.h"
#include "api/compute/eltwise_unary/sfpu_split_includes.h"

#ifndef SFPU_OP_CHAIN_0
#error "the host must define SFPU_OP_CHAIN_0, e.g. \"exp_tile_init(); exp_tile(0);\""
#endif

void kernel_main() {
    const uint32_t num_tiles = get_arg_val<uint32_t>(0);

    constexpr uint32_t cb_in = tt::CBIndex::c_0;
    constexpr uint32_t cb_out = tt::CBIndex::c_16;

    compute_kernel_hw_startup(cb_in, cb_out);
    // The unpack-to-DST copy is the only FPU/unpacker configuration the loop needs; SFPU inits
    // do not touch it, so it is set once.
    copy_init(cb_in);

    for (uint32_t t = 0; t < num_tiles; ++t) {
        cb_wait_front(cb_in, 1);

        tile_regs_acquire();
        copy_tile(cb_in, 0, 0);
        SFPU_OP_CHAIN_0
        tile_regs_commit();

        cb_pop_front(cb_in, 1);

        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(0, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
    }
}
