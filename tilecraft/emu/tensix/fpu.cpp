// The matrix unit's (FPU's) instructions, from the ISA's pages for each (tt-isa-documentation,
// WormholeB0/TensixTile/TensixCoprocessor: MatrixUnit.md, RWCs.md, SrcASrcB.md, Dst.md and the
// instruction pages), with the arithmetic of fpu_arith.h. What is not modelled fails naming the
// instruction: DOTPV, GMPOOL's argmax, ELWADD/ELWSUB in a nonzero fidelity phase, ZEROACC's revert
// bit, CLREXPHIST and the legacy CONV/POOL opcodes. Stochastic rounding
// (ALU_ROUNDING_MODE_Fpu_srnd_en) replaces the arithmetic's final rounding into Dst, with random
// bits from the unit's PRNG (prng.h).
#include "fpu.h"

#include <algorithm>
#include <string>

#include "cfg_defines.h"
#include "datum_layout.h"
#include "fpu_arith.h"
#include "fpu_lanes.h"
#include "machine.h"

namespace tc_tensix {

namespace {

using fpu_arith::DstKind;

// DataFormat codes as the 4-bit ALU format fields hold them (tensix_types.h).
enum : uint32_t { kFmtTf32 = 4 };

// How the matrix unit reads Src data (the ISA's SrcAStyle): decided by SrcA's format for both.
enum class Style { Bf16, Fp16, Tf32, Int8 };

struct Alu {
    Style style = Style::Bf16;
    bool dst32 = false;        // Dst is used through Dst32b (FP32 or INT32)
    bool srca_tf32 = false;    // SrcA holds TF32 (else BF16 data: 7 mantissa bits used)
    bool srcb_tf32 = false;
    bool stochastic = false;   // ALU_ROUNDING_MODE_Fpu_srnd_en: results round into Dst stochastically
    uint32_t srca_fmt = 0;
    DstKind kind() const { return DstKind{dst32, style == Style::Fp16}; }
};

// How the arithmetic (fpu_lanes.h) reads Src datums as values: BF16 data uses 7 mantissa bits,
// TF32 and FP16 ten.
fpu_lanes::SrcRead src_read(const Alu& a) { return {a.style == Style::Fp16, a.srca_tf32, a.srcb_tf32}; }

uint32_t thread_field(Machine& m, int thread, uint32_t addr32, uint32_t shamt, uint32_t mask) {
    return (m.thread_cfg_word(thread, addr32) & mask) >> shamt;
}
#define TC_THREAD_FIELD(m, thread, NAME) thread_field(m, thread, NAME##_ADDR32, NAME##_SHAMT, NAME##_MASK)
#define TC_CFG_FIELD(m, thread, NAME) (m).cfg_field(thread, NAME##_ADDR32, NAME##_SHAMT, NAME##_MASK)

Style style_of_format(Machine& m, int thread, uint32_t word, uint32_t fmt) {
    switch (fmt) {
        case 0: case 5: case 6: case 7: case 15: case 8: case 9: return Style::Bf16;  // 8-bit exponent
        case 1: case 10: case 2: case 3: case 11: case 14: return Style::Fp16;        // 5-bit exponent
        case kFmtTf32: return Style::Tf32;
        default: m.fail(thread, word, "SrcA format code " + std::to_string(fmt) + " is not a matrix-unit format");
    }
}

Alu alu_config(Machine& m, int thread, uint32_t word) {
    Alu a;
    a.stochastic = TC_CFG_FIELD(m, thread, ALU_ROUNDING_MODE_Fpu_srnd_en) != 0;
    a.srca_fmt = TC_CFG_FIELD(m, thread, ALU_FORMAT_SPEC_REG_SrcA_override) ? TC_CFG_FIELD(m, thread, ALU_FORMAT_SPEC_REG_SrcA_val)
                                                                            : TC_CFG_FIELD(m, thread, ALU_FORMAT_SPEC_REG0_SrcA);
    uint32_t srcb_fmt = TC_CFG_FIELD(m, thread, ALU_FORMAT_SPEC_REG1_SrcB);
#if defined(DISABLE_IMPLIED_SRCA_FMT_Base_ADDR32)
    // Blackhole: the matrix unit takes each Src bank's format from the unpacker that filled it
    // (SrcBank::format) unless DISABLE_IMPLIED_SRCA/SRCB_FMT_Base is set (ttsim's model).
    if (!TC_THREAD_FIELD(m, thread, DISABLE_IMPLIED_SRCA_FMT_Base)) a.srca_fmt = m.s.srca[m.s.srca_math_bank].format;
    if (!TC_THREAD_FIELD(m, thread, DISABLE_IMPLIED_SRCB_FMT_Base)) srcb_fmt = m.s.srcb[m.s.srcb_math_bank].format;
#endif
    a.srca_tf32 = a.srca_fmt == kFmtTf32;
    a.srcb_tf32 = srcb_fmt == kFmtTf32;
    if (TC_THREAD_FIELD(m, thread, FP16A_FORCE_Enable)) {
        a.style = Style::Fp16;
    } else if (TC_CFG_FIELD(m, thread, ALU_ACC_CTRL_INT8_math_enabled)) {
        a.style = Style::Int8;
        a.dst32 = true;
    } else {
        a.style = style_of_format(m, thread, word, a.srca_fmt);
        a.dst32 = TC_CFG_FIELD(m, thread, ALU_ACC_CTRL_Fp32_enabled) != 0;
    }
    return a;
}

// The style MOV* instructions convert with: SrcA's format alone (INT8 math does not change it).
Style move_style(Machine& m, int thread, uint32_t word, const Alu& a) {
    return TC_THREAD_FIELD(m, thread, FP16A_FORCE_Enable) ? Style::Fp16 : style_of_format(m, thread, word, a.srca_fmt);
}

// The RWCs `thread` addresses with: its own set (RWCs.md), so SFPU code the PACK thread runs
// between its packs leaves the MATH thread's counters alone.
Rwc& rwc_of(Machine& m, int thread) { return m.s.rwc[thread]; }

uint32_t fidelity_phase(Machine& m, int thread, uint32_t word) {
    return (rwc_of(m, thread).fidelity + TC_THREAD_FIELD(m, thread, FIDELITY_BASE_Phase)) & 3u;
}

// The unmasked Dst row an instruction with row immediate `imm` starts at.
uint32_t dst_row(Machine& m, int thread, uint32_t word, uint32_t imm) {
    return imm + TC_THREAD_FIELD(m, thread, DEST_TARGET_REG_CFG_MATH_Offset) + rwc_of(m, thread).dst +
           TC_CFG_FIELD(m, thread, DEST_REGW_BASE_Base);
}

// Wait Gate: the matrix unit may read a Src bank only while it owns it (dvalid).
void wait_src(Machine& m, bool a, bool b, const char* what) {
    MachineState& s = m.s;
    auto ready = [&s, a, b] { return (!a || s.srca[s.srca_math_bank].dvalid) && (!b || s.srcb[s.srcb_math_bank].dvalid); };
    if (ready()) return;  // the common case, without building the wait's description
    m.wait_for(Wait{ready, std::string(a && b ? "SrcA and SrcB data" : a ? "SrcA data" : "SrcB data") + " for " + what});
}

// FlipSrcA / FlipSrcB (bits 0 / 1 of `flags`): hand the bank back to the unpackers (unless
// CLR_DVALID_Src*_Disable) and move to the other bank. Handing back a bank the unpackers have not
// handed over yet is outside the contract (ttsim flags it): on the device the unpacker's hand-over
// lands first when the two threads issue close together (the LLK's A2D copy releases SrcB, which
// the unpacker validates right after SrcA), so the model waits for it rather than letting the
// banks of the two sides drift apart, as they would if a fiber ran ahead.
void release_src(Machine& m, int thread, uint32_t flags, const char* what) {
    MachineState& s = m.s;
    const bool clear_a = (flags & 1u) && !TC_THREAD_FIELD(m, thread, CLR_DVALID_SrcA_Disable);
    const bool clear_b = (flags & 2u) && !TC_THREAD_FIELD(m, thread, CLR_DVALID_SrcB_Disable);
    wait_src(m, clear_a, clear_b, what);
    if (flags & 1u) {
        if (clear_a) s.srca[s.srca_math_bank].dvalid = false;
        s.srca_math_bank ^= 1;
    }
    if (flags & 2u) {
        if (clear_b) s.srcb[s.srcb_math_bank].dvalid = false;
        s.srcb_math_bank ^= 1;
    }
}

// --- Dst access as values ---

uint32_t dst32_physical_row(uint32_t row) { return ((row & 0x1f8u) << 1) | (row & 0x207u); }

void mark_defined(Machine& m, uint32_t row, bool dst32) {
    if (dst32) {
        const uint32_t r = dst32_physical_row(row & 0x3ffu);
        m.s.fpu.dst_undefined[r] = m.s.fpu.dst_undefined[r + 8] = false;
    } else {
        m.s.fpu.dst_undefined[row & 0x3ffu] = false;
    }
}

bool is_undefined(const Machine& m, uint32_t row, bool dst32) {
    return m.s.fpu.dst_undefined[dst32 ? dst32_physical_row(row & 0x3ffu) : (row & 0x3ffu)];
}

// An FP16 datum (IEEE bits) as the fp32 pattern of the same value; zero exponent reads as zero.
uint32_t fp32_of_fp16(uint16_t h) {
    const uint32_t e = (h >> 10) & 0x1fu;
    return e ? (uint32_t(h >> 15) << 31) | ((e + 112u) << 23) | (uint32_t(h & 0x3ffu) << 13) : 0u;
}
uint16_t fp16_of_fp32(uint32_t f) {
    const uint32_t e = (f >> 23) & 0xffu;
    return e ? uint16_t(((f >> 31) << 15) | ((e - 112u) << 10) | ((f >> 13) & 0x3ffu)) : uint16_t(0);
}

// A Dst row's 16 values as fp32 patterns, and back: the arithmetic works on whole rows. The
// Dst32b view is Dst.md's AdjRow mapping (Machine::dst32_read), resolved once per row.
void read_dst_row(const Machine& m, uint32_t row, const Alu& a, uint32_t out[16]) {
    if (a.dst32) {
        const uint32_t r = dst32_physical_row(row & 0x3ffu);
        for (uint32_t c = 0; c < 16; ++c) out[c] = fp32_from_dst32((uint32_t(m.s.dst[r][c]) << 16) | m.s.dst[r + 8][c]);
        return;
    }
    const uint16_t* raw = m.s.dst[row & 0x3ffu];
    if (a.style == Style::Fp16)
        for (uint32_t c = 0; c < 16; ++c) out[c] = fp32_of_fp16(fp16_from_dst16(raw[c]));
    else
        for (uint32_t c = 0; c < 16; ++c) out[c] = uint32_t(bf16_from_dst16(raw[c])) << 16;
}

void write_dst_row(Machine& m, uint32_t row, const Alu& a, const uint32_t value[16]) {
    mark_defined(m, row, a.dst32);
    if (a.dst32) {
        const uint32_t r = dst32_physical_row(row & 0x3ffu);
        for (uint32_t c = 0; c < 16; ++c) {
            const uint32_t w = dst32_from_fp32(value[c]);
            m.s.dst[r][c] = uint16_t(w >> 16);
            m.s.dst[r + 8][c] = uint16_t(w);
        }
        return;
    }
    uint16_t* raw = m.s.dst[row & 0x3ffu];
    if (a.style == Style::Fp16)
        for (uint32_t c = 0; c < 16; ++c) raw[c] = dst16_from_fp16(fp16_of_fp32(value[c]));
    else
        for (uint32_t c = 0; c < 16; ++c) raw[c] = dst16_from_bf16(uint16_t(value[c] >> 16));
}

// --- Src operands ---

// ReadSrcInt8 of the magnitude bits a fidelity phase uses (ELWMUL.md).
int32_t src_int8(uint32_t v, uint32_t mask) {
    v &= mask;
    const int32_t mag = int32_t(src_man(v));
    return src_sign(v) ? -mag : mag;
}
uint32_t int8_mask_a(uint32_t phase) { return (phase & 1u) ? 0x41fffu : 0x4e0ffu; }
uint32_t int8_mask_b(uint32_t phase) { return (phase & 2u) ? 0x40fffu : 0x7f0ffu; }

int32_t read_dst_int32(const Machine& m, uint32_t row, uint32_t col) {
    return fpu_arith::int32_of_sign_magnitude(fp32_from_dst32(m.dst32_read(row, col)));
}
void write_dst_int32(Machine& m, uint32_t row, uint32_t col, int32_t v) {
    mark_defined(m, row, true);
    m.dst32_write(row, col, dst32_from_fp32(fpu_arith::sign_magnitude_of(v)));
}

// The stochastic rounding thresholds (prng.h) of one Dst row's 16 results: the PRNG's lane c steps
// once for column c. Null when the results round to nearest.
const uint32_t* rounding_thresholds(Machine& m, int thread, const Alu& a, uint32_t out[16]) {
    if (!a.stochastic) return nullptr;
    const uint32_t seed = m.cfg_word(thread, PRNG_SEED_Seed_Val_ADDR32);
    for (int c = 0; c < 16; ++c) out[c] = m.s.fpu.rounding_prng.next_threshold(seed, c);
    return out;
}

// --- ELWADD / ELWSUB / ELWMUL ---

enum class ElwOp { Add, Sub, Mul };

void elementwise(Machine& m, int thread, uint32_t word, ElwOp op, const char* name) {
    const uint32_t flips = field(word, 22, 2), add_dst = field(word, 21, 1), bcast = field(word, 19, 2);
    const uint32_t addr_mod = math_addr_mode(word);
    wait_src(m, true, true, name);
    const Alu a = alu_config(m, thread, word);
    const Rwc& rwc = rwc_of(m, thread);
    const uint32_t phase = fidelity_phase(m, thread, word);
    if (op != ElwOp::Mul && phase != 0)
        m.fail(thread, word, "ELWADD/ELWSUB in fidelity phase " + std::to_string(phase) + " (which scales the sum) is not modelled");
    const bool bcast_row = bcast & 2u, bcast_col0 = bcast & 1u;
    const uint32_t a_row = rwc.srca & 0x38u, b_row = rwc.srcb & (bcast_row ? 0x3fu : 0x38u);
    const uint32_t d_row = dst_row(m, thread, word, math_low_imm(word, 15)) & 0x3f8u;
    const bool accumulate = op == ElwOp::Mul || add_dst;
    const SrcBank& A = m.s.srca[m.s.srca_math_bank];
    const SrcBank& B = m.s.srcb[m.s.srcb_math_bank];
    const DstKind kind = a.kind();
    m.s.fpu.last_srca_row = a_row;
    for (uint32_t i = 0; i < 8; ++i) {
        uint32_t b[16], d[16];  // the row's SrcB operands (ELWSUB: negated) and Dst values
        for (uint32_t j = 0; j < 16; ++j) b[j] = B.row[b_row + (bcast_row ? 0 : i)][bcast_col0 ? 0 : j] ^ (op == ElwOp::Sub ? 1u << 18 : 0u);
        if (a.style == Style::Int8) {
            const bool mul = op == ElwOp::Mul;
            for (uint32_t j = 0; j < 16; ++j) {
                const uint32_t va = A.row[a_row + i][j], vb = b[j];
                const int32_t x = src_exp(va) ? src_int8(va, mul ? int8_mask_a(phase) : ~0u) : 0;
                const int32_t y = src_exp(vb) ? src_int8(vb, mul ? int8_mask_b(phase) : ~0u) : 0;
                int32_t r = mul ? x * y : x + y;
                if (accumulate) r = fpu_arith::saturating_add(r, read_dst_int32(m, d_row + i, j));
                write_dst_int32(m, d_row + i, j, r);
            }
            continue;
        }
        if (accumulate) read_dst_row(m, d_row + i, a, d);
        else std::fill(d, d + 16, 0u);
        uint32_t row_thresholds[16];
        const uint32_t* thresholds = rounding_thresholds(m, thread, a, row_thresholds);
        if (op == ElwOp::Mul)
            fpu_lanes::multiply_row(A.row[a_row + i], b, d, int(phase), src_read(a), kind, thresholds);
        else fpu_lanes::add_row(A.row[a_row + i], b, d, src_read(a), kind, thresholds);
        write_dst_row(m, d_row + i, a, d);
    }
    release_src(m, thread, flips, name);
    apply_addr_mod(m, thread, word, addr_mod);
}

void elwadd(Machine& m, int thread, uint32_t word) { elementwise(m, thread, word, ElwOp::Add, "ELWADD"); }
void elwsub(Machine& m, int thread, uint32_t word) { elementwise(m, thread, word, ElwOp::Sub, "ELWSUB"); }
void elwmul(Machine& m, int thread, uint32_t word) { elementwise(m, thread, word, ElwOp::Mul, "ELWMUL"); }

// --- MVMUL / GAPOOL: Dst += SrcB @ SrcA ---

void matmul(Machine& m, int thread, uint32_t word, uint32_t out_rows, bool bcast_row, const char* name) {
    const bool pool = out_rows == 4;  // GAPOOL's AddrMode is pool_addr_mode (arch.h)
    const uint32_t flips = field(word, 22, 2), addr_mod = pool ? field(word, 15, kEnc.pool_addr_mode_bits) : math_addr_mode(word);
    wait_src(m, true, true, name);
    const Alu a = alu_config(m, thread, word);
    const Rwc& rwc = rwc_of(m, thread);
    const uint32_t phase = fidelity_phase(m, thread, word);
    const uint32_t rows = bcast_row ? 7u : out_rows;
    const uint32_t a_row = rwc.srca & 0x38u, b_row = rwc.srcb & (bcast_row ? 0x3fu : 0x38u);
    if (a_row + 16 > kSrcRows) m.fail(thread, word, "SrcA rows " + std::to_string(a_row) + "..+15 run past SrcA's 64 rows");
    const uint32_t d_row = dst_row(m, thread, word, math_low_imm(word, 15)) & (0x400u - rows);
    const SrcBank& A = m.s.srca[m.s.srca_math_bank];
    const SrcBank& B = m.s.srcb[m.s.srcb_math_bank];
    m.s.fpu.last_srca_row = a_row;
    const uint32_t step = bcast_row ? 2u : 1u;  // a broadcast row fills every other Dst row
    if (a.style == Style::Int8) {
        for (uint32_t i = 0; i < rows; i += step)
            for (uint32_t j = 0; j < 16; ++j) {
                int32_t sum = 0;
                for (uint32_t k = 0; k < 16; ++k)
                    sum += src_int8(B.row[b_row + (bcast_row ? 0 : i)][k], int8_mask_b(phase)) *
                           src_int8(A.row[a_row + k][j], int8_mask_a(phase));
                write_dst_int32(m, d_row + i, j, fpu_arith::saturating_add(sum, read_dst_int32(m, d_row + i, j)));
            }
    } else {
        const uint32_t* b[8];
        uint32_t dst[8][16], thresholds[8][16];
        for (uint32_t i = 0; i < rows; i += step) {
            b[i] = B.row[b_row + (bcast_row ? 0 : i)];
            read_dst_row(m, d_row + i, a, dst[i]);
            rounding_thresholds(m, thread, a, thresholds[i]);
        }
        fpu_lanes::matmul(&A.row[a_row], b, dst, int(rows), int(step), int(phase), src_read(a), a.kind(),
                          a.stochastic ? thresholds : nullptr);
        for (uint32_t i = 0; i < rows; i += step)
            write_dst_row(m, d_row + i, a, dst[i]);
    }
    release_src(m, thread, flips, name);
    apply_addr_mod(m, thread, word, addr_mod);
}

void mvmul(Machine& m, int thread, uint32_t word) { matmul(m, thread, word, 8, field(word, 19, 1) != 0, "MVMUL"); }

void gapool(Machine& m, int thread, uint32_t word) {
    if (field(word, 14, 1)) m.fail(thread, word, "GAPOOL with max_pool_index_en is not modelled");
    matmul(m, thread, word, 4, false, "GAPOOL");
}

void dotpv(Machine& m, int thread, uint32_t word) { m.fail(thread, word, "DOTPV is not modelled (the LLK does not use it)"); }

// --- GMPOOL: column max of SrcA scaled by SrcB's exponents (GMPOOL.md, without argmax) ---

// A datum as GMPOOL compares it (GMPOOL.md's Datum): SrcA's exponent plus SrcB's (both biased, so
// 9 bits) and 10 bits of mantissa (BF16 data: the top 7).
struct PoolDatum {
    uint32_t sign = 0, exp = 0, man = 0;
    int32_t comparable() const { return (sign ? -1 : 1) * int32_t((exp << 10) + man); }
};

enum class PoolDst { Bf16, Fp16, Tf32 };

// Dst's datum (`word`: the Dst32b word, or the Dst16b datum in the high half) as a PoolDatum whose
// exponent carries the bias of a 1.0 scale, so it compares with scaled SrcA datums.
PoolDatum pool_read_dst(uint32_t word, PoolDst style) {
    PoolDatum d;
    d.sign = word >> 31;
    if (style == PoolDst::Fp16) {
        const uint16_t h = fp16_from_dst16(uint16_t(word >> 16));
        d.exp = ((h >> 10) & 0x1fu) + 15;
        d.man = h & 0x3ffu;
    } else if (style == PoolDst::Bf16) {
        const uint16_t b = bf16_from_dst16(uint16_t(word >> 16));
        d.exp = ((b >> 7) & 0xffu) + 127;
        d.man = (b & 0x7fu) << 3;
    } else {
        const uint32_t f = fp32_from_dst32(word);
        d.exp = ((f >> 23) & 0xffu) + 127;
        d.man = (f >> 13) & 0x3ffu;
    }
    return d;
}

// The inverse, dropping the scale's bias (an exponent that wraps is written wrapped, as on the device).
uint32_t pool_write_dst(const PoolDatum& d, PoolDst style) {
    if (style == PoolDst::Fp16) {
        if ((d.exp & 0x3fu) == 0) return 0;
        return uint32_t(dst16_from_fp16(uint16_t((d.sign << 15) | (((d.exp - 15) & 0x1fu) << 10) | d.man))) << 16;
    }
    if (d.exp == 0) return 0;
    const uint32_t man = style == PoolDst::Bf16 ? d.man & 0x3f8u : d.man;
    const uint32_t f = (d.sign << 31) | (((d.exp - 127) & 0xffu) << 23) | (man << 13);
    if (style == PoolDst::Tf32) return dst32_from_fp32(f);
    return uint32_t(dst16_from_bf16(uint16_t(f >> 16))) << 16;
}

PoolDatum pool_read_src(uint32_t a, uint32_t b, Style style) {
    PoolDatum r;
    if (src_exp(b) == 0) return PoolDatum{1, 0x1ffu, 0x3ffu};  // a zero scale: minus infinity
    if (src_exp(a) == 0) return r;                                // denormals flush to zero
    r.sign = src_sign(a);
    r.man = src_man(a);
    if (style == Style::Fp16) {
        r.exp = (src_exp(a) & 0x1fu) + (src_exp(b) & 0x1fu);
    } else {
        r.exp = src_exp(a) + src_exp(b);
        if (style == Style::Bf16) r.man &= 0x3f8u;
    }
    return r;
}

void gmpool(Machine& m, int thread, uint32_t word) {
    const uint32_t flips = field(word, 22, 2), addr_mod = field(word, 15, kEnc.pool_addr_mode_bits);
    if (field(word, 14, 1)) m.fail(thread, word, "GMPOOL's argmax (max_pool_index_en) is not modelled");
    if (field(word, 19, 3) != 1) m.fail(thread, word, "GMPOOL is modelled for the 16x16 form (instr_mod19 = 1) only");
    wait_src(m, true, true, "GMPOOL");
    const Alu a = alu_config(m, thread, word);
    if (a.style == Style::Int8) m.fail(thread, word, "GMPOOL on integer data is not modelled");
    const Rwc& rwc = rwc_of(m, thread);
    const PoolDst style = a.style == Style::Fp16 ? (a.dst32 ? PoolDst::Tf32 : PoolDst::Fp16) : (a.dst32 ? PoolDst::Tf32 : PoolDst::Bf16);
    const uint32_t a_row = rwc.srca & 0x30u, b_row = rwc.srcb & 0x38u;
    const uint32_t d_row = dst_row(m, thread, word, field(word, 0, 14)) & 0x3fcu;
    const SrcBank& A = m.s.srca[m.s.srca_math_bank];
    const SrcBank& B = m.s.srcb[m.s.srcb_math_bank];
    m.s.fpu.last_srca_row = a_row;
    for (uint32_t j = 0; j < 16; ++j) {
        uint32_t dv;
        if (is_undefined(m, d_row, a.dst32)) dv = a.dst32 ? 0xffffffffu : 0xffff0000u;  // reads as -inf
        else dv = a.dst32 ? m.dst32_read(d_row, j) : uint32_t(m.s.dst[d_row][j]) << 16;
        PoolDatum best = pool_read_dst(dv, style);
        for (uint32_t n = 0; n < 16; ++n) {
            const uint32_t i = n < 8 ? (n ^ 4u) : n;  // the hardware's visiting order
            const PoolDatum x = pool_read_src(A.row[a_row + i][j], B.row[b_row][i], a.style);
            if (x.comparable() >= best.comparable()) best = x;
        }
        const uint32_t out = pool_write_dst(best, style);
        for (uint32_t r = 0; r < 4; ++r) {
            if (a.dst32) m.dst32_write(d_row + r, j, r ? 0u : out);
            else m.s.dst[d_row + r][j] = r ? uint16_t(0) : uint16_t(out >> 16);
        }
    }
    for (uint32_t r = 0; r < 4; ++r) mark_defined(m, d_row + r, a.dst32);
    release_src(m, thread, flips, "GMPOOL");
    apply_addr_mod(m, thread, word, addr_mod);
}

// --- moves between Src and Dst ---

// RemoveLowMantissa / RemoveHighExponent (MOVA2D.md): a Src datum as a Dst16 datum (BF16: the top
// 7 mantissa bits; FP16: the low 5 exponent bits).
uint16_t src_to_dst16(uint32_t v, bool exp8) {
    return exp8 ? dst16_from_bf16(uint16_t(src_to_fp32(v) >> 16)) : dst16_from_fp16(src_to_fp16(v));
}

// MOVA2D / MOVDBGA2D / MOVB2D's copy of one Src row into one Dst row.
void move_row_to_dst(Machine& m, int thread, uint32_t word, const uint32_t* src, bool bcast_col0, uint32_t d_row) {
    const Alu a = alu_config(m, thread, word);
    const bool exp8 = move_style(m, thread, word, a) != Style::Fp16;
    const bool flush = !TC_CFG_FIELD(m, thread, ALU_ACC_CTRL_Zero_Flag_disabled_src);
    const bool lo = field(word, 23, 1);
    for (uint32_t c = 0; c < 16; ++c) {
        uint32_t v = src[bcast_col0 ? 0 : c];
        if (flush && src_exp(v) == 0) v = 0;
        const uint16_t v16 = src_to_dst16(v, exp8);
        if (a.srca_tf32) {  // TF32 into Dst32b, its 10 mantissa bits kept
            m.dst32_write(d_row, c, dst32_from_fp32(src_to_fp32(v)) | (lo ? v16 : 0u));
        } else if (lo) {
            m.dst32_write(d_row, c, (m.dst32_read(d_row, c) & 0xffff0000u) | v16);
        } else {
            m.s.dst[d_row & 0x3ffu][c] = v16;
        }
    }
    mark_defined(m, d_row, a.srca_tf32 || lo);
}

void mova2d_common(Machine& m, int thread, uint32_t word) {
    const Rwc& rwc = rwc_of(m, thread);
    const bool eight = field(word, 12, 3) & 2u;
    uint32_t s_row = field(word, 17, 6) + rwc.srca, d_row = dst_row(m, thread, word, field(word, 0, 12));
    s_row &= eight ? 0x38u : 0x3fu;
    d_row &= eight ? 0x3f8u : 0x3ffu;
    m.s.fpu.last_srca_row = s_row;
    const SrcBank& A = m.s.srca[m.s.srca_math_bank];
    for (uint32_t n = 0; n < (eight ? 8u : 1u); ++n) move_row_to_dst(m, thread, word, A.row[s_row + n], false, d_row + n);
    apply_addr_mod(m, thread, word, math_addr_mode(word));
}

void mova2d(Machine& m, int thread, uint32_t word) {
    wait_src(m, true, false, "MOVA2D");
    mova2d_common(m, thread, word);
}
void movdbga2d(Machine& m, int thread, uint32_t word) { mova2d_common(m, thread, word); }

void movb2d(Machine& m, int thread, uint32_t word) {
    wait_src(m, false, true, "MOVB2D");
    const Rwc& rwc = rwc_of(m, thread);
    const uint32_t mod = field(word, kEnc.movb2d_mod_lo, 3);
    const bool bcast_col0 = mod & 1u, bcast_row = mod & 2u, four = mod & 4u;
    uint32_t s_row = field(word, 17, 6) + rwc.srcb, d_row = dst_row(m, thread, word, field(word, 0, kEnc.movb2d_mod_lo));
    const uint32_t rows = bcast_row ? 8u : four ? 4u : 1u;
    s_row &= (four && !bcast_row) ? 0x3cu : 0x3fu;
    d_row &= 0x400u - rows;
    const SrcBank& B = m.s.srcb[m.s.srcb_math_bank];
    for (uint32_t n = 0; n < rows; ++n) move_row_to_dst(m, thread, word, B.row[s_row + (bcast_row ? 0 : n)], bcast_col0, d_row + n);
    apply_addr_mod(m, thread, word, math_addr_mode(word));
}

// ShuffleBF16 / ShuffleFP16 / ShuffleTF32 (MOVD2A.md): a Dst datum as a Src datum.
uint32_t dst_to_src(Machine& m, int thread, uint32_t word, const Alu& a, bool lo, uint32_t d_row, uint32_t c) {
    const Style style = move_style(m, thread, word, a);
    auto shuffle16 = [style](uint32_t x) {  // a Dst16 datum as a Src datum
        return style == Style::Fp16 ? src_from_fp16(fp16_from_dst16(uint16_t(x))) : src_from_fp32(uint32_t(bf16_from_dst16(uint16_t(x))) << 16);
    };
    if (!a.dst32) {
        if (lo) m.fail(thread, word, "UseDst32bLo with a 16-bit Dst is undefined behaviour");
        if (style == Style::Tf32) m.fail(thread, word, "TF32 from a 16-bit Dst is undefined behaviour");
        return shuffle16(m.s.dst[d_row & 0x3ffu][c]);
    }
    uint32_t v = m.dst32_read(d_row, c);
    if (lo) v = (v << 16) | (v & 0xffffu);
    if (style != Style::Tf32) return shuffle16(v >> 16);
    if (lo) return v & 0x1fffu;
    return src_from_fp32(fp32_from_dst32(v));  // truncated to TF32
}

void move_dst_to_src(Machine& m, int thread, uint32_t word, bool to_a) {
    const Alu a = alu_config(m, thread, word);
    const Rwc& rwc = rwc_of(m, thread);
    const bool four = field(word, 12, 3) & 2u, lo = field(word, 23, 1);
    uint32_t s_row = field(word, 17, 6) + (to_a ? rwc.srca : rwc.srcb), d_row = dst_row(m, thread, word, field(word, 0, 12));
    s_row &= four ? 0x3cu : 0x3fu;
    d_row &= four ? 0x3fcu : 0x3ffu;
    SrcBank& S = to_a ? m.s.srca[m.s.srca_math_bank] : m.s.srcb[m.s.srcb_math_bank];
    for (uint32_t n = 0; n < (four ? 4u : 1u); ++n)
        for (uint32_t c = 0; c < 16; ++c) S.row[s_row + n][c] = dst_to_src(m, thread, word, a, lo, d_row + n, c);
    if (to_a) m.s.fpu.last_srca_row = s_row;
    apply_addr_mod(m, thread, word, math_addr_mode(word));
}

void movd2a(Machine& m, int thread, uint32_t word) { move_dst_to_src(m, thread, word, true); }
void movd2b(Machine& m, int thread, uint32_t word) { move_dst_to_src(m, thread, word, false); }

// MOVB2A (no ISA page; modelled on its sibling MOVD2B's page and on ttsim): one row, or an aligned
// block of four, of SrcB into SrcA, denormals flushed unless Zero_Flag_disabled_src. The modifier
// is Move4Rows << 1 as in MOVD2A/MOVD2B (the LLK's MOV_1_ROW = 0, MOV_4_ROWS = 2). Its field is
// two bits at 12 on Blackhole, where AddrMode starts at bit 14, and three on Wormhole (the LLK's
// encoder); the other bits have no documented meaning (ttsim refuses them too), so they fail.
void movb2a(Machine& m, int thread, uint32_t word) {
    wait_src(m, false, true, "MOVB2A");
    const Rwc& rwc = rwc_of(m, thread);
    const uint32_t mod = field(word, 12, kArch == Arch::Blackhole ? 2 : 3);
    if (mod & ~2u)
        m.fail(thread, word, "MOVB2A instr_mod " + std::to_string(mod) + " has no documented meaning (0: one row, 2: four rows)");
    const bool four = mod == 2u;
    const uint32_t row_mask = four ? 0x3cu : 0x3fu;
    const uint32_t a_row = (field(word, 17, 6) + rwc.srca) & row_mask, b_row = (field(word, 0, 6) + rwc.srcb) & row_mask;
    const bool flush = !TC_CFG_FIELD(m, thread, ALU_ACC_CTRL_Zero_Flag_disabled_src);
    SrcBank& A = m.s.srca[m.s.srca_math_bank];
    const SrcBank& B = m.s.srcb[m.s.srcb_math_bank];
    for (uint32_t n = 0; n < (four ? 4u : 1u); ++n)
        for (uint32_t c = 0; c < 16; ++c) {
            const uint32_t v = B.row[b_row + n][c];
            A.row[a_row + n][c] = (flush && src_exp(v) == 0) ? 0u : v;
        }
    m.s.fpu.last_srca_row = a_row;
    apply_addr_mod(m, thread, word, math_addr_mode(word));
}

// --- clearing ---

void clear_dst_rows(Machine& m, uint32_t first, uint32_t count) {
    for (uint32_t r = first; r < first + count; ++r) {
        for (uint32_t c = 0; c < kDstCols; ++c) m.s.dst[r][c] = 0;
        m.s.fpu.dst_undefined[r] = true;
    }
}

// ZEROACC's fields. Wormhole: clear_mode (3 bits at 19; 4 = 32-bit rows) and a 15-bit row
// immediate. Blackhole: clear_mode 2 bits at 19, use_32_bit_mode at 18, clear_zero_flags at 17 and
// a 10-bit `where`; a 16-row block is relative to the Dst half the MATH thread's offset is in unless
// DEST_ACCESS_CFG_zeroacc_absolute_tile_mode is set (ttsim's model).
struct ZeroAcc {
    uint32_t clear_mode = 0, imm = 0;
    bool zero_flags_only = false;  // Blackhole: clear the Dst zero flags, not the data
};

ZeroAcc decode_zeroacc(Machine& m, int thread, uint32_t word) {
    ZeroAcc z;
    if (kArch == Arch::WormholeB0) {
        z.clear_mode = field(word, 19, 5);
        if (z.clear_mode & 0x18u) m.fail(thread, word, "ZEROACC with the revert bit is undefined behaviour");
        z.imm = field(word, 0, 15);
        return z;
    }
    if (field(word, 21, 3)) m.fail(thread, word, "ZEROACC with bits 21..23 set is undefined on Blackhole");
    z.clear_mode = field(word, 19, 2) | (field(word, 18, 1) << 2);
    z.imm = field(word, 0, 10);
    z.zero_flags_only = field(word, 17, 1);
    if (z.zero_flags_only && z.clear_mode != 5)
        m.fail(thread, word, "ZEROACC clear_zero_flags is defined for 16 rows of 32-bit Dst only (clear_mode 1, use_32_bit_mode)");
    if ((z.clear_mode & 3u) == 1u) {
        const uint32_t offset = dst_row(m, thread, word, 0);
#if defined(DEST_ACCESS_CFG_zeroacc_absolute_tile_mode_ADDR32)
        const bool absolute = TC_CFG_FIELD(m, thread, DEST_ACCESS_CFG_zeroacc_absolute_tile_mode) != 0;
#else
        const bool absolute = true;
#endif
        if (!absolute && (offset & ((z.clear_mode & 4u) ? 768u : 512u))) z.imm += (z.clear_mode & 4u) ? 16u : 32u;
    }
    return z;
}

void zeroacc(Machine& m, int thread, uint32_t word) {
    const ZeroAcc z = decode_zeroacc(m, thread, word);
    const uint32_t clear_mode = z.clear_mode, mode = clear_mode & 3u, imm = z.imm;
    if (z.zero_flags_only) {  // the data stays; the zero flags are not modelled (nothing reads them)
        apply_addr_mod(m, thread, word, math_addr_mode(word));
        return;
    }
    if (mode == 0) {
        const uint32_t row = dst_row(m, thread, word, imm) & 0x3ffu;
        const bool dst32 = TC_CFG_FIELD(m, thread, ALU_ACC_CTRL_Fp32_enabled) || TC_CFG_FIELD(m, thread, ALU_ACC_CTRL_INT8_math_enabled);
        if (dst32) {
            const uint32_t r = dst32_physical_row(row);
            clear_dst_rows(m, r, 1);
            clear_dst_rows(m, r + 8, 1);
        } else {
            clear_dst_rows(m, row, 1);
        }
    } else if (mode == 1) {
        const uint32_t block = imm & 0xffu;
        if (clear_mode & 4u) {  // 16 rows of Dst32b: two aligned 16-row blocks of DstBits
            if (block < 32) clear_dst_rows(m, block * 32, 32);
        } else if (block < 64) {
            clear_dst_rows(m, block * 16, 16);
        }
    } else if (mode == 2) {
        clear_dst_rows(m, (imm & 1u) ? 512 : 0, 512);
    } else {
        clear_dst_rows(m, 0, 1024);
    }
    if (mode <= 1) apply_addr_mod(m, thread, word, math_addr_mode(word));
}

void zerosrc(Machine& m, int thread, uint32_t word) {
    (void)thread;
    const bool neg_inf_a = field(word, 4, 1), matrix_bank = field(word, 3, 1), both = field(word, 2, 1);
    const uint32_t which = field(word, 0, 2);
    MachineState& s = m.s;
    auto clear = [&](SrcBank* banks, int math_bank, int unpack_bank, uint32_t value) {
        for (int b = 0; b < kSrcBanks; ++b) {
            if (!(both || b == (matrix_bank ? math_bank : unpack_bank))) continue;
            for (auto& row : banks[b].row)
                for (auto& v : row) v = value;
        }
    };
    if (which & 1u) clear(s.srca, s.srca_math_bank, s.srca_unpack_bank, neg_inf_a ? 0x7ffffu : 0u);
    if (which & 2u) clear(s.srcb, s.srcb_math_bank, s.srcb_unpack_bank, 0u);
}

// --- SrcB transpose and shifts ---

void trnspsrcb(Machine& m, int, uint32_t) {
    wait_src(m, false, true, "TRNSPSRCB");
    SrcBank& B = m.s.srcb[m.s.srcb_math_bank];
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t j = 0; j < i; ++j) std::swap(B.row[16 + i][j], B.row[16 + j][i]);
}

void shiftxa(Machine& m, int thread, uint32_t word) {
    const uint32_t direction = field(word, 0, 2);
    if (direction < 2 || field(word, 2, 22) != 0) m.fail(thread, word, "SHIFTXA is modelled for directions 2 (right) and 3 (left) only");
    wait_src(m, true, false, "SHIFTXA");
    SrcBank& A = m.s.srca[m.s.srca_math_bank];
    const uint32_t in_row = m.s.fpu.last_srca_row & 0x30u;
    for (uint32_t i = 0; i < 16; ++i) {
        uint32_t row[16];
        for (uint32_t c = 0; c < 16; ++c) row[c] = A.row[in_row + i][c];
        for (uint32_t c = 0; c < 16; ++c) {
            if (direction == 2) A.row[i][c] = c == 0 ? 0u : row[c - 1];
            else A.row[i][c] = c == 15 ? 0u : row[c + 1];
        }
    }
}

void shiftxb(Machine& m, int thread, uint32_t word) {
    wait_src(m, false, true, "SHIFTXB");
    const uint32_t row = (field(word, 0, 10) + rwc_of(m, thread).srcb) & 0x3fu;
    uint32_t* r = m.s.srcb[m.s.srcb_math_bank].row[row];
    const uint32_t column0 = r[0];
    for (uint32_t c = 0; c < 14; ++c) r[c] = r[c + 1];  // as SHIFTXB.md states it: column 14 keeps its value
    r[15] = field(word, 10, 1) ? 0u : column0;
    apply_addr_mod(m, thread, word, math_addr_mode(word));
}

// --- RWCs and bank hand-over ---

void setrwc(Machine& m, int thread, uint32_t word) {
    Rwc& r = rwc_of(m, thread);
    const uint32_t cr = field(word, 18, 4), mask = field(word, 0, 6);
    uint32_t d = field(word, 14, 4), b = field(word, 10, 4), a = field(word, 6, 4);
    if (mask & 1u) {
        if (cr & 1u) a += r.srca_cr;
        r.srca = r.srca_cr = a & 0x3fu;
    }
    if (mask & 2u) {
        if (cr & 2u) b += r.srcb_cr;
        r.srcb = r.srcb_cr = b & 0x3fu;
    }
    if ((mask & 4u) || (cr & 8u)) {
        if (cr & 8u) d += r.dst;
        else if (cr & 4u) d += r.dst_cr;
        r.dst = r.dst_cr = d & 0x3ffu;
    }
    if (mask & 8u) r.fidelity = 0;
    release_src(m, thread, field(word, 22, 2), "SETRWC");
}

void incrwc(Machine& m, int thread, uint32_t word) {
    Rwc& r = rwc_of(m, thread);
    const uint32_t cr = field(word, 18, 3);
    const uint32_t d = field(word, 14, 4), b = field(word, 10, 4), a = field(word, 6, 4);
    if (cr & 1u) r.srca = r.srca_cr = (r.srca_cr + a) & 0x3fu;
    else r.srca = (r.srca + a) & 0x3fu;
    if (cr & 2u) r.srcb = r.srcb_cr = (r.srcb_cr + b) & 0x3fu;
    else r.srcb = (r.srcb + b) & 0x3fu;
    if (cr & 4u) r.dst = r.dst_cr = (r.dst_cr + d) & 0x3ffu;
    else r.dst = (r.dst + d) & 0x3ffu;
}

void cleardvalid(Machine& m, int, uint32_t word) {
    MachineState& s = m.s;
    const uint32_t flips = field(word, 22, 2), mode = field(word, 0, 22);
    if (mode & 1u) {  // Reset: every bank back to the unpackers, every side to bank 0
        s.srca_math_bank = s.srcb_math_bank = s.srca_unpack_bank = s.srcb_unpack_bank = 0;
        for (int b = 0; b < kSrcBanks; ++b) s.srca[b].dvalid = s.srcb[b].dvalid = false;
        return;
    }
    const bool keep_bank = mode & 2u;
    wait_src(m, flips & 1u, flips & 2u, "CLEARDVALID");  // as release_src: the bank must have been handed over
    if (flips & 1u) {
        s.srca[s.srca_math_bank].dvalid = false;
        if (!keep_bank) s.srca_math_bank ^= 1;
    }
    if (flips & 2u) {
        s.srcb[s.srcb_math_bank].dvalid = false;
        if (!keep_bank) s.srcb_math_bank ^= 1;
    }
}

// SETDVALID: hand the unpackers' current banks to the matrix unit (as an unpack with its dvalid
// flag would). The unpackers' per-thread row counters it also resets are the unpack unit's.
void setdvalid(Machine& m, int, uint32_t word) {
    MachineState& s = m.s;
    const uint32_t flips = field(word, 0, 24);
    if (flips & 1u) {
        s.srca[s.srca_unpack_bank].dvalid = true;
        s.srca_unpack_bank ^= 1;
    }
    if (flips & 2u) {
        s.srcb[s.srcb_unpack_bank].dvalid = true;
        s.srcb_unpack_bank ^= 1;
    }
}

// GATESRCRST invalidates an operand cache between SrcB and the multipliers; this model reads
// SrcB directly, so there is nothing to invalidate.
void gatesrcrst(Machine&, int, uint32_t) {}

// ADDR_MOD_SET_Base (Wormhole): AddrMode 0..3 names sets 4..7. Blackhole has no such register: its
// 3-bit AddrMode names all eight sets.
uint32_t addr_mod_set_base(Machine& m, int thread) {
#if defined(ADDR_MOD_SET_Base_ADDR32)
    return TC_THREAD_FIELD(m, thread, ADDR_MOD_SET_Base);
#else
    (void)m, (void)thread;
    return 0;
#endif
}

}  // namespace

