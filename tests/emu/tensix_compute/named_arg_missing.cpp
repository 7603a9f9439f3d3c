// A compute kernel reading a named compile-time arg its host does not pass, at compile time.
#include "api/compute/common.h"

void kernel_main() {
    [[maybe_unused]] constexpr uint32_t rows = get_named_compile_time_arg_val("rows");  // MISSING
}
