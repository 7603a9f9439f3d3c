// Gather of row shards into one core, receiver (RISCV_0, on the gather core).
//
// CB c_16 is aliased to the output shard, which the senders fill over the NoC. The receiver
// reserves it (nobody on this core may use those pages meanwhile), waits until the semaphore
// has counted every sender, and pushes the whole shard: a compute kernel on this core could
// consume the gathered tensor from here.
//
// Compile-time args (named): num_senders, shard_tiles (of the output), semaphore (id)
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    constexpr uint32_t num_senders = get_named_compile_time_arg_val("num_senders");
    constexpr uint32_t shard_tiles = get_named_compile_time_arg_val("shard_tiles");
    constexpr uint32_t semaphore_id = get_named_compile_time_arg_val("semaphore");
    constexpr uint32_t cb_out = tt::CBIndex::c_16;

    cb_reserve_back(cb_out, shard_tiles);
    auto* arrived = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore(semaphore_id));
    noc_semaphore_wait(arrived, num_senders);
    // Re-arm it: a kernel that gathers in a loop (a persistent program) counts from zero again
    // without the host having to reset the semaphore.
    noc_semaphore_set(arrived, 0);
    cb_push_back(cb_out, shard_tiles);
}
