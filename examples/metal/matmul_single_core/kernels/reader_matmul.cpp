// Single-core matmul C[M,N] = A[M,K] @ B[K,N], reader (RISCV_1).
//
// Output tiles are produced row by row, so the Kt tiles of A's row m are read once and stay in
// CB c_0 while each column of B streams through CB c_1: A is read from DRAM once in total
// instead of once per output tile. Each transfer is a whole row or column of tiles behind one
// read barrier.
//
// Compile-time args: TensorAccessorArgs(A), TensorAccessorArgs(B), Mt, Kt, Nt (in tiles)
// Runtime args:      A address, B address
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t b_addr = get_arg_val<uint32_t>(1);

    constexpr auto a_args = TensorAccessorArgs<0>();
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    constexpr uint32_t dims = b_args.next_compile_time_args_offset();
    constexpr uint32_t Mt = get_compile_time_arg_val(dims);
    constexpr uint32_t Kt = get_compile_time_arg_val(dims + 1);
    constexpr uint32_t Nt = get_compile_time_arg_val(dims + 2);

    constexpr uint32_t cb_a = tt::CBIndex::c_0;
    constexpr uint32_t cb_b = tt::CBIndex::c_1;
    const uint32_t a_tile_bytes = get_tile_size(cb_a);
    const uint32_t b_tile_bytes = get_tile_size(cb_b);
    const auto a = TensorAccessor(a_args, a_addr);
    const auto b = TensorAccessor(b_args, b_addr);

    for (uint32_t m = 0; m < Mt; ++m) {
        cb_reserve_back(cb_a, Kt);
        uint32_t a_l1 = get_write_ptr(cb_a);
        for (uint32_t k = 0; k < Kt; ++k) {
            noc_async_read_page(m * Kt + k, a, a_l1);  // A is row-major in tiles: tile (m, k)
            a_l1 += a_tile_bytes;
        }
        noc_async_read_barrier();
        cb_push_back(cb_a, Kt);

        for (uint32_t n = 0; n < Nt; ++n) {
            cb_reserve_back(cb_b, Kt);
            uint32_t b_l1 = get_write_ptr(cb_b);
            for (uint32_t k = 0; k < Kt; ++k) {
                noc_async_read_page(k * Nt + n, b, b_l1);  // tile (k, n): a column of B
                b_l1 += b_tile_bytes;
            }
            noc_async_read_barrier();
            cb_push_back(cb_b, Kt);
        }
    }
}
