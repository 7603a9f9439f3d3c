// Multicast with the 0.81.1 object API: the sender reads a page of the input into CB 1 and
// multicasts it (itself included) into CB 0 of every core of the row through a MulticastEndpoint,
// then multicasts the "ready" semaphore; every core waits on it and writes the page to its own
// page of the output. Runtime args: input, output, sender?, multicast rectangle (x0, y0, x1, y1),
// number of cores, output page. Compile-time args: the two tensors' accessor args.
#include <cstdint>

#include "api/dataflow/circular_buffer.h"
#include "api/dataflow/dataflow_buffer.h"
#include "api/dataflow/endpoints.h"
#include "api/dataflow/noc.h"
#include "api/semaphore.h"
#include "api/tensor/noc_traits.h"

void kernel_main() {
    const uint32_t in = get_arg_val<uint32_t>(0), out = get_arg_val<uint32_t>(1);
    const bool sender = get_arg_val<uint32_t>(2) == 1;
    const uint32_t x0 = get_arg_val<uint32_t>(3), y0 = get_arg_val<uint32_t>(4);
    const uint32_t x1 = get_arg_val<uint32_t>(5), y1 = get_arg_val<uint32_t>(6);
    const uint32_t cores = get_arg_val<uint32_t>(7), page = get_arg_val<uint32_t>(8);
    constexpr auto in_args = TensorAccessorArgs<0>();
    constexpr auto out_args = TensorAccessorArgs<in_args.next_compile_time_args_offset()>();
    const auto input = TensorAccessor(in_args, in);
    const auto output = TensorAccessor(out_args, out);

    Noc noc;
    DataflowBuffer received(0);
    Semaphore ready(0);
    const uint32_t bytes = received.get_entry_size();

    received.reserve_back(1);
    if (sender) {
        CircularBuffer staging(1);
        staging.reserve_back(1);
        noc.async_read(input, staging, bytes, {.page_id = 0}, {});
        noc.async_read_barrier();
        staging.push_back(1);
        staging.wait_front(1);
        noc.async_write_multicast<NocOptions::MCAST_INCL_SRC>(
            staging, MulticastEndpoint{}, bytes, cores, {},
            {.noc_x_start = x0, .noc_y_start = y0, .noc_x_end = x1, .noc_y_end = y1, .addr = received.get_write_ptr()});
        noc.async_write_barrier();
        staging.pop_front(1);
        ready.set(1);
        ready.set_multicast<NocOptions::MCAST_INCL_SRC>(noc, x0, y0, x1, y1, cores);
        noc.async_write_barrier();
    }
    ready.wait(1);
    received.push_back(1);
    received.wait_front(1);
    noc.async_write(received, output, bytes, {}, {.page_id = page});
    noc.async_write_barrier();
    received.pop_front(1);
}
