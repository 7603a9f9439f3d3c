// Test reader written against Metal 2.0's named kernel arguments (experimental/kernel_args.h):
// tiles [first_tile, first_tile + tile_count) of an interleaved tensor into a CB, one per push.
// Compile-time args: TensorAccessorArgs(tensor); the named arguments are in reader_named_args.hpp.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "experimental/kernel_args.h"
#include "reader_named_args.hpp"

void kernel_main() {
    const uint32_t address = get_arg(args::address);
    const uint32_t first = get_arg(args::first_tile);
    const uint32_t count = get_arg(args::tile_count);  // FINDING-HERE (a missing common arg)
    constexpr uint32_t cb = get_arg(args::cb);  // a compile-time arg is a constant expression
    constexpr auto accessor_args = TensorAccessorArgs<0>();
    const auto tensor = TensorAccessor(accessor_args, address);
    for (uint32_t page = first; page < first + count; ++page) {
        cb_reserve_back(cb, 1);
        noc_async_read_page(page, tensor, get_write_ptr(cb));
        noc_async_read_barrier();
        cb_push_back(cb, 1);
    }
}
