#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// no SemaphoreDescriptor with id 3
void kernel_main() {
    uint32_t sem = get_semaphore(3);  // FINDING-HERE
    (void)sem;
}
