// What every emulated kernel sees first: attributes, the data-format and CB-index enums, the
// per-kernel constants the build generates (compile-time args, CB formats, compute config).
// Written by tilecraft from the documented 0.81.1 API; not tt-metal's text.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "tc_emu/runtime.h"

#define FORCE_INLINE inline __attribute__((always_inline))
#define ALWI inline __attribute__((always_inline))
#define tt_l1_ptr
#define tt_reg_ptr

using uint = unsigned int;

enum class DataFormat : std::uint8_t {
    Float32 = 0,
    Float16 = 1,
    Bfp8 = 2,
    Bfp4 = 3,
    Bfp2 = 11,
    Float16_b = 5,
    Bfp8_b = 6,
    Bfp4_b = 7,
    Bfp2_b = 15,
    Lf8 = 10,
    Int8 = 14,
    UInt8 = 30,
    UInt16 = 9,
    Int32 = 8,
    UInt32 = 24,
    Tf32 = 4,
    Invalid = 0xff
};

// the kinds of programmable core (0.81.1 core_config.h, which the firmware includes everywhere)
enum class ProgrammableCoreType : std::uint8_t { TENSIX = 0, ACTIVE_ETH = 1, IDLE_ETH = 2 };

namespace tt {
enum CBIndex : std::uint8_t {
    c_0 = 0, c_1, c_2, c_3, c_4, c_5, c_6, c_7, c_8, c_9, c_10, c_11, c_12, c_13, c_14, c_15, c_16, c_17, c_18,
    c_19, c_20, c_21, c_22, c_23, c_24, c_25, c_26, c_27, c_28, c_29, c_30, c_31, c_32, c_33, c_34, c_35, c_36,
    c_37, c_38, c_39, c_40, c_41, c_42, c_43, c_44, c_45, c_46, c_47, c_48, c_49, c_50, c_51, c_52, c_53, c_54,
    c_55, c_56, c_57, c_58, c_59, c_60, c_61, c_62, c_63,
    SIZE
};
}  // namespace tt

// Per-kernel constants (what the JIT writes into chlkc_descriptors.h): the build's tc_generated.h
// defines TC_CB_* initialisers before this header; every CB reads as absent without them.
#ifndef TC_CB_TILE_BYTES
#define TC_CB_TILE_BYTES {}
#define TC_CB_FORMAT {}
#define TC_CB_TILE_ROWS {}
#define TC_CB_TILE_COLS {}
#endif
namespace tc::gen {
constexpr std::uint32_t cb_tile_bytes[64] = TC_CB_TILE_BYTES;
constexpr std::uint8_t cb_format[64] = TC_CB_FORMAT;
constexpr std::uint32_t cb_tile_rows[64] = TC_CB_TILE_ROWS;
constexpr std::uint32_t cb_tile_cols[64] = TC_CB_TILE_COLS;
}  // namespace tc::gen

namespace tc {
// bytes of one tile of `format` (the DataFormat value), shared exponents included
constexpr std::uint32_t tile_bytes(std::uint8_t format, std::uint32_t rows, std::uint32_t cols) {
    const std::uint32_t n = rows * cols, exponents = ((n / 16) + 15) / 16 * 16;
    switch (format) {
        case 0: case 8: case 24: return n * 4;   // Float32, Int32, UInt32
        case 1: case 5: case 9: return n * 2;    // Float16, Float16_b, UInt16
        case 14: case 30: return n;              // Int8, UInt8
        case 6: return n + exponents;            // Bfp8_b
        case 7: return n / 2 + exponents;        // Bfp4_b
        default: return 0;
    }
}
}  // namespace tc

#ifndef NUM_DRAM_BANKS
#define NUM_DRAM_BANKS 12
#endif
#ifndef NUM_L1_BANKS
#define NUM_L1_BANKS 64
#endif
#ifndef DRAM_ALIGNMENT
#define DRAM_ALIGNMENT 32
#endif
#define L1_ALIGNMENT 16
