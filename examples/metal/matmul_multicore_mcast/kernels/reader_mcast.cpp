// Multicore reuse + multicast matmul C[M,N] = A[M,K] @ B[K,N], reader (RISCV_1) of every core.
//
// C is cut into per_core_M x per_core_N tile blocks, one per core of an R x C grid: core (x, y)
// computes block (y, x) and needs A's block row y and B's block column x, one K-block of
// in0_block_w tiles at a time. Rather than every core reading them from DRAM, the core in column
// 0 of each row reads the A block and multicasts it along the row, and the core in row 0 of each
// column reads the B block and multicasts it down the column: DRAM reads of A drop C-fold, of B
// R-fold. One source serves the four roles; the host picks each core's role with the named
// compile-time args in0_sender / in1_sender.
//
// Per block and operand, sender and receivers shake hands over two semaphores on every core:
//   receiver: reserve its CB slot, arm its `flag` semaphore (INVALID), increment the sender's
//             `ready` semaphore, wait until the flag turns VALID, push the slot.
//   sender:   read the block into its own CB slot, wait until `ready` counts every receiver,
//             reset it, multicast the block to the same L1 address on the receivers, multicast
//             VALID into their flags, push the slot.
// Multicasting to the sender's own write address is right because every core makes the same
// reserve/push calls on identically sized CBs, so all their write pointers move in lockstep.
//
// Compile-time args: TensorAccessorArgs(A), TensorAccessorArgs(B), then the named args read below.
// Runtime args:      A address, first A tile, B address, first B tile,
//                    in0 multicast rectangle (NoC x/y of its two corners) and sender NoC x/y,
//                    in1 multicast rectangle and sender NoC x/y.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "hostdevcommon/common_values.hpp"

namespace {

// A multicast rectangle is named start corner first, in the direction its NoC travels: NOC 0
// runs towards increasing x and y, NOC 1 towards decreasing ones. The host gives the corners in
// (NOC 0) worker coordinates, top-left first; on NOC 1 they are swapped.
uint64_t multicast_addr(uint32_t x_first, uint32_t y_first, uint32_t x_last, uint32_t y_last, uint32_t l1_addr) {
    if constexpr (noc_index == 0) {
        return get_noc_multicast_addr(x_first, y_first, x_last, y_last, l1_addr);
    } else {
        return get_noc_multicast_addr(x_last, y_last, x_first, y_first, l1_addr);
    }
}

// One operand's multicast link, as seen from this core.
struct Link {
    uint32_t x_first, y_first, x_last, y_last;  // the receivers' rectangle
    uint32_t sender_x, sender_y;                // the sender
    uint32_t ready_sem_addr;                    // on the sender: receivers that have a free slot
    uint32_t flag_sem_addr;                     // on a receiver: VALID once the block has landed
};

Link read_link(uint32_t first_arg, uint32_t ready_sem_id, uint32_t flag_sem_id) {
    return Link{
        get_arg_val<uint32_t>(first_arg), get_arg_val<uint32_t>(first_arg + 1),
        get_arg_val<uint32_t>(first_arg + 2), get_arg_val<uint32_t>(first_arg + 3),
        get_arg_val<uint32_t>(first_arg + 4), get_arg_val<uint32_t>(first_arg + 5),
        get_semaphore(ready_sem_id), get_semaphore(flag_sem_id)};
}

// Reads a rows x cols block of tiles (row-major in L1) whose top-left tile is `first` in a
// tensor with `row_tiles` tiles per row.
template <typename Accessor>
void read_block(const Accessor& tensor, uint32_t first, uint32_t rows, uint32_t cols, uint32_t row_tiles,
                uint32_t l1_addr, uint32_t tile_bytes) {
    for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t c = 0; c < cols; ++c) {
            noc_async_read_page(first + r * row_tiles + c, tensor, l1_addr);
            l1_addr += tile_bytes;
        }
    }
    noc_async_read_barrier();
}

void send_block(const Link& link, uint32_t num_receivers, uint32_t l1_addr, uint32_t bytes) {
    auto* ready = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(link.ready_sem_addr);
    noc_semaphore_wait(ready, num_receivers);
    // No receiver increments again before it has this block's VALID flag, which comes after the reset.
    noc_semaphore_set(ready, 0);
    noc_async_write_multicast(l1_addr, multicast_addr(link.x_first, link.y_first, link.x_last, link.y_last, l1_addr),
                              bytes, num_receivers);
    // The flag must not overtake the data. Both go out on the same NoC and virtual channel, but
    // on Blackhole they leave through different command buffers: flush the data first.
    noc_async_writes_flushed();
    // The sender's own flag semaphore holds VALID (set at kernel start): multicast that word.
    noc_semaphore_set_multicast(
        link.flag_sem_addr,
        multicast_addr(link.x_first, link.y_first, link.x_last, link.y_last, link.flag_sem_addr), num_receivers);
}

