// Test reader: tiles [first, first + count) of an interleaved tensor into a CB, one per push, with
// noc_async_read_page (or noc_async_read_tile when READ_TILE is defined).
// Compile-time args: cb, TensorAccessorArgs(tensor). Runtime args: address, count, first.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t addr = get_arg_val<uint32_t>(0);
    const uint32_t count = get_arg_val<uint32_t>(1);
    const uint32_t first = get_arg_val<uint32_t>(2);
    constexpr uint32_t cb = get_compile_time_arg_val(0);
    constexpr auto args = TensorAccessorArgs<1>();
#ifdef READ_TILE
    const auto tensor = TensorAccessor(args, addr, get_tile_size(cb));
#else
    const auto tensor = TensorAccessor(args, addr);
#endif
    for (uint32_t page = first; page < first + count; ++page) {
        cb_reserve_back(cb, 1);
#ifdef READ_TILE
        noc_async_read_tile(page, tensor, get_write_ptr(cb));
#else
        noc_async_read_page(page, tensor, get_write_ptr(cb));
#endif
        noc_async_read_barrier();
        cb_push_back(cb, 1);
    }
}
