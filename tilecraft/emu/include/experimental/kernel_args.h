// Metal 2.0 named kernel arguments (0.81.1 experimental/kernel_args.h), emulated.
//
// A kernel names its arguments through accessor constants (`args::tile_count`) that the JIT
// generates per kernel from the host's schema; `get_arg(accessor)` reads the value. The accessor's
// type says where the value lives: RtaArg in this core's runtime args, CrtaArg in the kernel's
// common runtime args (both by byte offset from the start of the named section, i.e. word
// offset * 4), CtaVal in the accessor itself (a compile-time constant, so `constexpr` works for it
// only). A run-time read is get_arg_val / get_common_arg_val of word byte_offset / 4, so an offset
// past the args the host set is reported (E5103) at the kernel's line. Only 4-byte types, as on the device.
#pragma once

#include <cstdint>

#include "tc_emu/args.h"
#include "tc_emu/base.h"
#ifdef COMPILE_FOR_TRISC
#include "api/compute/common.h"
#endif

// The named-arg entry point: internal linkage, folded into the kernel_main the JIT generates.
#define TT_KERNEL static FORCE_INLINE

namespace experimental {

template <typename T>
struct RtaArg {
    uint32_t byte_offset;
};

template <typename T>
struct CrtaArg {
    uint32_t byte_offset;
};

template <typename T>
struct CtaVal {
    T value;
};

template <typename T>
FORCE_INLINE T get_arg(RtaArg<T> arg, TC_LOC) {
    static_assert(sizeof(T) == 4, "Only uint32_t args are currently supported.");
    return get_arg_val<T>(int(arg.byte_offset / sizeof(uint32_t)), tc_loc);
}

template <typename T>
FORCE_INLINE T get_arg(CrtaArg<T> arg, TC_LOC) {
    static_assert(sizeof(T) == 4, "Only uint32_t args are currently supported.");
    return get_common_arg_val<T>(int(arg.byte_offset / sizeof(uint32_t)), tc_loc);
}

template <typename T>
FORCE_INLINE constexpr T get_arg(CtaVal<T> arg) {
    return arg.value;
}

}  // namespace experimental
