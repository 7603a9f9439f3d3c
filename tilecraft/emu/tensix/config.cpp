// Configuration Unit and Scalar Unit (ThCon) register instructions: WRCFG, RDCFG, SETC16, RMWCIB0-3,
// CFGSHIFTMASK (Blackhole)
// (ConfigurationUnit.md), the GPR ("DMA register") arithmetic SETDMAREG .. CMPDMAREG, LOADREG,
// STOREREG, and the NOPs/FLUSHDMA (ScalarUnit.md). Functional models: each instruction's page in
// the ISA documentation; units complete at issue, so FLUSHDMA has nothing left to wait for.
#include <cstring>
#include <string>

#include "cfg_defines.h"
#include "machine.h"

namespace tc_tensix {

namespace {

uint32_t& gpr(Machine& m, int thread, uint32_t index) { return m.s.gpr[thread][index & (kGprs - 1)]; }

// WRCFG: Config[StateID][CfgIndex] = GPR (or 4 GPRs into 4 aligned words when Is128Bit).
void wrcfg(Machine& m, int thread, uint32_t word) {
    const uint32_t reg = field(word, 16, 6), wide = field(word, 15, 1), index = field(word, 0, 11);
    if (wide != 0) {
        for (uint32_t i = 0; i < 4; ++i) m.cfg_word(thread, (index & ~3u) + i) = gpr(m, thread, (reg & ~3u) + i);
    } else {
        m.cfg_word(thread, index) = gpr(m, thread, reg);
    }
}

// RDCFG: GPR = Config[StateID][CfgIndex].
void rdcfg(Machine& m, int thread, uint32_t word) {
    gpr(m, thread, field(word, 16, 6)) = m.cfg_word(thread, field(word, 0, 11));
}

// SETC16: ThreadConfig[thread][CfgIndex] = 16-bit value (CFG_STATE_ID among them).
void setc16(Machine& m, int thread, uint32_t word) {
    const uint32_t index = field(word, 16, 8);
    if (index >= THD_STATE_SIZE) m.fail(thread, word, "SETC16 index is outside the thread config (THD_STATE_SIZE)");
    m.thread_cfg_word(thread, index) = field(word, 0, 16);
}

// RMWCIB<n>: byte n of Config[StateID][Index4] = (NewValue & Mask) | (old & ~Mask).
void rmwcib(Machine& m, int thread, uint32_t word) {
    const uint32_t byte = opcode_of(word) - 0xb3u;
    const uint32_t mask = field(word, 16, 8), value = field(word, 8, 8);
    uint32_t& w = m.cfg_word(thread, field(word, 0, 8));
    const uint32_t old = (w >> (8 * byte)) & 0xffu;
    const uint32_t merged = (value & mask) | (old & ~mask & 0xffu);
    w = (w & ~(0xffu << (8 * byte))) | (merged << (8 * byte));
}

// SETDMAREG: the immediate form writes a 16-bit half of a GPR; the special form (packer tile
// headers, exponent histograms) reads packer state that is not modelled.
void setdmareg(Machine& m, int thread, uint32_t word) {
    if (field(word, 7, 1) != 0)
        m.fail(thread, word, "SETDMAREG's special form (packer tile header / histogram values) is not modelled");
    const uint32_t half = field(word, 0, 7), value = field(word, 8, 16);
    uint32_t& r = gpr(m, thread, half >> 1);
    const uint32_t shift = 16u * (half & 1u);
    r = (r & ~(0xffffu << shift)) | (value << shift);
}

// The two-operand GPR instructions: Left = GPR[bits 0..5], Right = GPR[bits 6..11] or the
// immediate in those bits (OpBisConst), Result -> GPR[bits 12..17], Mode in bits 18..20.
struct GprOperands {
    uint32_t left, right, result, mode;
};
GprOperands gpr_operands(Machine& m, int thread, uint32_t word) {
    const uint32_t right_field = field(word, 6, 6);
    return GprOperands{gpr(m, thread, field(word, 0, 6)),
                       field(word, 23, 1) != 0 ? right_field : gpr(m, thread, right_field), field(word, 12, 6),
                       field(word, 18, 3)};
}

void adddmareg(Machine& m, int thread, uint32_t word) {
    const GprOperands o = gpr_operands(m, thread, word);
    gpr(m, thread, o.result) = o.left + o.right;
}
void subdmareg(Machine& m, int thread, uint32_t word) {
    const GprOperands o = gpr_operands(m, thread, word);
    gpr(m, thread, o.result) = o.left - o.right;
}
void muldmareg(Machine& m, int thread, uint32_t word) {
    const GprOperands o = gpr_operands(m, thread, word);
    gpr(m, thread, o.result) = (o.left & 0xffffu) * (o.right & 0xffffu);
}
void shiftdmareg(Machine& m, int thread, uint32_t word) {
    GprOperands o = gpr_operands(m, thread, word);
    o.right &= 0x1fu;
    if (o.mode > 1) m.fail(thread, word, "SHIFTDMAREG mode " + std::to_string(o.mode) + " is undefined");
    gpr(m, thread, o.result) = o.mode == 0 ? o.left << o.right : o.left >> o.right;
}
void bitwopdmareg(Machine& m, int thread, uint32_t word) {
    const GprOperands o = gpr_operands(m, thread, word);
    if (o.mode > 2) m.fail(thread, word, "BITWOPDMAREG mode " + std::to_string(o.mode) + " is undefined");
    gpr(m, thread, o.result) = o.mode == 0 ? (o.left & o.right) : o.mode == 1 ? (o.left | o.right) : (o.left ^ o.right);
}
void cmpdmareg(Machine& m, int thread, uint32_t word) {
    const GprOperands o = gpr_operands(m, thread, word);
    if (o.mode > 2) m.fail(thread, word, "CMPDMAREG mode " + std::to_string(o.mode) + " is undefined");
    const bool r = o.mode == 0 ? o.left > o.right : o.mode == 1 ? o.left < o.right : o.left == o.right;
    gpr(m, thread, o.result) = r ? 1u : 0u;
}

// LOADREG/STOREREG: a GPR from/to the word at 0xFFB00000 + AddrLo*4 (>= 0xFFB11000), through the
// same memory map the RISC sees.
constexpr uintptr_t kRegWindowBase = 0xFFB00000u, kRegWindowFirstValid = 0xFFB11000u;
volatile uint32_t* reg_window_word(Machine& m, int thread, uint32_t word) {
    const uintptr_t addr = kRegWindowBase + (uintptr_t(field(word, 0, 18)) << 2);
    if (addr < kRegWindowFirstValid) m.fail(thread, word, "address below 0xFFB11000 (undefined for LOADREG/STOREREG)");
    return static_cast<volatile uint32_t*>(device_address(m, thread, addr, 4));
}
void loadreg(Machine& m, int thread, uint32_t word) { gpr(m, thread, field(word, 18, 6)) = *reg_window_word(m, thread, word); }
void storereg(Machine& m, int thread, uint32_t word) { *reg_window_word(m, thread, word) = gpr(m, thread, field(word, 18, 6)); }

void no_operation(Machine&, int, uint32_t) {}

#ifdef SCRATCH_SEC0_val_ADDR32  // Blackhole's config space has the three scratch words
// CFGSHIFTMASK (Blackhole; the functional model in tt_llk_blackhole's assembly.yaml):
// Config[StateID][CfgReg] = op(old, rotr(scratch, shift) & rotr(mask, shift)), where scratch is
// SCRATCH_SEC<ScratchSel> (0b11: the issuing thread's) and old is masked by ~rotr(mask, shift)
// unless disable_mask_on_old_val. The LLK uses it to step an L1 address by a preloaded increment.
uint32_t rotate_right(uint32_t x, uint32_t n) { return n == 0 ? x : (x >> n) | (x << (32 - n)); }

void cfgshiftmask(Machine& m, int thread, uint32_t word) {
    const uint32_t reg = field(word, 0, 8), select = field(word, 8, 2), shift = field(word, 10, 5);
    const uint32_t width = field(word, 15, 5) + 1, operation = field(word, 20, 3), keep_old = field(word, 23, 1);
    if (operation > 3)
        m.fail(thread, word, "CFGSHIFTMASK operation " + std::to_string(operation) +
                                 " is not modelled (0 OR, 1 AND, 2 XOR, 3 add are)");
    const uint32_t scratch_index = select == 3 ? uint32_t(thread) : select;
    const uint32_t mask = rotate_right(width == 32 ? 0xffffffffu : (1u << width) - 1u, shift);
    const uint32_t operand = rotate_right(m.cfg_word(thread, SCRATCH_SEC0_val_ADDR32 + scratch_index), shift) & mask;
    uint32_t& target = m.cfg_word(thread, reg);
    const uint32_t old = keep_old ? target : target & ~mask;
    switch (operation) {
        case 0: target = old | operand; break;
        case 1: target = old & operand; break;
        case 2: target = old ^ operand; break;
        default: target = old + operand; break;
    }
}
#endif

}  // namespace

TC_OPCODE(0xb0, WRCFG, wrcfg);
TC_OPCODE(0xb1, RDCFG, rdcfg);
TC_OPCODE(0xb2, SETC16, setc16);
TC_OPCODE(0xb3, RMWCIB0, rmwcib);
TC_OPCODE(0xb4, RMWCIB1, rmwcib);
TC_OPCODE(0xb5, RMWCIB2, rmwcib);
TC_OPCODE(0xb6, RMWCIB3, rmwcib);
TC_OPCODE(0x45, SETDMAREG, setdmareg);
TC_OPCODE(0x58, ADDDMAREG, adddmareg);
TC_OPCODE(0x59, SUBDMAREG, subdmareg);
TC_OPCODE(0x5a, MULDMAREG, muldmareg);
TC_OPCODE(0x5b, BITWOPDMAREG, bitwopdmareg);
TC_OPCODE(0x5c, SHIFTDMAREG, shiftdmareg);
TC_OPCODE(0x5d, CMPDMAREG, cmpdmareg);
TC_OPCODE(0x68, LOADREG, loadreg);
TC_OPCODE(0x67, STOREREG, storereg);
TC_OPCODE(kOpNop, NOP, no_operation);
TC_OPCODE(0x60, DMANOP, no_operation);
TC_OPCODE(0x46, FLUSHDMA, no_operation);  // units complete at issue: nothing is outstanding
#ifdef SCRATCH_SEC0_val_ADDR32
TC_OPCODE_ON(Arch::Blackhole, 0xb8, CFGSHIFTMASK, cfgshiftmask);
#endif

}  // namespace tc_tensix
