#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// cb_pop_front of 2 pages after waiting for 1
void kernel_main() {
    cb_reserve_back(0, 2);
    cb_push_back(0, 2);
    cb_wait_front(0, 1);
    cb_pop_front(0, 2);  // FINDING-HERE
}
