// Test reader: tiles [0, count_a) of A into CB 0, then tiles [0, count_b) of B into CB 1.
// Compile-time args: TensorAccessorArgs(A), TensorAccessorArgs(B). Runtime args: A, B, count_a, count_b.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0), b_addr = get_arg_val<uint32_t>(1);
    const uint32_t count_a = get_arg_val<uint32_t>(2), count_b = get_arg_val<uint32_t>(3);
    constexpr auto a_args = TensorAccessorArgs<0>();
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    const auto a = TensorAccessor(a_args, a_addr);
    const auto b = TensorAccessor(b_args, b_addr);
    for (uint32_t i = 0; i < count_a; ++i) {
        cb_reserve_back(0, 1);
        noc_async_read_page(i, a, get_write_ptr(0));
        noc_async_read_barrier();
        cb_push_back(0, 1);
    }
    for (uint32_t i = 0; i < count_b; ++i) {
        cb_reserve_back(1, 1);
        noc_async_read_page(i, b, get_write_ptr(1));
        noc_async_read_barrier();
        cb_push_back(1, 1);
    }
}
