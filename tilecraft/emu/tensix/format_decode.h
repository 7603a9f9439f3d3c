// L1 datum formats -> the datums the unpackers write into SrcA/SrcB and Dst (decode direction).
//
// Facts from tt-isa-documentation (WormholeB0 UNPACR_Regular.md "FormatConversion", SrcASrcB.md,
// Dst.md) and, where the ISA leaves a step undefined (FP32 -> FP16) or has no page (Blackhole's
// FP8), from ttsim's unpacker; the code is ours. The register layouts (the ISA's shuffled Src/Dst
// bit orders) are stated once, in datum_layout.h, which this file converts through; Integer "8"
// lands as FP16 with raw exponent 16 (0 for magnitude 0), Integer "16" in Src as
// ((bits & 0xff00) << 3) | (bits & 0xff), raw in Dst.
// The encode direction (Dst -> L1) lives in format_encode.* (the packer's).
#pragma once

#include <cstdint>

#include "format_codes.h"

namespace tc_tensix::decode {

// The format codes (format_codes.h), as the unpacker configuration holds them.
using Format = FormatCode;

// Whether an unpack to Dst with output format `out_fmt` writes Dst32b (else Dst16b).
bool dst_is_32b(uint32_t out_fmt);

// Block-float mantissa (sign + 7 magnitude bits, BFP4/BFP2 shifted up to 8 bits) with its shared
// exponent, as BF16 (8-bit exponent family) or FP16 (5-bit family). Returns false for the FP16
// case where the normalised exponent does not fit 5 bits (undefined behaviour on the device).
uint16_t bfp_to_bf16(uint8_t mantissa, uint8_t shared_exp);
bool bfpa_to_fp16(uint8_t mantissa, uint8_t shared_exp, uint16_t& out);
// FP32 -> FP16 as the unpacker converts it: mantissa truncated, exponent underflow to signed zero,
// overflow saturated to the largest FP16 magnitude (Tensix FP16 has no inf/NaN encodings).
uint16_t fp32_to_fp16(uint32_t fp32);
// An FP8 (Lf8) datum as Tensix FP16 bits. E5M2 (Wormhole; Blackhole with Unp_LF8_4b_exp clear) is
// the FP16 pattern's high byte; Blackhole reads exponent and mantissa all ones (0x7f, 0xff) as the
// largest FP16 magnitude instead. E4M3 (Blackhole's Unp_LF8_4b_exp) has bias 7: a nonzero exponent
// is rebiased by +8, a zero one stays zero (its mantissa kept below it, the FP16 denormal pattern),
// and 0x7f / 0xff, the format's one special pattern, widens to the largest FP16 magnitude of that
// exponent (mantissa all ones). No FP8 pattern is NaN or infinity (ttsim's unpacker).
uint16_t fp8_to_fp16(uint8_t bits, bool e4m3);

// One datum through the unpacker's format conversion. `bits` is the datum as read from L1 (low
// datum_bits(in_fmt) bits), `shared_exp` its block exponent for BFP formats, `to_dst` selects the
// Dst layouts of datum_layout.h (Dst32b when dst_is_32b(out_fmt)) over the Src one,
// `mode` holds the unpacker's settings that change how a datum reads.
// Returns nullptr and sets `value`, or a message naming the unsupported combination.
struct DatumMode {
    bool int8_unsigned = false;  // ALU_FORMAT_SPEC_REG0_Src{A,B}Unsigned
    bool fp8_e4m3 = false;       // Blackhole's THCON_SEC{0,1}_REG1_Unp_LF8_4b_exp: Lf8 is E4M3
};
const char* convert(uint32_t in_fmt, uint32_t out_fmt, uint32_t bits, uint8_t shared_exp, bool to_dst, DatumMode mode,
                    uint32_t& value);

}  // namespace tc_tensix::decode
