// Reduce, reader (RISCV_1): builds the scaler tile (../../common/kernels/reduce_scaler.hpp), then
// streams each output's input tiles in the order the compute kernel folds them.
//
// Output o of a row reduction (REDUCE_ROW, sum along W) is tile row o of the [batches * Ht, Wt]
// tile grid: tiles o * Wt + i for i < Wt. Output o of a column reduction (REDUCE_COL, sum along
// H) is tile column (o % Wt) of batch (o / Wt): tiles batch * Ht * Wt + i * Wt + o % Wt, i < Ht.
//
// Compile-time args: TensorAccessorArgs(input), Ht, Wt (tiles per batch), reduce_rows (1 = along W)
// Runtime args:      input address, scaler (bfloat16 bits), first output, number of outputs
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "../../common/kernels/reduce_scaler.hpp"

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t scaler_bf16 = get_arg_val<uint32_t>(1);
    const uint32_t first_output = get_arg_val<uint32_t>(2);
    const uint32_t num_outputs = get_arg_val<uint32_t>(3);

    constexpr auto src_args = TensorAccessorArgs<0>();
    constexpr uint32_t Ht = get_compile_time_arg_val(src_args.next_compile_time_args_offset());
    constexpr uint32_t Wt = get_compile_time_arg_val(src_args.next_compile_time_args_offset() + 1);
    constexpr bool reduce_rows = get_compile_time_arg_val(src_args.next_compile_time_args_offset() + 2) == 1;

    constexpr uint32_t cb_in = tt::CBIndex::c_0;
    constexpr uint32_t cb_scaler = tt::CBIndex::c_2;
    const auto src = TensorAccessor(src_args, src_addr);

    // The scaler tile is written by this core's own RISC straight into L1: no NoC transfer, so no
    // barrier before it is pushed.
    cb_reserve_back(cb_scaler, 1);
    fill_reduce_scaler_tile(get_write_ptr(cb_scaler), static_cast<uint16_t>(scaler_bf16));
    cb_push_back(cb_scaler, 1);

    constexpr uint32_t tiles_per_output = reduce_rows ? Wt : Ht;
    for (uint32_t o = first_output; o < first_output + num_outputs; ++o) {
        const uint32_t first_tile = reduce_rows ? o * Wt : (o / Wt) * Ht * Wt + o % Wt;
        constexpr uint32_t stride = reduce_rows ? 1 : Wt;
        for (uint32_t i = 0; i < tiles_per_output; ++i) {
            cb_reserve_back(cb_in, 1);
            noc_async_read_page(first_tile + i * stride, src, get_write_ptr(cb_in));
            noc_async_read_barrier();
            cb_push_back(cb_in, 1);
        }
    }
}
