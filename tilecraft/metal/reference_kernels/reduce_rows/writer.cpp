// Row sums, writer (RISCV_0).  Hand-written tilecraft reference kernel, tt-metal 0.81.1.
//
// Drains one result tile per band from CB c_16 into tile `band` of the interleaved (M x 32) output.
// Only the last write waits for its acknowledgement; before each pop, writes_flushed (the data
// has left L1) is enough.
//
// Compile-time args: TensorAccessorArgs(Y).
// Runtime args:      y_addr, num_bands, start_band.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t y_addr = get_arg_val<uint32_t>(0);
    const uint32_t num_bands = get_arg_val<uint32_t>(1);
    const uint32_t start_band = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    constexpr auto y_args = TensorAccessorArgs<0>();
    const auto y = TensorAccessor(y_args, y_addr, get_tile_size(cb_out));

    for (uint32_t band = start_band; band < start_band + num_bands; ++band) {
        cb_wait_front(cb_out, 1);
        noc_async_write_page(band, y, get_read_ptr(cb_out));
        noc_async_writes_flushed();
        cb_pop_front(cb_out, 1);
    }
    noc_async_write_barrier();
}
