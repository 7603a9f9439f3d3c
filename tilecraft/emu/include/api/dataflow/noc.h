// The 0.81.1 NoC object API (api/dataflow/noc.h), emulated (tilecraft; not tt-metal's text).
//
// A `Noc` issues transfers between endpoints: each endpoint type (TensorAccessor, CircularBuffer,
// DataflowBuffer, UnicastEndpoint, MulticastEndpoint, AllocatorBank, ...) has a `noc_traits_t`
// that turns its argument struct (`{.page_id = i}`, `{.offset_bytes = 0}`, coordinates) into a
// local L1 or NoC address, as in 0.81.1; the transfer itself is the runtime's NoC read, write or
// multicast, so the sanitizer checks object-API kernels exactly as it checks the free functions.
// Member signatures follow the real header (tests/emu/test_signatures.py), plus the trailing
// source-location parameter. Transaction ids (NocOptions::TXN_ID) and zeroing a remote tensor are
// not modelled: a kernel that uses them stops at compile time naming the call (E5002).
#pragma once

#include <cstdint>
#include <type_traits>

#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/dfb_access.h"

template <typename DSpecT>
class TensorAccessor;

struct UnicastEndpoint;
struct MulticastEndpoint;
class CircularBuffer;

struct DataflowBufferArgs {
    uint32_t offset_bytes{};
};

template <typename T>
struct noc_traits_t {
    static_assert(sizeof(T) == 0, "NoC transactions are not supported for this type");
};

enum class NocOptions : uint32_t {
    DEFAULT = 0,
    TXN_ID = 1u << 0,
    POSTED = 1u << 1,
    CUSTOM_VC = 1u << 2,
    MCAST_INCL_SRC = 1u << 3,
    INLINE_L1 = 1u << 4,
    INLINE_REG = 1u << 5,
};

constexpr NocOptions operator|(NocOptions a, NocOptions b) noexcept {
    return static_cast<NocOptions>(static_cast<uint32_t>(a) | static_cast<uint32_t>(b));
}

constexpr bool has_flag(NocOptions opts, NocOptions flag) noexcept {
    return (static_cast<uint32_t>(opts) & static_cast<uint32_t>(flag)) != 0;
}

struct NocOptVals {
    uint32_t vc = NOC_UNICAST_WRITE_VC;
    uint32_t trid = 0;
};

// The compile-time stop for a form the emulator does not model; compile_errors.py turns the message
// ("not modelled by the tilecraft emulator: ...") into E5002 at the kernel line.
#define TC_NO_TXN_ID(opts) \
    static_assert(!has_flag(opts, NocOptions::TXN_ID), \
                  "not modelled by the tilecraft emulator: NocOptions::TXN_ID (NoC transaction ids)")

class Noc {
public:
    enum class AddressType { NOC, LOCAL_L1 };

    static constexpr uint32_t INVALID_TXN_ID = 0xFFFFFFFF;

private:
    template <typename T>
    using src_args_t = typename noc_traits_t<T>::src_args_type;
    template <typename T>
    using dst_args_t = typename noc_traits_t<T>::dst_args_type;
    template <typename T>
    using dst_args_mcast_t = typename noc_traits_t<T>::dst_args_mcast_type;

    template <AddressType address_type, typename Src>
    auto tc_src(const Src& src, const src_args_t<Src>& args) const {
        return noc_traits_t<Src>::template src_addr<address_type>(src, *this, args);
    }
    template <AddressType address_type, typename Dst>
    auto tc_dst(const Dst& dst, const dst_args_t<Dst>& args) const {
        return noc_traits_t<Dst>::template dst_addr<address_type>(dst, *this, args);
    }

public:
    Noc() : noc_id_(noc_index) {}
    explicit Noc(uint8_t noc_id) : noc_id_(noc_id) {}

    uint8_t get_noc_id() const { return noc_id_; }

    bool is_local_bank(uint32_t virtual_x, uint32_t virtual_y) const {
        return virtual_x == my_x[noc_id_] && virtual_y == my_y[noc_id_];
    }

    bool is_local_addr(const uint64_t noc_addr) const {
        return is_local_bank(uint32_t((noc_addr >> NOC_ADDR_LOCAL_BITS) & 0x3F),
                             uint32_t((noc_addr >> (NOC_ADDR_LOCAL_BITS + NOC_ADDR_NODE_ID_BITS)) & 0x3F));
    }

    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
              bool enable_noc_tracing = true, typename Src, typename Dst>
    void async_read(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                    const dst_args_t<Dst>& dst_args, const NocOptVals& noc_opts = {}, TC_LOC) const {
        TC_NO_TXN_ID(opts);
        (void)noc_opts;
        ::tc::noc_read(tc_src<AddressType::NOC>(src, src_args), uint32_t(tc_dst<AddressType::LOCAL_L1>(dst, dst_args)),
                       size_bytes, noc_id_, tc_loc);
    }

