// Tiled matmul C[M,N] = A[M,K] @ B[K,N], reader (RISCV_1).  Hand-written tilecraft reference
// kernel, tt-metal 0.81.1.
//
// For each output tile (m, n) in [out_start, out_start + out_count) (row-major over Mt x Nt),
// streams the K pairs A(m, k), B(k, n) into CB c_0 and CB c_1, one pair per read barrier.
//
// Compile-time args: TensorAccessorArgs(A), TensorAccessorArgs(B).
// Runtime args:      a_addr, b_addr, out_start, out_count, Kt, Nt.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t b_addr = get_arg_val<uint32_t>(1);
    const uint32_t out_start = get_arg_val<uint32_t>(2);
    const uint32_t out_count = get_arg_val<uint32_t>(3);
    const uint32_t Kt = get_arg_val<uint32_t>(4);
    const uint32_t Nt = get_arg_val<uint32_t>(5);

    constexpr uint32_t cb_a = tt::CBIndex::c_0;
    constexpr uint32_t cb_b = tt::CBIndex::c_1;
    constexpr auto a_args = TensorAccessorArgs<0>();
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    const auto a = TensorAccessor(a_args, a_addr, get_tile_size(cb_a));
    const auto b = TensorAccessor(b_args, b_addr, get_tile_size(cb_b));

    for (uint32_t out = out_start; out < out_start + out_count; ++out) {
        const uint32_t m = out / Nt;
        const uint32_t n = out % Nt;
        for (uint32_t k = 0; k < Kt; ++k) {
            cb_reserve_back(cb_a, 1);
            cb_reserve_back(cb_b, 1);
            noc_async_read_page(m * Kt + k, a, get_write_ptr(cb_a));
            noc_async_read_page(k * Nt + n, b, get_write_ptr(cb_b));
            noc_async_read_barrier();
            cb_push_back(cb_a, 1);
            cb_push_back(cb_b, 1);
        }
    }
}
