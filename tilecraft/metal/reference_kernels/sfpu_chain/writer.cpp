// SFPU chain y = sqrt(relu(exp(x))), writer (RISCV_0).  Hand-written tilecraft reference kernel,
// tt-metal 0.81.1.
//
// Drains CB c_16 into tiles [start_id, start_id + num_tiles) of the interleaved tensor Y.
// The barrier per tile is what frees the CB page for the compute kernel; with a deeper CB the
// writer could batch, as the elementwise writer does.
//
// Compile-time args: TensorAccessorArgs(Y).
// Runtime args:      y_addr, num_tiles, start_id.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t y_addr = get_arg_val<uint32_t>(0);
    const uint32_t num_tiles = get_arg_val<uint32_t>(1);
    const uint32_t start_id = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    constexpr auto y_args = TensorAccessorArgs<0>();
    const auto y = TensorAccessor(y_args, y_addr, get_tile_size(cb_out));

    for (uint32_t t = start_id; t < start_id + num_tiles; ++t) {
        cb_wait_front(cb_out, 1);
        noc_async_write_page(t, y, get_read_ptr(cb_out));
        noc_async_write_barrier();
        cb_pop_front(cb_out, 1);
    }
}
