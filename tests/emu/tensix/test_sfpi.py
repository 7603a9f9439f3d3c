"""Our sfpi.h (tilecraft/emu/tensix/sfpi): SFPI code on the Tensix machine.

Hand-written SFPI kernels check predication (nested v_if / v_elseif / v_else, v_block / v_and,
predicated Dst stores) against the SFPENCC/SFPPUSHC/SFPCOMPC/SFPPOPC semantics and the coherence
of sfpi values with raw TTI_SFP* instructions; unmodelled parts of the interface must fail to
compile with a message naming them.
"""

from __future__ import annotations

import struct



# A test main: one Machine bound as the current one on the math thread, SFPU in FP32 mode, and
# Dst helpers (dst_reg[i] covers 4 rows of even (i even) or odd (i odd) columns).
PRELUDE = r'''
#include <cstdio>
#include <cstdint>
#include <cstring>
#include "machine.h"
#include "current_machine.h"
#include "cfg_defines.h"
#include "ckernel_ops.h"
// Instruction issue of raw TTI_ instructions in this host test (the machine include tree's job in
// kernel builds): the current TRISC issues the word.
#undef TTI_INSN
#undef TT_INSN
#define TTI_INSN(E) ::tc_tensix::current_machine().issue(::tc_tensix::current_thread(), unsigned(E))
#define TT_INSN(E) TTI_INSN(E)
#include "sfpi.h"

using namespace tc_tensix;

static float f32(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
static uint32_t u32(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }

// FP32 lane value of dst_reg[index] with the Dst counter at 0 (Dst keeps FP32 as
// Sign,ManHi,Exp,ManLo: sfpu_ops.h converts).
static uint32_t dst_row(int index, int lane) { return uint32_t((index * 2) & ~3) + uint32_t(lane / 8); }
static uint32_t dst_col(int index, int lane) { return uint32_t((lane & 7) * 2 + (index & 1)); }
static uint32_t dst_lane(Machine& m, int index, int lane) {
    return tc_tensix::fp32_from_dst32(m.dst32_read(dst_row(index, lane), dst_col(index, lane)));
}
static void set_dst_lane(Machine& m, int index, int lane, uint32_t v) {
    m.dst32_write(dst_row(index, lane), dst_col(index, lane), tc_tensix::dst32_from_fp32(v));
}
static void sfpu_fp32(Machine& m) {
    m.cfg_word(kMath, ALU_ACC_CTRL_SFPU_Fp32_enabled_ADDR32) |= 1u << ALU_ACC_CTRL_SFPU_Fp32_enabled_SHAMT;
}
'''

INPUTS = [-10.0, -8.5, -8.0, -1.0, -0.0, 0.0, 1.0, 2.0, 3.0, 3.9, 4.0, 5.0, 6.0, 9.99, 10.0, 11.0,
          -3.0, 2.5, 7.0, 0.5, -0.5, 1.5, 3.5, 6.0, 12.0, -9.0, 8.0, 1.25, 0.75, -7.0, 100.0, -100.0]


def _nested_expected(x: float, negative_zero: bool) -> float:
    """The nested-conditional kernel below, with the device's `x < 0.0f` (SFPSETCC on the sign bit)."""
    if x < 0 or negative_zero:
        return 2.0 if x < -8.0 else 1.0
    if x < 4.0:
        return 3.0
    if x >= 10.0:
        return 5.0
    return 6.0 if x == 6.0 else 4.0


