// The unpacker's format conversion (format_decode.h): L1 datums -> SrcA/SrcB/Dst datums.
#include "format_decode.h"

#include "arch.h"
#include "datum_layout.h"

namespace tc_tensix::decode {

namespace {

// The register type a non-FP32 L1 format lands as; an UNPACR may name any output format of the
// same type (the LLK does, e.g. Bfp4_b in with Bfp8_b out, Lf8 in with Float16 out).
enum class RegType { Fp32, Tf32, Bf16, Fp16, Int8, Int16, Int32, None };

RegType reg_type(uint32_t fmt) {
    switch (fmt) {
        case FP32: return RegType::Fp32;
        case TF32: return RegType::Tf32;
        case BF16: case BFP8: case BFP4: case BFP2: return RegType::Bf16;
        case FP16: case FP8: case BFP8a: case BFP4a: case BFP2a: return RegType::Fp16;
        case INT8: return RegType::Int8;
        case INT16: return RegType::Int16;
        case INT32: return RegType::Int32;
        default: return RegType::None;
    }
}

// Shift that brings a BFP4/BFP2 mantissa up to the BFP8 position (sign in bit 7).
uint32_t bfp_shift(uint32_t fmt) {
    switch (fmt) {
        case BFP4: case BFP4a: return 4;
        case BFP2: case BFP2a: return 6;
        default: return 0;
    }
}

// Leading zeros of a non-zero 8-bit value.
unsigned clz8(uint8_t v) {
    unsigned n = 0;
    while ((v & 0x80u) == 0) {
        v = uint8_t(v << 1);
        ++n;
    }
    return n;
}

}  // namespace

bool dst_is_32b(uint32_t out_fmt) { return out_fmt == FP32 || out_fmt == TF32 || out_fmt == INT32; }

uint16_t bfp_to_bf16(uint8_t mantissa, uint8_t shared_exp) {
    const uint16_t sign = mantissa >> 7;
    uint8_t mag = uint8_t(mantissa << 1);
    if (mag == 0) return sign ? 0xff80u : 0;  // a negative zero mantissa decodes as -inf (ISA)
    const unsigned lz = clz8(mag);
    mag = uint8_t(mag << lz);
    const uint8_t exp = uint8_t(shared_exp - lz);  // wraps for tiny exponents, as on the device
    return uint16_t((sign << 15) | (uint16_t(exp) << 7) | (mag & 0x7eu));
}

bool bfpa_to_fp16(uint8_t mantissa, uint8_t shared_exp, uint16_t& out) {
    const uint16_t sign = mantissa >> 7;
    uint8_t mag = uint8_t(mantissa << 1);
    if (mag == 0) {
        out = sign ? 0xfc00u : 0;
        return true;
    }
    const unsigned lz = clz8(mag);
    mag = uint8_t(mag << lz);
    const uint8_t exp = uint8_t(shared_exp - lz);
    if (exp & 0xe0u) return false;
    out = uint16_t((sign << 15) | (uint16_t(exp) << 10) | (uint16_t(mag & 0x7eu) << 3));
    return true;
}

uint16_t fp32_to_fp16(uint32_t x) {
    const uint16_t sign = uint16_t((x >> 16) & 0x8000u);
    const int exp = int((x >> 23) & 0xffu) - 112;  // rebias 127 -> 15
    if (exp < 0) return sign;
    if (exp > 31) return uint16_t(sign | 0x7fffu);
    return uint16_t(sign | (exp << 10) | ((x >> 13) & 0x3ffu));
}

uint16_t fp8_to_fp16(uint8_t bits, bool e4m3) {
    const bool all_ones = (bits & 0x7fu) == 0x7fu;
    if (!e4m3) return uint16_t((bits << 8) | ((kArch == Arch::Blackhole && all_ones) ? 0xffu : 0u));
    const uint32_t exp = (bits >> 3) & 0xfu, mantissa = bits & 7u;
    return uint16_t(((bits & 0x80u) << 8) | ((exp ? exp + 8u : 0u) << 10) | (mantissa << 7) | (all_ones ? 0x7fu : 0u));
}

const char* convert(uint32_t in_fmt, uint32_t out_fmt, uint32_t bits, uint8_t shared_exp, bool to_dst, DatumMode mode,
                    uint32_t& value) {
    const RegType in_type = reg_type(in_fmt);
    if (in_type == RegType::None || reg_type(out_fmt) == RegType::None) return "an invalid data format code";
    if (to_dst && dst_is_32b(out_fmt) && datum_bits(in_fmt) != 32)
        return "a 32-bit Dst output format for a narrower input format";

    // Normalise to a 16-bit register type (BF16 or FP16 bits in IEEE order), or finish 32-bit cases.
    uint16_t half = 0;
    RegType half_type = RegType::None;
    if (in_fmt == FP32) {
        switch (out_fmt) {
            case FP32:
                if (!to_dst) return "Float32 output into SrcA/SrcB (use Tf32, Float16_b or Float16)";
                value = dst32_from_fp32(bits);
                return nullptr;
            case TF32:
                value = to_dst ? dst32_from_fp32(bits) : src_from_fp32(bits);  // TF32: low 13 mantissa bits dropped
                return nullptr;
            case BF16:
                if ((bits & 0x7f800000u) == 0) bits &= 0x80000000u;  // denormals flush to zero
                half = uint16_t(bits >> 16);
                half_type = RegType::Bf16;
                break;
            case FP16:
                half = fp32_to_fp16(bits);
                half_type = RegType::Fp16;
                break;
            default: return "Float32 input with an output format other than Float32/Tf32/Float16_b/Float16";
        }
    } else {
        const RegType out_type = reg_type(out_fmt);
        const bool bf16_into_tf32 = in_type == RegType::Bf16 && out_fmt == TF32 && !to_dst;
        if (out_type != in_type && !bf16_into_tf32) return "an output format the input format cannot convert to";
        switch (in_fmt) {
            case TF32:
            case INT32:
                if (!to_dst) return "32-bit input into SrcA/SrcB (only Dst holds it)";
                if (!dst_is_32b(out_fmt)) return "32-bit input with a 16-bit Dst output format";
                value = dst32_from_fp32(bits);
                return nullptr;
            case FP16: half = uint16_t(bits); half_type = RegType::Fp16; break;
            case FP8: half = fp8_to_fp16(uint8_t(bits), mode.fp8_e4m3); half_type = RegType::Fp16; break;
            case BF16: half = uint16_t(bits); half_type = RegType::Bf16; break;
            case BFP8: case BFP4: case BFP2:
                half = bfp_to_bf16(uint8_t(bits << bfp_shift(in_fmt)), shared_exp);
                half_type = RegType::Bf16;
                break;
            case BFP8a: case BFP4a: case BFP2a:
                if (!bfpa_to_fp16(uint8_t(bits << bfp_shift(in_fmt)), shared_exp, half))
                    return "a Bfp8/Bfp4/Bfp2 datum whose exponent does not fit Float16 (undefined on the device)";
                half_type = RegType::Fp16;
                break;
            case INT8: {
                // Unsigned 8-bit or 8-bit sign-magnitude, overlaid on FP16 with raw exponent 16.
                const uint32_t sign = mode.int8_unsigned ? 0 : (bits & 0x80u);
                uint32_t mag = (bits & 0xffu) - sign;
                if (mag) mag |= 16u << 10;
                half = uint16_t(mag | (sign << 8));
                half_type = RegType::Fp16;
                break;
            }
            case INT16:
                value = to_dst ? (bits & 0xffffu) : (((bits & 0xff00u) << 3) | (bits & 0xffu));
                return nullptr;
            default: return "an unsupported input format";
        }
    }
    if (half_type == RegType::Bf16) {
        value = to_dst ? dst16_from_bf16(half) : src_from_fp32(uint32_t(half) << 16);
    } else {
        value = to_dst ? dst16_from_fp16(half) : src_from_fp16(half);
    }
    return nullptr;
}

}  // namespace tc_tensix::decode
