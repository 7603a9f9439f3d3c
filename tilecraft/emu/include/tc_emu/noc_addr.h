// NoC address encoding (Wormhole/Blackhole layout): 36 bits of local address, then 6-bit
// coordinates: x, y for a unicast; x_end, y_end, x_start, y_start for a multicast rectangle.
// Kernels pass the NoC coordinates the host gives them; the same coordinates are valid on both
// NoCs (0.81.1 uses virtual coordinates), only the direction a multicast travels differs.
#pragma once

#include <cstdint>

#include "tc_emu/base.h"

#ifndef NOC_INDEX
#define NOC_INDEX 0
#endif
#ifndef NOC_MODE
#define NOC_MODE 0
#endif

constexpr std::uint8_t noc_index = NOC_INDEX;
constexpr std::uint8_t noc_mode = NOC_MODE;

#define NOC_ADDR_LOCAL_BITS 36
#define NOC_ADDR_NODE_ID_BITS 6
#define NOC_XY_ADDR(x, y, addr)                                                                                      \
    ((((uint64_t)(y)) << (NOC_ADDR_LOCAL_BITS + NOC_ADDR_NODE_ID_BITS)) | (((uint64_t)(x)) << NOC_ADDR_LOCAL_BITS) | \
     ((uint64_t)(addr)))
#define NOC_MULTICAST_ADDR(x_start, y_start, x_end, y_end, addr)                    \
    ((((uint64_t)(x_start)) << (NOC_ADDR_LOCAL_BITS + 2 * NOC_ADDR_NODE_ID_BITS)) | \
     (((uint64_t)(y_start)) << (NOC_ADDR_LOCAL_BITS + 3 * NOC_ADDR_NODE_ID_BITS)) | \
     (((uint64_t)(x_end)) << NOC_ADDR_LOCAL_BITS) |                                 \
     (((uint64_t)(y_end)) << (NOC_ADDR_LOCAL_BITS + NOC_ADDR_NODE_ID_BITS)) | ((uint64_t)(addr)))
#define NOC_XY_ENCODING(x, y) ((((uint32_t)(y)) << 6) | ((uint32_t)(x)))
#define NOC_XY_ADDR2(xy, addr) ((((uint64_t)(xy)) << NOC_ADDR_LOCAL_BITS) | ((uint64_t)(addr)))

#define my_x (::tc::my_noc_x())
#define my_y (::tc::my_noc_y())

namespace tc {
constexpr std::uint32_t align_page(std::uint32_t page_size, bool dram) {
    std::uint32_t a = dram ? DRAM_ALIGNMENT : L1_ALIGNMENT;
    return (page_size + a - 1) / a * a;
}
inline std::uint64_t bank_noc_addr(bool dram, std::uint32_t bank, std::uint32_t local, std::uint8_t noc) {
    return NOC_XY_ADDR2(::tc::bank_xy(dram, bank, noc), local);
}
inline std::uint64_t interleaved_noc_addr(bool dram, std::uint32_t page, std::uint32_t base, std::uint32_t stride,
                                          std::uint32_t offset, std::uint8_t noc) {
    const std::uint32_t banks = dram ? NUM_DRAM_BANKS : NUM_L1_BANKS;
    return bank_noc_addr(dram, page % banks, base + (page / banks) * stride + offset, noc);
}
}  // namespace tc
