// The Vector Unit's (SFPU's) instructions: decode per the wheel's ckernel_ops.h TT_OP_SFP* layouts,
// then apply the lane semantics of sfpu_ops.h to MachineState::lreg under lane predication.
//
// Field layouts (bit ranges of the 32-bit word, opcode in [31:24]):
//   most:        Imm12 [23:12]  VC [11:8]  VD [7:4]  Mod1 [3:0]
//   MAD/ADD/MUL: VA [19:16]  VB [15:12]  VC [11:8]  VD [7:4]  Mod1 [3:0]
//   ADDI/MULI/CONFIG: Imm16 [23:8]  VD [7:4]  Mod1 [3:0]
//   LOAD/STORE/LOADMACRO: VD [23:20]  Mod0 [19:16]  AddrMod [15:14]  Imm10 [9:0]
//   LOADI: VD [23:20]  Mod0 [19:16]  Imm16 [15:0];  LUT: VD [23:20]  Mod0 [19:16]
//   STOCHRND: Stochastic [21]  Imm5 [20:16]  VB [15:12]  VC [11:8]  VD [7:4]  Mod1 [3:0]
// Modes the ISA leaves undefined, and the SFPLOADMACRO machinery (SFPLOADMACRO itself and the
// "backdoor" template loads of instructions with VD >= 12) are hard errors naming the instruction.
#include <string>

#include "cfg_defines.h"
#include "machine.h"
#include "sfpu_ops.h"

