#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// the host passes 6 runtime args
void kernel_main() {
    uint32_t x = get_arg_val<uint32_t>(20);  // FINDING-HERE
    (void)x;
}
