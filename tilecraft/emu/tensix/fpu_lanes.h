// The matrix unit's multiply/accumulate (fpu_arith.h's model) for the 16 Dst columns of a row at
// once, one column per 32-bit vector lane: the machine's hot path.
//
// Why: a matmul tile is 16 MVMULs per fidelity phase, each 2048 products in 256 groups of eight;
// computed one product at a time that was ~90% of a matmul's run time. A lane holds one output
// column, so neither a group's largest exponent nor its sum nor Dst's rounding crosses lanes, and
// every magnitude stays below 2^30 (a group sum below 2^28, Dst's significand 2^24), so 32 bits
// hold what fpu_arith.h computes in 64. The bits are fpu_arith.h's: tests/emu/tensix/
// test_arith_golden.py holds every case (each instruction, Src style, Dst mode, fidelity phase
// and input distribution) to the hashes the one-product-at-a-time model printed.
#pragma once

#include <cstdint>

#include "fpu_arith.h"

namespace tc_tensix::fpu_lanes {

// How Src datums read as values (the matrix unit's SrcAStyle, fpu.cpp's Alu).
struct SrcRead {
    bool fp16 = false;     // FP16 data: 5-bit exponent in bits [4:0]
    bool a_tf32 = false;   // SrcA keeps all ten mantissa bits (else BF16 data: the top seven)
    bool b_tf32 = false;
};

// MVMUL / GAPOOL for `rows` output rows (every `step`-th row from 0; a broadcast row fills every
// other Dst row): dst[i][j] = Dst rounded (dst[i][j] + sum_k b[i][k] * a[k][j]) in fidelity phase
// `phase`, where a holds SrcA's 16 rows (k) of 16 columns (j), b[i] SrcB's row for output row i,
// and dst[i] the row's Dst values as fp32 bit patterns, in and out.
// `thresholds` (row i's 16 columns; every function here takes them the same way): the 23-bit
// thresholds of stochastic rounding into Dst (prng.h), or null to round to nearest, ties away.
void matmul(const uint32_t a[16][16], const uint32_t* const b[8], uint32_t dst[8][16], int rows, int step,
            int phase, const SrcRead& src, const fpu_arith::DstKind& kind, const uint32_t (*thresholds)[16] = nullptr);

// ELWMUL for one row of 16: dst[j] = Dst rounded (dst[j] + a[j] * b[j]) in fidelity phase `phase`.
void multiply_row(const uint32_t a[16], const uint32_t b[16], uint32_t dst[16], int phase, const SrcRead& src,
                  const fpu_arith::DstKind& kind, const uint32_t* thresholds = nullptr);

// ELWADD for one row of 16 (ELWSUB: b's sign bits flipped): dst[j] = Dst rounded (dst[j] + a[j] +
// b[j]); pass zeros as dst when the instruction does not add Dst.
void add_row(const uint32_t a[16], const uint32_t b[16], uint32_t dst[16], const SrcRead& src,
             const fpu_arith::DstKind& kind, const uint32_t* thresholds = nullptr);

}  // namespace tc_tensix::fpu_lanes
