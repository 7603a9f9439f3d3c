// The scaler tile that reduce_tile folds with, built in L1 by a data-movement kernel.
//
// reduce_tile multiplies the reduced values by the scaler tile's first row: the first row of
// each of the tile's four 16x16 faces holds the scale factor, and every other datum must be
// zero. A sum takes 1.0; a mean over N values takes 1/N.
#pragma once

#include <cstdint>

#include "api/dataflow/dataflow_api.h"

// Fills the bfloat16 tile at `l1_addr` (this core's L1) with `scaler_bf16` in that layout.
inline void fill_reduce_scaler_tile(uint32_t l1_addr, uint16_t scaler_bf16) {
    constexpr uint32_t words_per_tile = 32 * 32 * sizeof(uint16_t) / sizeof(uint32_t);
    constexpr uint32_t words_per_face = words_per_tile / 4;
    constexpr uint32_t words_per_face_row = 16 * sizeof(uint16_t) / sizeof(uint32_t);
    volatile tt_l1_ptr uint32_t* words = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(l1_addr);
    for (uint32_t i = 0; i < words_per_tile; ++i) {
        words[i] = 0;
    }
    const uint32_t two_scalers = (static_cast<uint32_t>(scaler_bf16) << 16) | scaler_bf16;
    for (uint32_t face = 0; face < 4; ++face) {
        for (uint32_t i = 0; i < words_per_face_row; ++i) {
            words[face * words_per_face + i] = two_scalers;
        }
    }
}
