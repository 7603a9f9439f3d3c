// [1, K] x [K, N] matmul with the weight width-sharded over cores, writer (RISCV_0).
//
// CB c_16 is aliased to this core's output shard: once compute has pushed it, the result is in
// place. Waiting for it keeps the program running until then.
//
// Compile-time args (named): Nt
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    constexpr uint32_t Nt = get_named_compile_time_arg_val("Nt");
    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    cb_wait_front(cb_out, Nt);
}
