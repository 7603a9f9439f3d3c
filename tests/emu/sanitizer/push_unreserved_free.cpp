#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// cb_push_back of a page never reserved, into an empty CB: the page is free, so it arrives (a warning)
void kernel_main() {
    cb_push_back(0, 1);  // FINDING-HERE
}
