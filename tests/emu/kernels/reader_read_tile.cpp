// Test reader on the classic dataflow API: tiles [first, first + count) of an interleaved tensor
// into a CB with noc_async_read_tile through a TensorAccessor, one per push.
// Compile-time args: cb, TensorAccessorArgs(tensor). Runtime args: address, count, first.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t addr = get_arg_val<uint32_t>(0);
    const uint32_t count = get_arg_val<uint32_t>(1);
    const uint32_t first = get_arg_val<uint32_t>(2);
    constexpr uint32_t cb = get_compile_time_arg_val(0);
    constexpr auto args = TensorAccessorArgs<1>();
    const auto tensor = TensorAccessor(args, addr, get_tile_size(cb));
    for (uint32_t tile = first; tile < first + count; ++tile) {
        cb_reserve_back(cb, 1);
        noc_async_read_tile(tile, tensor, get_write_ptr(cb));
        noc_async_read_barrier();
        cb_push_back(cb, 1);
    }
}
