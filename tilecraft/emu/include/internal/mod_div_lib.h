// Integer multiply and divide helpers (0.81.1 internal/mod_div_lib.h). On the device they stand in
// for the RISC-V library calls (shift-and-add multiply, magic-number division by a constant); the
// results are the exact products and quotients, which is what the emulator computes.
#pragma once

#include <cstdint>

inline __attribute__((always_inline)) unsigned int mulsi3(unsigned int a, unsigned int b) { return a * b; }

template <uint32_t d>
inline __attribute__((always_inline)) uint32_t udivsi3_const_divisor(uint32_t n) {
    return n / d;
}

template <uint32_t d>
inline __attribute__((always_inline)) uint32_t umodsi3_const_divisor(uint32_t a) {
    return a - udivsi3_const_divisor<d>(a) * d;
}
