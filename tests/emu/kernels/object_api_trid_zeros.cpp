// The 0.81.1 object API's transaction ids and L1 zeroing (on the real dataflow API, where the
// members are Tenstorrent's): both pages of the DataflowBuffer are read from a DRAM tensor's page 0,
// tagged with transaction id 3 and waited for by that id's barrier; then page 1 is zeroed by
// Noc::async_write_zeros (a NoC read of the core's zero region) and write_zeros_l1_barrier; both
// pages go to the output tensor's pages 0 and 1. Runtime args: input and output tensor addresses.
#include <cstdint>

#include "api/dataflow/dataflow_buffer.h"
#include "api/dataflow/noc.h"

void kernel_main() {
    constexpr auto in_args = TensorAccessorArgs<0>();
    constexpr auto out_args = TensorAccessorArgs<in_args.next_compile_time_args_offset()>();
    const auto in = TensorAccessor(in_args, get_arg_val<uint32_t>(0));
    const auto out = TensorAccessor(out_args, get_arg_val<uint32_t>(1));

    Noc noc;
    DataflowBuffer dfb(0);
    const uint32_t bytes = dfb.get_entry_size();

    dfb.reserve_back(2);
    for (uint32_t page = 0; page < 2; ++page) {
        noc.async_read<NocOptions::TXN_ID>(in, dfb, bytes, {.page_id = 0}, {.offset_bytes = page * bytes}, {.trid = 3});
    }
    noc.async_read_barrier<NocOptions::TXN_ID>({.trid = 3});
    noc.async_write_zeros(dfb, bytes, {.offset_bytes = bytes});
    noc.write_zeros_l1_barrier();
    dfb.push_back(2);
    dfb.wait_front(2);
    for (uint32_t page = 0; page < 2; ++page) {
        noc.async_write(dfb, out, bytes, {.offset_bytes = page * bytes}, {.page_id = page});
    }
    noc.async_write_barrier();
    dfb.pop_front(2);
}
