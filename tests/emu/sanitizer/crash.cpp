#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// a pointer that is not an L1 address of this core
void kernel_main() {
    cb_reserve_back(0, 1);  // FINDING-HERE
    volatile uint32_t* bad = reinterpret_cast<volatile uint32_t*>(uintptr_t(16));
    *bad = 1;
}
