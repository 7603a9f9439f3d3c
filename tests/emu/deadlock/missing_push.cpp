// Reader pushes one page, then asks for two free pages while the writer waits for two full ones.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    cb_reserve_back(0, 1);
    cb_push_back(0, 1);
    cb_reserve_back(0, 2);  // BLOCKED-READER (CB 0 has 2 pages, one of them full)
}
