// Two senders signal one receiver's semaphore; the receiver waits for exactly 1 (it will see 2).
// Runtime args: receiver NoC x, y; is_receiver.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t rx = get_arg_val<uint32_t>(0);
    const uint32_t ry = get_arg_val<uint32_t>(1);
    const uint32_t is_receiver = get_arg_val<uint32_t>(2);
    const uint32_t sem = get_semaphore(0);
    if (is_receiver) {
        volatile tt_l1_ptr uint32_t* mine = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(sem);
        noc_semaphore_wait(mine, 1);  // OVERSHOOT
        noc_semaphore_set(mine, 0);
    } else {
        noc_semaphore_inc(get_noc_addr(rx, ry, sem), 1);
        noc_async_atomic_barrier();
    }
}
