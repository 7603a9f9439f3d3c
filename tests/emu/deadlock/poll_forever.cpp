// Polls a CB that nobody fills with the non-blocking query.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    while (!cb_pages_available_at_front(0, 1)) {  // POLLING
    }
    cb_pop_front(0, 1);
}
