// The __builtin_rvtt_* SFPU intrinsics that kernels call directly, bypassing the sfpi classes
// (e.g. __builtin_rvtt_sfpmad(a.get(), b.get(), c.get(), SFPMAD_MOD1_OFFSET_NONE)). Only those the
// 0.81.1 Wormhole and Blackhole kernels use are provided; any other is an undeclared identifier at compile time.
#pragma once

#include "sfpi_values.h"

// SFPMAD: a * b + c (Wormhole has no Mod1 variants besides OFFSET_NONE in SFPI kernels).
inline sfpi::impl_::sfpu_t __builtin_rvtt_sfpmad(const sfpi::impl_::sfpu_t& a, const sfpi::impl_::sfpu_t& b,
                                                 const sfpi::impl_::sfpu_t& c, unsigned mod1) {
    if (mod1 != sfpi::SFPMAD_MOD1_OFFSET_NONE)
        tc_tensix::sfpi_host::unsupported("__builtin_rvtt_sfpmad with a Mod1 other than 0");
    return sfpi::impl_::fmad(a, b, c);
}

#if defined(TC_SFPI_BLACKHOLE)
// SFPGT with Mod1 8: all ones in the lanes where a > b (sign-magnitude total order), else zero.
inline sfpi::impl_::sfpu_t __builtin_rvtt_sfpgt(const sfpi::impl_::sfpu_t& a, const sfpi::impl_::sfpu_t& b, unsigned mod1) {
    if (mod1 != 8) tc_tensix::sfpi_host::unsupported("__builtin_rvtt_sfpgt with a Mod1 other than 8");
    return sfpi::impl_::lanewise(a, b, [](uint32_t x, uint32_t y) {
        return tc_tensix::sfpu::sign_magnitude_order(x) > tc_tensix::sfpu::sign_magnitude_order(y) ? 0xffffffffu : 0u;
    });
}
#endif
