#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// on NOC 1 (the reader's NoC) the rectangle's start must be the larger corner; given as (min, max)
// it wraps around the torus
void kernel_main() {
    const uint32_t x0 = get_arg_val<uint32_t>(2), y0 = get_arg_val<uint32_t>(3);
    const uint32_t x1 = get_arg_val<uint32_t>(4), y1 = get_arg_val<uint32_t>(5);
    cb_reserve_back(0, 1);
    uint64_t mcast = get_noc_multicast_addr(x0, y0, x1, y1, get_write_ptr(0));
    noc_async_write_multicast_loopback_src(get_write_ptr(0), mcast, 2048, 2);  // FINDING-HERE
    noc_async_write_barrier();
}
