#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// cb_push_back of 2 pages after reserving 1, when only 1 page of the 2-page CB is free
void kernel_main() {
    cb_reserve_back(0, 1);
    cb_push_back(0, 1);
    cb_reserve_back(0, 1);
    cb_push_back(0, 2);  // FINDING-HERE
}
