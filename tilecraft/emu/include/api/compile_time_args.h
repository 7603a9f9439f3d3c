// Compile-time arguments (0.81.1 api/compile_time_args.h), emulated: the build passes the
// descriptor's compile_time_args as KERNEL_COMPILE_TIME_ARGS and its named_compile_time_args as
// KERNEL_COMPILE_TIME_ARG_MAP ({"name", value} pairs), as the JIT does.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "tc_emu/base.h"

template <class T, class... Ts>
FORCE_INLINE constexpr std::array<T, sizeof...(Ts)> make_array(Ts... values) {
    return {T(values)...};
}

#ifndef KERNEL_COMPILE_TIME_ARGS
#define KERNEL_COMPILE_TIME_ARGS
#endif

constexpr auto kernel_compile_time_args = make_array<std::uint32_t>(KERNEL_COMPILE_TIME_ARGS);

template <uint32_t Idx>
constexpr uint32_t get_ct_arg() {
    static_assert(Idx < kernel_compile_time_args.size(), "Index out of range");
    return kernel_compile_time_args[Idx];
}

// Reached only for a name the host did not pass: not constexpr, so a compile-time use fails to
// compile here, and a run-time use is reported by the runtime.
void tc_named_compile_time_arg_is_not_defined(const char* name, std::size_t length,
                                              ::tc::Loc tc_loc = ::tc::Loc::current());

#ifdef KERNEL_COMPILE_TIME_ARG_MAP
namespace {
constexpr std::pair<std::string_view, uint32_t> named_args_map[] = {KERNEL_COMPILE_TIME_ARG_MAP};
}
constexpr uint32_t get_named_ct_arg(std::string_view name, TC_LOC) {
    for (const auto& [arg_name, arg_value] : named_args_map) {
        if (name == arg_name) {
            return arg_value;
        }
    }
    tc_named_compile_time_arg_is_not_defined(name.data(), name.size(), tc_loc);
    return 0;
}
constexpr uint32_t get_named_compile_time_arg_val(std::string_view name, TC_LOC) {
    return get_named_ct_arg(name, tc_loc);
}
#endif

#define get_compile_time_arg_val(arg_idx) get_ct_arg<arg_idx>()