void apply_addr_mod(Machine& m, int thread, uint32_t word, uint32_t addr_mod, bool update_fidelity) {
    Rwc& r = rwc_of(m, thread);
    uint32_t index = addr_mod;
    if (r.extra_addr_mod_bit || addr_mod_set_base(m, thread)) index += 4;
    if (index >= 8) m.fail(thread, word, "AddrMode " + std::to_string(addr_mod) + " plus the extra bit names no ADDR_MOD set");
    // The sets' words are evenly spaced (Wormhole: two words per AB set, Blackhole: one).
    constexpr uint32_t kAbStride = ADDR_MOD_AB_SEC1_SrcAIncr_ADDR32 - ADDR_MOD_AB_SEC0_SrcAIncr_ADDR32;
    const uint32_t ab = m.thread_cfg_word(thread, ADDR_MOD_AB_SEC0_SrcAIncr_ADDR32 + kAbStride * index);
    const uint32_t dst = m.thread_cfg_word(thread, ADDR_MOD_DST_SEC0_DestIncr_ADDR32 + index);
    const uint32_t bias = m.thread_cfg_word(thread, ADDR_MOD_BIAS_SEC0_BiasIncr_ADDR32 + index);
#define TC_AM(w, NAME) (((w) & NAME##_MASK) >> NAME##_SHAMT)
    if (TC_AM(ab, ADDR_MOD_AB_SEC0_SrcAClear)) r.srca = r.srca_cr = 0;
    else if (TC_AM(ab, ADDR_MOD_AB_SEC0_SrcACR)) r.srca = r.srca_cr = (r.srca_cr + TC_AM(ab, ADDR_MOD_AB_SEC0_SrcAIncr)) & 0x3fu;
    else r.srca = (r.srca + TC_AM(ab, ADDR_MOD_AB_SEC0_SrcAIncr)) & 0x3fu;
    if (TC_AM(ab, ADDR_MOD_AB_SEC0_SrcBClear)) r.srcb = r.srcb_cr = 0;
    else if (TC_AM(ab, ADDR_MOD_AB_SEC0_SrcBCR)) r.srcb = r.srcb_cr = (r.srcb_cr + TC_AM(ab, ADDR_MOD_AB_SEC0_SrcBIncr)) & 0x3fu;
    else r.srcb = (r.srcb + TC_AM(ab, ADDR_MOD_AB_SEC0_SrcBIncr)) & 0x3fu;
    const uint32_t dinc = TC_AM(dst, ADDR_MOD_DST_SEC0_DestIncr);
    if (TC_AM(dst, ADDR_MOD_DST_SEC0_DestClear)) r.dst = r.dst_cr = 0;
    else if (TC_AM(dst, ADDR_MOD_DST_SEC0_DestCToCR)) r.dst = r.dst_cr = (r.dst + dinc) & 0x3ffu;
    else if (TC_AM(dst, ADDR_MOD_DST_SEC0_DestCR)) r.dst = r.dst_cr = (r.dst_cr + dinc) & 0x3ffu;
    else r.dst = (r.dst + dinc) & 0x3ffu;
    if (update_fidelity) {
        if (TC_AM(dst, ADDR_MOD_DST_SEC0_FidelityClear)) r.fidelity = 0;
        else r.fidelity = (r.fidelity + TC_AM(dst, ADDR_MOD_DST_SEC0_FidelityIncr)) & 3u;
    }
    if (TC_AM(bias, ADDR_MOD_BIAS_SEC0_BiasClear)) r.extra_addr_mod_bit = 0;
    else if (TC_AM(bias, ADDR_MOD_BIAS_SEC0_BiasIncr) & 3u) r.extra_addr_mod_bit ^= 1u;
#undef TC_AM
}

