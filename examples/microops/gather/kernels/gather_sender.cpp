// Gather of row shards into one core, sender (RISCV_1, on every core holding an input shard).
//
// CB c_0 is aliased to this core's input shard. The sender writes the whole shard into the
// gather core's output shard at this sender's place in the row order, waits until the write has
// landed, and only then increments the gather core's semaphore: the receiver takes a count of
// num_senders to mean every byte is there. (A posted write followed by a posted increment on the
// same NoC and virtual channel would usually arrive in order too, but only the barrier makes it
// a guarantee.)
//
// Compile-time args (named): shard_tiles, semaphore (id)
// Runtime args:              this shard's index in the row order (its place in the output shard)
// Common runtime args:       gather core NoC x, NoC y, output shard address on the gather core
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    constexpr uint32_t shard_tiles = get_named_compile_time_arg_val("shard_tiles");
    constexpr uint32_t semaphore_id = get_named_compile_time_arg_val("semaphore");
    const uint32_t shard_index = get_arg_val<uint32_t>(0);
    const uint32_t gather_x = get_common_arg_val<uint32_t>(0);
    const uint32_t gather_y = get_common_arg_val<uint32_t>(1);
    const uint32_t gather_shard_addr = get_common_arg_val<uint32_t>(2);

    constexpr uint32_t cb_in = tt::CBIndex::c_0;
    // The shard is resident: publishing and consuming its pages is bookkeeping on this RISC.
    cb_reserve_back(cb_in, shard_tiles);
    cb_push_back(cb_in, shard_tiles);
    cb_wait_front(cb_in, shard_tiles);

    // The tile size comes from the CB, so the host needs no knowledge of the data format.
    const uint32_t shard_bytes = shard_tiles * get_tile_size(cb_in);
    const uint64_t dst = get_noc_addr(gather_x, gather_y, gather_shard_addr + shard_index * shard_bytes);
    noc_async_write(get_read_ptr(cb_in), dst, shard_bytes);
    noc_async_write_barrier();

    // The semaphore sits at the same L1 address on every core of the program.
    noc_semaphore_inc(get_noc_addr(gather_x, gather_y, get_semaphore(semaphore_id)), 1);
    noc_async_atomic_barrier();
    cb_pop_front(cb_in, shard_tiles);
}
