// TensorAccessorArgs (0.81.1 api/tensor/tensor_accessor_args.h), emulated for interleaved tensors.
// The host's TensorAccessorArgs(tensor).get_compile_time_args() puts [config, aligned page size]
// at the offset; the config word's bits are tt-metal's ArgConfig flags (Sharded = 1, IsDram = 2,
// ..., RuntimePageSize = 128). Sharded distribution specs are not emulated: a kernel built against
// one stops at compile time with a message saying so.
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>

#include "api/compile_time_args.h"
#include "tc_emu/args.h"

namespace tensor_accessor {
enum class ArgConfig : uint8_t {
    None = 0,
    Sharded = 1 << 0,
    IsDram = 1 << 1,
    RuntimeRank = 1 << 2,
    RuntimeNumBanks = 1 << 3,
    RuntimeTensorShape = 1 << 4,
    RuntimeShardShape = 1 << 5,
    RuntimeBankCoords = 1 << 6,
    RuntimePageSize = 1 << 7,
};
constexpr std::size_t UNKNOWN = static_cast<std::size_t>(-1);
}  // namespace tensor_accessor

template <std::size_t CTA_OFFSET, std::size_t CRTA_OFFSET = tensor_accessor::UNKNOWN>
struct TensorAccessorArgs {
    static constexpr std::uint32_t config = get_compile_time_arg_val(CTA_OFFSET);
    static constexpr bool is_sharded = (config & 1u) != 0;
    static constexpr bool is_dram = (config & 2u) != 0;
    static constexpr bool page_size_is_crta = (config & 128u) != 0;
    static_assert(!is_sharded,
                  "tilecraft's kernel emulator models interleaved TensorAccessorArgs only; read sharded tensors "
                  "through a CB that aliases the shard (cb_descriptor_from_sharded_tensor)");

    static constexpr std::uint32_t AlignedPageSize = [] {
        if constexpr (page_size_is_crta) {
            return 0u;
        } else {
            return get_compile_time_arg_val(CTA_OFFSET + 1);
        }
    }();
    static constexpr std::uint32_t NumArgsCT = page_size_is_crta ? 1u : 2u;

private:
    std::uint32_t crta_offset_rt_;

public:
    constexpr TensorAccessorArgs() : crta_offset_rt_(0) {}
    constexpr explicit TensorAccessorArgs(std::uint32_t crta_offset) : crta_offset_rt_(crta_offset) {}
    constexpr std::uint32_t crta_offset() const {
        if constexpr (CRTA_OFFSET != tensor_accessor::UNKNOWN) {
            return CRTA_OFFSET;
        } else {
            return crta_offset_rt_;
        }
    }
    constexpr std::uint32_t get_aligned_page_size() const {
        if constexpr (!page_size_is_crta) {
            return AlignedPageSize;
        } else {
            return get_common_arg_val<std::uint32_t>(crta_offset());
        }
    }
    static constexpr std::uint32_t num_compile_time_args() { return NumArgsCT; }
    static constexpr std::uint32_t next_compile_time_args_offset() { return CTA_OFFSET + num_compile_time_args(); }
    constexpr std::uint32_t num_common_runtime_args() const { return page_size_is_crta ? 1 : 0; }
    constexpr std::uint32_t next_common_runtime_args_offset() const {
        return crta_offset() + num_common_runtime_args();
    }
};

namespace tc {
// where the Index-th of consecutive TensorAccessorArgs starting at compile-time arg Offset begins
template <std::size_t Index, std::size_t Offset>
constexpr std::size_t accessor_args_offset() {
    if constexpr (Index == 0) {
        return Offset;
    } else {
        return accessor_args_offset<Index - 1, TensorAccessorArgs<Offset>::next_compile_time_args_offset()>();
    }
}
}  // namespace tc

// NUM_TENSORS TensorAccessorArgs laid out one after another from compile-time arg CTA_OFFSET (the
// host appends each tensor's TensorAccessorArgs in turn), as a tuple.
template <std::uint32_t NUM_TENSORS, std::uint32_t CTA_OFFSET>
constexpr auto make_tensor_accessor_args_tuple() {
    return []<std::size_t... I>(std::index_sequence<I...>) {
        return std::make_tuple(TensorAccessorArgs<::tc::accessor_args_offset<I, CTA_OFFSET>()>()...);
    }(std::make_index_sequence<NUM_TENSORS>());
}
