// Elementwise C = A + B, reader (RISCV_1).  Hand-written tilecraft reference kernel, tt-metal 0.81.1.
//
// Streams tiles [start_id, start_id + num_tiles) of the interleaved tensors A and B into
// CB c_0 and CB c_1, `block` tiles at a time: one read barrier per block, not per tile.
//
// Compile-time args: TensorAccessorArgs(A), TensorAccessorArgs(B), block.
// Runtime args:      a_addr, b_addr, num_tiles (a multiple of block), start_id.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t b_addr = get_arg_val<uint32_t>(1);
    const uint32_t num_tiles = get_arg_val<uint32_t>(2);
    const uint32_t start_id = get_arg_val<uint32_t>(3);

    constexpr uint32_t cb_a = tt::CBIndex::c_0;
    constexpr uint32_t cb_b = tt::CBIndex::c_1;
    constexpr auto a_args = TensorAccessorArgs<0>();
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    constexpr uint32_t block = get_compile_time_arg_val(b_args.next_compile_time_args_offset());

    const uint32_t a_tile_bytes = get_tile_size(cb_a);
    const uint32_t b_tile_bytes = get_tile_size(cb_b);
    const auto a = TensorAccessor(a_args, a_addr, a_tile_bytes);
    const auto b = TensorAccessor(b_args, b_addr, b_tile_bytes);

    for (uint32_t first = start_id; first < start_id + num_tiles; first += block) {
        cb_reserve_back(cb_a, block);
        cb_reserve_back(cb_b, block);
        uint32_t a_l1 = get_write_ptr(cb_a);
        uint32_t b_l1 = get_write_ptr(cb_b);
        for (uint32_t t = first; t < first + block; ++t) {
            noc_async_read_page(t, a, a_l1);
            noc_async_read_page(t, b, b_l1);
            a_l1 += a_tile_bytes;
            b_l1 += b_tile_bytes;
        }
        noc_async_read_barrier();
        cb_push_back(cb_a, block);
        cb_push_back(cb_b, block);
    }
}