    // The stateful forms: the state is the source's coordinates and the size; the emulator
    // recomputes the whole address at each transfer (the kernel names the same source).
    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, typename Src>
    void set_async_read_state(const Src& src, uint32_t size_bytes, const src_args_t<Src>& src_args,
                              const NocOptVals& noc_opts = {}) const {
        TC_NO_TXN_ID(opts);
        (void)tc_src<AddressType::NOC>(src, src_args);
        (void)size_bytes;
        (void)noc_opts;
    }

    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
              typename Src, typename Dst>
    void async_read_with_state(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                               const dst_args_t<Dst>& dst_args, const NocOptVals& noc_opts = {}, TC_LOC) const {
        async_read<opts, max_page_size>(src, dst, size_bytes, src_args, dst_args, noc_opts, tc_loc);
    }

    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
              bool enable_noc_tracing = true, typename Src, typename Dst>
    void async_write(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                     const dst_args_t<Dst>& dst_args, const NocOptVals& noc_opts = {}, TC_LOC) const {
        TC_NO_TXN_ID(opts);
        (void)noc_opts;
        ::tc::noc_write(uint32_t(tc_src<AddressType::LOCAL_L1>(src, src_args)), tc_dst<AddressType::NOC>(dst, dst_args),
                        size_bytes, noc_id_, tc_loc);
    }

    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
              bool enable_noc_tracing = true, typename Src, typename Dst>
    void async_write_multicast(const Src& src, const Dst& dst, uint32_t size_bytes, uint32_t num_dsts,
                               const src_args_t<Src>& src_args, const dst_args_mcast_t<Dst>& dst_args,
                               bool linked = false, TC_LOC) const {
        static_assert(!has_flag(opts, NocOptions::TXN_ID), "Mcasts with transaction id are not supported yet");
        static_assert(!has_flag(opts, NocOptions::POSTED), "Mcasts with posted transactions are not supported");
        const uint64_t dst_noc_addr = noc_traits_t<Dst>::template dst_addr_mcast<AddressType::NOC>(dst, *this, dst_args);
        ::tc::noc_write_multicast(uint32_t(tc_src<AddressType::LOCAL_L1>(src, src_args)), dst_noc_addr, size_bytes,
                                  num_dsts, linked, has_flag(opts, NocOptions::MCAST_INCL_SRC), noc_id_, tc_loc);
    }

    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, typename Dst>
    void set_async_write_state(const Dst& dst, uint32_t size_bytes, const dst_args_t<Dst>& dst_args,
                               const NocOptVals& noc_opts = {}) const {
        static_assert(!has_flag(opts, NocOptions::TXN_ID),
                      "NocOptions::TXN_ID is not supported for set_async_write_state");
        (void)tc_dst<AddressType::NOC>(dst, dst_args);
        (void)size_bytes;
        (void)noc_opts;
    }

    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
              typename Src, typename Dst>
    void async_write_with_state(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                                const dst_args_t<Dst>& dst_args, const NocOptVals& noc_opts = {}, TC_LOC) const {
        static_assert(!has_flag(opts, NocOptions::TXN_ID),
                      "NocOptions::TXN_ID is not supported for async_write_with_state");
        async_write<opts, max_page_size>(src, dst, size_bytes, src_args, dst_args, noc_opts, tc_loc);
    }

    template <NocOptions opts = NocOptions::DEFAULT, typename Dst>
    void inline_dw_write(const Dst& dst, uint32_t val, const dst_args_t<Dst>& dst_args, uint8_t be = 0xF,
                         const NocOptVals& noc_opts = {}, TC_LOC) const {
        static_assert(!has_flag(opts, NocOptions::TXN_ID), "TxnId is not supported for inline_dw_write");
        static_assert(!(has_flag(opts, NocOptions::INLINE_L1) && has_flag(opts, NocOptions::INLINE_REG)),
                      "INLINE_L1 and INLINE_REG are mutually exclusive in inline_dw_write");
        static_assert(!std::is_same_v<Dst, MulticastEndpoint>);
        (void)noc_opts;
        ::tc::inline_dw_write(tc_dst<AddressType::NOC>(dst, dst_args), val, be, false, 0, noc_id_, tc_loc);
    }

    // Zeros into a local-L1 endpoint (DataflowBuffer, CircularBuffer): written at once, so
    // write_zeros_l1_barrier has nothing to wait for. Zeroing a remote tensor is not modelled.
    template <typename Dst>
    void async_write_zeros(const Dst& dst, uint32_t size_bytes, const dst_args_t<Dst>& args = {}, TC_LOC) const {
        ::tc::noc_zero_l1(uint32_t(tc_dst<AddressType::LOCAL_L1>(dst, args)), size_bytes, noc_id_, tc_loc);
    }

    void write_zeros_l1_barrier() const {}

    template <NocOptions opts = NocOptions::DEFAULT>
    void async_read_barrier(const NocOptVals& noc_opts = {}, TC_LOC) const {
        TC_NO_TXN_ID(opts);
        (void)noc_opts;
        ::tc::noc_barrier(::tc::Barrier::Reads, noc_id_, tc_loc);
    }

    template <NocOptions opts = NocOptions::DEFAULT>
    void async_write_barrier(const NocOptVals& noc_opts = {}, TC_LOC) const {
        TC_NO_TXN_ID(opts);
        (void)noc_opts;
        ::tc::noc_barrier(::tc::Barrier::Writes, noc_id_, tc_loc);
    }

    template <NocOptions opts = NocOptions::DEFAULT>
    void async_writes_flushed(const NocOptVals& noc_opts = {}, TC_LOC) const {
        TC_NO_TXN_ID(opts);
        (void)noc_opts;
        ::tc::noc_barrier(has_flag(opts, NocOptions::POSTED) ? ::tc::Barrier::PostedWritesFlushed
                                                              : ::tc::Barrier::WritesFlushed,
                          noc_id_, tc_loc);
    }

    void async_atomic_barrier(TC_LOC) const { ::tc::noc_barrier(::tc::Barrier::Atomics, noc_id_, tc_loc); }

    void async_full_barrier(TC_LOC) const { ::tc::noc_barrier(::tc::Barrier::Full, noc_id_, tc_loc); }

private:
    uint8_t noc_id_;
};
