// A compute kernel that issues an instruction the Tensix machine does not model (CLREXPHIST): the
// run must stop naming it, never go on with a wrong result.
#include "api/compute/common.h"

void kernel_main() {
    MATH((TTI_CLREXPHIST));  // UNMODELLED
}
