// What the JIT would generate for reader_named_args.cpp from a host schema
// (kernel_args_generated.h): the kernel's named arguments as accessor constants. Runtime args
// (per core): the tensor address at byte 0, the first tile at byte 4; common runtime args: the
// tile count at byte 0; compile-time: the CB, taken from the named compile-time arg "cb".
#pragma once

#include <cstdint>

#include "api/compile_time_args.h"
#include "experimental/kernel_args.h"

namespace args {
constexpr experimental::RtaArg<uint32_t> address{0};
constexpr experimental::RtaArg<uint32_t> first_tile{4};
constexpr experimental::CrtaArg<uint32_t> tile_count{0};
constexpr experimental::CtaVal<uint32_t> cb{get_named_compile_time_arg_val("cb")};
}  // namespace args
