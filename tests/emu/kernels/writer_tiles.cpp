// Test writer: pages of a CB into tiles [first, first + count) of an interleaved tensor.
// Compile-time args: cb, TensorAccessorArgs(tensor). Runtime args: address, count, first.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t addr = get_arg_val<uint32_t>(0);
    const uint32_t count = get_arg_val<uint32_t>(1);
    const uint32_t first = get_arg_val<uint32_t>(2);
    constexpr uint32_t cb = get_compile_time_arg_val(0);
    constexpr auto args = TensorAccessorArgs<1>();
    const auto tensor = TensorAccessor(args, addr);
    for (uint32_t page = first; page < first + count; ++page) {
        cb_wait_front(cb, 1);
        noc_async_write_page(page, tensor, get_read_ptr(cb));
        noc_async_write_barrier();
        cb_pop_front(cb, 1);
    }
}
