// The TT-Metalium 0.81.1 data-movement kernel API, emulated (tilecraft; not tt-metal's text).
//
// Declarations follow the 0.81.1 signatures (tests/emu/test_signatures.py compares them with the
// real headers); each function adds one trailing defaulted parameter, the caller's source
// location, so that findings and blocked calls name the kernel's line. Transfers complete when
// issued; barriers only close the sanitizer's in-flight windows.
#pragma once

#include <cstdint>

#include "api/compile_time_args.h"
#include "api/debug/dprint.h"
#include "api/tensor/tensor_accessor.h"
#include "tc_emu/args.h"
#include "tc_emu/base.h"
#include "tc_emu/cb_interface.h"
#include "tc_emu/addrgen.h"
#include "tc_emu/noc_addr.h"
#include "api/debug/kernel_profiler.hpp"
#include "api/debug/assert.h"

#define NOC_MAX_BURST_SIZE 8192
#define NOC_UNICAST_WRITE_VC 1
#define NOC_MULTICAST_WRITE_VC 4

enum class InlineWriteDst : uint8_t { DEFAULT = 0, L1 = 1, REG = 2 };

// ---------------------------------------------------------------- circular buffers
FORCE_INLINE
void cb_push_back(const int32_t operand, const int32_t num_pages, TC_LOC) {
    ::tc::cb_push_back(operand, num_pages, tc_loc);
}

FORCE_INLINE
void cb_pop_front(int32_t operand, int32_t num_pages, TC_LOC) { ::tc::cb_pop_front(operand, num_pages, tc_loc); }

constexpr inline std::int32_t get_tile_size(const std::int32_t operand) {
    return std::int32_t(::tc::gen::cb_tile_bytes[operand]);
}

constexpr inline uint32_t get_tile_hw(const std::int32_t operand) {
    return ::tc::gen::cb_tile_rows[operand] * ::tc::gen::cb_tile_cols[operand];
}

constexpr inline uint32_t get_tile_num_faces(const std::int32_t operand) {
    const uint32_t rows = ::tc::gen::cb_tile_rows[operand], cols = ::tc::gen::cb_tile_cols[operand];
    return (rows < 16 ? 1 : rows / 16) * (cols / 16);
}

constexpr inline DataFormat get_dataformat(const std::int32_t operand) {
    return static_cast<DataFormat>(::tc::gen::cb_format[operand]);
}

FORCE_INLINE
uint32_t get_write_ptr(uint32_t operand, TC_LOC) { return ::tc::cb_write_ptr(operand, tc_loc); }

FORCE_INLINE
uint32_t get_read_ptr(uint32_t operand, TC_LOC) { return ::tc::cb_read_ptr(operand, tc_loc); }

FORCE_INLINE
bool cb_pages_reservable_at_back(int32_t operand, int32_t num_pages, TC_LOC) {
    return ::tc::cb_pages_reservable_at_back(operand, num_pages, tc_loc);
}

FORCE_INLINE
void cb_reserve_back(int32_t operand, int32_t num_pages, TC_LOC) { ::tc::cb_reserve_back(operand, num_pages, tc_loc); }

FORCE_INLINE
bool cb_pages_available_at_front(int32_t operand, int32_t num_pages, TC_LOC) {
    return ::tc::cb_pages_available_at_front(operand, num_pages, tc_loc);
}

FORCE_INLINE
void cb_wait_front(int32_t operand, int32_t num_pages, TC_LOC) { ::tc::cb_wait_front(operand, num_pages, tc_loc); }

// A polling loop's body: lets the other cores run (the emulator is cooperative).
inline void invalidate_l1_cache(TC_LOC) { ::tc::yield_point(tc_loc); }

// ---------------------------------------------------------------- NoC addresses
FORCE_INLINE
uint64_t get_noc_multicast_addr(uint32_t noc_x_start, uint32_t noc_y_start, uint32_t noc_x_end, uint32_t noc_y_end,
                                uint32_t addr, uint8_t noc = noc_index) {
    (void)noc;
    return NOC_MULTICAST_ADDR(noc_x_start, noc_y_start, noc_x_end, noc_y_end, addr);
}

FORCE_INLINE
uint64_t get_noc_addr(uint32_t noc_x, uint32_t noc_y, uint32_t addr, uint8_t noc = noc_index) {
    (void)noc;
    return NOC_XY_ADDR(noc_x, noc_y, addr);
}

FORCE_INLINE
std::uint64_t get_noc_addr_helper(std::uint32_t noc_xy, std::uint32_t addr) { return NOC_XY_ADDR2(noc_xy, addr); }

