#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// the host passes the named arg 'tiles' only
void kernel_main() {
    uint32_t name_len = get_arg_val<uint32_t>(0) & 0;
    uint32_t x = get_named_compile_time_arg_val(name_len ? "tiles" : "rows");  // FINDING-HERE
    (void)x;
}
