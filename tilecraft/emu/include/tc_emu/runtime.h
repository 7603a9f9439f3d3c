// tilecraft kernel emulator: the entry points kernel code reaches through the emulated
// TT-Metalium 0.81.1 API headers. Written by tilecraft; not part of tt-metal.
//
// Every API call that the emulator checks carries the caller's source location (Loc): the API
// functions take a trailing defaulted `tc_loc` parameter initialised with __builtin_FILE() /
// __builtin_LINE(), which the compiler evaluates at the call site, so kernels are written exactly
// as for the device and every finding or blocked call names the kernel's own line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <source_location>

namespace tc {

using Loc = std::source_location;

// ---------------------------------------------------------------- kernel arguments and identity
std::uint32_t arg(std::uint32_t index, bool common, Loc loc);
std::uint32_t* arg_pointer(std::uint32_t index, bool common, Loc loc);
std::uint8_t* my_noc_x();
std::uint8_t* my_noc_y();
std::uint8_t logical_x();
std::uint8_t logical_y();

// ---------------------------------------------------------------- circular buffers
void cb_reserve_back(std::int32_t cb, std::int32_t pages, Loc loc);
void cb_push_back(std::int32_t cb, std::int32_t pages, Loc loc);
void cb_wait_front(std::int32_t cb, std::int32_t pages, Loc loc);
void cb_pop_front(std::int32_t cb, std::int32_t pages, Loc loc);
bool cb_pages_reservable_at_back(std::int32_t cb, std::int32_t pages, Loc loc);
bool cb_pages_available_at_front(std::int32_t cb, std::int32_t pages, Loc loc);
std::uint32_t cb_write_ptr(std::uint32_t cb, Loc loc);
std::uint32_t cb_read_ptr(std::uint32_t cb, Loc loc);
std::uint32_t cb_tile_address(std::uint32_t cb, std::uint32_t tile, Loc loc);
// The fields of 0.81.1's LocalCBInterface (internal/circular_buffer_interface.h), in its layout:
// sizes and pointers in bytes on the data-movement RISCs, in 16-byte units on the compute one.
struct CbInterface {
    std::uint32_t fifo_size, fifo_limit, fifo_page_size, fifo_num_pages, fifo_rd_ptr, fifo_wr_ptr;
    std::uint16_t tiles_acked, tiles_received;
    std::uint32_t fifo_wr_tile_ptr;
};
// The calling RISC's view of a CB, filled in now and at each of its CB calls (a snapshot: writes
// to it do not move the CB's pointers). One per (core, RISC, CB), so a reference stays its own.
CbInterface* cb_interface(std::uint32_t cb, Loc loc);

// ---------------------------------------------------------------- NoC
// Interleaved banks: NoC coordinates and bank-local offsets of DRAM and L1 banks.
std::uint32_t bank_xy(bool dram, std::uint32_t bank, std::uint8_t noc);
std::uint32_t num_banks(bool dram);
void noc_read(std::uint64_t src, std::uint32_t dst_l1, std::uint32_t size, std::uint8_t noc, Loc loc);
void noc_write(std::uint32_t src_l1, std::uint64_t dst, std::uint32_t size, std::uint8_t noc, Loc loc);
void noc_write_multicast(std::uint32_t src_l1, std::uint64_t dst, std::uint32_t size, std::uint32_t num_dests,
                         bool linked, bool loopback, std::uint8_t noc, Loc loc);
// Noc::async_write_zeros to this core's L1: zeros land at once (write_zeros_l1_barrier has nothing to wait for).
void noc_zero_l1(std::uint32_t dst_l1, std::uint32_t size, std::uint8_t noc, Loc loc);
enum class Barrier : std::uint8_t { Reads, Writes, WritesFlushed, PostedWritesFlushed, Atomics, Full };
void noc_barrier(Barrier kind, std::uint8_t noc, Loc loc);
// An instant inside a polling loop: lets the other cores run (a cooperative yield point).
void yield_point(Loc loc);

// ---------------------------------------------------------------- semaphores
std::uint32_t semaphore_address(std::uint32_t id, Loc loc);
void sem_wait(volatile std::uint32_t* sem, std::uint32_t value, bool at_least, Loc loc);
void sem_set(volatile std::uint32_t* sem, std::uint32_t value, Loc loc);
void sem_inc(std::uint64_t addr, std::uint32_t incr, std::uint8_t noc, Loc loc);
void sem_inc_multicast(std::uint64_t addr, std::uint32_t incr, std::uint32_t num_dests, std::uint8_t noc, Loc loc);
void sem_set_remote(std::uint32_t src_l1, std::uint64_t dst, std::uint8_t noc, Loc loc);
void sem_set_multicast(std::uint32_t src_l1, std::uint64_t dst, std::uint32_t num_dests, bool loopback,
                       std::uint8_t noc, Loc loc);
void inline_dw_write(std::uint64_t addr, std::uint32_t value, std::uint8_t be, bool multicast,
                     std::uint32_t num_dests, std::uint8_t noc, Loc loc);

// ---------------------------------------------------------------- debug print
// ASSERT(condition) of api/debug/assert.h failed: a finding at the kernel line; the kernel hangs
// there on the device (watcher builds), so the run stops.
void assert_failed(const char* condition, Loc loc);
void dprint(const char* text);
void dprint_endl();

// ---------------------------------------------------------------- compute API calls
// Codes of the compute calls' operands as the trace and the sanitizer's checks carry them
// (tilecraft/emu/codes.py reads them): the FPU's binary ops, broadcasts, reduce pools and
// dimensions, and what an init call sets the unpacker and math up for.
enum class Fpu : std::uint8_t { Add, Sub, Mul };
enum class Bcast : std::uint8_t { None, Row, Col, Scalar };
enum class Pool : std::uint8_t { Sum, Avg, Max };
enum class RDim : std::uint8_t { Row, Col, Scalar };
enum class Mode : std::uint8_t {
    None, Copy, Binary, BinaryBcast, UnaryBcast, Matmul, Reduce, Transpose, Tilize, Untilize, ReuseDest,
    PackUntilize
};

}  // namespace tc

#define TC_LOC ::tc::Loc tc_loc = ::tc::Loc::current()
