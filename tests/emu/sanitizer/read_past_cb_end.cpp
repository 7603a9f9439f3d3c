#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// a tile read into the second half of the last page of a 2-page CB runs past its end
void kernel_main() {
    const auto t = TensorAccessor(TensorAccessorArgs<0>(), get_arg_val<uint32_t>(0));
    const auto out = TensorAccessor(TensorAccessorArgs<2>(), get_arg_val<uint32_t>(1));
    cb_reserve_back(0, 2);
    noc_async_read(t.get_noc_addr(0), get_write_ptr(0) + 3072, 2048);  // FINDING-HERE
    noc_async_read_barrier();
}
