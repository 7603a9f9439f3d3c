// Single-head flash attention, reader (RISCV_1).  Hand-written tilecraft reference kernel, tt-metal 0.81.1.
//
// For each of this core's query blocks (one tile row of Q, D tiles) it reads the Q row into CB c_0,
// then every key/value block (BK tile rows of K and of V) into c_1 and c_2, one read barrier per
// block. K's tiles are laid into c_1 transposed at the block level (tile (j, d) of the block at page
// d * BK + j), so that compute's matmul_block with its transpose flag (which transposes each tile)
// reads K^T as an ordinary D x BK block: no transpose pass and no buffer for K^T.
//
// Compile-time args: TensorAccessorArgs(Q), TensorAccessorArgs(K), TensorAccessorArgs(V), D, BK.
// Runtime args:      q_addr, k_addr, v_addr, first_q_block, q_blocks, kv_blocks.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t q_addr = get_arg_val<uint32_t>(0);
    const uint32_t k_addr = get_arg_val<uint32_t>(1);
    const uint32_t v_addr = get_arg_val<uint32_t>(2);
    const uint32_t first_q_block = get_arg_val<uint32_t>(3);
    const uint32_t q_blocks = get_arg_val<uint32_t>(4);
    const uint32_t kv_blocks = get_arg_val<uint32_t>(5);

    constexpr uint32_t cb_q = tt::CBIndex::c_0;
    constexpr uint32_t cb_k = tt::CBIndex::c_1;
    constexpr uint32_t cb_v = tt::CBIndex::c_2;
    constexpr auto q_args = TensorAccessorArgs<0>();
    constexpr auto k_args = TensorAccessorArgs<q_args.next_compile_time_args_offset()>();
    constexpr auto v_args = TensorAccessorArgs<k_args.next_compile_time_args_offset()>();
    constexpr uint32_t D = get_compile_time_arg_val(v_args.next_compile_time_args_offset());
    constexpr uint32_t BK = get_compile_time_arg_val(v_args.next_compile_time_args_offset() + 1);

    const uint32_t tile_bytes = get_tile_size(cb_q);
    const auto q = TensorAccessor(q_args, q_addr, tile_bytes);
    const auto k = TensorAccessor(k_args, k_addr, tile_bytes);
    const auto v = TensorAccessor(v_args, v_addr, tile_bytes);

    for (uint32_t qb = first_q_block; qb < first_q_block + q_blocks; ++qb) {
        cb_reserve_back(cb_q, D);
        uint32_t q_l1 = get_write_ptr(cb_q);
        for (uint32_t d = 0; d < D; ++d) {
            noc_async_read_page(qb * D + d, q, q_l1);
            q_l1 += tile_bytes;
        }
        noc_async_read_barrier();
        cb_push_back(cb_q, D);

        for (uint32_t kb = 0; kb < kv_blocks; ++kb) {
            cb_reserve_back(cb_k, BK * D);
            cb_reserve_back(cb_v, BK * D);
            const uint32_t k_l1 = get_write_ptr(cb_k);
            uint32_t v_l1 = get_write_ptr(cb_v);
            for (uint32_t j = 0; j < BK; ++j) {
                for (uint32_t d = 0; d < D; ++d) {
                    const uint32_t tile = (kb * BK + j) * D + d;
                    noc_async_read_page(tile, k, k_l1 + (d * BK + j) * tile_bytes);
                    noc_async_read_page(tile, v, v_l1);
                    v_l1 += tile_bytes;
                }
            }
            noc_async_read_barrier();
            cb_push_back(cb_k, BK * D);
            cb_push_back(cb_v, BK * D);
        }
    }
}
