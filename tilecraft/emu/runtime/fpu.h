// The matrix unit's (FPU's) arithmetic and the packer's roundings, as the device computes them.
//
// Facts from Tenstorrent's ISA documentation (tt-isa-documentation, WormholeB0 MVMUL / ELWMUL /
// ELWADD / SrcASrcB "Fidelity phases" / Packers) and, where that page calls its model "a rough
// guide", from the vendor's functional simulator (ttsim v1.10.0, src/tensix.cpp); docs/numerics.md
// section 8 states the model in words. Values travel as fp32 bit patterns: an operand is the
// 19-bit source-register value (sign, 8-bit exponent, 10-bit mantissa: bfloat16 or TF32 data), a
// DST value is fp32 (fp32_dest_acc_en) or a bfloat16 held in the top half of the word.
#pragma once

#include <cstdint>

namespace tc::fpu {

// Fidelity phases a MathFidelity value runs: LoFi (0) one, HiFi2 two, HiFi3 three, HiFi4 four.
inline int phases(int math_fidelity) { return math_fidelity <= 1 ? 1 : math_fidelity >= 4 ? 4 : math_fidelity; }

// An operand vector as the multipliers see it in one half of the fidelity phases, split once and
// reused by every dot product that reads it. SrcA contributes 5 significant bits per phase (phase
// bit 0 picks the implicit one and the top four mantissa bits, or the next five), SrcB 7 (phase
// bit 1: the implicit one and the top six, or the last four). Per element: the exponent that
// scales the piece's significand (very negative for a zero or denormal operand, whose piece is
// 0), the significand, the sign.
struct Split {
    static constexpr int kMax = 1024;
    std::int32_t exp[kMax];
    std::int32_t man[kMax];
    std::int32_t neg[kMax];
};
// `low`: the second piece (SrcA: phases 1 and 3, SrcB: phases 2 and 3).
void split(const std::uint32_t* bits, int n, bool src_a, bool low, Split& out);

// MVMUL arithmetic for one DST element: dst + sum over k < n of a[k] * b[k] (n a multiple of 16),
// a being SrcA's operands and b SrcB's, each given as its two splits (a[0], a[1]) from `offset`. In
// the order the LLK issues the instructions: for each fidelity phase, for each 16-long chunk of k,
// one MVMUL: its 16 products are summed as two groups of eight, added to DST and rounded to DST's
// precision.
std::uint32_t dot(const Split* const a[2], int a_offset, const Split* const b[2], int b_offset, int n,
                  std::uint32_t dst, int phases, bool fp32_dst);
// dot() for eight DST elements at once, bit for bit: dst[j] += sum over k of a(k, j) * b[k], for
// the columns j of a_t, SrcA's splits transposed (element (k, j) at a_offset + k * stride + j), and
// one SrcB vector b from b_offset. One output per vector lane, so no sum crosses lanes.
void dot8(const Split* const a_t[2], int a_offset, int stride, const Split* const b[2], int b_offset, int n,
          std::uint32_t dst[8], int phases, bool fp32_dst);
// out = in transposed: `in` holds `rows` vectors of `cols` elements, row after row.
void transpose(const Split& in, int rows, int cols, Split& out);
// The same on plain operand words (split here).
std::uint32_t dot(const std::uint32_t* a, const std::uint32_t* b, int n, std::uint32_t dst, int phases,
                  bool fp32_dst);
// ELWMUL: dst + a * b for one fidelity phase (the instruction always accumulates onto DST).
std::uint32_t mul(std::uint32_t a, std::uint32_t b, std::uint32_t dst, int phase, bool fp32_dst);
// ELWADD (ELWSUB: negate b first): a + b, plus dst when `accumulate`.
std::uint32_t add(std::uint32_t a, std::uint32_t b, std::uint32_t dst, bool accumulate, bool fp32_dst);

// The value the packer writes for one DST word into a bfloat16 (Float16_b) or Float32 L1 format
// (fp32 bits): NaN becomes inf, bfloat16 rounds to nearest with ties away from zero, denormal
// results flush to +0.
std::uint32_t pack_bf16(std::uint32_t word);
std::uint32_t pack_fp32(std::uint32_t word, bool fp32_dst);
// One block-float group of 16 DST words packed to Bfp8_b (mantissa_bits 7) or Bfp4_b (3): writes
// the element codes, returns the shared exponent. `precise`: ComputeConfigDescriptor.bfp8_pack_precise.
std::uint8_t pack_block(const std::uint32_t* words, int mantissa_bits, bool fp32_dst, bool precise,
                        std::uint8_t* codes);

}  // namespace tc::fpu
