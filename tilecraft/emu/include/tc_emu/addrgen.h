// Interleaved address generators (0.81.1 internal/dataflow/dataflow_api_addrgen.h), emulated:
// page `id` lives in bank id % banks at offset bank_base_address + (id / banks) * stride.
#pragma once

#include <cstdint>

#include "tc_emu/noc_addr.h"

template <bool DRAM>
struct InterleavedAddrGen {
    static constexpr bool is_dram = DRAM;
    uint32_t bank_base_address;
    const uint32_t page_size;
    const uint32_t aligned_page_size = ::tc::align_page(page_size, DRAM);

    FORCE_INLINE
    std::uint64_t get_noc_addr(const uint32_t id, const uintptr_t offset = 0, uint8_t noc = noc_index) const {
        return ::tc::interleaved_noc_addr(DRAM, id, bank_base_address, aligned_page_size, uint32_t(offset), noc);
    }
};

template <bool DRAM, uint32_t tile_hw = 1024>
struct InterleavedAddrGenFast {
    static constexpr bool is_dram = DRAM;
    uint32_t bank_base_address;
    uint32_t page_size;
    DataFormat data_format;

    FORCE_INLINE
    std::uint64_t get_noc_addr(const uint32_t id, const uint32_t offset = 0, uint8_t noc = noc_index) const {
        // consecutive pages of one bank sit a tile of `data_format` apart (MUL_WITH_TILE_SIZE)
        const uint32_t rows = tile_hw >= 32 ? tile_hw / 32 : 1;
        const uint32_t stride = ::tc::tile_bytes(uint8_t(data_format), rows, tile_hw / rows);
        return ::tc::interleaved_noc_addr(DRAM, id, bank_base_address, stride, offset, noc);
    }
};

template <bool DRAM>
struct InterleavedPow2AddrGenFast {
    static constexpr bool is_dram = DRAM;
    uint32_t bank_base_address;
    const uint32_t log_base_2_of_page_size;

    FORCE_INLINE
    std::uint64_t get_noc_addr(const uint32_t id, const uint32_t offset = 0, uint8_t noc = noc_index) const {
        const uint32_t stride = ::tc::align_page(1u << log_base_2_of_page_size, DRAM);
        return ::tc::interleaved_noc_addr(DRAM, id, bank_base_address, stride, offset, noc);
    }
};

