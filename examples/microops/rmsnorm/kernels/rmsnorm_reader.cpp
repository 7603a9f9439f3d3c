// Fused RMSNorm on a height-sharded tensor, reader (RISCV_1).
//
// The input shard is already in this core's L1 and CB c_0 is aliased to it (the host built the
// CB with cb_descriptor_from_sharded_tensor), so "reading" it is only a reserve + push that hands
// its pages to compute. The kernel also builds the reduce scaler tile (1/W, so that the row sum
// of x^2 comes out as its mean) and fetches gamma, a [1, W] row in DRAM, once per core.
//
// Compile-time args: TensorAccessorArgs(gamma), then named: shard_tiles, Wt, scaler (bf16 bits)
// Runtime args:      gamma address
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "../../../metal/common/kernels/reduce_scaler.hpp"

void kernel_main() {
    const uint32_t gamma_addr = get_arg_val<uint32_t>(0);

    constexpr auto gamma_args = TensorAccessorArgs<0>();
    constexpr uint32_t shard_tiles = get_named_compile_time_arg_val("shard_tiles");
    constexpr uint32_t Wt = get_named_compile_time_arg_val("Wt");
    constexpr uint32_t scaler_bf16 = get_named_compile_time_arg_val("scaler");

    constexpr uint32_t cb_x = tt::CBIndex::c_0;
    constexpr uint32_t cb_gamma = tt::CBIndex::c_1;
    constexpr uint32_t cb_scaler = tt::CBIndex::c_2;

    cb_reserve_back(cb_x, shard_tiles);
    cb_push_back(cb_x, shard_tiles);

    cb_reserve_back(cb_scaler, 1);
    fill_reduce_scaler_tile(get_write_ptr(cb_scaler), scaler_bf16);
    cb_push_back(cb_scaler, 1);

    const auto gamma = TensorAccessor(gamma_args, gamma_addr);
    const uint32_t tile_bytes = get_tile_size(cb_gamma);
    cb_reserve_back(cb_gamma, Wt);
    uint32_t l1_addr = get_write_ptr(cb_gamma);
    for (uint32_t t = 0; t < Wt; ++t) {
        noc_async_read_page(t, gamma, l1_addr);
        l1_addr += tile_bytes;
    }
    noc_async_read_barrier();
    cb_push_back(cb_gamma, Wt);
}
