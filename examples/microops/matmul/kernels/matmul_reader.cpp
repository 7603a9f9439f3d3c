// [1, K] x [K, N] matmul with the weight width-sharded over cores, reader (RISCV_1).
//
// This core's weight shard (all of K, its slice of N) is already in L1 under CB c_1 (aliased):
// a reserve + push hands it to compute. The activation row lives in the L1 of one core, the
// producer of the previous step; every core pulls its own copy straight from there with one
// noc_async_read of the whole row: no DRAM round trip, no semaphore, because the activation is
// resident before the program starts.
//
// Compile-time args (named): Kt, weight_tiles
// Common runtime args:       activation core NoC x, NoC y, activation address on that core
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    constexpr uint32_t Kt = get_named_compile_time_arg_val("Kt");
    constexpr uint32_t weight_tiles = get_named_compile_time_arg_val("weight_tiles");
    const uint32_t act_x = get_common_arg_val<uint32_t>(0);
    const uint32_t act_y = get_common_arg_val<uint32_t>(1);
    const uint32_t act_addr = get_common_arg_val<uint32_t>(2);

    constexpr uint32_t cb_act = tt::CBIndex::c_0;
    constexpr uint32_t cb_weight = tt::CBIndex::c_1;

    cb_reserve_back(cb_weight, weight_tiles);
    cb_push_back(cb_weight, weight_tiles);

    cb_reserve_back(cb_act, Kt);
    noc_async_read(get_noc_addr(act_x, act_y, act_addr), get_write_ptr(cb_act), Kt * get_tile_size(cb_act));
    noc_async_read_barrier();
    cb_push_back(cb_act, Kt);
}