void receive_block(const Link& link) {
    auto* flag = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(link.flag_sem_addr);
    // Arm the flag before announcing the free slot: set afterwards, it could erase the sender's VALID.
    noc_semaphore_set(flag, INVALID);
    noc_semaphore_inc(get_noc_addr(link.sender_x, link.sender_y, link.ready_sem_addr), 1);
    noc_semaphore_wait(flag, VALID);
}

}  // namespace

void kernel_main() {
    constexpr auto a_args = TensorAccessorArgs<0>();
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();

    constexpr bool in0_sender = get_named_compile_time_arg_val("in0_sender") == 1;
    constexpr bool in1_sender = get_named_compile_time_arg_val("in1_sender") == 1;
    constexpr uint32_t in0_receivers = get_named_compile_time_arg_val("in0_receivers");  // grid columns - 1
    constexpr uint32_t in1_receivers = get_named_compile_time_arg_val("in1_receivers");  // grid rows - 1
    constexpr uint32_t Kt = get_named_compile_time_arg_val("Kt");
    constexpr uint32_t Nt = get_named_compile_time_arg_val("Nt");
    constexpr uint32_t per_core_M = get_named_compile_time_arg_val("per_core_M");
    constexpr uint32_t per_core_N = get_named_compile_time_arg_val("per_core_N");
    constexpr uint32_t in0_block_w = get_named_compile_time_arg_val("in0_block_w");
    constexpr uint32_t num_blocks = Kt / in0_block_w;
    constexpr uint32_t in0_block_tiles = per_core_M * in0_block_w;
    constexpr uint32_t in1_block_tiles = in0_block_w * per_core_N;

    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t a_first_tile = get_arg_val<uint32_t>(1);  // A(y * per_core_M, 0)
    const uint32_t b_addr = get_arg_val<uint32_t>(2);
    const uint32_t b_first_tile = get_arg_val<uint32_t>(3);  // B(0, x * per_core_N)
    const Link in0 = read_link(4, get_named_compile_time_arg_val("in0_ready_semaphore"),
                               get_named_compile_time_arg_val("in0_flag_semaphore"));
    const Link in1 = read_link(10, get_named_compile_time_arg_val("in1_ready_semaphore"),
                               get_named_compile_time_arg_val("in1_flag_semaphore"));

    constexpr uint32_t cb_in0 = tt::CBIndex::c_0;
    constexpr uint32_t cb_in1 = tt::CBIndex::c_1;
    const uint32_t in0_tile_bytes = get_tile_size(cb_in0);
    const uint32_t in1_tile_bytes = get_tile_size(cb_in1);
    const auto a = TensorAccessor(a_args, a_addr);
    const auto b = TensorAccessor(b_args, b_addr);

    if constexpr (in0_sender) {
        noc_semaphore_set(reinterpret_cast<volatile tt_l1_ptr uint32_t*>(in0.flag_sem_addr), VALID);
    }
    if constexpr (in1_sender) {
        noc_semaphore_set(reinterpret_cast<volatile tt_l1_ptr uint32_t*>(in1.flag_sem_addr), VALID);
    }

    for (uint32_t block = 0; block < num_blocks; ++block) {
        cb_reserve_back(cb_in0, in0_block_tiles);
        const uint32_t in0_l1 = get_write_ptr(cb_in0);
        if constexpr (in0_sender) {
            read_block(a, a_first_tile + block * in0_block_w, per_core_M, in0_block_w, Kt, in0_l1, in0_tile_bytes);
            if constexpr (in0_receivers > 0) {
                send_block(in0, in0_receivers, in0_l1, in0_block_tiles * in0_tile_bytes);
            }
        } else {
            receive_block(in0);
        }
        cb_push_back(cb_in0, in0_block_tiles);

        cb_reserve_back(cb_in1, in1_block_tiles);
        const uint32_t in1_l1 = get_write_ptr(cb_in1);
        if constexpr (in1_sender) {
            read_block(b, b_first_tile + block * in0_block_w * Nt, in0_block_w, per_core_N, Nt, in1_l1, in1_tile_bytes);
            if constexpr (in1_receivers > 0) {
                send_block(in1, in1_receivers, in1_l1, in1_block_tiles * in1_tile_bytes);
            }
        } else {
            receive_block(in1);
        }
        cb_push_back(cb_in1, in1_block_tiles);
    }
    // Leave nothing in flight: the last multicasts and semaphore increments must land before the
    // kernel (and with it the program) is reported done.
    noc_async_write_barrier();
    noc_async_atomic_barrier();
}
