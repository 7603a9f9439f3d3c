#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// a DRAM read 16 bytes into a page, into a 32-byte aligned L1 address: the two ends differ mod 32
void kernel_main() {
    const auto t = TensorAccessor(TensorAccessorArgs<0>(), get_arg_val<uint32_t>(0));
    const auto out = TensorAccessor(TensorAccessorArgs<2>(), get_arg_val<uint32_t>(1));
    cb_reserve_back(0, 1);
    noc_async_read(t.get_noc_addr(0, 16), get_write_ptr(0), 64);  // FINDING-HERE
    noc_async_read_barrier();
}
