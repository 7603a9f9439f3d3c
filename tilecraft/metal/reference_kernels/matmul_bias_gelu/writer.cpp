// y = gelu(a @ b + bias), writer (RISCV_0).  Hand-written tilecraft reference kernel, tt-metal 0.81.1.
//
// Drains CB c_16 one output block (BM x BN tiles) at a time into its place in the interleaved Y,
// one write barrier per block.
//
// Compile-time args: TensorAccessorArgs(Y), BM, BN.
// Runtime args:      y_addr, first_block, blocks, n_blocks.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t y_addr = get_arg_val<uint32_t>(0);
    const uint32_t first_block = get_arg_val<uint32_t>(1);
    const uint32_t blocks = get_arg_val<uint32_t>(2);
    const uint32_t n_blocks = get_arg_val<uint32_t>(3);

    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    constexpr auto y_args = TensorAccessorArgs<0>();
    constexpr uint32_t BM = get_compile_time_arg_val(y_args.next_compile_time_args_offset());
    constexpr uint32_t BN = get_compile_time_arg_val(y_args.next_compile_time_args_offset() + 1);
    const uint32_t tile_bytes = get_tile_size(cb_out);
    const auto y = TensorAccessor(y_args, y_addr, tile_bytes);
    const uint32_t Nt = n_blocks * BN;

    for (uint32_t block = first_block; block < first_block + blocks; ++block) {
        const uint32_t mb = block / n_blocks, nb = block % n_blocks;
        cb_wait_front(cb_out, BM * BN);
        uint32_t l1 = get_read_ptr(cb_out);
        for (uint32_t r = 0; r < BM; ++r) {
            for (uint32_t c = 0; c < BN; ++c) {
                noc_async_write_page((mb * BM + r) * Nt + nb * BN + c, y, l1);
                l1 += tile_bytes;
            }
        }
        noc_async_write_barrier();
        cb_pop_front(cb_out, BM * BN);
    }
}
