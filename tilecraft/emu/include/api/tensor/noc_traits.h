// A TensorAccessor as a NoC endpoint (0.81.1 api/tensor/noc_traits.h), emulated: `{.page_id = p,
// .offset_bytes = o}` names byte o of page p, wherever the accessor places that page.
#pragma once

#include "api/dataflow/noc.h"
#include "api/debug/assert.h"
#include "api/tensor/tensor_accessor.h"

namespace tc {
// the NoC endpoint of anything that places pages (get_noc_addr(page, offset, noc))
template <typename Accessor>
struct PagedEndpointTraits {
    struct src_args_type {
        uint32_t page_id{};
        uint32_t offset_bytes = 0;
    };
    using dst_args_type = src_args_type;
    template <Noc::AddressType address_type>
    static auto src_addr(const Accessor& accessor, const Noc& noc, const src_args_type& args)
        -> std::conditional_t<address_type == Noc::AddressType::LOCAL_L1, uint32_t, uint64_t> {
        const uint64_t noc_addr = accessor.get_noc_addr(args.page_id, args.offset_bytes, noc.get_noc_id());
        if constexpr (address_type == Noc::AddressType::LOCAL_L1) {
            ASSERT(noc.is_local_addr(noc_addr));
            return uint32_t(noc_addr & ((uint64_t(1) << NOC_ADDR_LOCAL_BITS) - 1));
        } else {
            return noc_addr;
        }
    }
    template <Noc::AddressType address_type>
    static auto dst_addr(const Accessor& accessor, const Noc& noc, const dst_args_type& args) {
        return src_addr<address_type>(accessor, noc, args);
    }
};
}  // namespace tc

template <typename DSpecT>
struct noc_traits_t<TensorAccessor<DSpecT>> : ::tc::PagedEndpointTraits<TensorAccessor<DSpecT>> {};

template <>
struct noc_traits_t<AbstractTensorAccessorWrapper> : ::tc::PagedEndpointTraits<AbstractTensorAccessorWrapper> {};
