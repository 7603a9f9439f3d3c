// Elementwise binary, reader (RISCV_1): streams tiles [first_tile, first_tile + num_tiles) of the
// two interleaved input tensors into CB c_0 (A) and CB c_1 (B).
//
// Both reads of a tile pair are issued before the one barrier that waits for them, so the two
// DRAM round trips overlap.
//
// Compile-time args: TensorAccessorArgs(A), TensorAccessorArgs(B)
// Runtime args:      A address, B address, number of tiles, first tile id
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t b_addr = get_arg_val<uint32_t>(1);
    const uint32_t num_tiles = get_arg_val<uint32_t>(2);
    const uint32_t first_tile = get_arg_val<uint32_t>(3);

    constexpr uint32_t cb_a = tt::CBIndex::c_0;
    constexpr uint32_t cb_b = tt::CBIndex::c_1;

    // The accessors' compile-time args are chained: B's start where A's end, whatever the
    // memory layouts the host chose for the two tensors.
    constexpr auto a_args = TensorAccessorArgs<0>();
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    const auto a = TensorAccessor(a_args, a_addr);
    const auto b = TensorAccessor(b_args, b_addr);

    for (uint32_t tile = first_tile; tile < first_tile + num_tiles; ++tile) {
        cb_reserve_back(cb_a, 1);
        cb_reserve_back(cb_b, 1);
        noc_async_read_page(tile, a, get_write_ptr(cb_a));
        noc_async_read_page(tile, b, get_write_ptr(cb_b));
        noc_async_read_barrier();
        cb_push_back(cb_a, 1);
        cb_push_back(cb_b, 1);
    }
}
