// tilecraft header-check prelude: force-included (g++ -include) before every
// translation unit of the check.  Written for tilecraft.
//
// It stands in for what the real device build gets from its toolchain and
// command line but a host g++ 12 with glibc does not:
//
//  * glibc's <sys/types.h> (pulled in by <cstdlib>/<algorithm>) declares
//    `uint` and `int32_t` as unsigned int / int, which clashes with the riscv32
//    type model this check uses (uint32_t = unsigned long, as in newlib) and
//    with tensix.h's `using uint = std::uint32_t`.  Its include guard is set
//    here so it is skipped; <bits/types.h> supplies the __uintN_t names that
//    <stdlib.h> still needs.
//  * tilecraft_deferred_false<T> is the dependent `false` that the header cache
//    substitutes for `static_assert(false, ...)` (a C++23 idiom g++ 12 rejects;
//    see tilecraft/wheel_headers.py).
//
// The JIT-generated tile-format arrays (unpack_src_format, pack_tile_size, ...,
// DST_ACCUM_MODE, MATH_FIDELITY, APPROX) are not here: the check writes them
// into a generated chlkc_descriptors.h, the file the tt-metal JIT generates and
// the headers include, so they appear exactly where the real build has them.
#pragma once

#if __has_include(<bits/types.h>)
#include <bits/types.h>
#define _SYS_TYPES_H 1
#endif

template <class T>
inline constexpr bool tilecraft_deferred_false = false;
