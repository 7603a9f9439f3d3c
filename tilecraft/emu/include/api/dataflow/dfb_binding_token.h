// The handle a Metal 2.0 kernel names a DataflowBuffer by (0.81.1 api/dataflow/dfb_binding_token.h):
// `dfb::NAME`, generated per kernel from the host's bindings, holds the CB index it is bound to and
// converts to it in constant expressions, so `DataflowBuffer b(dfb::in0)`, `cb_wait_front(dfb::in0, 1)`
// and template arguments (`reduce<..., dfb::in0, ...>`) all see the CB index.
#pragma once

#include <cstdint>

#include "api/dataflow/dfb_access.h"
#include "internal/llk_metadata.h"

template <dfb::AccessPattern Pap = dfb::AccessPattern::UNKNOWN, dfb::AccessPattern Cap = dfb::AccessPattern::UNKNOWN>
struct DFBBindingToken {
    explicit constexpr DFBBindingToken(std::uint16_t id) noexcept : id_(id) {}
    constexpr DFBBindingToken(std::uint16_t id, binding_details::LLKMetadata llk) noexcept
        : id_(id), llk_metadata_(llk) {}

    constexpr operator uint32_t() const noexcept { return id_; }

private:
    std::uint16_t id_;
    binding_details::LLKMetadata llk_metadata_{};
};
