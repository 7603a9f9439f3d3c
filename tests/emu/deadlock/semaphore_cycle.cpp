// Two cores, each waits for the other's signal before sending its own: a circular wait.
// Runtime args: the other core's NoC x, y.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t other_x = get_arg_val<uint32_t>(0);
    const uint32_t other_y = get_arg_val<uint32_t>(1);
    const uint32_t sem = get_semaphore(0);
    volatile tt_l1_ptr uint32_t* mine = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(sem);
    noc_semaphore_wait(mine, 1);  // BLOCKED-CYCLE
    noc_semaphore_inc(get_noc_addr(other_x, other_y, sem), 1);
    noc_async_atomic_barrier();
}
