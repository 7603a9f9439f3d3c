// Rounding addresses and sizes up to an alignment (0.81.1 api/alignment.h).
#pragma once

#include <cstdint>

// `addr` rounded up to a multiple of `alignment`, a power of two (an `addr` of 0 stays 0)
__attribute__((always_inline)) constexpr uint32_t align_power_of_2(uint32_t addr, uint32_t alignment) {
    return addr == 0 ? 0 : (((addr - 1) | (alignment - 1)) + 1);
}

// `addr` rounded up to a multiple of `alignment`, any positive value
__attribute__((always_inline)) constexpr uint32_t align(uint32_t addr, uint32_t alignment) {
    return (addr + alignment - 1) / alignment * alignment;
}

__attribute__((always_inline)) constexpr bool is_power_of_2(uint32_t n) { return n != 0 && (n & (n - 1)) == 0; }
