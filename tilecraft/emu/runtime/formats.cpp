#include "formats.h"

#include <cmath>

namespace tc {

const char* format_name(std::uint8_t f) {
    switch (f) {
        case fmt::Float32: return "Float32";
        case fmt::Float16: return "Float16";
        case fmt::Bfp8: return "Bfp8";
        case fmt::Bfp4: return "Bfp4";
        case fmt::Tf32: return "Tf32";
        case fmt::Float16_b: return "Float16_b";
        case fmt::Bfp8_b: return "Bfp8_b";
        case fmt::Bfp4_b: return "Bfp4_b";
        case fmt::Int32: return "Int32";
        case fmt::UInt16: return "UInt16";
        case fmt::Int8: return "Int8";
        case fmt::UInt32: return "UInt32";
        case fmt::UInt8: return "UInt8";
        default: return "Invalid";
    }
}

bool is_integer_format(std::uint8_t f) {
    return f == fmt::Int32 || f == fmt::UInt32 || f == fmt::UInt16 || f == fmt::UInt8 || f == fmt::Int8;
}

static std::uint32_t exponent_bytes(const TileShape& shape) {
    std::uint32_t n = shape.elems() / 16;  // one exponent per face row
    return (n + 15) / 16 * 16;             // the exponent section is 16-byte aligned
}

std::uint32_t format_tile_bytes(std::uint8_t f, std::uint32_t rows, std::uint32_t cols) {
    TileShape shape{rows, cols};
    std::uint32_t n = shape.elems();
    switch (f) {
        case fmt::Float32: case fmt::Int32: case fmt::UInt32: return n * 4;
        case fmt::Float16: case fmt::Float16_b: case fmt::UInt16: return n * 2;
        case fmt::UInt8: case fmt::Int8: return n;
        case fmt::Bfp8_b: return n + exponent_bytes(shape);
        case fmt::Bfp4_b: return n / 2 + exponent_bytes(shape);
        default: return 0;
    }
}

std::uint16_t f16_bits(float x) {
    // IEEE binary16, round to nearest even; beyond the range becomes inf
    _Float16 h = static_cast<_Float16>(x);
    std::uint16_t bits;
    std::memcpy(&bits, &h, 2);
    return bits;
}

float f16_value(std::uint16_t bits) {
    _Float16 h;
    std::memcpy(&h, &bits, 2);
    return static_cast<float>(h);
}

std::uint8_t block_float_group(const float* in, int mantissa_bits, std::uint8_t* codes) {
    // shared exponent: the exponent field of the largest magnitude (255 when inf/NaN is present)
    std::uint32_t shared = 0;
    for (int i = 0; i < 16; ++i) {
        std::uint32_t e = (as_bits(in[i]) >> 23) & 0xFFu;
        if (e > shared) shared = e;
    }
    const float step = std::ldexp(1.0f, int(shared) - 127 - (mantissa_bits - 1));
    const std::uint32_t q_max = (1u << mantissa_bits) - 1;
    for (int i = 0; i < 16; ++i) {
        float x = in[i];
        std::uint32_t sign = as_bits(x) >> 31;
        std::uint32_t q;
        if (std::isnan(x)) {
            q = q_max;  // decodes as NaN at exponent 255
        } else if (std::isinf(x)) {
            q = 1u << (mantissa_bits - 1);  // leading one alone: inf at exponent 255
        } else {
            float r = std::nearbyint(std::fabs(x) / step);  // exact quotient, ties to even
            q = r >= float(q_max) ? q_max : std::uint32_t(r);
        }
        if (q == 0) sign = 0;  // a zero is always +0
        codes[i] = std::uint8_t((sign << mantissa_bits) | q);
    }
    return std::uint8_t(shared);
}

float block_float_value(std::uint8_t code, std::uint8_t exponent, int mantissa_bits) {
    std::uint32_t q = code & ((1u << mantissa_bits) - 1);
    bool negative = (code >> mantissa_bits) & 1u;
    if (q == 0) return 0.0f;
    if (exponent == 255) {  // inf (leading one alone) or NaN
        float special = q == (1u << (mantissa_bits - 1)) ? INFINITY : NAN;
        return negative ? -special : special;
    }
    float v = std::ldexp(float(q), int(exponent) - 127 - (mantissa_bits - 1));
    return negative ? -v : v;
}

bool decode_tile(std::uint8_t f, const std::uint8_t* src, const TileShape& shape, std::uint32_t* out) {
    const std::uint32_t n = shape.elems();
    switch (f) {
        case fmt::Float32: case fmt::Int32: case fmt::UInt32:
            std::memcpy(out, src, n * 4);
            return true;
        case fmt::Float16_b:
            for (std::uint32_t i = 0; i < n; ++i) {
                std::uint16_t h;
                std::memcpy(&h, src + 2 * i, 2);
                out[i] = std::uint32_t(h) << 16;
            }
            return true;
        case fmt::Float16:
            for (std::uint32_t i = 0; i < n; ++i) {
                std::uint16_t h;
                std::memcpy(&h, src + 2 * i, 2);
                out[i] = as_bits(f16_value(h));
            }
            return true;
        case fmt::UInt16:
            for (std::uint32_t i = 0; i < n; ++i) {
                std::uint16_t h;
                std::memcpy(&h, src + 2 * i, 2);
                out[i] = h;
            }
            return true;
        case fmt::UInt8:
            for (std::uint32_t i = 0; i < n; ++i) out[i] = src[i];
            return true;
        case fmt::Int8:
            for (std::uint32_t i = 0; i < n; ++i) out[i] = std::uint32_t(std::int32_t(std::int8_t(src[i])));
            return true;
        case fmt::Bfp8_b: case fmt::Bfp4_b: {
            const int bits = f == fmt::Bfp8_b ? 7 : 3;
            const std::uint8_t* exps = src;
            const std::uint8_t* data = src + exponent_bytes(shape);
            for (std::uint32_t i = 0; i < n; ++i) {
                std::uint8_t code = bits == 7 ? data[i] : std::uint8_t((data[i / 2] >> (4 * (i % 2))) & 0xF);
                out[i] = as_bits(block_float_value(code, exps[i / 16], bits));
            }
            return true;
        }
        default: return false;
    }
}

static std::int64_t clamp64(std::int64_t v, std::int64_t lo, std::int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

// an integer from a word: the word itself for integer DST data, else the float truncated toward zero
static std::int64_t integer_of(std::uint32_t word, bool integer) {
    if (integer) return std::int32_t(word);
    float x = as_float(word);
    if (std::isnan(x)) return 0;
    double t = std::trunc(double(x));
    if (t > 9.2e18) return INT64_MAX;
    if (t < -9.2e18) return INT64_MIN;
    return std::int64_t(t);
}

static float float_of(std::uint32_t word, bool integer) { return integer ? float(std::int32_t(word)) : as_float(word); }

// Lays out a block-float tile (the exponent section, then the element codes); `group(g, bits,
// codes)` rounds group g of 16 values, writing its codes and returning its shared exponent.
template <class Group>
static void write_block_float(int bits, const TileShape& shape, std::uint8_t* dst, Group group) {
    const std::uint32_t n = shape.elems(), exp_bytes = exponent_bytes(shape);
    std::memset(dst, 0, exp_bytes);
    std::uint8_t* data = dst + exp_bytes;
    if (bits == 3) std::memset(data, 0, n / 2);
    for (std::uint32_t g = 0; g < n / 16; ++g) {
        std::uint8_t codes[16];
        dst[g] = group(g, bits, codes);
        for (int i = 0; i < 16; ++i) {
            std::uint32_t e = g * 16 + i;
            if (bits == 7) data[e] = codes[i];
            else data[e / 2] |= std::uint8_t(codes[i] << (4 * (e % 2)));
        }
    }
}

bool encode_tile(std::uint8_t f, const std::uint32_t* words, bool integer, const TileShape& shape, std::uint8_t* dst) {
    const std::uint32_t n = shape.elems();
    switch (f) {
        case fmt::Float32:
            if (!integer) {
                std::memcpy(dst, words, 4 * n);
                return true;
            }
            for (std::uint32_t i = 0; i < n; ++i) {
                std::uint32_t b = as_bits(float_of(words[i], integer));
                std::memcpy(dst + 4 * i, &b, 4);
            }
            return true;
        case fmt::Int32: case fmt::UInt32:
            for (std::uint32_t i = 0; i < n; ++i) {
                std::uint32_t b = words[i];  // integer DST data moves bit for bit
                if (!integer) {              // float DST data: truncate toward zero and saturate
                    std::int64_t v = integer_of(words[i], false);
                    b = f == fmt::Int32 ? std::uint32_t(std::int32_t(clamp64(v, INT32_MIN, INT32_MAX)))
                                        : std::uint32_t(clamp64(v, 0, UINT32_MAX));
                }
                std::memcpy(dst + 4 * i, &b, 4);
            }
            return true;
        case fmt::Float16_b:
            if (!integer) {  // the common case, branch-free so that it vectorises
                std::uint16_t half[1024];
                for (std::uint32_t i = 0; i < n; ++i) {
                    const std::uint32_t b = words[i];
                    const bool nan = (b & 0x7F800000u) == 0x7F800000u && (b & 0x007FFFFFu);
                    const std::uint32_t rounded = (b + 0x7FFFu + ((b >> 16) & 1u)) >> 16;
                    half[i] = std::uint16_t(nan ? ((b >> 16) | 0x40u) : rounded);
                }
                std::memcpy(dst, half, 2 * n);
                return true;
            }
            for (std::uint32_t i = 0; i < n; ++i) {
                std::uint16_t h = bf16_bits(float_of(words[i], integer));
                std::memcpy(dst + 2 * i, &h, 2);
            }
            return true;
        case fmt::Float16:
            for (std::uint32_t i = 0; i < n; ++i) {
                std::uint16_t h = f16_bits(float_of(words[i], integer));
                std::memcpy(dst + 2 * i, &h, 2);
            }
            return true;
        case fmt::UInt16:
            for (std::uint32_t i = 0; i < n; ++i) {
                std::uint16_t h = std::uint16_t(clamp64(integer_of(words[i], integer), 0, 65535));
                std::memcpy(dst + 2 * i, &h, 2);
            }
            return true;
        case fmt::UInt8:
            for (std::uint32_t i = 0; i < n; ++i) dst[i] = std::uint8_t(clamp64(integer_of(words[i], integer), 0, 255));
            return true;
        case fmt::Int8:
            for (std::uint32_t i = 0; i < n; ++i)
                dst[i] = std::uint8_t(std::int8_t(clamp64(integer_of(words[i], integer), -127, 127)));
            return true;
        case fmt::Bfp8_b: case fmt::Bfp4_b:
            write_block_float(f == fmt::Bfp8_b ? 7 : 3, shape, dst, [&](std::uint32_t g, int bits, std::uint8_t* codes) {
                float values[16];
                for (int i = 0; i < 16; ++i) values[i] = float_of(words[g * 16 + i], integer);
                return block_float_group(values, bits, codes);
            });
            return true;
        default: return false;
    }
}

}  // namespace tc