FORCE_INLINE
std::uint64_t get_noc_addr(std::uint32_t addr, uint8_t noc = noc_index) {
    return NOC_XY_ADDR(my_x[noc], my_y[noc], addr);
}

template <bool DRAM>
FORCE_INLINE uint64_t get_noc_addr_from_bank_id(uint32_t bank_id, uint32_t bank_address_offset,
                                                uint8_t noc = noc_index) {
    return ::tc::bank_noc_addr(DRAM, bank_id, bank_address_offset, noc);
}

uint64_t get_dram_noc_addr(const uint32_t id, const uint32_t page_size, const uint32_t bank_base_address,
                           const uint32_t offset = 0, uint8_t noc = noc_index) {
    return ::tc::interleaved_noc_addr(true, id, bank_base_address, ::tc::align_page(page_size, true), offset, noc);
}

uint64_t get_l1_noc_addr(const uint32_t id, const uint32_t page_size, const uint32_t bank_base_address,
                         const uint32_t offset = 0, uint8_t noc = noc_index) {
    return ::tc::interleaved_noc_addr(false, id, bank_base_address, ::tc::align_page(page_size, false), offset, noc);
}

namespace tc {
template <typename AddrGen>
FORCE_INLINE uint32_t tc_addrgen_page_size(const AddrGen& addrgen) {
    if constexpr (requires { addrgen.get_aligned_page_size(); }) {
        return addrgen.get_aligned_page_size();
    } else if constexpr (requires { addrgen.page_size; }) {
        return addrgen.page_size;
    } else {
        return 1u << addrgen.log_base_2_of_page_size;
    }
}
}  // namespace tc

template <typename AddrGen>
FORCE_INLINE uint64_t get_noc_addr(const uint32_t id, const AddrGen& addrgen, uint32_t offset = 0,
                                   uint8_t noc = noc_index, decltype(addrgen.get_noc_addr())* resolver = nullptr) {
    (void)resolver;
    return addrgen.get_noc_addr(id, offset, noc);
}

template <bool DRAM>
[[deprecated("Use <typename AddrGen> get_noc_addr instead.")]]
FORCE_INLINE uint64_t get_noc_addr(const uint32_t id, const InterleavedAddrGen<DRAM>& addrgen, uint32_t offset = 0,
                                   uint8_t noc = noc_index) {
    return addrgen.get_noc_addr(id, offset, noc);
}

// ---------------------------------------------------------------- NoC transfers
template <bool enable_noc_tracing = true>
FORCE_INLINE void noc_async_read_one_packet(uint64_t src_noc_addr, uint32_t dst_local_l1_addr, uint32_t size,
                                            uint8_t noc = noc_index, uint32_t read_req_vc = NOC_UNICAST_WRITE_VC,
                                            TC_LOC) {
    (void)read_req_vc;
    ::tc::noc_read(src_noc_addr, dst_local_l1_addr, size, noc, tc_loc);
}

template <uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, bool enable_noc_tracing = true>
inline void noc_async_read(uint64_t src_noc_addr, uint32_t dst_local_l1_addr, uint32_t size,
                           uint8_t noc = noc_index, uint32_t read_req_vc = NOC_UNICAST_WRITE_VC, TC_LOC) {
    (void)read_req_vc;
    ::tc::noc_read(src_noc_addr, dst_local_l1_addr, size, noc, tc_loc);
}

template <bool enable_noc_tracing = true, bool posted = false>
FORCE_INLINE void noc_async_write_one_packet(std::uint32_t src_local_l1_addr, std::uint64_t dst_noc_addr,
                                             std::uint32_t size, uint8_t noc = noc_index,
                                             uint32_t vc = NOC_UNICAST_WRITE_VC, TC_LOC) {
    (void)vc;
    ::tc::noc_write(src_local_l1_addr, dst_noc_addr, size, noc, tc_loc);
}

template <uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, bool enable_noc_tracing = true, bool posted = false>
inline void noc_async_write(uint32_t src_local_l1_addr, uint64_t dst_noc_addr, uint32_t size, uint8_t noc = noc_index,
                            uint32_t vc = NOC_UNICAST_WRITE_VC, TC_LOC) {
    (void)vc;
    ::tc::noc_write(src_local_l1_addr, dst_noc_addr, size, noc, tc_loc);
}

template <bool enable_noc_tracing = true>
FORCE_INLINE void noc_async_write_multicast_one_packet(std::uint32_t src_local_l1_addr,
                                                       std::uint64_t dst_noc_addr_multicast, std::uint32_t size,
                                                       std::uint32_t num_dests, bool linked = false,
                                                       uint8_t noc = noc_index, TC_LOC) {
    ::tc::noc_write_multicast(src_local_l1_addr, dst_noc_addr_multicast, size, num_dests, linked, false, noc, tc_loc);
}

