// Runtime arguments and the core's identity: shared by data-movement and compute kernels.
#pragma once

#include <cstdint>

#include "tc_emu/base.h"

template <typename T>
FORCE_INLINE T get_arg_val(int arg_idx, TC_LOC) {
    static_assert("Error: only 4B args are supported" && sizeof(T) == 4);
    std::uint32_t word = ::tc::arg(std::uint32_t(arg_idx), false, tc_loc);
    return __builtin_bit_cast(T, word);
}

template <typename T>
FORCE_INLINE T get_common_arg_val(int arg_idx, TC_LOC) {
    static_assert("Error: only 4B args are supported" && sizeof(T) == 4);
    std::uint32_t word = ::tc::arg(std::uint32_t(arg_idx), true, tc_loc);
    return __builtin_bit_cast(T, word);
}

static FORCE_INLINE std::uint32_t get_arg_addr(int arg_idx, TC_LOC) {
    return std::uint32_t(reinterpret_cast<std::uintptr_t>(::tc::arg_pointer(std::uint32_t(arg_idx), false, tc_loc)));
}

static FORCE_INLINE std::uint32_t get_common_arg_addr(int arg_idx, TC_LOC) {
    return std::uint32_t(reinterpret_cast<std::uintptr_t>(::tc::arg_pointer(std::uint32_t(arg_idx), true, tc_loc)));
}

inline std::uint8_t get_absolute_logical_x() { return ::tc::logical_x(); }
inline std::uint8_t get_absolute_logical_y() { return ::tc::logical_y(); }
inline std::uint8_t get_relative_logical_x() { return ::tc::logical_x(); }
inline std::uint8_t get_relative_logical_y() { return ::tc::logical_y(); }
