// The packers' format conversions: Dst datums -> intermediate format -> L1 format (Wormhole B0).
//
// Why a separate module: the arithmetic of packing (rounding ties away from zero, NaN -> infinity,
// denormal flushing, shared BFP exponents, truncation to BFP4/BFP2) is what the LLK test suite
// and the device-numerics mode check bit for bit, independent of how the packers are addressed.
// Facts from tt-isa-documentation WormholeB0 Packers/FormatConversion.md, ReLU.md,
// ExponentThresholding.md, FloatBitPatterns.md and ttsim's packer; written in our own words.
//
// Datum representation between the stages ("intermediate value", uint32_t):
//   FP32, TF32                 fp32 bit pattern (TF32: low 13 mantissa bits zero)
//   BF16, BFP8 (E8M6)          bf16 bit pattern in the low 16 bits
//   FP16, BFP8a (E5M7/E5M6), FP8   Tensix fp16 bit pattern (no NaN; exponent 31 is a normal)
//   INT32                      sign-magnitude 32 bit; INT16: raw 16 bit; INT8: 8 bit (sign-magnitude or uint8)
// Dst holds datums in the ISA's register layouts (Dst.md diagrams), which every unit shares:
// Dst16b BF16 is Sign|Mantissa7|Exponent8, FP16 Sign|Mantissa10|Exponent5, INT16 raw; Dst32b
// (FP32 and sign-magnitude INT32 alike) has the BF16 shuffle in its high half and the low 16
// mantissa bits below (datum_layout.h). early_convert undoes the shuffle before converting.
#pragma once

#include <cstdint>

#include "format_codes.h"
#include "prng.h"
#include <stdexcept>
#include <string>

namespace tc_tensix::fmt {

// The format codes: format_codes.h (FormatCode).


// A conversion the hardware does not define (or the machine does not model): the packer reports it
// through Machine::fail with this message.
struct UnsupportedConversion : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Configuration of the early conversion (PCK_DEST_RD_CTRL_* and the Dstacc format).
struct EarlyConfig {
    bool read_32b = false;        // Read_32b_data: datums come from Dst32b
    bool round_10b_mant = false;  // Round_10b_mant
    bool read_raw = false;        // Read_int8 ("Read_raw" in the ISA document)
    bool read_unsigned = false;   // Read_unsigned
    uint32_t intermediate = BF16;
    // --- Blackhole: Round_10b_mant into an FP16 intermediate is defined (ttsim): from Dst32b the
    // mantissa rounds to 10 bits, from Dst16b the datum is read as BF16; both then rebias ---
    bool round_10b_into_fp16 = false;
    // On that Dst32b path ReLU comes between the rounding and the rebias (ttsim): the packer hands
    // its ReLU setting here (relu_path_dst32_fp16) instead of applying apply_relu afterwards.
    uint32_t relu_mode = 0, relu_threshold = 0;
    bool relu_path_dst32_fp16() const {
        return round_10b_into_fp16 && round_10b_mant && read_32b && !read_raw && (intermediate & 0xfu) == FP16;
    }
};

// Dst datum (16 or 32 bits, per cfg.read_32b, in the Dst layout) -> intermediate value. A rounding
// conversion rounds by `threshold` (prng.h): to nearest, ties away from zero, or stochastically.
uint32_t early_convert(const EarlyConfig& cfg, uint32_t dst_value, uint32_t threshold = rounding::kNearest);

// The value edge masking substitutes in -infinity mode, in the intermediate format.
uint32_t negative_infinity(uint32_t intermediate);

// ReLU stage (ReLU.md): mode = STACC_RELU_ApplyRelu & 3, threshold = STACC_RELU_ReluThreshold bits.
uint32_t apply_relu(uint32_t intermediate, uint32_t mode, uint32_t threshold, uint32_t value);

// Exponent thresholding (ExponentThresholding.md) keyed by the late "from" format.
uint32_t apply_exp_threshold(uint32_t late_from, uint32_t threshold, uint32_t value);


// Late conversion. For non-BFP outputs the result is the L1 datum bits. For BFP outputs it is the
// block entry sign<<15 | exponent<<7 | mantissa7 (8-bit exponent for BFPn, 5-bit for BFPna) that
// encode_bfp_block consumes. `fp8_e4m3` (Blackhole's Pac_LF8_4b_exp) makes FP8 E4M3, else E5M2.
uint32_t late_convert(uint32_t from, uint32_t to, uint32_t value, bool fp8_e4m3 = false);

// 16 block entries -> the shared exponent and 16 sign|magnitude datums of `to`'s width (8, 4 or 2
// bits): magnitudes are aligned to the largest exponent and rounded to 7 bits (half away from
// zero, or stochastically by the entries' `thresholds` (prng.h) when given; saturating), then
// truncated to BFP4/BFP2; a zero magnitude never carries a sign.
void encode_bfp_block(const uint32_t entries[16], uint32_t to, uint8_t* shared_exp, uint8_t datums[16],
                      const uint32_t thresholds[16] = nullptr);

// L1 accumulation (Pack_L1_Acc): the value written when `value` is accumulated onto `old` in L1.
uint32_t l1_accumulate(uint32_t out_format, uint32_t old, uint32_t value);

}  // namespace tc_tensix::fmt
