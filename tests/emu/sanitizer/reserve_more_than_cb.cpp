#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// 3 pages of a 2-page CB can never be reserved
void kernel_main() {
    cb_reserve_back(0, 3);  // FINDING-HERE
}
