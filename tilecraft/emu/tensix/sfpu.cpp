// The Vector Unit's (SFPU's) instructions: words are decoded (per the wheel's ckernel_ops.h
// TT_OP_SFP* layouts) into an SfpuInsn, whose handler applies the lane semantics of sfpu_ops.h to
// MachineState::lreg under lane predication.
//
// Field layouts (bit ranges of the 32-bit word, opcode in [31:24]):
//   most:        Imm12 [23:12]  VC [11:8]  VD [7:4]  Mod1 [3:0]
//   MAD/ADD/MUL: VA [19:16]  VB [15:12]  VC [11:8]  VD [7:4]  Mod1 [3:0]
//   ADDI/MULI/CONFIG: Imm16 [23:8]  VD [7:4]  Mod1 [3:0]
//   LOAD/STORE/LOADMACRO: VD [23:20]  Mod0 [19:16]  AddrMod [15:14]  Imm10 [9:0]
//   LOADI: VD [23:20]  Mod0 [19:16]  Imm16 [15:0];  LUT: VD [23:20]  Mod0 [19:16]
//   STOCHRND: Stochastic [21]  Imm5 [20:16]  VB [15:12]  VC [11:8]  VD [7:4]  Mod1 [3:0]
//
// SFPLOADMACRO (SFPLOADMACRO.md) schedules up to four more instructions on the simple, MAD, round
// and store sub-units. Time here is counted in issued SFPU instructions: a scheduled instruction
// whose countdown has reached zero runs together with the next SFPU instruction, all of that
// step's instructions reading the state from before the step (as the pipelined sub-units do), or
// before the next instruction of another unit (sfpu_drain). The LLK configures instruction-counted
// delays (UnitDelayKind 1), for which this is exact; cycle-counted delays take one cycle per issued
// instruction. Modes the ISA leaves undefined are hard errors naming the instruction.
#include <algorithm>
#include <string>

#include "cfg_defines.h"
#include "fpu.h"
#include "machine.h"
#include "sfpi/sfpi_host.h"  // sfpi_host::mad: the multiply-add of all lanes at once
#include "sfpu_ops.h"

