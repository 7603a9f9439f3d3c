// Elementwise C = A + B, writer (RISCV_0).  Hand-written tilecraft reference kernel, tt-metal 0.81.1.
//
// Drains CB c_16 into tiles [start_id, start_id + num_tiles) of the interleaved tensor C,
// `block` tiles per write barrier.
//
// Compile-time args: TensorAccessorArgs(C), block.
// Runtime args:      c_addr, num_tiles (a multiple of block), start_id.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t c_addr = get_arg_val<uint32_t>(0);
    const uint32_t num_tiles = get_arg_val<uint32_t>(1);
    const uint32_t start_id = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    constexpr auto c_args = TensorAccessorArgs<0>();
    constexpr uint32_t block = get_compile_time_arg_val(c_args.next_compile_time_args_offset());

    const uint32_t tile_bytes = get_tile_size(cb_out);
    const auto c = TensorAccessor(c_args, c_addr, tile_bytes);

    for (uint32_t first = start_id; first < start_id + num_tiles; first += block) {
        cb_wait_front(cb_out, block);
        uint32_t l1 = get_read_ptr(cb_out);
        for (uint32_t t = first; t < first + block; ++t) {
            noc_async_write_page(t, c, l1);
            l1 += tile_bytes;
        }
        noc_async_write_barrier();
        cb_pop_front(cb_out, block);
    }
}
