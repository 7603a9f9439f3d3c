#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// L1 address 0x100 of another core is firmware (mailboxes), not a buffer
void kernel_main() {
    const uint32_t x1 = get_arg_val<uint32_t>(4), y1 = get_arg_val<uint32_t>(5);
    cb_reserve_back(0, 1);
    noc_async_write(get_write_ptr(0), get_noc_addr(x1, y1, 0x100), 64);  // FINDING-HERE
    noc_async_write_barrier();
}
