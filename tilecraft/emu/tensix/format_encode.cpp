// The packers' format conversions (format_encode.h): early conversion out of Dst, ReLU, exponent
// thresholding, late conversion into the L1 format, BFP blocks and L1 accumulation.
#include "format_encode.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "datum_layout.h"
#include "prng.h"

namespace tc_tensix::fmt {

namespace {

constexpr uint32_t kSign32 = 0x80000000u, kSign16 = 0x8000u;

[[noreturn]] void unsupported(const std::string& what) { throw UnsupportedConversion(what); }

// Bit reinterpretation (C++17: the machine's runner is built as C++17).
template <class To, class From>
To bits_as(From from) {
    static_assert(sizeof(To) == sizeof(From));
    To to;
    std::memcpy(&to, &from, sizeof to);
    return to;
}

bool is_fp32_like(uint32_t c) { return c == FP32 || c == TF32; }
bool is_e8_16(uint32_t c) { return c == BF16 || c == BFP8; }
bool is_e5_16(uint32_t c) { return c == FP16 || c == BFP8a || c == FP8; }

// --- early conversion helpers (rounding is to nearest, ties away from zero, or stochastic: the
// magnitude's dropped bits against a threshold, prng.h's rounding::drop_bits) ---

// Rounding conversions with an 8-bit exponent turn NaN into infinity (FormatConversion.md).
uint32_t fp32_nan_to_inf(uint32_t x) {
    return (x & 0x7fffffffu) > 0x7f800000u ? (x & kSign32) | 0x7f800000u : x;
}

// An fp32 pattern, NaN made infinity, with the low `n` bits of its magnitude dropped and rounded
// by `threshold`: the sign lands at bit 31 - n. Infinity stays infinity.
uint32_t round_fp32_bits(uint32_t x, unsigned n, uint32_t threshold) {
    x = fp32_nan_to_inf(x);
    const uint32_t magnitude = x & ~kSign32;
    if (magnitude == 0x7f800000u) return x >> n;
    return ((x & kSign32) >> n) | rounding::drop_bits(magnitude, n, threshold);
}

// fp32 -> bf16 rounding: NaN -> inf, rounded by `threshold`, denormals and -0 -> +0.
uint32_t round_fp32_to_bf16(uint32_t x, uint32_t threshold) {
    const uint32_t r = round_fp32_bits(x, 16, threshold);
    return (r & 0x7fffu) < 0x80u ? 0u : r;
}

// fp32 -> E8M6 (bf16 with the low mantissa bit zero), same rules.
uint32_t round_fp32_to_e8m6(uint32_t x, uint32_t threshold) {
    const uint32_t r = round_fp32_bits(x, 17, threshold) << 1;
    return (r & 0x7fffu) < 0x80u ? 0u : r;
}

// fp32 -> TF32 (10 mantissa bits, kept as fp32 bits), same rules.
uint32_t round_fp32_to_tf32(uint32_t x, uint32_t threshold) {
    const uint32_t r = round_fp32_bits(x, 13, threshold) << 13;
    return (r & 0x7fffffffu) < 0x800000u ? 0u : r;
}

// Blackhole's Round_10b_mant from Dst32b into FP16 (ttsim's model), in three steps. First NaN ->
// inf and the mantissa rounded to 10 bits (by `threshold`), a zero exponent flushed to +0: the
// result, E8M10, is sign << 18 | exponent8 << 10 | mantissa10.
uint32_t round_fp32_to_e8m10(uint32_t x, uint32_t threshold) {
    const uint32_t r = round_fp32_bits(x, 13, threshold);
    return (r & 0x3ffffu) < 0x400u ? 0u : r;
}

// Second, ReLU on the E8M10 value, before the rebias: the threshold read as BF16 (aligned to the
// E8M10 bits by a shift of 3), so a threshold ReLU compares and clamps in the 8-bit exponent range.
uint32_t relu_e8m10(uint32_t mode, uint32_t threshold, uint32_t r) {
    if (mode == 0) return r;
    if (mode >= 2 && (threshold & kSign16)) unsupported("ReLU with a negative threshold is undefined");
    const uint32_t thr = threshold << 3;
    if (r & 0x40000u) return 0;
    if (mode == 2 && r <= thr) return 0;
    if (mode == 3 && r > thr) return thr;
    return r;
}

// Third, the rebias to FP16: a too-small exponent gives signed zero, a too-large one the largest
// pattern.
uint32_t rebias_e8m10_to_fp16(uint32_t r) {
    const uint32_t sign = (r >> 18) << 15;
    const int32_t e = int32_t((r >> 10) & 0xffu) - 112;
    if (e < 0) return sign;
    if (e > 31) return sign | 0x7fffu;
    return sign | (uint32_t(e) << 10) | (r & 0x3ffu);
}

// Blackhole's Round_10b_mant from Dst16b into FP16 (ttsim's model; the LLK's Float16_b-to-Fp8_e4m3
// pack): the datum read as BF16 and rebiased to FP16, its 7 mantissa bits fitting without rounding;
// a too-small exponent (zero and denormals included) gives signed zero, a too-large one (infinity
// and NaN included) the largest pattern. Exponent 112 lands on FP16 exponent 0 with its mantissa.
uint32_t rebias_bf16_to_fp16(uint32_t x) { return rebias_e8m10_to_fp16((x & 0xffffu) << 3); }

// bf16 -> bf16 "rounding": NaN -> inf, denormals and -0 -> +0.
uint32_t flush_bf16(uint32_t x) {
    if ((x & 0x7fffu) > 0x7f80u) return (x & kSign16) | 0x7f80u;
    return (x & 0x7fffu) < 0x80u ? 0u : x;
}

// fp16 -> fp16 rounding: denormals and -0 -> +0 (Tensix fp16 has no NaN).
uint32_t flush_fp16(uint32_t x) { return (x & 0x7c00u) == 0 ? 0u : x; }

// fp16 -> E5M6 (fp16 keeping 6 mantissa bits): rounded by `threshold`, the largest magnitudes
// saturating instead of overflowing the exponent, then flushed.
uint32_t round_fp16_to_e5m6(uint32_t x, uint32_t threshold) {
    const uint32_t magnitude = std::min(rounding::drop_bits(x & 0x7fffu, 4, threshold) << 4, 0x7ff0u);
    return flush_fp16((x & kSign16) | magnitude);
}

// bf16 -> E8M6 (the low mantissa bit dropped), rounded by `threshold`; zero and infinity stay.
uint32_t round_bf16_to_e8m6(uint32_t x, uint32_t threshold) {
    const uint32_t magnitude = x & 0x7fffu;
    if (magnitude == 0 || magnitude == 0x7f80u) return x;
    return (x & kSign16) | (rounding::drop_bits(magnitude, 1, threshold) << 1);
}

// Sign-magnitude int32 -> int8/uint8: raw keeps the low bits, otherwise saturate (the descale
// shift is not modelled: the packer refuses INT_DESCALE_Enable).
uint32_t int32_to_int8(uint32_t x, bool raw, bool is_unsigned) {
    const uint32_t negative = x >> 31, magnitude = x & 0x7fffffffu;
    if (is_unsigned) {
        if (raw) return magnitude & 0xffu;
        return negative ? 0u : std::min(magnitude, 255u);
    }
    return (negative << 7) | (raw ? (magnitude & 0x7fu) : std::min(magnitude, 127u));
}

// --- late conversion helpers ---

// Tensix fp16 -> fp32: exponent rebias; a zero exponent just widens the mantissa (a fp32
// denormal: the "mishandled" widening of FormatConversion.md).
uint32_t fp16_to_fp32(uint32_t x) {
    const uint32_t sign = (x & kSign16) << 16;
    if ((x & 0x7c00u) == 0) return sign | ((x & 0x3ffu) << 13);
    return sign | (((x & 0x7fffu) + (112u << 10)) << 13);
}

// Tensix fp16 -> bf16 (exponent widens, mantissa narrows): denormals flushed to +0, truncation.
uint32_t fp16_to_bf16(uint32_t x) {
    const uint32_t e = (x >> 10) & 0x1fu;
    if (e == 0) return 0;
    return (x & kSign16) | ((e + 112u) << 7) | ((x & 0x3ffu) >> 3);
}

// fp32 -> Tensix fp16 (exponent narrows): below 2^-15 -> signed zero, too large (inf, NaN
// included) saturates to the largest pattern, otherwise truncation. A biased exponent of 112
// yields exponent field 0 with a nonzero mantissa: the range 2^-15..2^-14 the ISA document calls
// mishandled.
uint32_t fp32_to_fp16(uint32_t x) {
    const uint32_t sign = (x >> 16) & kSign16;
    const int e = int((x >> 23) & 0xffu) - 112;
    if (e < 0) return sign;
    if (e > 31) return sign | 0x7fffu;
    return sign | (uint32_t(e) << 10) | ((x & 0x7fffffu) >> 13);
}

// fp32 -> bf16 by truncation, denormals flushed to +0 (the late conversion's narrowing).
uint32_t truncate_fp32_to_bf16(uint32_t x) {
    const uint32_t r = x >> 16;
    return (r & 0x7fffu) < 0x80u ? 0u : r;
}

// Tensix fp16 -> Blackhole's FP8 E4M3 (Pac_LF8_4b_exp; ttsim's packer): exponent rebias 15 -> 7,
// mantissa truncated to 3 bits. E4M3 keeps no denormals: an FP16 exponent of 8 or less gives signed
// zero. Too large saturates to 0x7f, the pattern the unpacker widens to the largest magnitude.
uint32_t fp16_to_fp8_e4m3(uint32_t x) {
    const uint32_t sign = (x >> 8) & 0x80u, e = (x >> 10) & 0x1fu;
    if (e <= 8) return sign;
    if (e >= 24) return sign | 0x7fu;
    return sign | ((e - 8u) << 3) | ((x & 0x3ffu) >> 7);
}

// A late "from" value widened to fp32 bits (float families only).
uint32_t float_from_as_fp32(uint32_t from, uint32_t v) {
    if (is_fp32_like(from)) return v;
    if (is_e8_16(from)) return v << 16;
    return fp16_to_fp32(v);
}

// BFPna block entry from a Tensix fp16 value: sign, 5-bit exponent, 7 mantissa bits (E5M7).
uint32_t fp16_to_e5m7_entry(uint32_t x) {
    return (x & kSign16) | (((x >> 10) & 0x1fu) << 7) | ((x & 0x3ffu) >> 3);
}

uint32_t flush_fp32(uint32_t x) { return (x & 0x7fffffffu) < 0x800000u ? (x & kSign32) : x; }

// Value of a bf16 pattern as the L1 accumulator sees it: denormals are zero, and an all-ones
// exponent is read as an ordinary (huge) exponent rather than inf/NaN.
double bf16_acc_value(uint32_t x) {
    const bool negative = (x & kSign16) != 0;
    const uint32_t e = (x >> 7) & 0xffu, m = x & 0x7fu;
    double v = 0.0;
    if (e != 0) v = std::ldexp(1.0 + double(m) / 128.0, int(e) - 127);
    if (e == 0xff && m == 0) v = INFINITY;
    return negative ? -v : v;
}

// Round a double to bf16: nearest-even, underflow to signed zero, overflow to signed inf.
uint32_t double_to_bf16_rne(double v) {
    const uint64_t bits = bits_as<uint64_t>(v);
    const uint32_t sign = uint32_t(bits >> 63) << 15;
    if (std::isinf(v)) return sign | 0x7f80u;
    const int e = int((bits >> 52) & 0x7ffu) - 1023 + 127;
    if (e <= 0) return sign;
    if (e >= 255) return sign | 0x7f80u;
    const uint64_t m = bits & ((uint64_t(1) << 52) - 1);
    const uint64_t half = uint64_t(1) << 44, lsb = (m >> 45) & 1u;
    const uint32_t rounded = uint32_t((uint64_t(e) << 7) + ((m + half - 1 + lsb) >> 45));
    return sign | std::min(rounded, 0x7f80u);
}

// Value of a Tensix fp16 pattern as the L1 accumulator sees it (ttsim's model): any nonzero
// exponent is a normal number (no inf/NaN encodings), a zero exponent is zero.
float fp16_acc_value(uint32_t x) {
    const uint32_t sign = (x & kSign16) << 16;
    if ((x & 0x7fffu) < 0x400u) return bits_as<float>(sign);
    return bits_as<float>(sign | (((x & 0x7fffu) << 13) + (112u << 23)));
}

// fp16 L1 accumulation (ttsim's model, the ISA documents none): the fp32 sum rounded to nearest
// even; an exact cancellation gives signed zero, or the largest pattern when the L1 value's
// exponent field was 30 or 31; a result below the fp16 range gives the largest pattern, one with a
// zero exponent field signed zero; overflow saturates.
uint32_t fp16_accumulate(uint32_t old, uint32_t value) {
    const uint32_t sum = bits_as<uint32_t>(fp16_acc_value(old) + fp16_acc_value(value));
    const uint32_t sign = (sum >> 16) & kSign16;
    if ((sum & 0x7fffffffu) == 0) return sign | (((old >> 10) & 0x1fu) >= 30 ? 0x7fffu : 0u);
    const int e = int((sum >> 23) & 0xffu) - 112;
    if (e <= 0) return sign | (e < 0 ? 0x7fffu : 0u);
    const uint32_t m = sum & 0x7fffffu;
    const uint32_t rounded = (uint32_t(e) << 10) + ((m + (1u << 12) - 1u + ((m >> 13) & 1u)) >> 13);
    return sign | std::min(rounded, 0x7fffu);
}

}  // namespace

uint32_t early_convert(const EarlyConfig& cfg, uint32_t x, uint32_t threshold) {
    const uint32_t f = cfg.intermediate & 0xfu;
    if (cfg.relu_path_dst32_fp16()) {
        const uint32_t rounded = round_fp32_to_e8m10(fp32_from_dst32(x), threshold);
        return rebias_e8m10_to_fp16(relu_e8m10(cfg.relu_mode & 3u, cfg.relu_threshold, rounded));
    }
    if (cfg.read_32b) {
        if (cfg.round_10b_mant && f != FP32)
            unsupported(std::string("Round_10b_mant with a Dst32b read into ") + format_names(f).isa);
        if (f == INT16) return x >> 16;  // the high half of the 32-bit datum, unshuffled (as ttsim)
        x = fp32_from_dst32(x);              // FP32 and INT32 share the layout
        switch (f) {
            case FP32: return (cfg.round_10b_mant && !cfg.read_raw) ? round_fp32_to_tf32(x, threshold) : x;
            case TF32: return cfg.read_raw ? x : round_fp32_to_tf32(x, threshold);
            case BF16: return cfg.read_raw ? x >> 16 : round_fp32_to_bf16(x, threshold);
            case BFP8: return cfg.read_raw ? x >> 16 : round_fp32_to_e8m6(x, threshold);
            case INT32: return x;
            case INT8: return int32_to_int8(x, cfg.read_raw, cfg.read_unsigned);
            default: unsupported(std::string("early conversion from Dst32b to ") + format_names(f).isa + " is not defined on Wormhole B0");
        }
    }
    x &= 0xffffu;
    if (cfg.round_10b_mant && cfg.round_10b_into_fp16 && f == FP16 && !cfg.read_raw)
        return rebias_bf16_to_fp16(bf16_from_dst16(uint16_t(x)));
    if (is_e5_16(f)) x = fp16_from_dst16(uint16_t(x));
    else if (is_e8_16(f) || f == TF32) x = bf16_from_dst16(uint16_t(x));
    if (cfg.round_10b_mant) unsupported(std::string("Round_10b_mant with a Dst16b read into ") + format_names(f).isa);
    switch (f) {
        case FP16: return cfg.read_raw ? x : flush_fp16(x);
        case BFP8a: return cfg.read_raw ? (x & ~7u) : round_fp16_to_e5m6(x, threshold);
        case FP8:
            if (!cfg.read_raw) unsupported("early conversion FP16 -> FP8 is a truncation: it needs Read_int8 (Read_raw) set");
            return x & 0xff00u;
        case BF16: return cfg.read_raw ? x : flush_bf16(x);
        case BFP8: return cfg.read_raw ? x : round_bf16_to_e8m6(flush_bf16(x), threshold);
        case TF32:
            if (cfg.read_raw) unsupported("early conversion BF16 -> TF32 with Read_raw is not defined");
            return flush_bf16(x) << 16;
        case INT16: return x;
        default:
            unsupported(std::string("early conversion from Dst16b to ") + format_names(f).isa +
                        " is not modelled (the ISA document defines no such path for Dst16b data)");
    }
}

uint32_t negative_infinity(uint32_t intermediate) {
    const uint32_t f = intermediate & 0xfu;
    if (is_fp32_like(f)) return 0xff800000u;
    if (is_e8_16(f)) return 0xff80u;
    if (f == FP8) return 0xff00u;
    if (is_e5_16(f)) return 0xffffu;  // Tensix fp16: the largest pattern acts as infinity
    unsupported(std::string("edge masking to -infinity with the integer intermediate format ") + format_names(f).isa);
}

uint32_t apply_relu(uint32_t intermediate, uint32_t mode, uint32_t threshold, uint32_t v) {
    mode &= 3u;
    if (mode == 0) return v;
    const uint32_t f = intermediate & 0xfu;
    uint32_t sign_bit, thr;
    if (is_fp32_like(f)) {
        sign_bit = kSign32, thr = threshold << 16;  // threshold read as bf16 = top half of fp32
    } else if (is_e8_16(f) || is_e5_16(f)) {
        sign_bit = kSign16, thr = threshold;  // bf16 or fp16 bits, as the intermediate
    } else if (f == INT32 && mode == 1) {
        return (v & kSign32) ? 0u : v;
    } else {
        unsupported(std::string("ReLU mode ") + std::to_string(mode) + " on the intermediate format " + format_names(f).isa);
    }
    if (mode >= 2 && (thr & sign_bit)) unsupported("ReLU with a negative threshold is undefined");
    // Non-negative floats order like their bit patterns, so the comparisons are on bits.
    if ((v & sign_bit) || v == 0) return 0;
    if (mode == 2) return v <= thr ? 0u : v;
    if (mode == 3) return v > thr ? thr : v;
    return v;
}

uint32_t apply_exp_threshold(uint32_t late_from, uint32_t threshold, uint32_t v) {
    const uint32_t f = late_from & 0xfu;
    uint32_t exponent;
    if (is_fp32_like(f)) exponent = (v >> 23) & 0xffu;
    else if (is_e8_16(f) || f == BFP4) exponent = (v >> 7) & 0xffu;
    else if (is_e5_16(f) || f == BFP4a) exponent = (v >> 10) & 0x1fu;
    else if (f == BFP2a) unsupported("exponent thresholding with In_data_format BFP2a is undefined (hardware bug)");
    else return v;
    return exponent < threshold ? 0u : v;
}

uint32_t late_convert(uint32_t from, uint32_t to, uint32_t v, bool fp8_e4m3) {
    from &= 0xfu, to &= 0xfu;
    if (to == FP8 && fp8_e4m3) {
        if (from != FP16)
            unsupported(std::string("late conversion ") + format_names(from).isa +
                        " -> FP8 E4M3 is not modelled (the LLK packs E4M3 from an FP16 intermediate only)");
        return fp16_to_fp8_e4m3(v);
    }
    const bool float_from = is_fp32_like(from) || is_e8_16(from) || is_e5_16(from);
    const auto no = [&]() -> uint32_t {
        unsupported(std::string("late conversion ") + format_names(from).isa + " -> " + format_names(to).isa + " is not defined");
    };
    if (!float_from) {
        if (from == to && (to == INT32 || to == INT16 || to == INT8)) return v;
        return no();
    }
    switch (to) {
        case FP32: return float_from_as_fp32(from, v);
        case TF32: return from == FP32 ? no() : float_from_as_fp32(from, v);
        case BF16:
            if (is_e8_16(from)) return v;
            if (is_e5_16(from)) return fp16_to_bf16(v);
            return truncate_fp32_to_bf16(v);
        case FP16:
            return is_e5_16(from) ? v : fp32_to_fp16(float_from_as_fp32(from, v));
        case FP8:
            return (is_e5_16(from) ? v : fp32_to_fp16(float_from_as_fp32(from, v))) >> 8;
        case BFP8: case BFP4: case BFP2:
            if (is_e8_16(from)) return v;
            if (is_e5_16(from)) return fp16_to_bf16(v);
            return truncate_fp32_to_bf16(v);
        case BFP8a: case BFP4a: case BFP2a:
            return fp16_to_e5m7_entry(is_e5_16(from) ? v : fp32_to_fp16(float_from_as_fp32(from, v)));
        default: return no();
    }
}

void encode_bfp_block(const uint32_t entries[16], uint32_t to, uint8_t* shared_exp, uint8_t datums[16],
                      const uint32_t thresholds[16]) {
    const int bits = int(datum_bits(to));
    uint32_t max_exp = 0;
    for (int j = 0; j < 16; ++j) max_exp = std::max(max_exp, (entries[j] >> 7) & 0xffu);
    *shared_exp = uint8_t(max_exp);
    for (int j = 0; j < 16; ++j) {
        const uint32_t e = (entries[j] >> 7) & 0xffu;
        const uint32_t mantissa = (entries[j] & 0x7fu) | (e != 0 ? 0x80u : 0u);  // explicit leading one
        const uint32_t shift = max_exp - e;
        // BFP8 rounding (a zero mantissa stays zero)
        const uint32_t threshold = thresholds ? thresholds[j] : rounding::kNearest;
        uint32_t magnitude = 0;
        if (mantissa != 0)
            magnitude = std::min(rounding::drop_bits(mantissa, std::min(shift + 1, 31u), threshold), 127u);
        magnitude >>= (8 - bits);                                                                // BFP4/2 truncate
        const uint32_t sign = (entries[j] >> 15) & 1u;
        datums[j] = uint8_t(magnitude != 0 ? (sign << (bits - 1)) | magnitude : 0u);
    }
}

uint32_t l1_accumulate(uint32_t out_format, uint32_t old, uint32_t value) {
    switch (out_format & 0xfu) {
        case FP32: {
            const float sum = bits_as<float>(flush_fp32(old)) + bits_as<float>(flush_fp32(value));
            const uint32_t r = bits_as<uint32_t>(sum);
            return (r & 0x7fffffffu) > 0x7f800000u ? 0x7fc00000u : flush_fp32(r);
        }
        case BF16: {
            old &= 0xffffu, value &= 0xffffu;
            if ((old | value) == 0xff80u && (old ^ value) == kSign16) return 0x7fc0u;  // inf + -inf
            return double_to_bf16_rne(bf16_acc_value(old) + bf16_acc_value(value));
        }
        case FP16: return fp16_accumulate(old & 0xffffu, value & 0xffffu);
        default:
            unsupported(std::string("L1 accumulation into ") + format_names(out_format).isa + " is not modelled (FP32, BF16, FP16 are)");
    }
}

}  // namespace tc_tensix::fmt
