// y = gelu(a @ b + bias), reader (RISCV_1).  Hand-written tilecraft reference kernel, tt-metal 0.81.1.
//
// For each of this core's output blocks (BM x BN tiles): the BN bias tiles into CB c_2, then every K
// block, BM x BK tiles of A into c_0 and BK x BN tiles of B into c_1, one read barrier per K block.
//
// Compile-time args: TensorAccessorArgs(A), TensorAccessorArgs(B), TensorAccessorArgs(bias), BM, BN, BK.
// Runtime args:      a_addr, b_addr, bias_addr, first_block, blocks, n_blocks, k_blocks.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t b_addr = get_arg_val<uint32_t>(1);
    const uint32_t bias_addr = get_arg_val<uint32_t>(2);
    const uint32_t first_block = get_arg_val<uint32_t>(3);
    const uint32_t blocks = get_arg_val<uint32_t>(4);
    const uint32_t n_blocks = get_arg_val<uint32_t>(5);
    const uint32_t k_blocks = get_arg_val<uint32_t>(6);

    constexpr uint32_t cb_a = tt::CBIndex::c_0;
    constexpr uint32_t cb_b = tt::CBIndex::c_1;
    constexpr uint32_t cb_bias = tt::CBIndex::c_2;
    constexpr auto a_args = TensorAccessorArgs<0>();
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    constexpr auto bias_args = TensorAccessorArgs<b_args.next_compile_time_args_offset()>();
    constexpr uint32_t BM = get_compile_time_arg_val(bias_args.next_compile_time_args_offset());
    constexpr uint32_t BN = get_compile_time_arg_val(bias_args.next_compile_time_args_offset() + 1);
    constexpr uint32_t BK = get_compile_time_arg_val(bias_args.next_compile_time_args_offset() + 2);

    const uint32_t tile_bytes = get_tile_size(cb_a);
    const auto a = TensorAccessor(a_args, a_addr, tile_bytes);
    const auto b = TensorAccessor(b_args, b_addr, tile_bytes);
    const auto bias = TensorAccessor(bias_args, bias_addr, tile_bytes);
    const uint32_t Kt = k_blocks * BK, Nt = n_blocks * BN;

    for (uint32_t block = first_block; block < first_block + blocks; ++block) {
        const uint32_t mb = block / n_blocks, nb = block % n_blocks;
        cb_reserve_back(cb_bias, BN);
        uint32_t bias_l1 = get_write_ptr(cb_bias);
        for (uint32_t c = 0; c < BN; ++c) {
            noc_async_read_page(nb * BN + c, bias, bias_l1);
            bias_l1 += tile_bytes;
        }
        noc_async_read_barrier();
        cb_push_back(cb_bias, BN);
        for (uint32_t kb = 0; kb < k_blocks; ++kb) {
            cb_reserve_back(cb_a, BM * BK);
            cb_reserve_back(cb_b, BK * BN);
            uint32_t a_l1 = get_write_ptr(cb_a);
            for (uint32_t r = 0; r < BM; ++r) {
                for (uint32_t k = 0; k < BK; ++k) {
                    noc_async_read_page((mb * BM + r) * Kt + kb * BK + k, a, a_l1);
                    a_l1 += tile_bytes;
                }
            }
            uint32_t b_l1 = get_write_ptr(cb_b);
            for (uint32_t k = 0; k < BK; ++k) {
                for (uint32_t c = 0; c < BN; ++c) {
                    noc_async_read_page((kb * BK + k) * Nt + nb * BN + c, b, b_l1);
                    b_l1 += tile_bytes;
                }
            }
            noc_async_read_barrier();
            cb_push_back(cb_a, BM * BK);
            cb_push_back(cb_b, BK * BN);
        }
    }
}
