// Writer (RISCV_0): drains a circular buffer, one tile at a time, into consecutive pages of an
// interleaved tensor.  Shared by the examples whose output tiles come out of compute in the
// order they are stored (eltwise_binary, sfpu_chain, matmul_single_core, reduce).
//
// Compile-time args: cb_out, TensorAccessorArgs(output)
// Runtime args:      output buffer address, number of tiles, first tile id
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t dst_addr = get_arg_val<uint32_t>(0);
    const uint32_t num_tiles = get_arg_val<uint32_t>(1);
    const uint32_t first_tile = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_out = get_compile_time_arg_val(0);
    constexpr auto dst_args = TensorAccessorArgs<1>();
    // No page size given: the accessor takes the tensor's aligned page size from its compile-time
    // args, so the kernel works for any tile format the host picks.
    const auto dst = TensorAccessor(dst_args, dst_addr);

    for (uint32_t tile = first_tile; tile < first_tile + num_tiles; ++tile) {
        cb_wait_front(cb_out, 1);
        noc_async_write_page(tile, dst, get_read_ptr(cb_out));
        // The CB page can be handed back as soon as the data has left L1; waiting for DRAM to
        // acknowledge every tile would serialise the writes.
        noc_async_writes_flushed();
        cb_pop_front(cb_out, 1);
    }
    // ...but the kernel must not end (and the host must not read the tensor) before they landed.
    noc_async_write_barrier();
}
