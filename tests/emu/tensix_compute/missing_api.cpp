// A compute kernel calling a function the 0.81.1 compute API does not have.
#include "api/compute/common.h"

void kernel_main() {
    not_a_compute_api_call(0);  // MISSING
}
