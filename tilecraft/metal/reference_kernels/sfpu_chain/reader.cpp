// SFPU chain y = sqrt(relu(exp(x))), reader (RISCV_1).  Hand-written tilecraft reference kernel,
// tt-metal 0.81.1.
//
// Streams tiles [start_id, start_id + num_tiles) of the interleaved tensor X into CB c_0.
//
// Compile-time args: TensorAccessorArgs(X).
// Runtime args:      x_addr, num_tiles, start_id.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t x_addr = get_arg_val<uint32_t>(0);
    const uint32_t num_tiles = get_arg_val<uint32_t>(1);
    const uint32_t start_id = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_in = tt::CBIndex::c_0;
    constexpr auto x_args = TensorAccessorArgs<0>();
    const auto x = TensorAccessor(x_args, x_addr, get_tile_size(cb_in));

    for (uint32_t t = start_id; t < start_id + num_tiles; ++t) {
        cb_reserve_back(cb_in, 1);
        noc_async_read_page(t, x, get_write_ptr(cb_in));
        noc_async_read_barrier();
        cb_push_back(cb_in, 1);
    }
}
