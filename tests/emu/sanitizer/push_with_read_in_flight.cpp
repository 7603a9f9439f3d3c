#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// the pages are handed on before the read into them is known to be complete
void kernel_main() {
    const auto t = TensorAccessor(TensorAccessorArgs<0>(), get_arg_val<uint32_t>(0));
    const auto out = TensorAccessor(TensorAccessorArgs<2>(), get_arg_val<uint32_t>(1));
    cb_reserve_back(0, 1);
    noc_async_read_page(0, t, get_write_ptr(0));
    cb_push_back(0, 1);  // FINDING-HERE
}