template <uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1>
inline void noc_async_write_multicast(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast, uint32_t size,
                                      uint32_t num_dests, bool linked = false, uint8_t noc = noc_index,
                                      uint8_t vc = NOC_MULTICAST_WRITE_VC, TC_LOC) {
    (void)vc;
    ::tc::noc_write_multicast(src_local_l1_addr, dst_noc_addr_multicast, size, num_dests, linked, false, noc, tc_loc);
}

inline void noc_async_write_multicast_loopback_src(std::uint32_t src_local_l1_addr,
                                                   std::uint64_t dst_noc_addr_multicast, std::uint32_t size,
                                                   std::uint32_t num_dests, bool linked = false,
                                                   uint8_t noc = noc_index, TC_LOC) {
    ::tc::noc_write_multicast(src_local_l1_addr, dst_noc_addr_multicast, size, num_dests, linked, true, noc, tc_loc);
}

template <typename AddrGen, bool enable_noc_tracing = true>
FORCE_INLINE void noc_async_read_page(const uint32_t id, const AddrGen& addrgen, uint32_t dst_local_l1_addr,
                                      uint32_t offset = 0, uint8_t noc = noc_index, TC_LOC) {
    const uint32_t size = ::tc::tc_addrgen_page_size(addrgen);
    ::tc::noc_read(addrgen.get_noc_addr(id, offset, noc), dst_local_l1_addr, size, noc, tc_loc);
}

template <typename AddrGen, bool enable_noc_tracing = true, bool posted = false>
FORCE_INLINE void noc_async_write_page(const uint32_t id, const AddrGen& addrgen, uint32_t src_local_l1_addr,
                                       uint32_t size = 0, uint32_t offset = 0, uint8_t noc = noc_index, TC_LOC) {
    const uint32_t bytes = size ? size : ::tc::tc_addrgen_page_size(addrgen);
    ::tc::noc_write(src_local_l1_addr, addrgen.get_noc_addr(id, offset, noc), bytes, noc, tc_loc);
}

template <typename DSpec>
[[deprecated("Use <typename AddrGen> noc_async_read_page instead.")]]
FORCE_INLINE void noc_async_read_tile(const uint32_t id, const TensorAccessor<DSpec>& addrgen,
                                      uint32_t dst_local_l1_addr, uint32_t offset = 0, uint8_t noc = noc_index,
                                      TC_LOC) {
    ::tc::noc_read(addrgen.get_noc_addr(id, offset, noc), dst_local_l1_addr, addrgen.get_aligned_page_size(), noc,
                   tc_loc);
}

template <bool DRAM, uint32_t tile_hw>
[[deprecated("Use <typename AddrGen> noc_async_read_page instead.")]]
FORCE_INLINE void noc_async_read_tile(const uint32_t id, const InterleavedAddrGenFast<DRAM, tile_hw>& addrgen,
                                      uint32_t dst_local_l1_addr, uint32_t offset = 0, uint8_t noc = noc_index,
                                      TC_LOC) {
    ::tc::noc_read(addrgen.get_noc_addr(id, offset, noc), dst_local_l1_addr, addrgen.page_size, noc, tc_loc);
}

template <typename DSpec>
[[deprecated("Use <typename AddrGen> noc_async_write_page instead.")]]
FORCE_INLINE void noc_async_write_tile(const uint32_t id, const TensorAccessor<DSpec>& addrgen,
                                       uint32_t src_local_l1_addr, uint8_t noc = noc_index, TC_LOC) {
    ::tc::noc_write(src_local_l1_addr, addrgen.get_noc_addr(id, 0, noc), addrgen.get_aligned_page_size(), noc,
                    tc_loc);
}

template <bool DRAM, uint32_t tile_hw>
[[deprecated("Use <typename AddrGen> noc_async_write_page instead.")]]
FORCE_INLINE void noc_async_write_tile(const uint32_t id, const InterleavedAddrGenFast<DRAM, tile_hw>& addrgen,
                                       uint32_t src_local_l1_addr, uint8_t noc = noc_index, TC_LOC) {
    ::tc::noc_write(src_local_l1_addr, addrgen.get_noc_addr(id, 0, noc), addrgen.page_size, noc, tc_loc);
}

void noc_async_read_barrier(uint8_t noc = noc_index, TC_LOC) { ::tc::noc_barrier(::tc::Barrier::Reads, noc, tc_loc); }

