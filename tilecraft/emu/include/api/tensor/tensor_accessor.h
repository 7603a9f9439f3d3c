// TensorAccessor (0.81.1 api/tensor/tensor_accessor.h), emulated for interleaved tensors: page p
// lives in bank p % banks at offset base + (p / banks) * align(page size, bank alignment).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>

#include "api/tensor/tensor_accessor_args.h"
#include "api/tensor/tensor_binding_token.h"
#include "tc_emu/addrgen.h"
#include "api/compile_time_args.h"

namespace tensor_accessor {
template <bool IsDram>
struct InterleavedSpec {
    static constexpr bool is_dram = IsDram;
};
}  // namespace tensor_accessor

// The interleaved accessor is an InterleavedAddrGen (as in 0.81.1): consecutive pages of one bank
// sit align(page_size, bank alignment) apart; get_aligned_page_size() is the page size passed in.
template <typename DSpecT>
struct TensorAccessor : public InterleavedAddrGen<DSpecT::is_dram> {
    using DSpec = DSpecT;
    static constexpr bool is_dram = DSpec::is_dram;

    template <std::size_t CTA_OFFSET, std::size_t CRTA_OFFSET>
    TensorAccessor(const TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>& args, const std::uint32_t bank_base_address_in,
                   const std::uint32_t page_size_in = TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>{}.get_aligned_page_size())
        : InterleavedAddrGen<DSpecT::is_dram>({.bank_base_address = bank_base_address_in, .page_size = page_size_in}) {
        (void)args;
    }

    // From a Metal 2.0 tensor binding: the accessor args at the token's CTA offset, the base
    // address from the common runtime arg at its byte offset (the tensor's accessor CRTAs follow it).
    template <std::uint32_t CTA_OFFSET, std::uint32_t ADDR_CRTA_OFFSET>
    TensorAccessor(tensor_accessor::TensorBindingToken<CTA_OFFSET, ADDR_CRTA_OFFSET>, TC_LOC)
        : TensorAccessor(TensorAccessorArgs<CTA_OFFSET, ADDR_CRTA_OFFSET / sizeof(std::uint32_t) + 1>{},
                         get_common_arg_val<std::uint32_t>(int(ADDR_CRTA_OFFSET / sizeof(std::uint32_t)), tc_loc)) {}

    FORCE_INLINE const std::uint32_t get_aligned_page_size() const { return this->page_size; }
    constexpr std::uint32_t get_bank_base_address() const { return this->bank_base_address; }

    FORCE_INLINE std::uint64_t get_noc_addr(const std::uint32_t id, const std::uint32_t offset = 0,
                                            std::uint8_t noc = noc_index) const {
        return InterleavedAddrGen<DSpecT::is_dram>::get_noc_addr(id, offset, noc);
    }
};

template <std::size_t CTA_OFFSET, std::size_t CRTA_OFFSET>
TensorAccessor(const TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>& args, std::size_t)
    -> TensorAccessor<tensor_accessor::InterleavedSpec<TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>::is_dram>>;
template <std::size_t CTA_OFFSET, std::size_t CRTA_OFFSET>
TensorAccessor(const TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>& args, std::size_t, std::uint32_t)
    -> TensorAccessor<tensor_accessor::InterleavedSpec<TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>::is_dram>>;
template <std::uint32_t CTA_OFFSET, std::uint32_t ADDR_CRTA_OFFSET>
TensorAccessor(tensor_accessor::TensorBindingToken<CTA_OFFSET, ADDR_CRTA_OFFSET>)
    -> TensorAccessor<tensor_accessor::InterleavedSpec<TensorAccessorArgs<CTA_OFFSET>::is_dram>>;

// One TensorAccessor per TensorAccessorArgs of `args`, the i-th at the bank base address in runtime
// arg address_rt_arg_index_start + i.
template <typename... Args>
auto make_tensor_accessor_tuple(const std::tuple<Args...>& args, std::uint32_t address_rt_arg_index_start) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
        return std::make_tuple(
            TensorAccessor(std::get<I>(args), get_arg_val<std::uint32_t>(address_rt_arg_index_start + I))...);
    }(std::index_sequence_for<Args...>());
}

// A type-erased accessor (0.81.1 AbstractTensorAccessorWrapper), so kernels can index accessors of
// different types at run time; it points into the accessor it wraps, which must outlive it.
class AbstractTensorAccessorWrapper {
public:
    AbstractTensorAccessorWrapper() = default;

    template <typename Accessor>
    AbstractTensorAccessorWrapper(const Accessor& accessor)
        : accessor_(&accessor), noc_addr_([](const void* a, std::uint32_t page, std::uint32_t offset, std::uint8_t noc) {
              return static_cast<const Accessor*>(a)->get_noc_addr(page, offset, noc);
          }) {}

    std::uint64_t get_noc_addr(std::uint32_t page_idx, std::uint32_t offset = 0, std::uint8_t noc = noc_index) const {
        return noc_addr_(accessor_, page_idx, offset, noc);
    }

private:
    const void* accessor_ = nullptr;
    std::uint64_t (*noc_addr_)(const void*, std::uint32_t, std::uint32_t, std::uint8_t) = nullptr;
};

// the accessors of a tuple as an array of wrappers (pointing into the tuple)
template <typename... Accessors>
auto make_abstract_tensor_accessor_wrappers(const std::tuple<Accessors...>& accessors) {
    return std::apply(
        [](const auto&... each) {
            return std::array<AbstractTensorAccessorWrapper, sizeof...(Accessors)>{
                AbstractTensorAccessorWrapper(each)...};
        },
        accessors);
}
