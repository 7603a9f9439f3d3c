// Reader (RISCV_1): streams consecutive pages of an interleaved tensor into a circular buffer,
// one tile at a time.  With a CB of two or more pages the next DRAM read is in flight while
// compute works on the previous tile.
//
// Compile-time args: cb_in, TensorAccessorArgs(input)
// Runtime args:      input buffer address, number of tiles, first tile id
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t num_tiles = get_arg_val<uint32_t>(1);
    const uint32_t first_tile = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_in = get_compile_time_arg_val(0);
    constexpr auto src_args = TensorAccessorArgs<1>();
    const auto src = TensorAccessor(src_args, src_addr);

    for (uint32_t tile = first_tile; tile < first_tile + num_tiles; ++tile) {
        cb_reserve_back(cb_in, 1);
        noc_async_read_page(tile, src, get_write_ptr(cb_in));
        // Compute may only see the page once the bytes are in L1.
        noc_async_read_barrier();
        cb_push_back(cb_in, 1);
    }
}
