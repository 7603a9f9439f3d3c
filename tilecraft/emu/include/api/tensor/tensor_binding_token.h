// The handle a Metal 2.0 kernel names a tensor by (0.81.1 api/tensor/tensor_binding_token.h):
// `tensor::NAME`, generated per kernel from the host's bindings, is a TensorBindingToken whose
// template arguments say where the tensor's TensorAccessorArgs start in the compile-time args and
// at which byte of the common runtime args its base address lies; `TensorAccessor(tensor::NAME)`
// (api/tensor/tensor_accessor.h) builds the accessor from them.
#pragma once

#include <cstdint>

#include "api/tensor/tensor_accessor_args.h"
#include "internal/llk_metadata.h"

namespace tensor_accessor {
template <std::uint32_t CTA_OFFSET, std::uint32_t ADDR_CRTA_OFFSET>
struct TensorBindingToken {
    using args_t = TensorAccessorArgs<CTA_OFFSET>;
    static constexpr args_t args{};
    static constexpr std::uint32_t addr_crta_offset = ADDR_CRTA_OFFSET;  // in bytes
    static_assert(ADDR_CRTA_OFFSET % sizeof(std::uint32_t) == 0,
                  "TensorBindingToken: ADDR_CRTA_OFFSET must be 4-byte aligned");

    explicit constexpr TensorBindingToken(binding_details::LLKMetadata llk) noexcept : llk_metadata_(llk) {}

private:
    binding_details::LLKMetadata llk_metadata_;
};
}  // namespace tensor_accessor
