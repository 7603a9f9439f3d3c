// Scale the columns (y = x * g, g one row broadcast down), reader (RISCV_1).  Hand-written tilecraft
// reference kernel, tt-metal 0.81.1.
//
// Reads the Wt tiles of g once into CB c_1 (held by compute for the whole run), then each band of Wt
// tiles of X into CB c_0, one read barrier per band.
//
// Compile-time args: TensorAccessorArgs(X), TensorAccessorArgs(G), Wt.
// Runtime args:      x_addr, g_addr, num_bands, start_band.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t x_addr = get_arg_val<uint32_t>(0);
    const uint32_t g_addr = get_arg_val<uint32_t>(1);
    const uint32_t num_bands = get_arg_val<uint32_t>(2);
    const uint32_t start_band = get_arg_val<uint32_t>(3);

    constexpr uint32_t cb_x = tt::CBIndex::c_0;
    constexpr uint32_t cb_g = tt::CBIndex::c_1;
    constexpr auto x_args = TensorAccessorArgs<0>();
    constexpr auto g_args = TensorAccessorArgs<x_args.next_compile_time_args_offset()>();
    constexpr uint32_t Wt = get_compile_time_arg_val(g_args.next_compile_time_args_offset());

    const uint32_t tile_bytes = get_tile_size(cb_x);
    const auto x = TensorAccessor(x_args, x_addr, tile_bytes);
    const auto g = TensorAccessor(g_args, g_addr, get_tile_size(cb_g));

    cb_reserve_back(cb_g, Wt);
    uint32_t g_l1 = get_write_ptr(cb_g);
    for (uint32_t t = 0; t < Wt; ++t) {
        noc_async_read_page(t, g, g_l1);
        g_l1 += get_tile_size(cb_g);
    }
    noc_async_read_barrier();
    cb_push_back(cb_g, Wt);

    for (uint32_t band = start_band; band < start_band + num_bands; ++band) {
        cb_reserve_back(cb_x, Wt);
        uint32_t l1 = get_write_ptr(cb_x);
        for (uint32_t t = band * Wt; t < (band + 1) * Wt; ++t) {
            noc_async_read_page(t, x, l1);
            l1 += tile_bytes;
        }
        noc_async_read_barrier();
        cb_push_back(cb_x, Wt);
    }
}
