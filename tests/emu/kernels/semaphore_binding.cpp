// Test writer on Metal 2.0 bindings that relies on what the JIT's generated header brings with
// them: the DataflowBuffer class (a kernel with DFB bindings gets api/dataflow/dataflow_buffer.h)
// and the semaphore token (sem::counter, a SemaphoreBindingToken). It sets the semaphore to
// args::start, raises it by one, stamps a page of dfb::out with the semaphore's value and writes
// the page to page 0 of tensor::dst.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/semaphore.h"
#include "api/tensor/noc_traits.h"
#include "experimental/kernel_args.h"

void kernel_main() {
    Semaphore<> counter(sem::counter);
    counter.set(get_arg(args::start));
    counter.up(1);
    DataflowBuffer out(dfb::out);
    const auto tensor = TensorAccessor(tensor::dst);
    const Noc noc;
    out.reserve_back(1);
    auto* words = reinterpret_cast<volatile uint32_t*>(get_write_ptr(uint32_t(dfb::out)));
    for (uint32_t i = 0; i < out.get_tile_size() / 4; ++i) {
        words[i] = counter.value();
    }
    noc.async_write(out, tensor, out.get_tile_size(), {}, {.page_id = 0});
    noc.async_write_barrier();
}
