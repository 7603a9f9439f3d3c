// Multicore reuse + multicast matmul, compute: this core's per_core_M x per_core_N block of C,
// accumulated over the K-blocks the reader delivers, with matmul_block on output sub-blocks.
//
// The whole block does not fit in DST, so it is computed sub-block by sub-block: subblock_h x
// subblock_w output tiles (at most half of DST, 8 bfloat16 tiles) per tile_regs_acquire. One
// matmul_block call multiplies subblock_h tiles of A's K column k by subblock_w tiles of B's row
// k and adds the subblock_h x subblock_w products into DST; in0_block_w calls cover a K-block.
// Between K-blocks a sub-block's partial sums are packed to CB c_24 and unpacked again before
// the next K-block adds to them; after the last K-block they go to the output CB c_16.
//
// c_24 and c_16 share one allocation (one CBDescriptor, two format descriptors): the partials of
// sub-block s are always read back before the final sub-block s is packed over them.
//
// Compile-time args (named): in0_block_w, per_core_M, per_core_N, subblock_h, subblock_w, num_blocks
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/matmul.h"
#include "api/compute/tile_move_copy.h"

void kernel_main() {
    constexpr uint32_t in0_block_w = get_named_compile_time_arg_val("in0_block_w");
    constexpr uint32_t per_core_M = get_named_compile_time_arg_val("per_core_M");
    constexpr uint32_t per_core_N = get_named_compile_time_arg_val("per_core_N");
    constexpr uint32_t subblock_h = get_named_compile_time_arg_val("subblock_h");
    constexpr uint32_t subblock_w = get_named_compile_time_arg_val("subblock_w");
    constexpr uint32_t num_blocks = get_named_compile_time_arg_val("num_blocks");

    constexpr uint32_t in0_block_tiles = per_core_M * in0_block_w;  // row-major: per_core_M rows of in0_block_w
    constexpr uint32_t in1_block_tiles = in0_block_w * per_core_N;  // row-major: in0_block_w rows of per_core_N
    constexpr uint32_t subblock_tiles = subblock_h * subblock_w;
    constexpr uint32_t num_subblocks_h = per_core_M / subblock_h;
    constexpr uint32_t num_subblocks_w = per_core_N / subblock_w;

    constexpr uint32_t cb_in0 = tt::CBIndex::c_0;
    constexpr uint32_t cb_in1 = tt::CBIndex::c_1;
    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    constexpr uint32_t cb_partials = tt::CBIndex::c_24;

    // Matmul feeds in0 to SrcB and in1 to SrcA: the startup must know (SrcOrder::Reverse).
    compute_kernel_hw_startup<SrcOrder::Reverse>(cb_in0, cb_in1, cb_out);
    matmul_block_init(cb_in0, cb_in1, false, subblock_w, subblock_h, in0_block_w);

    for (uint32_t block = 0; block < num_blocks; ++block) {
        const bool last_block = block == num_blocks - 1;
        cb_wait_front(cb_in0, in0_block_tiles);
        cb_wait_front(cb_in1, in1_block_tiles);

        for (uint32_t sh = 0; sh < num_subblocks_h; ++sh) {
            for (uint32_t sw = 0; sw < num_subblocks_w; ++sw) {
                tile_regs_acquire();

                if (block > 0) {
                    // Unpacking the partials is a copy to DST (through SrcA, whose format the
                    // startup took from in1: the partials are bfloat16 like in1, so no reconfig),
                    // after which the unpacker and FPU go back to matmul mode.
                    copy_init(cb_partials);
                    cb_wait_front(cb_partials, subblock_tiles);
                    for (uint32_t i = 0; i < subblock_tiles; ++i) {
                        copy_tile(cb_partials, i, i);
                    }
                    cb_pop_front(cb_partials, subblock_tiles);
                    matmul_block_init(cb_in0, cb_in1, false, subblock_w, subblock_h, in0_block_w);
                }

                // First tiles of this sub-block: A(sh * subblock_h, k) and B(k, sw * subblock_w).
                // matmul_block steps down A's rows by in0_block_w (its kt_dim) and along B's row.
                for (uint32_t k = 0; k < in0_block_w; ++k) {
                    const uint32_t in0_tile = sh * subblock_h * in0_block_w + k;
                    const uint32_t in1_tile = k * per_core_N + sw * subblock_w;
                    matmul_block(cb_in0, cb_in1, in0_tile, in1_tile, 0, false, subblock_w, subblock_h, in0_block_w);
                }
                tile_regs_commit();

                const uint32_t cb_dst = last_block ? cb_out : cb_partials;
                cb_reserve_back(cb_dst, subblock_tiles);
                tile_regs_wait();
                for (uint32_t i = 0; i < subblock_tiles; ++i) {
                    pack_tile(i, cb_dst);
                }
                tile_regs_release();
                cb_push_back(cb_dst, subblock_tiles);
            }
        }

        cb_pop_front(cb_in0, in0_block_tiles);
        cb_pop_front(cb_in1, in1_block_tiles);
    }
}