namespace tc_tensix {
namespace {

using namespace sfpu;

enum Opcode : uint32_t {
    kLoad = 0x70, kLoadI = 0x71, kStore = 0x72, kLut = 0x73, kMulI = 0x74, kAddI = 0x75, kDivP2 = 0x76,
    kExExp = 0x77, kExMan = 0x78, kIAdd = 0x79, kShft = 0x7a, kSetCC = 0x7b, kMov = 0x7c, kAbs = 0x7d,
    kAnd = 0x7e, kOr = 0x7f, kNot = 0x80, kLz = 0x81, kSetExp = 0x82, kSetMan = 0x83, kMad = 0x84,
    kAdd = 0x85, kMul = 0x86, kPushC = 0x87, kPopC = 0x88, kSetSgn = 0x89, kEnCC = 0x8a, kCompC = 0x8b,
    kTransp = 0x8c, kXor = 0x8d, kStochRnd = 0x8e, kNop = 0x8f, kCast = 0x90, kConfig = 0x91, kSwap = 0x92,
    kLoadMacro = 0x93, kShft2 = 0x94, kLutFp32 = 0x95,
    kLe = 0x96, kGt = 0x97, kMul24 = 0x98, kARecip = 0x99,  // Blackhole only
};

SfpuInsn decode(uint32_t word) {
    SfpuInsn i;
    i.word = word;
    i.opcode = opcode_of(word);
    switch (i.opcode) {
    case kLoad: case kStore: case kLoadMacro:
        i.vd = field(word, 20, 4), i.mod = field(word, 16, 4), i.addr_mod = field(word, kEnc.sfpu_addr_mode_lo, kEnc.sfpu_addr_mode_bits), i.imm = field(word, 0, 10);
        break;
    case kLoadI: i.vd = field(word, 20, 4), i.mod = field(word, 16, 4), i.imm = field(word, 0, 16); break;
    case kLut: i.vd = field(word, 20, 4), i.mod = field(word, 16, 4); break;
    case kAddI: case kMulI: case kConfig:
        i.imm = field(word, 8, 16), i.vd = field(word, 4, 4), i.mod = field(word, 0, 4);
        i.vb = i.vc = i.vd;  // VC = VD (ADDI/MULI)
        break;
    case kMad: case kAdd: case kMul: case kMul24:
        i.va = field(word, 16, 4), i.vb = field(word, 12, 4), i.vc = field(word, 8, 4), i.vd = field(word, 4, 4);
        i.mod = field(word, 0, 4);
        break;
    case kStochRnd:
        i.stochastic = field(word, 21, 1) != 0, i.imm = field(word, 16, 5), i.vb = field(word, 12, 4);
        i.vc = field(word, 8, 4), i.vd = field(word, 4, 4), i.mod = field(word, 0, 4);
        break;
    default:  // Imm12 / VC / VD / Mod1; VB is VD (SFPSHFT2 takes VB from Imm12's low bits)
        i.imm = field(word, 12, 12), i.vc = field(word, 8, 4), i.vd = field(word, 4, 4), i.mod = field(word, 0, 4);
        i.vb = i.opcode == kShft2 ? (i.imm & 15u) : i.vd;
        break;
    }
    return i;
}

template <class F>
void each_lane(uint32_t lanes, F&& f) {
    for (int lane = 0; lane < kLanes; ++lane)
        if ((lanes >> lane) & 1u) f(lane);
}

uint32_t enabled(const Machine& m) { return m.s.sfpu.enabled(); }

[[noreturn]] void fail(Machine& m, int thread, const SfpuInsn& i, const std::string& what) { m.fail(thread, i.word, what); }

// The PRNG, seeded from the PRNG_SEED config register the thread's instructions see.
Prng& prng(Machine& m, int thread) {
    m.s.sfpu.prng.follow_seed_register(m.cfg_word(thread, PRNG_SEED_Seed_Val_ADDR32));
    return m.s.sfpu.prng;
}

void write_lreg(Machine& m, uint32_t vd, int lane, uint32_t value) {
    if (lreg_writable(vd)) m.s.lreg[vd][lane] = value;
}

// Flag updates of instructions that set LaneFlags in their enabled lanes (EXEXP, LZ, IADD).
void update_flags(Machine& m, uint32_t lanes, bool set, uint32_t cond, bool invert) {
    Predication& cc = m.s.sfpu.cc;
    if (set) cc.set_flags(lanes, cond);
    if (invert) cc.set_flags(lanes, ~cc.flags);
}

// ---- Dst addressing (SFPLOAD / SFPSTORE) --------------------------------------------------------

// MOD0_FMT_SRCB: FP32 when the SFPU works in fp32, else BF16 for SrcB formats with an 8-bit
// exponent (and the integer formats), FP16 otherwise.
uint32_t resolve_format(Machine& m, int thread, uint32_t mod0) {
    if (mod0 != kFmtSrcB) return mod0;
    if (m.cfg_field(thread, ALU_ACC_CTRL_SFPU_Fp32_enabled_ADDR32, ALU_ACC_CTRL_SFPU_Fp32_enabled_SHAMT,
                    ALU_ACC_CTRL_SFPU_Fp32_enabled_MASK))
        return kFmtFp32;
    const bool override = m.cfg_field(thread, ALU_FORMAT_SPEC_REG_SrcB_override_ADDR32, ALU_FORMAT_SPEC_REG_SrcB_override_SHAMT,
                                      ALU_FORMAT_SPEC_REG_SrcB_override_MASK) != 0;
    const uint32_t fmt = override ? m.cfg_field(thread, ALU_FORMAT_SPEC_REG_SrcB_val_ADDR32, ALU_FORMAT_SPEC_REG_SrcB_val_SHAMT,
                                                ALU_FORMAT_SPEC_REG_SrcB_val_MASK)
                                  : m.cfg_field(thread, ALU_FORMAT_SPEC_REG1_SrcB_ADDR32, ALU_FORMAT_SPEC_REG1_SrcB_SHAMT,
                                                ALU_FORMAT_SPEC_REG1_SrcB_MASK);
    switch (fmt) {
    case 0: case 4: case 5: case 6: case 7: case 15: case 8: case 9:  // fp32 tf32 bf16 bfp8/4/2_b int32 int16
        return kFmtBf16;
    default:
        return kFmtFp16;
    }
}

// The Dst address an SFPLOAD/SFPSTORE starts at: Imm10 + the thread's Dst offset + RWC Dst + the
// Dst base; INT32_ALL adds only the low two bits of RWC + base.
uint32_t dst_address(Machine& m, int thread, uint32_t imm10, uint32_t mod0) {
    const uint32_t offset = (m.thread_cfg_word(thread, DEST_TARGET_REG_CFG_MATH_Offset_ADDR32) & DEST_TARGET_REG_CFG_MATH_Offset_MASK) >>
                            DEST_TARGET_REG_CFG_MATH_Offset_SHAMT;
    const uint32_t base = m.cfg_field(thread, DEST_REGW_BASE_Base_ADDR32, DEST_REGW_BASE_Base_SHAMT, DEST_REGW_BASE_Base_MASK);
    uint32_t moving = m.s.rwc[thread].dst + base;
    if (mod0 == kFmtInt32All) moving &= 3u;
    return (imm10 + offset + moving) & 0x3ffu;
}

// The Dst row and column a lane touches at `addr`: aligned group of four rows, even or odd columns.
struct DstPos {
    uint32_t row, col;
};
DstPos dst_pos(uint32_t addr, int lane, bool col_exchange) {
    uint32_t col = uint32_t(lane & 7) * 2u;
    if ((addr & 2u) || col_exchange) col += 1;
    return DstPos{(addr & ~3u) + uint32_t(lane / 8), col};
}

// SFPLOAD's data movement at Dst address `addr` (also the load part of SFPLOADMACRO).
void load_lanes(Machine& m, uint32_t vd, uint32_t mod0, uint32_t addr) {
    if (vd >= 8) return;
    const uint32_t lanes = mod0 == kFmtInt32All ? kAllLanes : enabled(m);
    each_lane(lanes, [&](int lane) {
        const uint32_t cfg = m.s.sfpu.lane_config[lane];
        if (cfg & kCfgBlockDestRead) return;
        const DstPos p = dst_pos(addr, lane, m.s.sfpu.lane_config[lane & 7] & kCfgDestReadColExchange);
        const uint32_t v = load_reads_dst32(mod0) ? load_from_dst32(mod0, m.dst32_read(p.row, p.col))
                                                  : load_from_dst16(mod0, m.s.dst[p.row][p.col], m.s.lreg[vd][lane], cfg & kCfgFp16aInf);
        m.s.lreg[vd][lane] = v;
        if (vd < 4 && (cfg & kCfgEnableDestIndex) && (cfg & kCfgCaptureDefaultDestIndex)) m.s.lreg[vd + 4][lane] = (p.row << 4) | p.col;
    });
}

// Blackhole moves MOD0_FMT_SM32 data as the raw 32 bits (as INT32); Wormhole converts sign-magnitude
// to and from two's complement (ttsim's SFPLOAD/SFPSTORE).
uint32_t arch_format(uint32_t mod0) { return (kArch == Arch::Blackhole && mod0 == kFmtInt32Sm) ? uint32_t(kFmtInt32) : mod0; }

void sfpload(Machine& m, int thread, const SfpuInsn& i) {
    const uint32_t mod0 = arch_format(resolve_format(m, thread, i.mod));
    load_lanes(m, i.vd, mod0, dst_address(m, thread, i.imm, mod0));
    apply_addr_mod(m, thread, i.word, i.addr_mod, false);  // ApplyPartialAddrMod
}

void sfpstore(Machine& m, int thread, const SfpuInsn& i) {
    const uint32_t mod0 = arch_format(resolve_format(m, thread, i.mod));
    const uint32_t addr = i.scheduled ? i.dst_addr : dst_address(m, thread, i.imm, mod0);
    const uint32_t lanes = mod0 == kFmtInt32All ? kAllLanes : enabled(m);
    each_lane(lanes, [&](int lane) {
        if (m.s.sfpu.lane_config[lane] & kCfgBlockDestWrite) return;
        const DstPos p = dst_pos(addr, lane, m.s.sfpu.lane_config[lane & 7] & kCfgDestWriteColExchange);
        const uint32_t v = m.s.lreg[i.vd][lane];
        if (store_writes_dst32(mod0)) {
            m.dst32_write(p.row, p.col, store_to_dst32(mod0, v));
        } else {
            m.s.dst[p.row][p.col] = uint16_t(store_to_dst16(mod0, v));
        }
    });
    if (!i.scheduled) apply_addr_mod(m, thread, i.word, i.addr_mod, false);  // ApplyPartialAddrMod
}

void sfploadi(Machine& m, int thread, const SfpuInsn& i) {
    if (i.vd >= 8) return;  // LReg[8..15] are not writable this way
    each_lane(enabled(m), [&](int lane) {
        uint32_t out;
        if (!loadi_value(i.mod, i.imm, m.s.lreg[i.vd][lane], out))
            fail(m, thread, i, "SFPLOADI Mod0=" + std::to_string(i.mod) + " is undefined (use 0, 1, 2, 4, 8 or 10)");
        m.s.lreg[i.vd][lane] = out;
    });
}

// ---- MAD sub-unit -------------------------------------------------------------------------------

constexpr uint32_t kIndirectVa = 4, kIndirectVd = 8;

// The destination of MAD-family instructions, optionally taken from LReg[7]'s low bits per lane
// (never for VD 16).
uint32_t dest_of(const Machine& m, const SfpuInsn& i, uint32_t indirect_bit, int lane) {
    return ((i.mod & indirect_bit) && i.vd != 16) ? (m.s.lreg[7][lane] & 15u) : i.vd;
}

// Every lane's result is computed first, all 32 at once (sfpi_host::mad, the vectorised form of
// sfpu::mad): a lane reads and writes only its own lane of any LReg, so this is the per-lane order.
void sfpmad(Machine& m, int, const SfpuInsn& i) {  // also SFPADD and SFPMUL: VA*VB + VC
    // Blackhole's Mod1 bits 0 and 1 negate VA and VC (ttsim; reserved on Wormhole).
    const uint32_t neg_a = kArch == Arch::Blackhole ? (i.mod & 1u) << 31 : 0u;
    const uint32_t neg_c = kArch == Arch::Blackhole ? (i.mod & 2u) << 30 : 0u;
    sfpi_host::Vec a, b, c;
    for (int lane = 0; lane < kLanes; ++lane) {
        a[lane] = m.s.lreg[(i.mod & kIndirectVa) ? (m.s.lreg[7][lane] & 15u) : i.va][lane] ^ neg_a;
        b[lane] = m.s.lreg[i.vb][lane];
        c[lane] = m.s.lreg[i.vc][lane] ^ neg_c;
    }
    const sfpi_host::Vec d = sfpi_host::mad(a, b, c);
    each_lane(enabled(m), [&](int lane) { write_lreg(m, dest_of(m, i, kIndirectVd, lane), lane, d[lane]); });
}

void sfpaddi(Machine& m, int, const SfpuInsn& i) {
    const uint32_t imm = bf16_to_fp32(i.imm);
    each_lane(enabled(m), [&](int lane) { write_lreg(m, dest_of(m, i, kIndirectVd, lane), lane, mad(imm, kFp32One, m.s.lreg[i.vc][lane])); });
}

void sfpmuli(Machine& m, int, const SfpuInsn& i) {
    const uint32_t imm = bf16_to_fp32(i.imm);
    each_lane(enabled(m), [&](int lane) { write_lreg(m, dest_of(m, i, kIndirectVd, lane), lane, mad(imm, m.s.lreg[i.vc][lane], 0u)); });
}

void sfplut(Machine& m, int, const SfpuInsn& i) {
    each_lane(enabled(m), [&](int lane) {
        const uint32_t l012[3] = {m.s.lreg[0][lane], m.s.lreg[1][lane], m.s.lreg[2][lane]};
        write_lreg(m, dest_of(m, i, kLutIndirectVd, lane), lane, lut(l012, m.s.lreg[3][lane], i.mod));
    });
}

void sfplutfp32(Machine& m, int, const SfpuInsn& i) {
    each_lane(enabled(m), [&](int lane) {
        uint32_t l[7];
        for (int r = 0; r < 7; ++r) l[r] = m.s.lreg[r][lane];
        write_lreg(m, dest_of(m, i, kIndirectVd, lane), lane, lutfp32(l, i.mod));
    });
}

// ---- simple sub-unit ----------------------------------------------------------------------------

// Lanewise `VD = op(LReg[VC], LReg[VB])` for the instructions guarded by "VD < 8 || VD == 16".
template <class Op>
void unary(Machine& m, const SfpuInsn& i, Op&& op) {
    if (!lreg_writable(i.vd)) return;
    each_lane(enabled(m), [&](int lane) { m.s.lreg[i.vd][lane] = op(m.s.lreg[i.vc][lane], m.s.lreg[i.vb][lane]); });
}

// `unary` for the instructions that may also set LaneFlags (in their enabled lanes, VD < 8 only)
// from `flag(c, result)`, then optionally invert them.
template <class Op, class Flag>
void unary_setting_flags(Machine& m, const SfpuInsn& i, bool set, bool invert, Op&& op, Flag&& flag) {
    if (!lreg_writable(i.vd)) return;
    const uint32_t lanes = enabled(m);
    uint32_t cond = 0;
    each_lane(lanes, [&](int lane) {
        const uint32_t c = m.s.lreg[i.vc][lane];
        const uint32_t v = op(c, m.s.lreg[i.vb][lane]);
        m.s.lreg[i.vd][lane] = v;
        if (flag(c, v)) cond |= 1u << lane;
    });
    if (i.vd < 8) update_flags(m, lanes, set, cond, invert);
}

bool negative(uint32_t, uint32_t v) { return (v & kSignBit) != 0; }

void sfpexexp(Machine& m, int, const SfpuInsn& i) {
    const bool debias = !(i.mod & 1u);
    unary_setting_flags(m, i, i.mod & 2u, i.mod & 8u, [debias](uint32_t c, uint32_t) { return exexp(c, debias); }, negative);
}
void sfplz(Machine& m, int, const SfpuInsn& i) {
    const bool ignore_sign = i.mod & 4u;
    const uint32_t considered = ignore_sign ? ~kSignBit : ~0u;
    unary_setting_flags(m, i, i.mod & 2u, i.mod & 8u, [ignore_sign](uint32_t c, uint32_t) { return lz(c, ignore_sign); },
                        [considered](uint32_t c, uint32_t) { return (c & considered) != 0; });
}
void sfpiadd(Machine& m, int, const SfpuInsn& i) {  // Mod1: 1 immediate, 2 subtract, 4 keep flags, 8 invert
    const uint32_t imm = sign_extend(i.imm, 12), mod = i.mod;
    unary_setting_flags(
        m, i, !(mod & 4u), mod & 8u,
        [imm, mod](uint32_t c, uint32_t b) { return (mod & 1u) ? c + imm : (mod & 2u) ? c - b : c + b; }, negative);
}
void sfpexman(Machine& m, int, const SfpuInsn& i) {
    const bool pad9 = i.mod & 1u;
    unary(m, i, [pad9](uint32_t c, uint32_t) { return exman(c, pad9); });
}
void sfpsetexp(Machine& m, int, const SfpuInsn& i) {
    const uint32_t mod = i.mod, imm = i.imm;
    unary(m, i, [mod, imm](uint32_t c, uint32_t b) { return setexp(c, ((mod & 1u) ? imm : (mod & 2u) ? exp_field(b) : b) & 0xffu); });
}
void sfpsetman(Machine& m, int, const SfpuInsn& i) {
    const uint32_t mod = i.mod, imm = i.imm;
    unary(m, i, [mod, imm](uint32_t c, uint32_t b) { return setman(c, (mod & 1u) ? (imm << 11) : b); });
}
void sfpsetsgn(Machine& m, int, const SfpuInsn& i) {
    const uint32_t mod = i.mod, imm = i.imm;
    unary(m, i, [mod, imm](uint32_t c, uint32_t b) { return setsgn(c, (mod & 1u) ? imm : (b >> 31)); });
}
void sfpabs(Machine& m, int, const SfpuInsn& i) {
    const bool as_float = i.mod & 1u;
    unary(m, i, [as_float](uint32_t c, uint32_t) { return as_float ? abs_float(c) : abs_int(c); });
}
// SFPAND / SFPOR: VD = VB op VC with VB = VD; Blackhole's Mod1 1 takes VB from Imm12 (an LReg index).
SfpuInsn bitwise_operands(Machine& m, int thread, const SfpuInsn& i) {
    SfpuInsn r = i;
    if (i.mod == 0 && i.imm == 0) return r;
    if (kArch != Arch::Blackhole || i.mod != 1 || i.imm > 15)
        fail(m, thread, i, "SFPAND/SFPOR with Mod1=" + std::to_string(i.mod) + " Imm12=" + std::to_string(i.imm) + " is not modelled on " + arch_name(kArch));
    r.vb = i.imm;
    return r;
}
void sfpand(Machine& m, int thread, const SfpuInsn& i) {
    unary(m, bitwise_operands(m, thread, i), [](uint32_t c, uint32_t b) { return b & c; });
}
void sfpor(Machine& m, int thread, const SfpuInsn& i) {
    unary(m, bitwise_operands(m, thread, i), [](uint32_t c, uint32_t b) { return b | c; });
}
void sfpxor(Machine& m, int, const SfpuInsn& i) {
    unary(m, i, [](uint32_t c, uint32_t b) { return b ^ c; });
}
void sfpnot(Machine& m, int, const SfpuInsn& i) {
    unary(m, i, [](uint32_t c, uint32_t) { return ~c; });
}
void sfpdivp2(Machine& m, int, const SfpuInsn& i) {
    const uint32_t imm8 = i.imm & 0xffu;
    const bool add_to_exp = i.mod & 1u;
    unary(m, i, [imm8, add_to_exp](uint32_t c, uint32_t) { return divp2(c, imm8, add_to_exp); });
}
// SFPSHFT: Mod1 bit 0 shifts by Imm12 instead of LReg[VC]. Blackhole adds bit 1 (a right shift is
// arithmetic) and bit 2 (shift LReg[VC] instead of LReg[VD]); ttsim's model.
void sfpshft(Machine& m, int thread, const SfpuInsn& i) {
    const bool by_imm = i.mod & 1u;
    const int32_t imm = int32_t(sign_extend(i.imm, 12));
    if (i.mod <= 1) {
        unary(m, i, [by_imm, imm](uint32_t c, uint32_t b) { return shift(b, by_imm ? imm : int32_t(c)); });
        return;
    }
    if (kArch != Arch::Blackhole || i.mod > 7 || i.mod == 4 || i.mod == 6)
        fail(m, thread, i, "SFPSHFT Mod1=" + std::to_string(i.mod) + " is not modelled on " + arch_name(kArch));
    const bool arithmetic = i.mod & 2u, from_c = i.mod & 4u;
    unary(m, i, [=](uint32_t c, uint32_t b) {
        const uint32_t src = from_c ? c : b;
        const int32_t amount = by_imm ? imm : int32_t(c);
        return arithmetic ? shift_arithmetic(src, amount) : shift(src, amount);
    });
}

void sfpmov(Machine& m, int thread, const SfpuInsn& i) {
    const uint32_t lanes = i.mod == 2u ? kAllLanes : enabled(m);
    each_lane(lanes, [&](int lane) {
        uint32_t x = 0;
        if (i.mod & 8u) {  // from special sources (mostly SFPCONFIG's destinations)
            const LoadMacroConfig& cfg = m.s.sfpu.macro[lane];
            if (i.vc < 4) x = cfg.templates[i.vc];
            else if (i.vc < 8) x = cfg.sequence[i.vc - 4];
            else if (i.vc == 8) x = cfg.misc;
            else if (i.vc == 9) x = prng(m, thread).advance(lane);
            else if (i.vc == 15) x = m.s.sfpu.lane_config[lane];
        } else {
            x = m.s.lreg[i.vc][lane] ^ ((i.mod & 1u) ? kSignBit : 0u);
        }
        write_lreg(m, i.vd, lane, x);
    });
}

// ---- conditional execution ----------------------------------------------------------------------

void sfpsetcc(Machine& m, int, const SfpuInsn& i) {
    uint32_t cond = 0;
    for (int lane = 0; lane < kLanes; ++lane) {
        const int32_t c = int32_t(m.s.lreg[i.vc][lane]);
        bool v;
        if (i.mod & 8u) {
            v = false;
        } else if (i.mod & 1u) {
            v = (i.imm & 1u) != 0;
        } else {
            switch (i.mod) {
            case 0: v = c < 0; break;
            case 2: v = c != 0; break;
            case 4: v = c >= 0; break;
            default: v = c == 0; break;  // 6
            }
        }
        if (v) cond |= 1u << lane;
    }
    m.s.sfpu.cc.setcc(enabled(m), cond);
}

void sfpencc(Machine& m, int, const SfpuInsn& i) { m.s.sfpu.cc.encc(i.mod, i.imm); }

void sfppushc(Machine& m, int thread, const SfpuInsn& i) {
    if (!m.s.sfpu.cc.push()) fail(m, thread, i, "SFPPUSHC with the flag stack full (8 entries) is undefined");
}

void sfppopc(Machine& m, int thread, const SfpuInsn& i) {
    if (!m.s.sfpu.cc.pop(i.mod)) fail(m, thread, i, "SFPPOPC with an empty flag stack is undefined");
}

void sfpcompc(Machine& m, int, const SfpuInsn&) { m.s.sfpu.cc.compc(); }

// ---- data movement ------------------------------------------------------------------------------

void sfptransp(Machine& m, int, const SfpuInsn&) {
    const uint32_t lanes = enabled(m);
    for (unsigned base : {0u, 4u}) {
        for (unsigned col = 0; col < 8; ++col) {
            for (unsigned r = 0; r < 4; ++r) {
                for (unsigned s = 0; s < r; ++s) {
                    const unsigned lane_rs = s * 8 + col, lane_sr = r * 8 + col;
                    const uint32_t rs = m.s.lreg[base + r][lane_rs], sr = m.s.lreg[base + s][lane_sr];
                    if ((lanes >> lane_rs) & 1u) m.s.lreg[base + r][lane_rs] = sr;
                    if ((lanes >> lane_sr) & 1u) m.s.lreg[base + s][lane_sr] = rs;
                }
            }
        }
    }
}

// LReg[0..2] <- LReg[1..3] and LReg[3] <- `l3(lane)` in the enabled lanes (the COPY4 family).
template <class L3>
void copy4(Machine& m, uint32_t lanes, L3&& l3) {
    std::array<uint32_t, kLanes> next3{};
    for (int lane = 0; lane < kLanes; ++lane) next3[lane] = l3(lane);
    each_lane(lanes, [&](int lane) {
        m.s.lreg[0][lane] = m.s.lreg[1][lane];
        m.s.lreg[1][lane] = m.s.lreg[2][lane];
        m.s.lreg[2][lane] = m.s.lreg[3][lane];
        m.s.lreg[3][lane] = next3[lane];
    });
}

void sfpshft2(Machine& m, int thread, const SfpuInsn& i) {
    const uint32_t lanes = enabled(m);
    auto& rotated_from = m.s.sfpu.last_rotate_source;
    // Rotate right by one lane within each row of eight lanes.
    auto rotate_right = [](const uint32_t* v, int lane) { return (lane & 7) ? v[lane - 1] : v[lane + 7]; };
    auto remember_rotated = [&] {
        for (int lane = 0; lane < kLanes; ++lane) rotated_from[lane] = m.s.lreg[i.vc][lane];
        return rotated_from;
    };
    switch (i.mod) {
    case 0:  // COPY4
        copy4(m, lanes, [](int) { return 0u; });
        break;
    case 1: {  // SUBVEC_CHAINED_COPY4: L3 <- original L0 moved up one row (8 lanes)
        std::array<uint32_t, kLanes> l0{};
        for (int lane = 0; lane < kLanes; ++lane) l0[lane] = m.s.lreg[0][lane];
        copy4(m, lanes, [&](int lane) { return lane < 24 ? l0[lane + 8] : 0u; });
        break;
    }
    case 2: {  // SUBVEC_SHFLROR1_AND_COPY4
        const auto vc = remember_rotated();
        copy4(m, lanes, [&](int lane) { return rotate_right(vc.data(), lane); });
        break;
    }
    case 3: {  // SUBVEC_SHFLROR1
        const auto vc = remember_rotated();
        if (lreg_writable(i.vd)) each_lane(lanes, [&](int lane) { m.s.lreg[i.vd][lane] = rotate_right(vc.data(), lane); });
        break;
    }
    case 4: {  // SUBVEC_SHFLSHR1: lane 0 of each row gets, on Wormhole, the last rotation's source
               // (the hardware bug of the ISA page); on Blackhole zero (ttsim)
        if (!lreg_writable(i.vd)) break;
        std::array<uint32_t, kLanes> vc{};
        for (int lane = 0; lane < kLanes; ++lane) vc[lane] = m.s.lreg[i.vc][lane];
        each_lane(lanes, [&](int lane) {
            const uint32_t first = kArch == Arch::Blackhole ? 0u : rotated_from[lane + 7];
            m.s.lreg[i.vd][lane] = (lane & 7) ? vc[lane - 1] : first;
        });
        break;
    }
    case 5:    // SHFT_LREG: VD = LReg[VB] shifted by LReg[VC]
    case 6: {  // SHFT_IMM: VD = LReg[VB] shifted by the signed Imm12
        if (!lreg_writable(i.vd)) break;
        each_lane(lanes, [&](int lane) {
            const int32_t amount = i.mod == 5 ? int32_t(m.s.lreg[i.vc][lane]) : int32_t(sign_extend(i.imm, 12));
            m.s.lreg[i.vd][lane] = shift(m.s.lreg[i.vb][lane], amount);
        });
        break;
    }
    default:
        fail(m, thread, i, "SFPSHFT2 Mod1=" + std::to_string(i.mod) + " is undefined");
    }
}

void sfpswap(Machine& m, int thread, const SfpuInsn& i) {
    // Per mode, the lanes where VD gets the minimum (else the maximum); 9 is VEC_MAX_MIN (SFPI's
    // sfpi_constants.h; ttsim), beyond the ISA page's list.
    static constexpr uint32_t kVdGetsMin[10] = {0, 0xffffffffu, 0x0000ffffu, 0x00ff00ffu, 0xff0000ffu,
                                                0x000000ffu, 0x0000ff00u, 0x00ff0000u, 0xff000000u, 0u};
    if (i.mod > 9) fail(m, thread, i, "SFPSWAP Mod1=" + std::to_string(i.mod) + " is undefined");
    each_lane(enabled(m), [&](int lane) {
        const uint32_t cfg = m.s.sfpu.lane_config[lane];
        const uint32_t c = m.s.lreg[i.vc][lane], d = m.s.lreg[i.vd][lane];
        bool swap = true;
        if (i.mod != 0) {
            swap = ((kVdGetsMin[i.mod] >> lane) & 1u) ? signmag_less(c, d) : !signmag_less(c, d);
            if (cfg & kCfgExchangeSrcbSrcc) swap = !swap;
        }
        if (!swap) return;
        if (cfg & kCfgEnableDestIndex) {  // argmin/argmax: values in LReg[0..3], indices in LReg[4..7]
            if (i.vc < 4) m.s.lreg[i.vc][lane] = d;
            if (i.vd < 4) m.s.lreg[i.vd][lane] = c;
            std::swap(m.s.lreg[4 + (i.vc & 3u)][lane], m.s.lreg[4 + (i.vd & 3u)][lane]);
        } else {
            if (i.vc < 8) m.s.lreg[i.vc][lane] = d;
            if (i.vd < 8) m.s.lreg[i.vd][lane] = c;
        }
    });
}

// ---- round sub-unit -----------------------------------------------------------------------------

void sfpcast(Machine& m, int thread, const SfpuInsn& i) {
    if (kArch == Arch::Blackhole && i.mod == 3) {  // Blackhole: two's complement -> sign-magnitude
        each_lane(enabled(m), [&](int lane) {
            const uint32_t c = m.s.lreg[i.vc][lane], sign = c & kSignBit;
            write_lreg(m, i.vd, lane, sign | (sign ? 0u - c : c));
        });
        return;
    }
    if (i.mod > 1) fail(m, thread, i, "SFPCAST Mod1=" + std::to_string(i.mod) + " is not modelled on " + arch_name(kArch));
    const bool stochastic = i.mod & 1u;
    each_lane(enabled(m), [&](int lane) {
        const uint32_t random = stochastic ? prng(m, thread).advance(lane) : 0u;
        write_lreg(m, i.vd, lane, cast_signmag_to_fp32(m.s.lreg[i.vc][lane], stochastic, random));
    });
}

void sfpstochrnd(Machine& m, int thread, const SfpuInsn& i) {
    const uint32_t mode = i.mod & 7u;
    const bool use_imm = (i.mod & 8u) != 0;
    each_lane(enabled(m), [&](int lane) {
        const uint32_t threshold = stochrnd_threshold(i.stochastic, i.stochastic ? prng(m, thread).advance(lane) : 0u);
        const uint32_t c = m.s.lreg[i.vc][lane];
        uint32_t d;
        switch (mode) {
        case kRndFp32ToFp16a:
        case kRndFp32ToFp16b: d = stochrnd_fp_to_fp(c, mode == kRndFp32ToFp16b, threshold); break;
        case kRndInt32ToUint8:
        case kRndInt32ToInt8:
            d = stochrnd_int_to_int(c, use_imm ? i.imm : m.s.lreg[i.vb][lane], mode == kRndInt32ToUint8, threshold);
            break;
        default: d = stochrnd_fp_to_int(c, mode, threshold); break;
        }
        write_lreg(m, i.vd, lane, d);
    });
}

// ---- configuration ------------------------------------------------------------------------------

// Bitwise update of a configuration word as SFPCONFIG's Mod1 bits 1..2 select.
void combine(uint32_t& target, uint32_t value, uint32_t mod1) {
    switch (mod1 & 6u) {
    case 0: target = value; break;
    case 2: target |= value; break;
    case 4: target &= value; break;
    default: target ^= value; break;
    }
}

void sfpconfig(Machine& m, int, const SfpuInsn& i) {
    constexpr uint32_t kImmIsValue = 1, kImmIsLaneMask = 8;
    SfpuState& st = m.s.sfpu;
    for (int lane = 0; lane < kLanes; ++lane) {
        const int col = lane & 7;
        if ((i.mod & kImmIsLaneMask) && !((i.imm >> (col * 2)) & 1u)) continue;
        if (((st.cc.use_flags >> col) & 1u) && !((st.cc.flags >> col) & 1u)) continue;
        const uint32_t source = m.s.lreg[0][col];
        const uint32_t value = (i.mod & kImmIsValue) ? i.imm : source;
        LoadMacroConfig& macro = st.macro[lane];
        if (i.vd < 4) {
            macro.templates[i.vd] = source;
        } else if (i.vd < 8) {
            macro.sequence[i.vd - 4] = value;
        } else if (i.vd == 8) {
            combine(macro.misc, value & 0xfffu, i.mod);
            macro.misc &= 0xfffu;
        } else if (i.vd >= 11 && i.vd <= 14) {
            m.s.lreg[i.vd][lane] = (i.mod & kImmIsValue) ? initial_lreg(i.vd, lane) : source;
        } else if (i.vd == 15) {
            const uint32_t original = st.lane_config[lane];
            uint32_t& cfg = st.lane_config[lane];
            combine(cfg, value & 0x3ffffu, i.mod);
            if (i.mod & kImmIsValue) cfg = (cfg & 0xffffu) | (original & ~0xffffu);
        }
        // VD 9 and 10 do nothing.
    }
}

void sfpnop(Machine&, int, const SfpuInsn&) {}

// ---- Blackhole-only instructions (ttsim's models) -------------------------------------------------

// SFPLE / SFPGT: compare LReg[VD] with LReg[VC] as sign-magnitude integers in total order (-0 below
// +0); Mod1 1 sets the lane flags to the result, Mod1 8 writes all ones / zeros to VD.
template <bool kGreater>
void sfpcompare(Machine& m, int thread, const SfpuInsn& i) {
    if (i.mod != 1 && i.mod != 8) fail(m, thread, i, "SFPLE/SFPGT Mod1=" + std::to_string(i.mod) + " is not modelled (1 and 8 are)");
    if (i.vd >= 8) fail(m, thread, i, "SFPLE/SFPGT with VD >= 8 is not modelled");
    const uint32_t lanes = enabled(m);
    uint32_t cond = 0;
    each_lane(lanes, [&](int lane) {
        const int32_t d = sign_magnitude_order(m.s.lreg[i.vd][lane]), c = sign_magnitude_order(m.s.lreg[i.vc][lane]);
        const bool holds = kGreater ? d > c : d <= c;
        if (holds) cond |= 1u << lane;
        if (i.mod == 8) m.s.lreg[i.vd][lane] = holds ? 0xffffffffu : 0u;
    });
    if (i.mod == 1) m.s.sfpu.cc.set_flags(lanes, cond);
}

// SFPMUL24: the low (Mod1 0) or high (Mod1 1) 23 bits of the product of two 23-bit mantissa fields.
void sfpmul24(Machine& m, int thread, const SfpuInsn& i) {
    if (i.mod > 1 || i.vc != 9 || i.vd >= 8) fail(m, thread, i, "SFPMUL24 is modelled for Mod1 0/1, VC = LReg[9] and VD < 8 only");
    each_lane(enabled(m), [&](int lane) {
        m.s.lreg[i.vd][lane] = mul24(m.s.lreg[i.va][lane], m.s.lreg[i.vb][lane], i.mod != 0);
    });
}

// SFPARECIP (Mod1 0, RECIP): sfpu_ops.h's approx_recip.
void sfparecip(Machine& m, int thread, const SfpuInsn& i) {
    if (i.mod != 0 || i.imm != 0 || i.vd >= 8) fail(m, thread, i, "SFPARECIP is modelled for Mod1 0 (RECIP), Imm12 0 and VD < 8 only");
    each_lane(enabled(m), [&](int lane) {
        const uint32_t c = m.s.lreg[i.vc][lane];
        m.s.lreg[i.vd][lane] = approx_recip(c);
    });
}

// ---- SFPLOADMACRO -------------------------------------------------------------------------------

enum SubUnit : int { kSimple = 0, kMadUnit = 1, kRound = 2, kStoreUnit = 3, kOther = -1 };

// The sub-unit an instruction executes on (the table of SFPLOADMACRO.md; SFPNOP fits any).
int sub_unit(uint32_t opcode) {
    switch (opcode) {
    case kAdd: case kAddI: case kLut: case kLutFp32: case kMad: case kMul: case kMulI: return kMadUnit;
    case kShft2: case kStochRnd: return kRound;
    case kStore: return kStoreUnit;
    case kLoad: case kLoadI: case kLoadMacro: case kNop: return kOther;
    default: return kSimple;
    }
}

void sfploadmacro(Machine& m, int thread, const SfpuInsn& i) {
    // Blackhole's sub-unit scheduling (its Misc and sequence bits) has no public functional model
    // (no ISA pages; ttsim refuses the instruction), and Wormhole B0's reading of it computes
    // wrong values there (the LLK's fast FP32 reciprocal): Blackhole kernels take the LLK's paths
    // without it (tensix_build.py, -DDISABLE_SFPLOADMACRO).
    if (kArch == Arch::Blackhole)
        fail(m, thread, i, "SFPLOADMACRO is not modelled on Blackhole (its scheduling has no public description); "
                           "build the kernel with -DDISABLE_SFPLOADMACRO (TT_METAL_DISABLE_SFPLOADMACRO=1)");
    SfpuState& st = m.s.sfpu;
    const LoadMacroConfig cfg = st.macro[0];
    for (const LoadMacroConfig& lane_cfg : st.macro)
        if (!lane_cfg.same_as(cfg)) fail(m, thread, i, "SFPLOADMACRO with a configuration that differs between lanes is not modelled");
    // The word packs VD's low bits with the macro index and VD's high bit into Imm10's lowest bit.
    const uint32_t macro = i.vd >> 2, vd = (i.vd & 3u) | ((i.imm & 1u) << 2);
    const uint32_t mod0 = resolve_format(m, thread, i.mod);
    const uint32_t addr = dst_address(m, thread, i.imm, mod0);
    load_lanes(m, vd, mod0, addr);
    for (int unit = kSimple; unit <= kStoreUnit; ++unit) {
        const uint32_t bits = (cfg.sequence[macro] >> (8 * unit)) & 0xffu;
        const int delay = int((bits >> 3) & 7u);
        const uint32_t what = bits & 7u;
        if (what == 0) continue;
        if (delay != 7) {
            auto& q = st.scheduled;
            q.erase(std::remove_if(q.begin(), q.end(), [&](const ScheduledInsn& s) { return s.unit == unit && s.countdown == delay; }), q.end());
        }
        SfpuInsn insn;
        if (what == 1) fail(m, thread, i, "SFPLOADMACRO sequence selector 1 is undefined");
        if (what == 2) insn = decode(uint32_t(kNop) << 24);
        if (what == 3) insn = decode(uint32_t(kStore) << 24);
        if (what >= 4) insn = decode(cfg.templates[what - 4]);
        if (sub_unit(insn.opcode) != unit && insn.opcode != kNop) insn = decode(uint32_t(kNop) << 24);
        if (unit == kStoreUnit) {
            if (insn.opcode != kStore) fail(m, thread, i, "SFPLOADMACRO schedules a non-store instruction on the store sub-unit");
            insn.vd = (bits & 0x40u) ? 16u : (bits & 0x80u) ? insn.vd : vd;
            insn.mod = ((cfg.misc >> (4 + macro)) & 1u) ? i.mod : (cfg.misc & 15u);
            insn.imm = i.imm;
            insn.dst_addr = addr;
        } else {
            if (bits & 0x80u) insn.vb = vd;
            else insn.vc = vd;
            insn.vd = (bits & 0x40u) ? 16u : vd;
        }
        insn.scheduled = true;
        st.scheduled.push_back(ScheduledInsn{insn, unit, delay, ((cfg.misc >> (8 + unit)) & 1u) != 0, st.step});
    }
    apply_addr_mod(m, thread, i.word, i.addr_mod, false);  // ApplyPartialAddrMod
}

// ---- issue --------------------------------------------------------------------------------------

using InsnHandler = void (*)(Machine&, int, const SfpuInsn&);

InsnHandler handler_of(uint32_t opcode) {
    switch (opcode) {
    case kLoad: return sfpload;
    case kLoadI: return sfploadi;
    case kStore: return sfpstore;
    case kLut: return sfplut;
    case kMulI: return sfpmuli;
    case kAddI: return sfpaddi;
    case kDivP2: return sfpdivp2;
    case kExExp: return sfpexexp;
    case kExMan: return sfpexman;
    case kIAdd: return sfpiadd;
    case kShft: return sfpshft;
    case kSetCC: return sfpsetcc;
    case kMov: return sfpmov;
    case kAbs: return sfpabs;
    case kAnd: return sfpand;
    case kOr: return sfpor;
    case kNot: return sfpnot;
    case kLz: return sfplz;
    case kSetExp: return sfpsetexp;
    case kSetMan: return sfpsetman;
    case kMad: case kAdd: case kMul: return sfpmad;
    case kPushC: return sfppushc;
    case kPopC: return sfppopc;
    case kSetSgn: return sfpsetsgn;
    case kEnCC: return sfpencc;
    case kCompC: return sfpcompc;
    case kTransp: return sfptransp;
    case kXor: return sfpxor;
    case kStochRnd: return sfpstochrnd;
    case kCast: return sfpcast;
    case kConfig: return sfpconfig;
    case kSwap: return sfpswap;
    case kLoadMacro: return sfploadmacro;
    case kShft2: return sfpshft2;
    case kLutFp32: return sfplutfp32;
    case kLe: return sfpcompare<false>;
    case kGt: return sfpcompare<true>;
    case kMul24: return sfpmul24;
    case kARecip: return sfparecip;
    default: return sfpnop;
    }
}

// An issued instruction naming VD >= 12 (other than SFPCONFIG, whose VD names a configuration
// target) is a "backdoor" load of SFPLOADMACRO instruction template VD-12, unless LaneConfig's
// DISABLE_BACKDOOR_LOAD is set (SFPCONFIG.md).
bool template_load(Machine& m, int thread, const SfpuInsn& i) {
    if (i.scheduled || i.vd < 12 || i.opcode == kConfig || i.opcode == kNop || i.opcode == kLoadMacro) return false;
    int disabled = 0;
    for (uint32_t cfg : m.s.sfpu.lane_config) disabled += (cfg & kCfgDisableBackdoorLoad) ? 1 : 0;
    if (disabled == kLanes) return false;
    if (disabled != 0) fail(m, thread, i, "DISABLE_BACKDOOR_LOAD differing between lanes is not modelled");
    for (LoadMacroConfig& cfg : m.s.sfpu.macro) cfg.templates[i.vd - 12] = i.word;
    return true;
}

void run_insn(Machine& m, int thread, const SfpuInsn& i) {
    if (template_load(m, thread, i)) return;
    handler_of(i.opcode)(m, thread, i);
}

// Runs instructions that execute in the same step: each reads the LRegs and lane flags as they
// were before the step; their writes are merged (two writes of one register lane, or two
// instructions changing the lane flags, are undefined and fail).
void run_together(Machine& m, int thread, const std::vector<SfpuInsn>& batch) {
    if (batch.size() == 1) return run_insn(m, thread, batch[0]);
    using LRegs = std::array<std::array<uint32_t, kLanes>, kLRegs>;
    LRegs before, merged, written{};
    for (int r = 0; r < kLRegs; ++r)
        for (int l = 0; l < kLanes; ++l) before[r][l] = m.s.lreg[r][l];
    merged = before;
    const Predication cc_before = m.s.sfpu.cc;
    Predication cc_after = cc_before;
    bool cc_written = false;
    for (const SfpuInsn& insn : batch) {
        for (int r = 0; r < kLRegs; ++r)
            for (int l = 0; l < kLanes; ++l) m.s.lreg[r][l] = before[r][l];
        m.s.sfpu.cc = cc_before;
        run_insn(m, thread, insn);
        for (int r = 0; r < kLRegs; ++r) {
            for (int l = 0; l < kLanes; ++l) {
                if (m.s.lreg[r][l] == before[r][l]) continue;
                if (written[r][l]) fail(m, thread, insn, "two SFPU instructions of one step write LReg[" + std::to_string(r) + "]");
                written[r][l] = 1;
                merged[r][l] = m.s.lreg[r][l];
            }
        }
        if (!m.s.sfpu.cc.same_as(cc_before)) {
            if (cc_written) fail(m, thread, insn, "two SFPU instructions of one step change the lane flags");
            cc_written = true;
            cc_after = m.s.sfpu.cc;
        }
    }
    for (int r = 0; r < kLRegs; ++r)
        for (int l = 0; l < kLanes; ++l) m.s.lreg[r][l] = merged[r][l];
    m.s.sfpu.cc = cc_after;
}

// The scheduled instructions whose countdown has run out, removed from the schedule.
std::vector<ScheduledInsn> take_due(SfpuState& st) {
    std::vector<ScheduledInsn> due, waiting;
    for (const ScheduledInsn& s : st.scheduled) (s.countdown == 0 && s.issued_at < st.step ? due : waiting).push_back(s);
    st.scheduled = std::move(waiting);
    return due;
}

// Every SFP* opcode comes here: one step of the Vector Unit.
void issue(Machine& m, int thread, uint32_t word) {
    SfpuState& st = m.s.sfpu;
    const SfpuInsn insn = decode(word);
    ++st.step;
    if (st.scheduled.empty()) return run_insn(m, thread, insn);
    std::vector<SfpuInsn> batch;
    bool unit_taken = false;  // a scheduled instruction wins its sub-unit over the issued one
    for (const ScheduledInsn& s : take_due(st)) {
        batch.push_back(s.insn);
        unit_taken = unit_taken || s.unit == sub_unit(insn.opcode);
    }
    if (!unit_taken) batch.push_back(insn);
    run_together(m, thread, batch);
    for (ScheduledInsn& s : st.scheduled)
        if (s.issued_at < st.step && s.countdown > 0) --s.countdown;
}

}  // namespace

void sfpu_drain(Machine& m, int thread) {
    SfpuState& st = m.s.sfpu;
    ++st.step;
    std::vector<SfpuInsn> batch;
    for (const ScheduledInsn& s : take_due(st)) batch.push_back(s.insn);
    if (!batch.empty()) run_together(m, thread, batch);
    // Cycle-counted delays advance with every instruction unless an instruction-counted one waits.
    const bool counting_instructions = std::any_of(st.scheduled.begin(), st.scheduled.end(), [](const ScheduledInsn& s) { return s.by_instructions; });
    if (!counting_instructions)
        for (ScheduledInsn& s : st.scheduled)
            if (s.countdown > 0) --s.countdown;
}

TC_OPCODE(0x70, SFPLOAD, issue);
TC_OPCODE(0x71, SFPLOADI, issue);
TC_OPCODE(0x72, SFPSTORE, issue);
TC_OPCODE(0x73, SFPLUT, issue);
TC_OPCODE(0x74, SFPMULI, issue);
TC_OPCODE(0x75, SFPADDI, issue);
TC_OPCODE(0x76, SFPDIVP2, issue);
TC_OPCODE(0x77, SFPEXEXP, issue);
TC_OPCODE(0x78, SFPEXMAN, issue);
TC_OPCODE(0x79, SFPIADD, issue);
TC_OPCODE(0x7a, SFPSHFT, issue);
TC_OPCODE(0x7b, SFPSETCC, issue);
TC_OPCODE(0x7c, SFPMOV, issue);
TC_OPCODE(0x7d, SFPABS, issue);
TC_OPCODE(0x7e, SFPAND, issue);
TC_OPCODE(0x7f, SFPOR, issue);
TC_OPCODE(0x80, SFPNOT, issue);
TC_OPCODE(0x81, SFPLZ, issue);
TC_OPCODE(0x82, SFPSETEXP, issue);
TC_OPCODE(0x83, SFPSETMAN, issue);
TC_OPCODE(0x84, SFPMAD, issue);
TC_OPCODE(0x85, SFPADD, issue);
TC_OPCODE(0x86, SFPMUL, issue);
TC_OPCODE(0x87, SFPPUSHC, issue);
TC_OPCODE(0x88, SFPPOPC, issue);
TC_OPCODE(0x89, SFPSETSGN, issue);
TC_OPCODE(0x8a, SFPENCC, issue);
TC_OPCODE(0x8b, SFPCOMPC, issue);
TC_OPCODE(0x8c, SFPTRANSP, issue);
TC_OPCODE(0x8d, SFPXOR, issue);
TC_OPCODE(0x8e, SFP_STOCH_RND, issue);
TC_OPCODE(0x8f, SFPNOP, issue);
TC_OPCODE(0x90, SFPCAST, issue);
TC_OPCODE(0x91, SFPCONFIG, issue);
TC_OPCODE(0x92, SFPSWAP, issue);
TC_OPCODE(0x93, SFPLOADMACRO, issue);
TC_OPCODE(0x94, SFPSHFT2, issue);
TC_OPCODE(0x95, SFPLUTFP32, issue);
TC_OPCODE_ON(Arch::Blackhole, 0x96, SFPLE, issue);
TC_OPCODE_ON(Arch::Blackhole, 0x97, SFPGT, issue);
TC_OPCODE_ON(Arch::Blackhole, 0x98, SFPMUL24, issue);
TC_OPCODE_ON(Arch::Blackhole, 0x99, SFPARECIP, issue);

}  // namespace tc_tensix
