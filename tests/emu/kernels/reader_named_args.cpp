// Test reader written against Metal 2.0's named bindings, as the JIT generates them from a host
// schema (here tilecraft's ttnn.KernelBindings): pages first, first + step, ... of a tensor into a
// DFB, `chunk` pages per push. args::first_tile is a runtime arg (per core), args::tile_count a
// common runtime arg, args::chunk a compile-time arg; the page step is runtime vararg 0; the
// tensor and the DFB are bindings (tensor::src, dfb::out).
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/dataflow_buffer.h"
#include "api/dataflow/noc.h"
#include "api/tensor/noc_traits.h"
#include "experimental/kernel_args.h"

void kernel_main() {
    const uint32_t first = get_arg(args::first_tile);  // FIRST-BINDING
    const uint32_t count = get_arg(args::tile_count);
    constexpr uint32_t chunk = get_arg(args::chunk);  // a compile-time arg is a constant expression
    const uint32_t step = get_vararg(0);  // FINDING-HERE (a vararg the host did not set)
    const auto tensor = TensorAccessor(tensor::src);
    DataflowBuffer out(dfb::out);
    const Noc noc;
    for (uint32_t i = 0; i < count; i += chunk) {
        out.reserve_back(chunk);
        for (uint32_t k = 0; k < chunk; ++k) {
            noc.async_read(tensor, out, out.get_tile_size(), {.page_id = first + (i + k) * step},
                           {.offset_bytes = k * out.get_tile_size()});
        }
        noc.async_read_barrier();
        out.push_back(chunk);
    }
}
