// Scale the columns (y = x * g), writer (RISCV_0).  Hand-written tilecraft reference kernel,
// tt-metal 0.81.1.
//
// Drains each band of Wt tiles from CB c_16 into the interleaved output: the band's writes are
// issued back to back, one flush before the pop, one barrier at the end.
//
// Compile-time args: TensorAccessorArgs(Y), Wt.
// Runtime args:      y_addr, num_bands, start_band.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t y_addr = get_arg_val<uint32_t>(0);
    const uint32_t num_bands = get_arg_val<uint32_t>(1);
    const uint32_t start_band = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    constexpr auto y_args = TensorAccessorArgs<0>();
    constexpr uint32_t Wt = get_compile_time_arg_val(y_args.next_compile_time_args_offset());
    const uint32_t tile_bytes = get_tile_size(cb_out);
    const auto y = TensorAccessor(y_args, y_addr, tile_bytes);

    for (uint32_t band = start_band; band < start_band + num_bands; ++band) {
        cb_wait_front(cb_out, Wt);
        uint32_t l1 = get_read_ptr(cb_out);
        for (uint32_t t = band * Wt; t < (band + 1) * Wt; ++t) {
            noc_async_write_page(t, y, l1);
            l1 += tile_bytes;
        }
        noc_async_writes_flushed();
        cb_pop_front(cb_out, Wt);
    }
    noc_async_write_barrier();
}
