#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// (5, 1) is in Wormhole's DRAM column, not a Tensix core: tt-metal's NoC sanitizer rejects a
// multicast rectangle whose corner is not a worker
void kernel_main() {
    const uint32_t x0 = get_arg_val<uint32_t>(2), y0 = get_arg_val<uint32_t>(3);
    cb_reserve_back(0, 1);
    uint64_t mcast = get_noc_multicast_addr(x0, y0, 5, 1, get_write_ptr(0));
    noc_async_write_multicast(get_write_ptr(0), mcast, 2048, 4);  // FINDING-HERE
    noc_async_write_barrier();
}
