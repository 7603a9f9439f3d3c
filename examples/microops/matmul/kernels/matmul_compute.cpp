// [1, K] x [K, N] matmul with the weight width-sharded over cores, compute: this core's
// [1, Nt] slice of the output, all of it in DST at once.
//
// The activation is one tile row (Kt tiles; only row 0 of each tile is data, ttnn pads the
// rest with zeros) and the weight shard is Kt x Nt tiles, row-major. Each matmul_block call
// takes activation tile k and weight row k (Nt tiles) and adds the 1 x Nt products into DST
// tiles 0..Nt-1, so Nt is bounded by half of DST: 8 tiles, or 4 with fp32 accumulation.
//
// Compile-time args (named): Kt, Nt (this core's output tiles)
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/matmul.h"

void kernel_main() {
    constexpr uint32_t Kt = get_named_compile_time_arg_val("Kt");
    constexpr uint32_t Nt = get_named_compile_time_arg_val("Nt");

    constexpr uint32_t cb_act = tt::CBIndex::c_0;
    constexpr uint32_t cb_weight = tt::CBIndex::c_1;
    constexpr uint32_t cb_out = tt::CBIndex::c_16;

    // Matmul feeds in0 to SrcB and in1 to SrcA: the startup must know (SrcOrder::Reverse).
    compute_kernel_hw_startup<SrcOrder::Reverse>(cb_act, cb_weight, cb_out);
    matmul_block_init(cb_act, cb_weight, false, Nt, 1, Kt);

    cb_wait_front(cb_act, Kt);
    cb_wait_front(cb_weight, Kt * Nt);

    tile_regs_acquire();
    for (uint32_t k = 0; k < Kt; ++k) {
        matmul_block(cb_act, cb_weight, k, k * Nt, 0, false, Nt, 1, Kt);
    }
    tile_regs_commit();

    cb_pop_front(cb_act, Kt);
    cb_pop_front(cb_weight, Kt * Nt);

    cb_reserve_back(cb_out, Nt);  // CB c_16 is the output shard itself
    tile_regs_wait();
    for (uint32_t n = 0; n < Nt; ++n) {
        pack_tile(n, cb_out);
    }
    tile_regs_release();
    cb_push_back(cb_out, Nt);
}
