// Tiled matmul C[M,N] = A[M,K] @ B[K,N], writer (RISCV_0).  Hand-written tilecraft reference
// kernel, tt-metal 0.81.1.
//
// Drains CB c_16 into output tiles [out_start, out_start + out_count) of the interleaved C.
//
// Compile-time args: TensorAccessorArgs(C).
// Runtime args:      c_addr, out_start, out_count.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t c_addr = get_arg_val<uint32_t>(0);
    const uint32_t out_start = get_arg_val<uint32_t>(1);
    const uint32_t out_count = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    constexpr auto c_args = TensorAccessorArgs<0>();
    const auto c = TensorAccessor(c_args, c_addr, get_tile_size(cb_out));

    for (uint32_t out = out_start; out < out_start + out_count; ++out) {
        cb_wait_front(cb_out, 1);
        noc_async_write_page(out, c, get_read_ptr(cb_out));
        noc_async_write_barrier();
        cb_pop_front(cb_out, 1);
    }
}
