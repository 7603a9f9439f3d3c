// Fused RMSNorm on a height-sharded tensor, writer (RISCV_0).
//
// CB c_16 is aliased to the output tensor's shard in this core's L1, so compute's packs are the
// output: the writer only waits until all of them are there, which keeps the program running
// until the shard is complete.
//
// Compile-time args (named): shard_tiles
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    constexpr uint32_t shard_tiles = get_named_compile_time_arg_val("shard_tiles");
    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    cb_wait_front(cb_out, shard_tiles);
}
