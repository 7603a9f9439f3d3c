#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// the destination lies past the end of this core's L1
void kernel_main() {
    const auto t = TensorAccessor(TensorAccessorArgs<0>(), get_arg_val<uint32_t>(0));
    const auto out = TensorAccessor(TensorAccessorArgs<2>(), get_arg_val<uint32_t>(1));
    noc_async_read(t.get_noc_addr(0), get_write_ptr(0) + 1400 * 1024, 2048);  // FINDING-HERE
}
