// Writer side of missing_push: waits for two pages; only one comes.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    cb_wait_front(0, 2);  // BLOCKED-WRITER
    cb_pop_front(0, 2);
}