def test_nested_predication_and_predicated_stores(tensix_unit_test):
    inputs = ", ".join(f"{v!r}f" for v in INPUTS)
    out = tensix_unit_test(PRELUDE + r'''
using namespace sfpi;
static const float kInputs[32] = {''' + inputs + r'''};

// A hand-written SFPU kernel: nested v_if / v_elseif / v_else, a v_block with two v_and, and a
// store to Dst inside a conditional.
static void kernel() {
    vFloat x = dst_reg[0];
    vFloat y = -1.0f;
    v_if (x < 0.0f) {
        y = 1.0f;
        v_if (x < -8.0f) { y = 2.0f; }
        v_endif;
    }
    v_elseif (x < 4.0f) { y = 3.0f; }
    v_else {
        y = 4.0f;
        v_if (x >= 10.0f) { y = 5.0f; }
        v_elseif (x == 6.0f) { y = 6.0f; }
        v_endif;
    }
    v_endif;
    dst_reg[0] = y;

    vFloat z = 0.0f;
    v_block {
        v_and (x > 1.0f);
        v_and (x < 8.0f);
        z = x * 2.0f;
    }
    v_endblock;
    dst_reg[2] = z;

    v_if (x > 5.0f) { dst_reg[1] = x + 0.5f; }   // other lanes keep the sentinel
    v_endif;
}

int main() {
    Machine m;
    CurrentMachineScope bind(m, kMath);
    sfpu_fp32(m);
    for (int lane = 0; lane < 32; ++lane) {
        set_dst_lane(m, 0, lane, u32(kInputs[lane]));
        set_dst_lane(m, 1, lane, 0xdeadbeefu);
    }
    kernel();
    for (int lane = 0; lane < 32; ++lane)
        std::printf("%g %g %08x\n", f32(dst_lane(m, 0, lane)), f32(dst_lane(m, 2, lane)), dst_lane(m, 1, lane));
    const auto& cc = m.s.sfpu.cc;
    std::printf("depth=%d use=%08x flags=%08x\n", cc.depth, cc.use_flags, cc.flags);
}
''')
    lines = out.splitlines()
    for lane, x in enumerate(INPUTS):
        y, z, stored = lines[lane].split()
        negative_zero = struct.pack("<f", x) == struct.pack("<f", -0.0)
        assert float(y) == _nested_expected(x, negative_zero), (lane, x, y)
        assert float(z) == (x * 2.0 if 1.0 < x < 8.0 else 0.0), (lane, x, z)
        expected_store = struct.unpack("<I", struct.pack("<f", x + 0.5))[0] if x > 5.0 else 0xDEADBEEF
        assert int(stored, 16) == expected_store, (lane, x, stored)
    # Every level popped; the outermost v_if left lane flags enabled and all lanes on.
    assert lines[32] == "depth=0 use=ffffffff flags=ffffffff"


def test_sfpi_and_raw_tti_share_lregs_predication_and_constants(tensix_unit_test):
    out = tensix_unit_test(PRELUDE + r'''
using namespace sfpi;
int main() {
    Machine m;
    CurrentMachineScope bind(m, kMath);
    sfpu_fp32(m);
    for (int lane = 0; lane < 32; ++lane) set_dst_lane(m, 0, lane, u32(float(lane) - 16.0f));

    // 1. A raw SFPLOADI into LReg0 is what l_reg[LReg0] reads.
    TTI_SFPLOADI(0, SFPLOADI_MOD0_FLOATB, 0x4040);                 // LReg0 = 3.0
    vFloat three = l_reg[LRegs::LReg0];
    // 2. An l_reg write is what a raw SFPMAD reads: LReg2 = LReg1 * LReg1 + LReg9 (0.0).
    vFloat x = dst_reg[0];
    l_reg[LRegs::LReg1] = x + three;
    TTI_SFPMAD(1, 1, 9, 2, 0);
    vFloat squared = l_reg[LRegs::LReg2];
    // 3. A constant written through sfpi (SFPCONFIG) is what a raw instruction reads, and back.
    vConstFloatPrgm0 = 2.5f;                                       // LReg12
    TTI_SFPMAD(12, 0, 9, 3, 0);                                    // LReg3 = 2.5 * 3.0
    vFloat seven_half = l_reg[LRegs::LReg3];
    // 4. dst_reg loads/stores do not disturb a kernel's LRegs (LReg7 is their scratch).
    TTI_SFPLOADI(7, SFPLOADI_MOD0_FLOATB, 0x4120);                 // LReg7 = 10.0
    dst_reg[1] = squared;
    vFloat back = dst_reg[1];
    vFloat ten = l_reg[LRegs::LReg7];
    dst_reg[2] = back + seven_half + ten;
    // 5. Raw predication governs sfpi assignments: enable flags, set them where LReg1 < 0.
    TTI_SFPENCC(3, 0, 0, 10);
    TTI_SFPSETCC(0, 1, 0, SFPSETCC_MOD1_LREG_LT0);
    dst_reg[3] = 7.0f;
    TTI_SFPENCC(0, 0, 0, 2);                                       // lane flags off again: all lanes
    for (int lane = 0; lane < 32; ++lane)
        std::printf("%g %g %08x\n", f32(dst_lane(m, 1, lane)), f32(dst_lane(m, 2, lane)), dst_lane(m, 3, lane));
}
''')
    for lane, line in enumerate(out.splitlines()):
        x = float(lane) - 16.0
        squared, total, predicated = line.split()
        assert float(squared) == (x + 3.0) ** 2
        assert float(total) == (x + 3.0) ** 2 + 7.5 + 10.0
        assert int(predicated, 16) == (0x40E00000 if x + 3.0 < 0 else 0)
