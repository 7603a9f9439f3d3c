// Data formats: tile byte layouts in L1/DRAM and the roundings of docs/numerics.md.
//
// A tile is stored face by face (16x16 faces, top-left, top-right, bottom-left, bottom-right),
// each face row-major. Values travel through the emulator as 32-bit words in that same order:
// fp32 bit patterns for float formats, two's-complement integers for integer formats.
// Block-float tiles (Bfp8_b, Bfp4_b) hold one shared 8-bit exponent per face row first (one
// section, padded to 16 bytes), then the elements (sign + magnitude with an explicit leading one),
// as tt-metal's packers and host tilizer lay them out.
#pragma once

#include <cstdint>
#include <cstring>

#include "device.h"

namespace tc {

inline float as_float(std::uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}
inline std::uint32_t as_bits(float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

// bfloat16 round to nearest, ties to even (NaN stays NaN)
inline std::uint16_t bf16_bits(float x) {
    std::uint32_t b = as_bits(x);
    if ((b & 0x7F800000u) == 0x7F800000u && (b & 0x007FFFFFu)) return std::uint16_t((b >> 16) | 0x40);
    std::uint32_t lsb = (b >> 16) & 1u;
    return std::uint16_t((b + 0x7FFFu + lsb) >> 16);
}
std::uint16_t f16_bits(float x);
float f16_value(std::uint16_t h);

bool is_integer_format(std::uint8_t f);

// Decode one tile of format f at src into face-ordered words; returns false for an unknown format.
bool decode_tile(std::uint8_t f, const std::uint8_t* src, const TileShape& shape, std::uint32_t* out);
// Encode face-ordered words (fp32 bits, or integers when `integer`) into format f at dst.
bool encode_tile(std::uint8_t f, const std::uint32_t* words, bool integer, const TileShape& shape,
                 std::uint8_t* dst);
// Round one group of 16 fp32 values as a block-float tile of `mantissa_bits` (7 or 3) holds them:
// writes the element codes and returns the shared exponent; and one element's value back.
std::uint8_t block_float_group(const float* in, int mantissa_bits, std::uint8_t* codes);
float block_float_value(std::uint8_t code, std::uint8_t exponent, int mantissa_bits);

}  // namespace tc
