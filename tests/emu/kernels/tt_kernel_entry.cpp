// Test writer whose entry is a TT_KERNEL function (no kernel_main of its own): the JIT writes
// kernel_main() from the entry's signature, passing the named compile-time arg `word` as the
// template parameter and the named runtime arg `page` as the function parameter. It stamps a page
// of dfb::out with `word` and writes it to page `page` of tensor::dst.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/tensor/noc_traits.h"
#include "experimental/kernel_args.h"

template <uint32_t word>
TT_KERNEL void stamp(uint32_t page) {
    DataflowBuffer stamped(dfb::out);
    stamped.reserve_back(1);
    const uint32_t bytes = stamped.get_tile_size();
    volatile uint32_t* first = reinterpret_cast<volatile uint32_t*>(stamped.get_write_ptr());
    for (volatile uint32_t* w = first; w != first + bytes / sizeof(uint32_t); ++w) {
        *w = word;
    }
    Noc().async_write(stamped, TensorAccessor(tensor::dst), bytes, {}, {.page_id = page});
    Noc().async_write_barrier();
}
