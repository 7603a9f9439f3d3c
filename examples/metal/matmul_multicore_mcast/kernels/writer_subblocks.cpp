// Multicore reuse + multicast matmul, writer (RISCV_0): stores this core's output block, which
// compute delivers sub-block by sub-block (each subblock_h x subblock_w tiles, row-major), into
// the interleaved C.
//
// Compile-time args: TensorAccessorArgs(C), then named: Nt, subblock_h, subblock_w,
//                    num_subblocks_h, num_subblocks_w
// Runtime args:      C address, first tile of the block: C(y * per_core_M, x * per_core_N)
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t c_addr = get_arg_val<uint32_t>(0);
    const uint32_t first_tile = get_arg_val<uint32_t>(1);

    constexpr auto c_args = TensorAccessorArgs<0>();
    constexpr uint32_t Nt = get_named_compile_time_arg_val("Nt");
    constexpr uint32_t subblock_h = get_named_compile_time_arg_val("subblock_h");
    constexpr uint32_t subblock_w = get_named_compile_time_arg_val("subblock_w");
    constexpr uint32_t num_subblocks_h = get_named_compile_time_arg_val("num_subblocks_h");
    constexpr uint32_t num_subblocks_w = get_named_compile_time_arg_val("num_subblocks_w");
    constexpr uint32_t subblock_tiles = subblock_h * subblock_w;

    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    const uint32_t tile_bytes = get_tile_size(cb_out);
    const auto c = TensorAccessor(c_args, c_addr);

    for (uint32_t sh = 0; sh < num_subblocks_h; ++sh) {
        for (uint32_t sw = 0; sw < num_subblocks_w; ++sw) {
            cb_wait_front(cb_out, subblock_tiles);
            uint32_t l1_addr = get_read_ptr(cb_out);
            const uint32_t subblock_first = first_tile + sh * subblock_h * Nt + sw * subblock_w;
            for (uint32_t r = 0; r < subblock_h; ++r) {
                for (uint32_t col = 0; col < subblock_w; ++col) {
                    noc_async_write_page(subblock_first + r * Nt + col, c, l1_addr);
                    l1_addr += tile_bytes;
                }
            }
            noc_async_writes_flushed();  // the pages may be reused once the data has left L1
            cb_pop_front(cb_out, subblock_tiles);
        }
    }
    noc_async_write_barrier();
}