namespace tc_tensix {
namespace {

using namespace sfpu;

// The common Imm12/VC/VD/Mod1 layout.
struct Fields {
    uint32_t imm12, vc, vd, mod1;
    explicit Fields(uint32_t w) : imm12(field(w, 12, 12)), vc(field(w, 8, 4)), vd(field(w, 4, 4)), mod1(field(w, 0, 4)) {}
};

template <class F>
void each_lane(uint32_t lanes, F&& f) {
    for (int lane = 0; lane < kLanes; ++lane)
        if ((lanes >> lane) & 1u) f(lane);
}

uint32_t enabled(const Machine& m) { return m.s.sfpu.enabled(); }

// The PRNG, seeded from the PRNG_SEED config register the thread's instructions see.
Prng& prng(Machine& m, int thread) {
    m.s.sfpu.prng.follow_seed_register(m.cfg_word(thread, PRNG_SEED_Seed_Val_ADDR32));
    return m.s.sfpu.prng;
}

void write_lreg(Machine& m, uint32_t vd, int lane, uint32_t value) {
    if (lreg_writable(vd)) m.s.lreg[vd][lane] = value;
}

// Instructions whose model is guarded by "VD < 12 || DISABLE_BACKDOOR_LOAD": with the backdoor
// enabled (the default) an instruction naming VD >= 12 writes itself into an SFPLOADMACRO template.
void require_no_backdoor(Machine& m, int thread, uint32_t word, uint32_t vd) {
    if (vd < 12) return;
    for (int lane = 0; lane < kLanes; ++lane)
        if (!(m.s.sfpu.lane_config[lane] & kCfgDisableBackdoorLoad))
            m.fail(thread, word, "VD >= 12 loads an SFPLOADMACRO instruction template (backdoor load), which is not modelled");
}

// Flag updates of instructions that set LaneFlags in their enabled lanes (EXEXP, LZ, IADD).
void update_flags(Machine& m, uint32_t lanes, bool set, uint32_t cond, bool invert) {
    Predication& cc = m.s.sfpu.cc;
    if (set) cc.set_flags(lanes, cond);
    if (invert) cc.set_flags(lanes, ~cc.flags);
}

// ---- Dst addressing (SFPLOAD / SFPSTORE) --------------------------------------------------------

// ApplyPartialAddrMod (RWCs.md): the Dst/SrcA/SrcB counter updates of ADDR_MOD `idx` (Fidelity
// untouched). The ADDR_MOD_* sections live in the issuing thread's config.
void apply_partial_addr_mod(Machine& m, int thread, uint32_t word, uint32_t addr_mod) {
    const uint32_t index = addr_mod + ((m.thread_cfg_word(thread, ADDR_MOD_SET_Base_ADDR32) & ADDR_MOD_SET_Base_MASK) ? 4u : 0u);
    const uint32_t ab = m.thread_cfg_word(thread, ADDR_MOD_AB_SEC0_SrcAIncr_ADDR32 + 2 * index);
    const uint32_t dst = m.thread_cfg_word(thread, ADDR_MOD_DST_SEC0_DestIncr_ADDR32 + index);
    const uint32_t bias = m.thread_cfg_word(thread, ADDR_MOD_BIAS_SEC0_BiasIncr_ADDR32 + index);
    if (bias & (ADDR_MOD_BIAS_SEC0_BiasIncr_MASK | ADDR_MOD_BIAS_SEC0_BiasClear_MASK))
        m.fail(thread, word, "ADDR_MOD bias section (the extra AddrMod bit) is not modelled");
    Rwc& r = m.s.rwc;
    auto bits = [](uint32_t w, uint32_t mask, uint32_t shamt) { return (w & mask) >> shamt; };
    // A Src counter: cleared, advanced through its carriage-return copy, or plainly advanced.
    auto advance = [](uint32_t& counter, uint32_t& cr, bool clear, bool via_cr, uint32_t incr) {
        if (clear) {
            counter = cr = 0;
        } else if (via_cr) {
            cr += incr;
            counter = cr;
        } else {
            counter += incr;
        }
    };
    advance(r.srca, r.srca_cr, ab & ADDR_MOD_AB_SEC0_SrcAClear_MASK, ab & ADDR_MOD_AB_SEC0_SrcACR_MASK,
            bits(ab, ADDR_MOD_AB_SEC0_SrcAIncr_MASK, ADDR_MOD_AB_SEC0_SrcAIncr_SHAMT));
    advance(r.srcb, r.srcb_cr, ab & ADDR_MOD_AB_SEC0_SrcBClear_MASK, ab & ADDR_MOD_AB_SEC0_SrcBCR_MASK,
            bits(ab, ADDR_MOD_AB_SEC0_SrcBIncr_MASK, ADDR_MOD_AB_SEC0_SrcBIncr_SHAMT));
    const uint32_t incr = bits(dst, ADDR_MOD_DST_SEC0_DestIncr_MASK, ADDR_MOD_DST_SEC0_DestIncr_SHAMT);
    const bool clear = dst & ADDR_MOD_DST_SEC0_DestClear_MASK;
    if (!clear && (dst & ADDR_MOD_DST_SEC0_DestCToCR_MASK)) {  // advance, then remember as the CR
        r.dst += incr;
        r.dst_cr = r.dst;
    } else {
        advance(r.dst, r.dst_cr, clear, dst & ADDR_MOD_DST_SEC0_DestCR_MASK, incr);
    }
    r.srca &= 0x3fu, r.srca_cr &= 0x3fu, r.srcb &= 0x3fu, r.srcb_cr &= 0x3fu, r.dst &= 0x3ffu, r.dst_cr &= 0x3ffu;
}

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
    uint32_t moving = m.s.rwc.dst + base;
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

void sfpload(Machine& m, int thread, uint32_t word) {
    const uint32_t vd = field(word, 20, 4), mod0 = resolve_format(m, thread, field(word, 16, 4));
    const uint32_t addr = dst_address(m, thread, field(word, 0, 10), mod0);
    if (vd < 8) {
        const uint32_t lanes = mod0 == kFmtInt32All ? kAllLanes : enabled(m);
        each_lane(lanes, [&](int lane) {
            const uint32_t cfg = m.s.sfpu.lane_config[lane];
            if (cfg & kCfgBlockDestRead) return;
            const DstPos p = dst_pos(addr, lane, m.s.sfpu.lane_config[lane & 7] & kCfgDestReadColExchange);
            const uint32_t v = load_reads_dst32(mod0)
                                   ? load_from_dst32(mod0, m.dst32_read(p.row, p.col))
                                   : load_from_dst16(mod0, m.s.dst[p.row][p.col], m.s.lreg[vd][lane], cfg & kCfgFp16aInf);
            m.s.lreg[vd][lane] = v;
            if (vd < 4 && (cfg & kCfgEnableDestIndex) && (cfg & kCfgCaptureDefaultDestIndex))
                m.s.lreg[vd + 4][lane] = (p.row << 4) | p.col;
        });
    }
    apply_partial_addr_mod(m, thread, word, field(word, 14, 2));
}

void sfpstore(Machine& m, int thread, uint32_t word) {
    const uint32_t vd = field(word, 20, 4), mod0 = resolve_format(m, thread, field(word, 16, 4));
    require_no_backdoor(m, thread, word, vd);
    const uint32_t addr = dst_address(m, thread, field(word, 0, 10), mod0);
    const uint32_t lanes = mod0 == kFmtInt32All ? kAllLanes : enabled(m);
    each_lane(lanes, [&](int lane) {
        if (m.s.sfpu.lane_config[lane] & kCfgBlockDestWrite) return;
        const DstPos p = dst_pos(addr, lane, m.s.sfpu.lane_config[lane & 7] & kCfgDestWriteColExchange);
        const uint32_t v = m.s.lreg[vd][lane];
        if (store_writes_dst32(mod0)) {
            m.dst32_write(p.row, p.col, store_to_dst32(mod0, v));
        } else {
            m.s.dst[p.row][p.col] = uint16_t(store_to_dst16(mod0, v));
        }
    });
    apply_partial_addr_mod(m, thread, word, field(word, 14, 2));
}

void sfploadmacro(Machine& m, int thread, uint32_t word) {
    m.fail(thread, word, "SFPLOADMACRO (scheduled instruction sequences) is not modelled");
}

void sfploadi(Machine& m, int thread, uint32_t word) {
    const uint32_t vd = field(word, 20, 4), mod0 = field(word, 16, 4), imm16 = field(word, 0, 16);
    if (vd >= 8) return;  // LReg[8..15] are not writable this way
    each_lane(enabled(m), [&](int lane) {
        uint32_t out;
        if (!loadi_value(mod0, imm16, m.s.lreg[vd][lane], out))
            m.fail(thread, word, "SFPLOADI Mod0=" + std::to_string(mod0) + " is undefined (use 0, 1, 2, 4, 8 or 10)");
        m.s.lreg[vd][lane] = out;
    });
}

// ---- MAD sub-unit -------------------------------------------------------------------------------

constexpr uint32_t kIndirectVa = 4, kIndirectVd = 8;

// The destination of MAD-family instructions, optionally taken from LReg[7]'s low bits per lane.
uint32_t dest_of(const Machine& m, uint32_t vd, uint32_t mod1, int lane) {
    return (mod1 & kIndirectVd) ? (m.s.lreg[7][lane] & 15u) : vd;
}

void sfpmad(Machine& m, int thread, uint32_t word) {  // also SFPADD and SFPMUL: VA*VB + VC
    const Fields f(word);
    const uint32_t va = field(word, 16, 4), vb = field(word, 12, 4);
    require_no_backdoor(m, thread, word, f.vd);
    each_lane(enabled(m), [&](int lane) {
        const uint32_t a_idx = (f.mod1 & kIndirectVa) ? (m.s.lreg[7][lane] & 15u) : va;
        const uint32_t d = mad(m.s.lreg[a_idx][lane], m.s.lreg[vb][lane], m.s.lreg[f.vc][lane]);
        write_lreg(m, dest_of(m, f.vd, f.mod1, lane), lane, d);
    });
}

void sfpaddi(Machine& m, int thread, uint32_t word) {
    const uint32_t vd = field(word, 4, 4), mod1 = field(word, 0, 4), imm = bf16_to_fp32(field(word, 8, 16));
    require_no_backdoor(m, thread, word, vd);
    each_lane(enabled(m), [&](int lane) { write_lreg(m, dest_of(m, vd, mod1, lane), lane, mad(imm, kFp32One, m.s.lreg[vd][lane])); });
}

void sfpmuli(Machine& m, int thread, uint32_t word) {
    const uint32_t vd = field(word, 4, 4), mod1 = field(word, 0, 4), imm = bf16_to_fp32(field(word, 8, 16));
    require_no_backdoor(m, thread, word, vd);
    each_lane(enabled(m), [&](int lane) { write_lreg(m, dest_of(m, vd, mod1, lane), lane, mad(imm, m.s.lreg[vd][lane], 0u)); });
}

void sfplut(Machine& m, int thread, uint32_t word) {
    const uint32_t vd = field(word, 20, 4), mod0 = field(word, 16, 4);
    require_no_backdoor(m, thread, word, vd);
    each_lane(enabled(m), [&](int lane) {
        const uint32_t l012[3] = {m.s.lreg[0][lane], m.s.lreg[1][lane], m.s.lreg[2][lane]};
        const uint32_t d = lut(l012, m.s.lreg[3][lane], mod0);
        write_lreg(m, (mod0 & kLutIndirectVd) ? (m.s.lreg[7][lane] & 15u) : vd, lane, d);
    });
}

void sfplutfp32(Machine& m, int thread, uint32_t word) {
    const uint32_t vd = field(word, 4, 4), mod1 = field(word, 0, 4);
    require_no_backdoor(m, thread, word, vd);
    each_lane(enabled(m), [&](int lane) {
        uint32_t l[7];
        for (int i = 0; i < 7; ++i) l[i] = m.s.lreg[i][lane];
        write_lreg(m, dest_of(m, vd, mod1, lane), lane, lutfp32(l, mod1));
    });
}

// ---- simple sub-unit ----------------------------------------------------------------------------

// Lanewise `VD = op(LReg[VC], LReg[VD])` for the instructions guarded by "VD < 8" only.
template <class Op>
void unary(Machine& m, uint32_t word, Op&& op) {
    const Fields f(word);
    if (!lreg_writable(f.vd)) return;
    each_lane(enabled(m), [&](int lane) { m.s.lreg[f.vd][lane] = op(m.s.lreg[f.vc][lane], m.s.lreg[f.vd][lane], f); });
}

// `unary` for the instructions that may also set LaneFlags (in their enabled lanes) from
// `flag(c, result)`, then optionally invert them.
template <class Op, class Flag>
void unary_setting_flags(Machine& m, uint32_t word, bool set, bool invert, Op&& op, Flag&& flag) {
    const Fields f(word);
    if (!lreg_writable(f.vd)) return;
    const uint32_t lanes = enabled(m);
    uint32_t cond = 0;
    each_lane(lanes, [&](int lane) {
        const uint32_t c = m.s.lreg[f.vc][lane];
        const uint32_t v = op(c, m.s.lreg[f.vd][lane], f);
        m.s.lreg[f.vd][lane] = v;
        if (flag(c, v)) cond |= 1u << lane;
    });
    update_flags(m, lanes, set, cond, invert);
}

void sfpexexp(Machine& m, int, uint32_t word) {
    const uint32_t mod1 = field(word, 0, 4);
    unary_setting_flags(
        m, word, mod1 & 2u, mod1 & 8u, [](uint32_t c, uint32_t, const Fields& f) { return exexp(c, !(f.mod1 & 1u)); },
        [](uint32_t, uint32_t v) { return (v & kSignBit) != 0; });
}

void sfpexman(Machine& m, int, uint32_t word) {
    unary(m, word, [](uint32_t c, uint32_t, const Fields& f) { return exman(c, f.mod1 & 1u); });
}
void sfpsetexp(Machine& m, int, uint32_t word) {
    unary(m, word, [](uint32_t c, uint32_t d, const Fields& f) {
        const uint32_t e = (f.mod1 & 1u) ? f.imm12 : (f.mod1 & 2u) ? exp_field(d) : d;
        return setexp(c, e & 0xffu);
    });
}
void sfpsetman(Machine& m, int, uint32_t word) {
    unary(m, word, [](uint32_t c, uint32_t d, const Fields& f) { return setman(c, (f.mod1 & 1u) ? (f.imm12 << 11) : d); });
}
void sfpsetsgn(Machine& m, int, uint32_t word) {
    unary(m, word, [](uint32_t c, uint32_t d, const Fields& f) { return setsgn(c, (f.mod1 & 1u) ? f.imm12 : (d >> 31)); });
}
void sfpabs(Machine& m, int, uint32_t word) {
    unary(m, word, [](uint32_t c, uint32_t, const Fields& f) { return (f.mod1 & 1u) ? abs_float(c) : abs_int(c); });
}
void sfpand(Machine& m, int, uint32_t word) {
    unary(m, word, [](uint32_t c, uint32_t d, const Fields&) { return d & c; });
}
void sfpor(Machine& m, int, uint32_t word) {
    unary(m, word, [](uint32_t c, uint32_t d, const Fields&) { return d | c; });
}
void sfpxor(Machine& m, int, uint32_t word) {
    unary(m, word, [](uint32_t c, uint32_t d, const Fields&) { return d ^ c; });
}
void sfpnot(Machine& m, int, uint32_t word) {
    unary(m, word, [](uint32_t c, uint32_t, const Fields&) { return ~c; });
}
void sfpdivp2(Machine& m, int, uint32_t word) {
    unary(m, word, [](uint32_t c, uint32_t, const Fields& f) { return divp2(c, f.imm12 & 0xffu, f.mod1 & 1u); });
}
void sfpshft(Machine& m, int, uint32_t word) {
    unary(m, word, [](uint32_t c, uint32_t d, const Fields& f) {
        return shift(d, (f.mod1 & 1u) ? int32_t(sign_extend(f.imm12, 12)) : int32_t(c));
    });
}

void sfplz(Machine& m, int, uint32_t word) {
    const uint32_t mod1 = field(word, 0, 4);
    const uint32_t considered = (mod1 & 4u) ? ~kSignBit : ~0u;
    unary_setting_flags(
        m, word, mod1 & 2u, mod1 & 8u, [](uint32_t c, uint32_t, const Fields& f) { return lz(c, f.mod1 & 4u); },
        [considered](uint32_t c, uint32_t) { return (c & considered) != 0; });
}

void sfpiadd(Machine& m, int, uint32_t word) {  // Mod1: 1 immediate, 2 subtract, 4 keep flags, 8 invert
    const uint32_t mod1 = field(word, 0, 4);
    unary_setting_flags(
        m, word, !(mod1 & 4u), mod1 & 8u,
        [](uint32_t c, uint32_t b, const Fields& f) {
            return (f.mod1 & 1u) ? c + sign_extend(f.imm12, 12) : (f.mod1 & 2u) ? c - b : c + b;
        },
        [](uint32_t, uint32_t v) { return (v & kSignBit) != 0; });
}

void sfpmov(Machine& m, int thread, uint32_t word) {
    const Fields f(word);
    require_no_backdoor(m, thread, word, f.vd);
    const uint32_t lanes = f.mod1 == 2u ? kAllLanes : enabled(m);
    each_lane(lanes, [&](int lane) {
        uint32_t x;
        if (f.mod1 & 8u) {
            if (f.vc == 9) {
                x = prng(m, thread).advance(lane);
            } else if (f.vc == 15) {
                x = m.s.sfpu.lane_config[lane];
            } else if (f.vc <= 8) {
                m.fail(thread, word, "SFPMOV from the SFPLOADMACRO configuration is not modelled");
            } else {
                x = 0;
            }
        } else {
            x = m.s.lreg[f.vc][lane] ^ ((f.mod1 & 1u) ? kSignBit : 0u);
        }
        write_lreg(m, f.vd, lane, x);
    });
}

// ---- conditional execution ----------------------------------------------------------------------

void sfpsetcc(Machine& m, int thread, uint32_t word) {
    const Fields f(word);
    require_no_backdoor(m, thread, word, f.vd);
    uint32_t cond = 0;
    for (int lane = 0; lane < kLanes; ++lane) {
        const int32_t c = int32_t(m.s.lreg[f.vc][lane]);
        bool v;
        if (f.mod1 & 8u) {
            v = false;
        } else if (f.mod1 & 1u) {
            v = (f.imm12 & 1u) != 0;
        } else {
            switch (f.mod1) {
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

void sfpencc(Machine& m, int thread, uint32_t word) {
    const Fields f(word);
    require_no_backdoor(m, thread, word, f.vd);
    m.s.sfpu.cc.encc(f.mod1, f.imm12);
}

void sfppushc(Machine& m, int thread, uint32_t word) {
    const Fields f(word);
    require_no_backdoor(m, thread, word, f.vd);
    if (!m.s.sfpu.cc.push()) m.fail(thread, word, "SFPPUSHC with the flag stack full (8 entries) is undefined");
}

void sfppopc(Machine& m, int thread, uint32_t word) {
    const Fields f(word);
    require_no_backdoor(m, thread, word, f.vd);
    if (!m.s.sfpu.cc.pop(f.mod1)) m.fail(thread, word, "SFPPOPC with an empty flag stack is undefined");
}

void sfpcompc(Machine& m, int thread, uint32_t word) {
    const Fields f(word);
    require_no_backdoor(m, thread, word, f.vd);
    m.s.sfpu.cc.compc();
}

// ---- data movement ------------------------------------------------------------------------------

void sfptransp(Machine& m, int thread, uint32_t word) {
    const Fields f(word);
    require_no_backdoor(m, thread, word, f.vd);
    const uint32_t lanes = enabled(m);
    for (unsigned base : {0u, 4u}) {
        for (unsigned col = 0; col < 8; ++col) {
            for (unsigned i = 0; i < 4; ++i) {
                for (unsigned j = 0; j < i; ++j) {
                    const unsigned lane_ij = j * 8 + col, lane_ji = i * 8 + col;
                    const uint32_t ij = m.s.lreg[base + i][lane_ij], ji = m.s.lreg[base + j][lane_ji];
                    if ((lanes >> lane_ij) & 1u) m.s.lreg[base + i][lane_ij] = ji;
                    if ((lanes >> lane_ji) & 1u) m.s.lreg[base + j][lane_ji] = ij;
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

void sfpshft2(Machine& m, int thread, uint32_t word) {
    const Fields f(word);
    const uint32_t lanes = enabled(m);
    auto& rotated_from = m.s.sfpu.last_rotate_source;
    // Rotate right by one lane within each row of eight lanes.
    auto rotate_right = [](const uint32_t* v, int lane) { return (lane & 7) ? v[lane - 1] : v[lane + 7]; };
    switch (f.mod1) {
    case 0:  // COPY4
        require_no_backdoor(m, thread, word, f.vd);
        copy4(m, lanes, [](int) { return 0u; });
        break;
    case 1: {  // SUBVEC_CHAINED_COPY4: L3 <- original L0 moved up one row (8 lanes)
        require_no_backdoor(m, thread, word, f.vd);
        std::array<uint32_t, kLanes> l0{};
        for (int lane = 0; lane < kLanes; ++lane) l0[lane] = m.s.lreg[0][lane];
        copy4(m, lanes, [&](int lane) { return lane < 24 ? l0[lane + 8] : 0u; });
        break;
    }
    case 2: {  // SUBVEC_SHFLROR1_AND_COPY4
        require_no_backdoor(m, thread, word, f.vd);
        for (int lane = 0; lane < kLanes; ++lane) rotated_from[lane] = m.s.lreg[f.vc][lane];
        const auto vc = rotated_from;
        copy4(m, lanes, [&](int lane) { return rotate_right(vc.data(), lane); });
        break;
    }
    case 3: {  // SUBVEC_SHFLROR1
        require_no_backdoor(m, thread, word, f.vd);
        for (int lane = 0; lane < kLanes; ++lane) rotated_from[lane] = m.s.lreg[f.vc][lane];
        const auto vc = rotated_from;
        if (lreg_writable(f.vd)) each_lane(lanes, [&](int lane) { m.s.lreg[f.vd][lane] = rotate_right(vc.data(), lane); });
        break;
    }
    case 4: {  // SUBVEC_SHFLSHR1: lane 0 of each row gets the last rotation's source (hardware bug)
        if (!lreg_writable(f.vd)) break;
        std::array<uint32_t, kLanes> vc{};
        for (int lane = 0; lane < kLanes; ++lane) vc[lane] = m.s.lreg[f.vc][lane];
        each_lane(lanes, [&](int lane) { m.s.lreg[f.vd][lane] = (lane & 7) ? vc[lane - 1] : rotated_from[lane + 7]; });
        break;
    }
    case 5:    // SHFT_LREG: VD = LReg[VB] shifted by LReg[VC], VB in Imm12's low bits
    case 6: {  // SHFT_IMM: VD = LReg[Imm12 & 15] shifted by the signed Imm12
        if (!lreg_writable(f.vd)) break;
        const uint32_t vb = f.imm12 & 15u;
        each_lane(lanes, [&](int lane) {
            const int32_t amount = f.mod1 == 5 ? int32_t(m.s.lreg[f.vc][lane]) : int32_t(sign_extend(f.imm12, 12));
            m.s.lreg[f.vd][lane] = shift(m.s.lreg[vb][lane], amount);
        });
        break;
    }
    default:
        m.fail(thread, word, "SFPSHFT2 Mod1=" + std::to_string(f.mod1) + " is undefined");
    }
}

void sfpswap(Machine& m, int thread, uint32_t word) {
    const Fields f(word);
    static constexpr uint32_t kVdGetsMin[9] = {0, 0xffffffffu, 0x0000ffffu, 0x00ff00ffu, 0xff0000ffu,
                                               0x000000ffu, 0x0000ff00u, 0x00ff0000u, 0xff000000u};
    if (f.mod1 > 8) m.fail(thread, word, "SFPSWAP Mod1=" + std::to_string(f.mod1) + " is undefined");
    require_no_backdoor(m, thread, word, f.vd);
    each_lane(enabled(m), [&](int lane) {
        const uint32_t cfg = m.s.sfpu.lane_config[lane];
        const uint32_t c = m.s.lreg[f.vc][lane], d = m.s.lreg[f.vd][lane];
        bool swap = true;
        if (f.mod1 != 0) {
            swap = ((kVdGetsMin[f.mod1] >> lane) & 1u) ? signmag_less(c, d) : !signmag_less(c, d);
            if (cfg & kCfgExchangeSrcbSrcc) swap = !swap;
        }
        if (!swap) return;
        if (cfg & kCfgEnableDestIndex) {  // argmin/argmax: values in LReg[0..3], indices in LReg[4..7]
            if (f.vc < 4) m.s.lreg[f.vc][lane] = d;
            if (f.vd < 4) m.s.lreg[f.vd][lane] = c;
            const uint32_t ic = 4 + (f.vc & 3u), id = 4 + (f.vd & 3u);
            std::swap(m.s.lreg[ic][lane], m.s.lreg[id][lane]);
        } else {
            if (f.vc < 8) m.s.lreg[f.vc][lane] = d;
            if (f.vd < 8) m.s.lreg[f.vd][lane] = c;
        }
    });
}

// ---- round sub-unit -----------------------------------------------------------------------------

void sfpcast(Machine& m, int thread, uint32_t word) {
    const Fields f(word);
    if (f.mod1 > 1) m.fail(thread, word, "SFPCAST Mod1=" + std::to_string(f.mod1) + " is not a Wormhole mode");
    require_no_backdoor(m, thread, word, f.vd);
    const bool stochastic = f.mod1 & 1u;
    each_lane(enabled(m), [&](int lane) {
        const uint32_t random = stochastic ? prng(m, thread).advance(lane) : 0u;
        write_lreg(m, f.vd, lane, cast_signmag_to_fp32(m.s.lreg[f.vc][lane], stochastic, random));
    });
}

void sfpstochrnd(Machine& m, int thread, uint32_t word) {
    const Fields f(word);
    const uint32_t mode = f.mod1 & 7u, vb = field(word, 12, 4), imm5 = field(word, 16, 5);
    const bool stochastic = field(word, 21, 1) != 0, use_imm = (f.mod1 & 8u) != 0;
    require_no_backdoor(m, thread, word, f.vd);
    each_lane(enabled(m), [&](int lane) {
        const uint32_t threshold = stochrnd_threshold(stochastic, stochastic ? prng(m, thread).advance(lane) : 0u);
        const uint32_t c = m.s.lreg[f.vc][lane];
        uint32_t d;
        switch (mode) {
        case kRndFp32ToFp16a:
        case kRndFp32ToFp16b: d = stochrnd_fp_to_fp(c, mode == kRndFp32ToFp16b, threshold); break;
        case kRndInt32ToUint8:
        case kRndInt32ToInt8:
            d = stochrnd_int_to_int(c, use_imm ? imm5 : m.s.lreg[vb][lane], mode == kRndInt32ToUint8, threshold);
            break;
        default: d = stochrnd_fp_to_int(c, mode, threshold); break;
        }
        write_lreg(m, f.vd, lane, d);
    });
}

// ---- configuration ------------------------------------------------------------------------------

void sfpconfig(Machine& m, int thread, uint32_t word) {
    const uint32_t imm16 = field(word, 8, 16), vd = field(word, 4, 4), mod1 = field(word, 0, 4);
    constexpr uint32_t kImmIsValue = 1, kImmIsLaneMask = 8;
    SfpuState& st = m.s.sfpu;
    if (vd <= 8) m.fail(thread, word, "SFPCONFIG of the SFPLOADMACRO configuration is not modelled");
    for (int lane = 0; lane < kLanes; ++lane) {
        const int col = lane & 7;
        if ((mod1 & kImmIsLaneMask) && !((imm16 >> (col * 2)) & 1u)) continue;
        if (((st.cc.use_flags >> col) & 1u) && !((st.cc.flags >> col) & 1u)) continue;
        const uint32_t source = m.s.lreg[0][col];
        if (vd >= 11 && vd <= 14) {
            m.s.lreg[vd][lane] = (mod1 & kImmIsValue) ? initial_lreg(vd, lane) : source;
        } else if (vd == 15) {
            const uint32_t original = st.lane_config[lane];
            const uint32_t value = ((mod1 & kImmIsValue) ? imm16 : source) & 0x3ffffu;
            uint32_t& cfg = st.lane_config[lane];
            switch (mod1 & 6u) {
            case 0: cfg = value; break;
            case 2: cfg |= value; break;
            case 4: cfg &= value; break;
            default: cfg ^= value; break;
            }
            if (mod1 & kImmIsValue) cfg |= original & ~0xffffu;
        }
        // VD 9 and 10 do nothing.
    }
}

void sfpnop(Machine&, int, uint32_t) {}

}  // namespace

TC_OPCODE(0x70, SFPLOAD, sfpload);
TC_OPCODE(0x71, SFPLOADI, sfploadi);
TC_OPCODE(0x72, SFPSTORE, sfpstore);
TC_OPCODE(0x73, SFPLUT, sfplut);
TC_OPCODE(0x74, SFPMULI, sfpmuli);
TC_OPCODE(0x75, SFPADDI, sfpaddi);
TC_OPCODE(0x76, SFPDIVP2, sfpdivp2);
TC_OPCODE(0x77, SFPEXEXP, sfpexexp);
TC_OPCODE(0x78, SFPEXMAN, sfpexman);
TC_OPCODE(0x79, SFPIADD, sfpiadd);
TC_OPCODE(0x7a, SFPSHFT, sfpshft);
TC_OPCODE(0x7b, SFPSETCC, sfpsetcc);
TC_OPCODE(0x7c, SFPMOV, sfpmov);
TC_OPCODE(0x7d, SFPABS, sfpabs);
TC_OPCODE(0x7e, SFPAND, sfpand);
TC_OPCODE(0x7f, SFPOR, sfpor);
TC_OPCODE(0x80, SFPNOT, sfpnot);
TC_OPCODE(0x81, SFPLZ, sfplz);
TC_OPCODE(0x82, SFPSETEXP, sfpsetexp);
TC_OPCODE(0x83, SFPSETMAN, sfpsetman);
TC_OPCODE(0x84, SFPMAD, sfpmad);
TC_OPCODE(0x85, SFPADD, sfpmad);
TC_OPCODE(0x86, SFPMUL, sfpmad);
TC_OPCODE(0x87, SFPPUSHC, sfppushc);
TC_OPCODE(0x88, SFPPOPC, sfppopc);
TC_OPCODE(0x89, SFPSETSGN, sfpsetsgn);
TC_OPCODE(0x8a, SFPENCC, sfpencc);
TC_OPCODE(0x8b, SFPCOMPC, sfpcompc);
TC_OPCODE(0x8c, SFPTRANSP, sfptransp);
TC_OPCODE(0x8d, SFPXOR, sfpxor);
TC_OPCODE(0x8e, SFP_STOCH_RND, sfpstochrnd);
TC_OPCODE(0x8f, SFPNOP, sfpnop);
TC_OPCODE(0x90, SFPCAST, sfpcast);
TC_OPCODE(0x91, SFPCONFIG, sfpconfig);
TC_OPCODE(0x92, SFPSWAP, sfpswap);
TC_OPCODE(0x93, SFPLOADMACRO, sfploadmacro);
TC_OPCODE(0x94, SFPSHFT2, sfpshft2);
TC_OPCODE(0x95, SFPLUTFP32, sfplutfp32);

}  // namespace tc_tensix
