#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// the page is freed while the write out of it may still be reading it
void kernel_main() {
    const auto t = TensorAccessor(TensorAccessorArgs<0>(), get_arg_val<uint32_t>(0));
    const auto out = TensorAccessor(TensorAccessorArgs<2>(), get_arg_val<uint32_t>(1));
    cb_reserve_back(0, 1);
    cb_push_back(0, 1);
    cb_wait_front(0, 1);
    noc_async_write_page(0, out, get_read_ptr(0));
    cb_pop_front(0, 1);  // FINDING-HERE
    noc_async_write_barrier();
}
