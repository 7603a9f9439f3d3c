// The CircularBuffer object of 0.81.1 (api/dataflow/circular_buffer.h), emulated over the
// runtime's CBs: the same calls as cb_reserve_back/cb_push_back/cb_wait_front/cb_pop_front, so
// the sanitizer's CB checks apply. Usable from data-movement and compute kernels; on the data-
// movement side it is also a NoC endpoint (its read pointer as a source, its write pointer as a
// destination, `{.offset_bytes = o}` into it). `scoped_lock()` is not modelled.
#pragma once

#include <cstdint>

#include "tc_emu/base.h"
#include "tc_emu/cb_interface.h"
#ifndef COMPILE_FOR_TRISC
#include "api/dataflow/noc.h"
#endif

class CircularBuffer {
public:
    enum class AddrSelector { WRITE_PTR, READ_PTR };

    explicit CircularBuffer(uint32_t cb_id) : cb_id_(cb_id) {}

    uint32_t get_cb_id() const { return cb_id_; }

    void reserve_back(int32_t num_pages, TC_LOC) { ::tc::cb_reserve_back(int32_t(cb_id_), num_pages, tc_loc); }

    void push_back(int32_t num_pages, TC_LOC) { ::tc::cb_push_back(int32_t(cb_id_), num_pages, tc_loc); }

    void wait_front(int32_t num_pages, TC_LOC) { ::tc::cb_wait_front(int32_t(cb_id_), num_pages, tc_loc); }

    void pop_front(int32_t num_pages, TC_LOC) { ::tc::cb_pop_front(int32_t(cb_id_), num_pages, tc_loc); }

#ifdef COMPILE_FOR_TRISC
    uint32_t get_tile_address(uint32_t tile_index, TC_LOC) { return ::tc::cb_tile_address(cb_id_, tile_index, tc_loc); }

    uint32_t read_tile_value(uint32_t tile_index, uint32_t element_offset, TC_LOC) {
        const uint32_t address = ::tc::cb_tile_address(cb_id_, tile_index, tc_loc);
        return reinterpret_cast<volatile uint32_t*>(uintptr_t(address))[element_offset];
    }
#else
    uint32_t get_tile_size() const { return uint32_t(::tc::gen::cb_tile_bytes[cb_id_]); }
    uint32_t get_tile_hw() const { return ::tc::gen::cb_tile_rows[cb_id_] * ::tc::gen::cb_tile_cols[cb_id_]; }
    DataFormat get_dataformat() const { return static_cast<DataFormat>(::tc::gen::cb_format[cb_id_]); }

    bool pages_reservable_at_back(int32_t num_pages, TC_LOC) const {
        return ::tc::cb_pages_reservable_at_back(int32_t(cb_id_), num_pages, tc_loc);
    }

    bool pages_available_at_front(int32_t num_pages, TC_LOC) const {
        return ::tc::cb_pages_available_at_front(int32_t(cb_id_), num_pages, tc_loc);
    }
#endif

    uint32_t get_write_ptr(TC_LOC) const { return get_local_cb_interface(cb_id_, tc_loc).fifo_wr_ptr; }

    uint32_t get_read_ptr(TC_LOC) const { return get_local_cb_interface(cb_id_, tc_loc).fifo_rd_ptr; }

private:
    uint32_t cb_id_;
};

#ifndef COMPILE_FOR_TRISC

template <CircularBuffer::AddrSelector AddrSel>
struct CircularBufferView {
    const CircularBuffer& cb;
    explicit constexpr CircularBufferView(const CircularBuffer& c) : cb(c) {}
};

template <CircularBuffer::AddrSelector AddrSel>
constexpr auto use(const CircularBuffer& cb) {
    return CircularBufferView<AddrSel>(cb);
}

namespace tc {
// The NoC traits of a local buffer (CircularBuffer, DataflowBuffer, a view of one): `read(b)` and
// `write(b)` give its read and write pointers; it is only ever the local side of a transfer, or
// the local address of every core of a multicast rectangle. `{.offset_bytes = o}` offsets it.
template <typename Buffer, typename Pointers>
struct LocalBufferTraits {
    using src_args_type = DataflowBufferArgs;
    using dst_args_type = DataflowBufferArgs;
    struct dst_args_mcast_type {
        uint32_t noc_x_start{};
        uint32_t noc_y_start{};
        uint32_t noc_x_end{};
        uint32_t noc_y_end{};
        uint32_t offset_bytes{};
    };
    template <Noc::AddressType address_type>
    static uint32_t src_addr(const Buffer& src, const Noc&, const src_args_type& args) {
        static_assert(address_type == Noc::AddressType::LOCAL_L1, "a local buffer can only be used as L1 source");
        return Pointers::read(src) + args.offset_bytes;
    }
    template <Noc::AddressType address_type>
    static uint32_t dst_addr(const Buffer& dst, const Noc&, const dst_args_type& args) {
        static_assert(address_type == Noc::AddressType::LOCAL_L1,
                      "a local buffer without a multicast range can only be used as L1 destination");
        return Pointers::write(dst) + args.offset_bytes;
    }
    template <Noc::AddressType address_type>
    static uint64_t dst_addr_mcast(const Buffer& dst, const Noc& noc, const dst_args_mcast_type& args) {
        static_assert(address_type == Noc::AddressType::NOC, "a multicast destination is a NoC address");
        return ::get_noc_multicast_addr(args.noc_x_start, args.noc_y_start, args.noc_x_end, args.noc_y_end,
                                        Pointers::write(dst) + args.offset_bytes, noc.get_noc_id());
    }
};

struct CircularBufferPointers {
    static uint32_t read(const CircularBuffer& cb) { return cb.get_read_ptr(); }
    static uint32_t write(const CircularBuffer& cb) { return cb.get_write_ptr(); }
};

template <CircularBuffer::AddrSelector AddrSel>
struct CircularBufferViewPointers {
    static uint32_t chosen(const CircularBufferView<AddrSel>& view) {
        return AddrSel == CircularBuffer::AddrSelector::READ_PTR ? view.cb.get_read_ptr() : view.cb.get_write_ptr();
    }
    static uint32_t read(const CircularBufferView<AddrSel>& view) { return chosen(view); }
    static uint32_t write(const CircularBufferView<AddrSel>& view) { return chosen(view); }
};
}  // namespace tc

template <>
struct noc_traits_t<CircularBuffer> : ::tc::LocalBufferTraits<CircularBuffer, ::tc::CircularBufferPointers> {};

template <CircularBuffer::AddrSelector AddrSel>
struct noc_traits_t<CircularBufferView<AddrSel>>
    : ::tc::LocalBufferTraits<CircularBufferView<AddrSel>, ::tc::CircularBufferViewPointers<AddrSel>> {};

#endif  // !COMPILE_FOR_TRISC
