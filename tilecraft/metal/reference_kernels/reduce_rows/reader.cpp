// Row sums, reader (RISCV_1).  Hand-written tilecraft reference kernel, tt-metal 0.81.1.
//
// Writes the reduce scaler tile (1.0 in row 0 of every face) straight into CB c_2, then streams each
// band of Wt tiles of the interleaved tensor X into CB c_0 with one read barrier per band.
//
// Compile-time args: TensorAccessorArgs(X), Wt.
// Runtime args:      x_addr, num_bands, start_band.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t x_addr = get_arg_val<uint32_t>(0);
    const uint32_t num_bands = get_arg_val<uint32_t>(1);
    const uint32_t start_band = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_in = tt::CBIndex::c_0;
    constexpr uint32_t cb_scaler = tt::CBIndex::c_2;
    constexpr auto x_args = TensorAccessorArgs<0>();
    constexpr uint32_t Wt = get_compile_time_arg_val(x_args.next_compile_time_args_offset());

    const uint32_t tile_bytes = get_tile_size(cb_in);
    const auto x = TensorAccessor(x_args, x_addr, tile_bytes);

    // The scaler: bfloat16 1.0 (0x3f80) in the first row of each 16x16 face, zero elsewhere. This
    // RISC writes it into its own L1, so no NoC transfer and no barrier precede the push.
    cb_reserve_back(cb_scaler, 1);
    volatile tt_l1_ptr uint32_t* words = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_write_ptr(cb_scaler));
    for (uint32_t i = 0; i < 512; ++i) {
        words[i] = 0;
    }
    for (uint32_t face = 0; face < 4; ++face) {
        for (uint32_t i = 0; i < 8; ++i) {
            words[face * 128 + i] = 0x3f803f80;
        }
    }
    cb_push_back(cb_scaler, 1);

    for (uint32_t band = start_band; band < start_band + num_bands; ++band) {
        cb_reserve_back(cb_in, Wt);
        uint32_t l1 = get_write_ptr(cb_in);
        for (uint32_t t = band * Wt; t < (band + 1) * Wt; ++t) {
            noc_async_read_page(t, x, l1);
            l1 += tile_bytes;
        }
        noc_async_read_barrier();
        cb_push_back(cb_in, Wt);
    }
}
