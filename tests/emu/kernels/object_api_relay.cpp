// The 0.81.1 object API between two cores: the sender reads a page of a DRAM tensor into its
// DataflowBuffer, marks it through a CoreLocalMem, writes it into the receiver's buffer over a
// UnicastEndpoint and raises the receiver's Semaphore; the receiver waits on the semaphore and
// writes the page to the output tensor. Runtime args: tensor address, peer NoC x and y, role.
#include <cstdint>

#include "api/core_local_mem.h"
#include "api/dataflow/dataflow_buffer.h"
#include "api/dataflow/endpoints.h"
#include "api/dataflow/noc.h"
#include "api/semaphore.h"
#include "api/tensor/noc_traits.h"

void kernel_main() {
    const uint32_t address = get_arg_val<uint32_t>(0);
    const uint32_t peer_x = get_arg_val<uint32_t>(1);
    const uint32_t peer_y = get_arg_val<uint32_t>(2);
    const bool sender = get_arg_val<uint32_t>(3) == 1;
    constexpr auto args = TensorAccessorArgs<0>();
    const auto tensor = TensorAccessor(args, address);

    Noc noc;
    DataflowBuffer dfb(0);
    Semaphore<> arrived(0);
    const uint32_t bytes = dfb.get_entry_size();

    dfb.reserve_back(1);
    if (sender) {
        noc.async_read(tensor, dfb, bytes, {.page_id = 0}, {.offset_bytes = 0});
        noc.async_read_barrier();
        CoreLocalMem<uint16_t> page(dfb.get_write_ptr());
        page[0] = 0x4040;  // 3.0 in bfloat16: the receiver gets what the sender wrote, not only what it read
        noc.async_write(page, UnicastEndpoint{}, bytes, {},
                        {.noc_x = peer_x, .noc_y = peer_y, .addr = dfb.get_write_ptr()});
        noc.async_write_barrier();
        arrived.up(noc, peer_x, peer_y, 1);
        dfb.push_back(1);
        dfb.wait_front(1);
        dfb.pop_front(1);
    } else {
        arrived.wait(1);
        dfb.push_back(1);
        dfb.wait_front(1);
        noc.async_write(dfb, tensor, bytes, {}, {.page_id = 0});
        noc.async_write_barrier();
        dfb.pop_front(1);
        arrived.down(1);
        ASSERT(arrived.value() == 0);
    }
}
