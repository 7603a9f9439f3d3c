// Test compute: one call the emulator declares but does not model, given as the UNMODELLED_CALL
// define, after the startup and a DST acquire (tests/emu/test_wheel_bcast.py).
#include <cstdint>

#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/eltwise_binary.h"
#include "api/compute/pack.h"
#include "api/compute/eltwise_unary/erfinv.h"
#include "api/compute/eltwise_unary/lgamma.h"

void kernel_main() {
    compute_kernel_hw_startup(0, 1, 16);
    tile_regs_acquire();
    UNMODELLED_CALL  // FINDING-HERE
}