FORCE_INLINE
void noc_async_write_barrier(uint8_t noc = noc_index, TC_LOC) {
    ::tc::noc_barrier(::tc::Barrier::Writes, noc, tc_loc);
}

FORCE_INLINE
void noc_async_writes_flushed(uint8_t noc = noc_index, TC_LOC) {
    ::tc::noc_barrier(::tc::Barrier::WritesFlushed, noc, tc_loc);
}

FORCE_INLINE
void noc_async_posted_writes_flushed(uint8_t noc = noc_index, TC_LOC) {
    ::tc::noc_barrier(::tc::Barrier::PostedWritesFlushed, noc, tc_loc);
}

FORCE_INLINE
void noc_async_atomic_barrier(uint8_t noc_idx = noc_index, TC_LOC) {
    ::tc::noc_barrier(::tc::Barrier::Atomics, noc_idx, tc_loc);
}

FORCE_INLINE
void noc_async_full_barrier(uint8_t noc_idx = noc_index, TC_LOC) {
    ::tc::noc_barrier(::tc::Barrier::Full, noc_idx, tc_loc);
}

// ---------------------------------------------------------------- semaphores
template <ProgrammableCoreType type = ProgrammableCoreType::TENSIX>
FORCE_INLINE uintptr_t get_semaphore(uint32_t semaphore_id, TC_LOC) {
    return ::tc::semaphore_address(semaphore_id, tc_loc);
}

FORCE_INLINE
void noc_semaphore_wait(volatile tt_l1_ptr uint32_t* sem_addr, uint32_t val, TC_LOC) {
    ::tc::sem_wait(sem_addr, val, false, tc_loc);
}

FORCE_INLINE
void noc_semaphore_wait_min(volatile tt_l1_ptr uint32_t* sem_addr, uint32_t val, TC_LOC) {
    ::tc::sem_wait(sem_addr, val, true, tc_loc);
}

FORCE_INLINE
void noc_semaphore_set(volatile tt_l1_ptr uint32_t* sem_addr, uint32_t val, TC_LOC) {
    ::tc::sem_set(sem_addr, val, tc_loc);
}

template <bool posted = false>
FORCE_INLINE void noc_semaphore_inc(uint64_t addr, uint32_t incr, uint8_t noc_id = noc_index,
                                    uint8_t vc = NOC_UNICAST_WRITE_VC, TC_LOC) {
    (void)vc;
    ::tc::sem_inc(addr, incr, noc_id, tc_loc);
}

template <bool posted = false>
FORCE_INLINE void noc_semaphore_inc_multicast(uint64_t addr, uint32_t incr, uint32_t num_dests,
                                              uint8_t noc_id = noc_index, uint8_t vc = NOC_MULTICAST_WRITE_VC,
                                              TC_LOC) {
    (void)vc;
    ::tc::sem_inc_multicast(addr, incr, num_dests, noc_id, tc_loc);
}

inline void noc_semaphore_set_remote(std::uint32_t src_local_l1_addr, std::uint64_t dst_noc_addr,
                                     uint8_t noc = noc_index, TC_LOC) {
    ::tc::sem_set_remote(src_local_l1_addr, dst_noc_addr, noc, tc_loc);
}

inline void noc_semaphore_set_multicast(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast,
                                        uint32_t num_dests, bool linked = false, uint8_t noc = noc_index,
                                        uint8_t vc = NOC_MULTICAST_WRITE_VC, TC_LOC) {
    (void)linked;
    (void)vc;
    ::tc::sem_set_multicast(src_local_l1_addr, dst_noc_addr_multicast, num_dests, false, noc, tc_loc);
}

inline void noc_semaphore_set_multicast_loopback_src(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast,
                                                     uint32_t num_dests, bool linked = false,
                                                     uint8_t noc = noc_index, TC_LOC) {
    (void)linked;
    ::tc::sem_set_multicast(src_local_l1_addr, dst_noc_addr_multicast, num_dests, true, noc, tc_loc);
}

template <InlineWriteDst dst_type = InlineWriteDst::DEFAULT, bool posted = false, bool flush = true>
FORCE_INLINE void noc_inline_dw_write(uint64_t addr, uint32_t val, uint8_t be = 0xF, uint8_t noc = noc_index,
                                      uint8_t vc = NOC_UNICAST_WRITE_VC, uint32_t customized_src_addr = 0, TC_LOC) {
    (void)vc;
    (void)customized_src_addr;
    ::tc::inline_dw_write(addr, val, be, false, 0, noc, tc_loc);
}
