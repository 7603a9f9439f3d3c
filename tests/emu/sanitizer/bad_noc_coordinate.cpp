#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// (9, 0) is not a Tensix core of the grid nor a DRAM bank
void kernel_main() {
    cb_reserve_back(0, 1);
    noc_async_read(get_noc_addr(9, 0, get_write_ptr(0)), get_write_ptr(0), 64);  // FINDING-HERE
}