TC_OPCODE(0x28, ELWADD, elwadd);
TC_OPCODE(0x30, ELWSUB, elwsub);
TC_OPCODE(0x27, ELWMUL, elwmul);
TC_OPCODE(0x26, MVMUL, mvmul);
TC_OPCODE(0x34, GAPOOL, gapool);
TC_OPCODE(0x33, GMPOOL, gmpool);
TC_OPCODE(0x29, DOTPV, dotpv);
TC_OPCODE(0x12, MOVA2D, mova2d);
TC_OPCODE(0x09, MOVDBGA2D, movdbga2d);
TC_OPCODE(0x13, MOVB2D, movb2d);
TC_OPCODE(0x08, MOVD2A, movd2a);
TC_OPCODE(0x0a, MOVD2B, movd2b);
TC_OPCODE(0x0b, MOVB2A, movb2a);
TC_OPCODE(0x10, ZEROACC, zeroacc);
TC_OPCODE(0x11, ZEROSRC, zerosrc);
TC_OPCODE(0x16, TRNSPSRCB, trnspsrcb);
TC_OPCODE(0x17, SHIFTXA, shiftxa);
TC_OPCODE(0x18, SHIFTXB, shiftxb);
TC_OPCODE(0x37, SETRWC, setrwc);
TC_OPCODE(0x38, INCRWC, incrwc);
TC_OPCODE(0x36, CLEARDVALID, cleardvalid);
TC_OPCODE(0x57, SETDVALID, setdvalid);
TC_OPCODE(0x35, GATESRCRST, gatesrcrst);

}  // namespace tc_tensix
