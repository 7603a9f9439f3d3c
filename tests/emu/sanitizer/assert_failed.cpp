#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/debug/assert.h"
#include "api/debug/waypoint.h"

// a failed ASSERT: the device hangs there under the watcher; the emulator reports the line
void kernel_main() {
    WAYPOINT("STRT");
    const uint32_t x = get_arg_val<uint32_t>(2);  // core (0, 0)'s NoC x
    ASSERT(x >= 1);
    ASSERT(x > 100, x);  // FINDING-HERE
}
