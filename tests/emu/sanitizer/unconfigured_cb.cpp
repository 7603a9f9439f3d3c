#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// CB 5 has no CBDescriptor
void kernel_main() {
    cb_reserve_back(5, 1);  // FINDING-HERE
}
