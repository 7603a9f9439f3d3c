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
    DataflowBuffer out(dfb::out);
    const auto tensor = TensorAccessor(tensor::dst);
    const Noc noc;
    out.reserve_back(1);
    auto* words = reinterpret_cast<volatile uint32_t*>(get_write_ptr(uint32_t(dfb::out)));
    for (uint32_t i = 0; i < out.get_tile_size() / 4; ++i) {
        words[i] = word;
    }
    noc.async_write(out, tensor, out.get_tile_size(), {}, {.page_id = page});
    noc.async_write_barrier();
}
