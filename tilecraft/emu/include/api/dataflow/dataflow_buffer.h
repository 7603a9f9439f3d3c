// The DataflowBuffer object of 0.81.1 (api/dataflow/dataflow_buffer.h) as Wormhole and Blackhole
// build it, emulated: a DataflowBuffer names a CB (its "logical DFB id" is the CB index), its
// entries are the CB's pages, and reserve/push/wait/pop are the runtime's CB calls (so the
// sanitizer's CB checks apply). Usable from data-movement and compute kernels; on the data-
// movement side it is a NoC endpoint like a CircularBuffer. A Metal 2.0 binding token (`dfb::NAME`,
// api/dataflow/dfb_binding_token.h) converts to its CB index. Not modelled: scoped locks,
// evil_set_*_ptr (the emulator keeps the CB's pointers).
#pragma once

#include <cstdint>

#include "api/dataflow/circular_buffer.h"
#include "api/dataflow/dfb_access.h"
#include "tc_emu/base.h"
#include "tc_emu/cb_interface.h"
#include "api/debug/assert.h"
#include "api/debug/waypoint.h"

class DataflowBuffer {
public:
    using DFBInterface = LocalCBInterface;

    DataflowBuffer(uint16_t logical_dfb_id) : logical_dfb_id_(logical_dfb_id) {}

    uint16_t get_id() const { return logical_dfb_id_; }

    uint32_t get_entry_size(TC_LOC) const { return view(tc_loc).fifo_page_size << cb_addr_shift; }
    uint32_t get_stride_size(TC_LOC) const { return view(tc_loc).fifo_page_size << cb_addr_shift; }
    uint32_t get_total_num_entries(TC_LOC) const { return view(tc_loc).fifo_num_pages; }
    uint32_t get_total_size_bytes(TC_LOC) const { return view(tc_loc).fifo_size << cb_addr_shift; }

    uint32_t get_local_num_entries(TC_LOC) const { return get_total_num_entries(tc_loc); }
    uint32_t get_local_size_bytes(TC_LOC) const { return get_total_size_bytes(tc_loc); }
    uint32_t get_ring_span_bytes(TC_LOC) const { return get_total_size_bytes(tc_loc); }
    uint32_t get_ring_span_num_entries(TC_LOC) const { return get_total_num_entries(tc_loc); }

    uint16_t get_producer_share() const { return 1; }
    uint16_t get_consumer_share() const { return 1; }
    uint16_t get_producer_stride_tiles() const { return 1; }
    uint16_t get_consumer_stride_tiles() const { return 1; }

    void reserve_back(uint16_t num_entries, TC_LOC) { ::tc::cb_reserve_back(logical_dfb_id_, num_entries, tc_loc); }
    void push_back(uint16_t num_entries, TC_LOC) { ::tc::cb_push_back(logical_dfb_id_, num_entries, tc_loc); }
    void wait_front(uint16_t num_entries, TC_LOC) { ::tc::cb_wait_front(logical_dfb_id_, num_entries, tc_loc); }
    void pop_front(uint16_t num_entries, TC_LOC) { ::tc::cb_pop_front(logical_dfb_id_, num_entries, tc_loc); }

#ifndef COMPILE_FOR_TRISC
    bool pages_reservable_at_back(int32_t num_pages, TC_LOC) const {
        return ::tc::cb_pages_reservable_at_back(logical_dfb_id_, num_pages, tc_loc);
    }
    bool pages_available_at_front(int32_t num_pages, TC_LOC) const {
        return ::tc::cb_pages_available_at_front(logical_dfb_id_, num_pages, tc_loc);
    }
#endif

    constexpr uint32_t get_tile_size() const { return ::tc::gen::cb_tile_bytes[logical_dfb_id_]; }
    constexpr uint32_t get_tile_r_dim() const { return ::tc::gen::cb_tile_rows[logical_dfb_id_]; }
    constexpr uint32_t get_tile_c_dim() const { return ::tc::gen::cb_tile_cols[logical_dfb_id_]; }
    constexpr uint32_t get_tile_hw() const { return get_tile_r_dim() * get_tile_c_dim(); }
    constexpr uint32_t get_tile_num_faces() const {
        return (get_tile_r_dim() < 16 ? 1 : get_tile_r_dim() / 16) * (get_tile_c_dim() / 16);
    }
    constexpr uint32_t get_face_r_dim() const { return get_tile_r_dim() < 16 ? get_tile_r_dim() : 16; }
    constexpr uint32_t get_num_faces_r_dim() const { return get_tile_r_dim() < 16 ? 1 : get_tile_r_dim() / 16; }
    constexpr uint32_t get_num_faces_c_dim() const { return get_tile_c_dim() / 16; }
    constexpr DataFormat get_dataformat() const { return static_cast<DataFormat>(::tc::gen::cb_format[logical_dfb_id_]); }

#ifdef COMPILE_FOR_TRISC
    uint32_t get_tile_address(uint32_t tile_index, TC_LOC) {
        return ::tc::cb_tile_address(logical_dfb_id_, tile_index, tc_loc);
    }

    template <typename T = uint32_t>
    T read_tile_value(uint32_t tile_index, uint32_t element_offset, TC_LOC) {
        static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "read_tile_value: T must be 1, 2, or 4 bytes");
        static_assert(std::is_integral_v<T> && std::is_unsigned_v<T> && !std::is_same_v<T, bool>,
                      "read_tile_value: T must be an unsigned integral type");
        const uint32_t address = ::tc::cb_tile_address(logical_dfb_id_, tile_index, tc_loc);
        return reinterpret_cast<volatile T*>(uintptr_t(address))[element_offset];
    }
#endif

    void finish() {}

#ifndef COMPILE_FOR_TRISC
    void write_barrier(const Noc& noc, TC_LOC) const { noc.async_write_barrier({}, tc_loc); }
#endif

    uint32_t get_write_ptr(TC_LOC) const { return view(tc_loc).fifo_wr_ptr; }
    uint32_t get_read_ptr(TC_LOC) const { return view(tc_loc).fifo_rd_ptr; }

private:
    const LocalCBInterface& view(::tc::Loc loc) const { return get_local_cb_interface(logical_dfb_id_, loc); }

    uint16_t logical_dfb_id_;
};

#ifndef COMPILE_FOR_TRISC
namespace tc {
struct DataflowBufferPointers {
    static uint32_t read(const DataflowBuffer& dfb) { return dfb.get_read_ptr(); }
    static uint32_t write(const DataflowBuffer& dfb) { return dfb.get_write_ptr(); }
};
}  // namespace tc

template <>
struct noc_traits_t<DataflowBuffer> : ::tc::LocalBufferTraits<DataflowBuffer, ::tc::DataflowBufferPointers> {};
#endif
