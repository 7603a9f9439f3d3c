#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// a 2-page push starting at the CB's second page runs past its end (the CB does not wrap)
void kernel_main() {
    cb_reserve_back(0, 1);
    cb_push_back(0, 1);
    cb_wait_front(0, 1);
    cb_pop_front(0, 1);
    cb_reserve_back(0, 2);
    cb_push_back(0, 2);  // FINDING-HERE
}
