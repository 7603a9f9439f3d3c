// get_local_cb_interface (0.81.1 internal/circular_buffer_interface.h), emulated: the CB's size,
// page size, page count and the calling RISC's read and write pointers, in the device's layout
// and units (bytes on BRISC/NCRISC, 16-byte units on the compute RISCs). The runtime refreshes
// the fields at each CB call of that RISC; writing them does not move the CB (the emulator keeps
// the CB's state itself), so kernels that set fifo_rd_ptr/fifo_wr_ptr are not modelled.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tc_emu/runtime.h"

struct LocalCBInterface {
    std::uint32_t fifo_size;
    std::uint32_t fifo_limit;
    std::uint32_t fifo_page_size;
    std::uint32_t fifo_num_pages;
    std::uint32_t fifo_rd_ptr;
    std::uint32_t fifo_wr_ptr;
    union {
        std::uint32_t tiles_acked_received_init;
        struct {
            std::uint16_t tiles_acked;
            std::uint16_t tiles_received;
        };
    };
    std::uint32_t fifo_wr_tile_ptr;
};
static_assert(sizeof(LocalCBInterface) == sizeof(::tc::CbInterface) &&
              offsetof(LocalCBInterface, fifo_wr_ptr) == offsetof(::tc::CbInterface, fifo_wr_ptr) &&
              offsetof(LocalCBInterface, fifo_wr_tile_ptr) == offsetof(::tc::CbInterface, fifo_wr_tile_ptr));

#ifdef COMPILE_FOR_TRISC
constexpr std::uint32_t cb_addr_shift = 4;
#else
constexpr std::uint32_t cb_addr_shift = 0;
#endif

inline __attribute__((always_inline)) LocalCBInterface& get_local_cb_interface(std::uint32_t cb_id, TC_LOC) {
    return *reinterpret_cast<LocalCBInterface*>(::tc::cb_interface(cb_id, tc_loc));
}
