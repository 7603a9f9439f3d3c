"""The Tensix machine built for Blackhole (tilecraft/emu/tensix/arch.h): where Blackhole's encodings
and units differ from Wormhole B0's, against the facts of tt_llk_blackhole's ckernel_ops.h /
assembly.yaml and ttsim's Blackhole model.

One C++ program (one compile, with the machine built for Blackhole) issues each instruction with
the Blackhole wheel's own ``TT_OP_*`` macros and prints what changed; each test checks one
difference against the value the Wormhole reading of the same word would not give.
"""

from __future__ import annotations

import pytest

_CPP = r'''
#include <cstdio>
#include <stdexcept>
#include <vector>
#include "cfg_defines.h"
#include "ckernel_ops.h"
#include "datum_layout.h"
#include "machine.h"
#include "current_machine.h"
#undef TTI_INSN
#undef TT_INSN
#define TTI_INSN(E) ::tc_tensix::current_machine().issue(::tc_tensix::current_thread(), unsigned(E))
#define TT_INSN(E) TTI_INSN(E)
#include "sfpi/sfpi.h"
using namespace tc_tensix;

static void set_field(uint32_t& word, uint32_t shamt, uint32_t mask, uint32_t v) { word = (word & ~mask) | ((v << shamt) & mask); }
#define SET_THREAD(m, t, NAME, v) set_field((m).thread_cfg_word((t), NAME##_ADDR32), NAME##_SHAMT, NAME##_MASK, (v))
#define SET_CFG(m, t, NAME, v) set_field((m).cfg_word((t), NAME##_ADDR32), NAME##_SHAMT, NAME##_MASK, (v))

static void expect_failure(const char* tag, Machine& m, int thread, uint32_t word) {
    try {
        m.issue(thread, word);
        std::printf("%s no error\n", tag);
    } catch (const std::runtime_error& e) {
        std::printf("%s %s\n", tag, e.what());
    }
}

// ADDR_MOD sets 1, 2, 5, 6 with distinct Dst increments: a 3-bit AddrMode read as Wormhole's 2 bits
// at bit 15 would pick another set.
static void addr_mod_sets(Machine& m) {
    SET_THREAD(m, kMath, ADDR_MOD_DST_SEC1_DestIncr, 3);
    SET_THREAD(m, kMath, ADDR_MOD_DST_SEC2_DestIncr, 11);
    SET_THREAD(m, kMath, ADDR_MOD_DST_SEC5_DestIncr, 7);
    SET_THREAD(m, kMath, ADDR_MOD_DST_SEC6_DestIncr, 5);
}

static void math_unit() {
    Machine m;
    addr_mod_sets(m);
    for (int r = 0; r < 64; ++r) for (int c = 0; c < 16; ++c) m.s.dst[r][c] = 0x1111;
    m.issue(kMath, TT_OP_ZEROACC(1, 0, 0, 5, 2));  // CLR_16 of 16-row block 2, AddrMode 5
    std::printf("zeroacc %x %x %x %u\n", m.s.dst[31][0], m.s.dst[32][0] | m.s.dst[47][15], m.s.dst[48][0], m.s.rwc[kMath].dst);
    // SFPSTORE as SM32 then SFPLOAD as INT32: Blackhole moves SM32 raw (Wormhole converts sign-magnitude).
    for (int lane = 0; lane < 32; ++lane) m.s.lreg[1][lane] = 0x80000005u;
    m.s.rwc[kMath].dst = 0;
    m.issue(kMath, TT_OP_SFPSTORE(1, 12, 0, 0));
    m.issue(kMath, TT_OP_SFPLOAD(2, 4, 6, 0));  // AddrMode 6 at bits 13..15
    std::printf("sfpload %x %u\n", m.s.lreg[2][0], m.s.rwc[kMath].dst);
}

// MOVB2A: AddrMode at bits 14..16, instr_mod at 12..13. AddrMode 7 (the LLK's topk) sets bit 14,
// which a 3-bit instr_mod (Wormhole's field) would read as part of the modifier.
static void movb2a_fields() {
    Machine m;
    SET_THREAD(m, kMath, ADDR_MOD_AB_SEC7_SrcAIncr, 4);
    SET_THREAD(m, kMath, ADDR_MOD_AB_SEC7_SrcBIncr, 8);
    for (uint32_t r = 0; r < 64; ++r)  // mantissa r, exponent c + 1
        for (uint32_t c = 0; c < 16; ++c) m.s.srcb[0].row[r][c] = 0x100 * r + c + 1;
    m.s.srcb[0].dvalid = true;
    m.issue(kMath, TT_OP_MOVB2A(0, 7, 2, 16));  // SrcB rows 16..19 to SrcA rows 0..3
    m.issue(kMath, TT_OP_MOVB2A(1, 7, 0, 1));   // one row: SrcB 1 + 8 to SrcA 1 + 4
    const SrcBank& a = m.s.srca[0];
    std::printf("movb2a %x %x %x %x %u %u\n", a.row[0][0], a.row[3][15], a.row[5][0], a.row[4][0], m.s.rwc[kMath].srca,
                m.s.rwc[kMath].srcb);
    expect_failure("movb2a_mod1", m, kMath, TT_OP_MOVB2A(0, 7, 1, 0));
}

static void mop_counts() {
    Machine m;
    m.s.mop_cfg[kUnpack][0] = 1000;  // outer count past Wormhole's seven bits
    m.s.mop_cfg[kUnpack][1] = 1;
    for (int i = 2; i < 9; ++i) m.s.mop_cfg[kUnpack][i] = TT_OP_NOP;
    expect_failure("mop_wide", m, kUnpack, TT_OP_MOP(1, 0, 0));
}

static void sync_unit() {
    Machine m;
    // SrcA is with the unpacker: Blackhole's SRCA_VLD (bit 7) waits, Wormhole's (bit 10, TRISC_CFG here) does not.
    expect_failure("stall_srca_vld", m, kMath, TT_OP_STALLWAIT(0, 1u << 7));
    expect_failure("stall_bit10", m, kMath, TT_OP_STALLWAIT(0, 1u << 10));
}

static void unpack_nop() {
    Machine m;
    m.s.srca[0].row[3][4] = 0x123;
    // Set_Dvalid with a clear (Unpack_Pop 1) waiting for the unpacker's own bank (Stall_Clr_Cntrl).
    m.issue(kUnpack, TT_OP_UNPACR_NOP(0, 0, 0, 1, 0, 1, 0, 0, 1));
    std::printf("nop_dvalid %x %d %d\n", m.s.srca[0].row[3][4], int(m.s.srca[0].dvalid), m.s.srca_unpack_bank);
    m.issue(kUnpack, TT_OP_UNPACR_NOP(0, 0, 0, 0, 0, 1, 0, 1, 1));  // clear bank 1 to -inf
    std::printf("nop_neginf %x %d\n", m.s.srca[1].row[63][15], int(m.s.srca[1].dvalid));
    expect_failure("nop_pop0", m, kUnpack, TT_OP_UNPACR_NOP(0, 0, 0, 0, 0, 0, 0, 0, 0));
    // Bank_Clr_Ctrl (custom matmul's SrcB clear): waits for both SrcB banks, then clears both.
    m.s.srcb[0].row[0][0] = 0x111; m.s.srcb[1].row[63][15] = 0x222;
    m.s.srcb[1].dvalid = true;
    expect_failure("nop_both_busy", m, kUnpack, TT_OP_UNPACR_NOP(1, 0, 0, 0, 0, 0, 1, 0, 1));
    m.s.srcb[1].dvalid = false;
    m.issue(kUnpack, TT_OP_UNPACR_NOP(1, 0, 0, 0, 0, 0, 1, 0, 1));
    std::printf("nop_both %x %x %d\n", m.s.srcb[0].row[0][0], m.s.srcb[1].row[63][15], m.s.srcb_unpack_bank);
    expect_failure("nop_both_dvalid", m, kUnpack, TT_OP_UNPACR_NOP(1, 0, 0, 1, 0, 0, 1, 0, 1));
}

// One bf16 row of 16 datums unpacked to SrcA with the channel-1 Z counter past the bank (Zstride 8
// rows): Blackhole keeps the row address's low six bits (ttsim's unpacker), so output row
// 4 + 9 * 8 lands, after the four skipped rows, on row 72 & 63 = 8 of the same bank.
static void unpack_srca_row_wraps() {
    std::vector<uint8_t> l1(1 << 14, 0);
    for (uint32_t c = 0; c < 16; ++c) l1[0x1000 + 2 * c] = uint8_t(c + 1), l1[0x1001 + 2 * c] = 0x3f;
    Machine m;
    m.s.l1 = l1.data(); m.s.l1_size = l1.size();
    m.cfg_word(kUnpack, THCON_SEC0_REG0_TileDescriptor_ADDR32) = 5u | (1u << 4);  // Float16_b, uncompressed
    m.cfg_word(kUnpack, THCON_SEC0_REG0_TileDescriptor_ADDR32 + 1) = 1u | (1u << 16);
    SET_CFG(m, kUnpack, THCON_SEC0_REG2_Out_data_format, 5);
    SET_CFG(m, kUnpack, THCON_SEC0_REG2_Disable_zero_compress_cntx0, 1);
    SET_CFG(m, kUnpack, THCON_SEC0_REG5_Tile_x_dim_cntx0, 16);
    SET_CFG(m, kUnpack, THCON_SEC0_REG5_Dest_cntx0_address, 4 * 16);
    SET_CFG(m, kUnpack, UNP0_ADD_DEST_ADDR_CNTR_add_dest_addr_cntr, 1);
    SET_CFG(m, kUnpack, UNP0_ADDR_CTRL_ZW_REG_1_Zstride, 8 * 16 * 2);
    m.cfg_word(kUnpack, THCON_SEC0_REG3_Base_address_ADDR32) = 0x1000 / 16 - 1;
    SET_THREAD(m, kUnpack, SRCA_SET_SetOvrdWithAddr, 1);
    m.issue(kUnpack, TT_OP_SETADCXX(0b001, 15, 0));
    m.issue(kUnpack, TT_OP_SETADC(0b001, 1, 2, 9));  // channel 1 Z = 9 (SETADCZW's fields are 3 bits)
    m.issue(kUnpack, TT_OP_UNPACR(0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1));
    const SrcBank& bank = m.s.srca[m.s.srca_unpack_bank];
    std::printf("srca_wrap %x %x %x\n", bank.row[8][0], bank.row[8][15], bank.row[7][0] | bank.row[9][0]);
}

// SETADC with ThreadOverride sets another thread's counter to the low 16 bits of its value (the
// face-compressed matmul's channel-1 X end of the borrowed math and pack ADCs).
static void setadc_thread_override() {
    Machine m;
    m.issue(kUnpack, TT_OP_SETADC(0b001, 1, 0, (3u << 16) | 255u));  // pack thread's unpacker 0, channel 1 X
    std::printf("setadc_x %u %u\n", m.s.adc[kPack].unpacker[0][1].x, m.s.adc[kUnpack].unpacker[0][1].x);
}

// Blackhole's one packer, configured for bf16 from Dst16b rows 0..63 (row r, column c holds the
// bf16 bits 0x3f80 + 16 r + c) into L1 at 0x1000.
static void bf16_packer(Machine& m, std::vector<uint8_t>& l1) {
    m.s.l1 = l1.data(); m.s.l1_size = l1.size();
    for (uint32_t r = 0; r < 64; ++r)
        for (uint32_t c = 0; c < 16; ++c) {
            const uint32_t x = 0x3f80 + r * 16 + c;  // bf16, in Dst16b's sign | mantissa | exponent layout
            m.s.dst[r][c] = uint16_t((x & 0x8000) | ((x & 0x7f) << 8) | ((x >> 7) & 0xff));
        }
    SET_CFG(m, kPack, ALU_FORMAT_SPEC_REG2_Dstacc, 5);
    SET_CFG(m, kPack, THCON_SEC0_REG1_In_data_format, 5);
    SET_CFG(m, kPack, THCON_SEC0_REG1_Out_data_format, 5);
    SET_CFG(m, kPack, THCON_SEC0_REG1_Disable_zero_compress, 1);
    SET_CFG(m, kPack, THCON_SEC0_REG1_L1_Dest_addr, 0x1000 / 16 - 1);
    SET_CFG(m, kPack, PCK0_ADDR_CTRL_XY_REG_0_Xstride, 2);
    SET_CFG(m, kPack, PCK0_ADDR_CTRL_XY_REG_0_Ystride, 32);  // one Dst row per ADC Y
    SET_CFG(m, kPack, PCK_EDGE_OFFSET_SEC0_mask, 0xffff);
    SET_CFG(m, kPack, PACK_COUNTERS_SEC0_pack_reads_per_xy_plane, 1);
    m.issue(kPack, TT_OP_SETADCXX(0b100, 15, 0));
}

static void print_l1_halfwords(const char* tag, const std::vector<uint8_t>& l1, uint32_t n, uint32_t at = 0x1000) {
    std::printf("%s", tag);
    for (uint32_t k = 0; k < n; ++k) std::printf(" %x", l1[at + 2 * k] | (l1[at + 1 + 2 * k] << 8));
    std::printf("\n");
}

// The read interfaces ReadIntfSel selects: interface j reads row j of each group of four (ttsim's
// packer), 16 datums each here.
static void pack_interfaces(uint32_t read_intf_sel, const char* tag) {
    std::vector<uint8_t> l1(1 << 14, 0xab);
    Machine m;
    bf16_packer(m, l1);
    m.issue(kPack, TT_OP_PACR(0, 0, 0, 0, 0, 0, read_intf_sel, 0, 0, 0, 0, 1));
    print_l1_halfwords(tag, l1, 66);
}

// DstAccessMode (strided reads, BlackholeA0 PACR.md): the interfaces read rows 16 apart from the
// start row (ADC Y = 3 here, not a multiple of four), given Dst.md's remap_addrs and swizzle_32b.
static void pack_strided(uint32_t read_intf_sel, bool remap, const char* tag) {
    std::vector<uint8_t> l1(1 << 14, 0xab);
    Machine m;
    bf16_packer(m, l1);
    SET_CFG(m, kPack, DEST_ACCESS_CFG_remap_addrs, remap);
    SET_CFG(m, kPack, DEST_ACCESS_CFG_swizzle_32b, remap);
    m.issue(kPack, TT_OP_SETADCXY(0b100, 0, 0, 3, 0, 0b0010));
    const uint32_t word = TT_OP_PACR(0, 0, 1, 0, 0, 0, read_intf_sel, 0, 0, 0, 0, 1);
    try {
        m.issue(kPack, word);
        print_l1_halfwords(tag, l1, 66);
    } catch (const std::runtime_error& e) {
        std::printf("%s %s\n", tag, e.what());
    }
}

// The output ADC's Y (channel 1) times PCK0_ADDR_CTRL_XY_REG_1_Ystride, in bytes, moves a new
// stream's start: Y = 2 with a 64-byte stride starts row 0's 16 datums at 0x1080.
static void pack_output_row_stride() {
    std::vector<uint8_t> l1(1 << 14, 0xab);
    Machine m;
    bf16_packer(m, l1);
    SET_CFG(m, kPack, PCK0_ADDR_CTRL_XY_REG_1_Ystride, 64);
    m.issue(kPack, TT_OP_SETADCXY(0b100, 2, 0, 0, 0, 0b1000));
    m.issue(kPack, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    print_l1_halfwords("out_row_stride", l1, 66, 0x1080 - 4);
}

// The strided mode in the Dst32b view (Read_32b_data): two interfaces from row 1 read rows 1 and 17.
static void pack_strided_fp32() {
    std::vector<uint8_t> l1(1 << 14, 0xab);
    Machine m;
    bf16_packer(m, l1);
    for (uint32_t r = 0; r < 32; ++r)
        for (uint32_t c = 0; c < 16; ++c) m.dst32_write(r, c, dst32_from_fp32(0x3f800000u + (r << 8) + c));
    SET_CFG(m, kPack, ALU_FORMAT_SPEC_REG2_Dstacc, 0);
    SET_CFG(m, kPack, THCON_SEC0_REG1_In_data_format, 0);
    SET_CFG(m, kPack, THCON_SEC0_REG1_Out_data_format, 0);
    SET_CFG(m, kPack, PCK_DEST_RD_CTRL_Read_32b_data, 1);
    SET_CFG(m, kPack, PCK0_ADDR_CTRL_XY_REG_0_Xstride, 4);
    SET_CFG(m, kPack, PCK0_ADDR_CTRL_XY_REG_0_Ystride, 64);
    SET_CFG(m, kPack, DEST_ACCESS_CFG_remap_addrs, 1);
    SET_CFG(m, kPack, DEST_ACCESS_CFG_swizzle_32b, 1);
    m.issue(kPack, TT_OP_SETADCXY(0b100, 0, 0, 1, 0, 0b0010));
    m.issue(kPack, TT_OP_PACR(0, 0, 1, 0, 0, 0, 0b0011, 0, 0, 0, 0, 1));
    std::printf("strided_fp32");
    for (uint32_t k = 0; k < 33; ++k) {
        uint32_t v = 0;
        for (uint32_t b = 0; b < 4; ++b) v |= uint32_t(l1[0x1000 + 4 * k + b]) << (8 * b);
        std::printf(" %x", v);
    }
    std::printf("\n");
}

// Round_10b_mant from Dst32b into an FP16 intermediate (Blackhole only; ttsim's model): the fp32
// mantissa rounded half away to 10 bits, then rebiased with saturation / signed zero.
static void pack_round_10b_fp16() {
    std::vector<uint8_t> l1(1 << 14, 0xab);
    Machine m;
    m.s.l1 = l1.data(); m.s.l1_size = l1.size();
    const uint32_t in[4] = {0x3f801000u, 0x49742400u, 0xaedbe6ffu, 0x7fc00000u};  // 1+2^-11, 1e6, -1e-10, NaN
    for (uint32_t c = 0; c < 16; ++c) m.dst32_write(0, c, dst32_from_fp32(in[c % 4]));
    SET_CFG(m, kPack, ALU_FORMAT_SPEC_REG2_Dstacc, 1);
    SET_CFG(m, kPack, THCON_SEC0_REG1_In_data_format, 1);
    SET_CFG(m, kPack, THCON_SEC0_REG1_Out_data_format, 1);
    SET_CFG(m, kPack, THCON_SEC0_REG1_Disable_zero_compress, 1);
    SET_CFG(m, kPack, THCON_SEC0_REG1_L1_Dest_addr, 0x1000 / 16 - 1);
    SET_CFG(m, kPack, PCK_DEST_RD_CTRL_Read_32b_data, 1);
    SET_CFG(m, kPack, PCK_DEST_RD_CTRL_Round_10b_mant, 1);
    SET_CFG(m, kPack, PCK_EDGE_OFFSET_SEC0_mask, 0xffff);
    SET_CFG(m, kPack, PACK_COUNTERS_SEC0_pack_reads_per_xy_plane, 1);
    m.issue(kPack, TT_OP_SETADCXX(0b100, 15, 0));
    m.issue(kPack, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    std::printf("round10");
    for (uint32_t k = 0; k < 4; ++k) std::printf(" %x", l1[0x1000 + 2 * k] | (l1[0x1001 + 2 * k] << 8));
    std::printf("\n");
}

static void sfpu_unit() {
    Machine m;
    for (int lane = 0; lane < 32; ++lane) {
        m.s.lreg[1][lane] = 0x80000000u;  // -0 (sign-magnitude)
        m.s.lreg[2][lane] = 0u;           // +0
        m.s.lreg[3][lane] = 0x3f800000u;  // 1.0
        m.s.lreg[4][lane] = 0x40000000u;  // 2.0
        m.s.lreg[5][lane] = 0xc0400000u;  // -3.0
    }
    m.issue(kMath, TT_OP_SFPLE(0, 2, 1, 8));     // -0 <= +0: all ones
    m.issue(kMath, TT_OP_SFPGT(0, 3, 2, 8));     // +0 > 1.0: zeros
    m.issue(kMath, TT_OP_SFPARECIP(0, 4, 6, 0)); // ~1/2.0
    m.issue(kMath, TT_OP_SFPMAD(3, 4, 5, 7, 3)); // Mod1 3: (-1.0) * 2.0 + (3.0) = 1.0
    std::printf("sfpu %x %x %x %x\n", m.s.lreg[1][0], m.s.lreg[2][0], m.s.lreg[6][0], m.s.lreg[7][0]);
    expect_failure("loadmacro", m, kMath, TT_OP_SFPLOADMACRO(0, 0, 0, 0));
}

// Blackhole's multiply-add (ttsim's fma_model_bh) where it differs from Wormhole's: a canonical +NaN,
// signed zeros, exponent-0 rounding. Each triple runs through SFPMAD and through the SFPI lanes.
static void sfpu_mad() {
    const uint32_t cases[][3] = {
        {0xffc00000u, 0xbf800000u, 0u},           // -NaN * -1 + 0
        {0x7f800001u, 0x3f800000u, 0u},           // +NaN(min payload) * 1 + 0
        {0x7f800000u, 0u, 0x3f800000u},           // inf * 0 + 1
        {0xbf800000u, 0u, 0x80000000u},           // -1 * 0 + -0
        {0x3f7fffffu, 0x00800000u, 0u},           // (1 - 2^-24) * 2^-126: rounds up to 2^-126
        {0xbf000000u, 0x00800000u, 0u},           // -0.5 * 2^-126: below normal, a -0
        {0x40400000u, 0x3f800000u, 0xc0400000u},  // 3 * 1 - 3: exact cancellation, +0
    };
    Machine m;
    std::printf("mad");
    for (const auto& t : cases) {
        for (int lane = 0; lane < 32; ++lane) { m.s.lreg[0][lane] = t[0]; m.s.lreg[1][lane] = t[1]; m.s.lreg[2][lane] = t[2]; }
        m.issue(kMath, TT_OP_SFPMAD(0, 1, 2, 3, 0));
        sfpi_host::Vec a, b, c;
        a.fill(t[0]); b.fill(t[1]); c.fill(t[2]);
        std::printf(" %x/%x", m.s.lreg[3][0], sfpi_host::mad(a, b, c)[31]);
    }
    std::printf("\n");
}

// CFGSHIFTMASK: Config[reg] = op(old, rotr(scratch, shift) & rotr(mask, shift)) (assembly.yaml's model).
static void cfg_shift_mask() {
    Machine m;
    const uint32_t reg = THCON_SEC0_REG1_L1_Dest_addr_ADDR32;
    m.cfg_word(kPack, SCRATCH_SEC2_val_ADDR32) = 0x40;
    m.cfg_word(kPack, reg) = 0x1000;
    m.issue(kPack, TT_OP_CFGSHIFTMASK(1, 0b011, 31, 0, 0b11, reg));  // += SCRATCH[thread 2], unmasked (pack_untilize)
    const uint32_t add = m.cfg_word(kPack, reg);
    m.cfg_word(kPack, SCRATCH_SEC0_val_ADDR32) = 0x0000abcdu;
    m.cfg_word(kPack, reg) = 0x12345678u;
    m.issue(kPack, TT_OP_CFGSHIFTMASK(0, 0b000, 7, 8, 0, reg));  // byte mask rotated right by 8: bits 24..31
    std::printf("cfgshiftmask %x %x\n", add, m.cfg_word(kPack, reg));
    expect_failure("cfgshiftmask_op5", m, kPack, TT_OP_CFGSHIFTMASK(0, 5, 31, 0, 0, reg));
}

// SFPI's float compares order as SFPGT / SFPLE do (sign-magnitude, total): -NaN below everything,
// +NaN above, -0 below +0; a difference through Blackhole's SFPMAD (+NaN for any NaN) could not.
static void sfpi_float_order() {
    using sfpi::impl_::Cmp;
    sfpi_host::Vec x{}, k{};
    const uint32_t xs[] = {0xffc00000u, 0x7fc00000u, 0x80000000u, 0x40400000u};  // -NaN, +NaN, -0, 3.0
    const uint32_t ks[] = {0x404ae148u, 0x404ae148u, 0x0u, 0x40400000u};          // 3.17, 3.17, +0, 3.0
    for (int lane = 0; lane < 4; ++lane) { x[lane] = xs[lane]; k[lane] = ks[lane]; }
    std::printf("order %x %x\n", sfpi::impl_::compare_float(Cmp::GE, x, k).lanes() & 0xfu,
                sfpi::impl_::compare_float(Cmp::LT, x, k).lanes() & 0xfu);
}

int main() {
    try {  // this build serves Blackhole only (arch.h)
        Machine wh(Arch::WormholeB0);
        std::printf("other_arch no error\n");
    } catch (const std::runtime_error& e) {
        std::printf("other_arch %s\n", e.what());
    }
    math_unit();
    movb2a_fields();
    sync_unit();
    mop_counts();
    unpack_nop();
    unpack_srca_row_wraps();
    setadc_thread_override();
    pack_interfaces(5, "pack_even");
    pack_interfaces(0, "pack_all");
    pack_strided(0, true, "strided_all");
    pack_strided(0b0011, true, "strided_two");
    pack_strided(0, false, "strided_no_remap");
    pack_strided(0b0101, true, "strided_even");
    pack_strided_fp32();
    pack_output_row_stride();
    pack_round_10b_fp16();
    sfpu_unit();
    cfg_shift_mask();
    sfpu_mad();
    sfpi_float_order();
}
'''


@pytest.fixture(scope="module")
def lines(tensix_unit_test) -> dict[str, str]:
    out = tensix_unit_test(_CPP, arch="blackhole")
    return dict(line.split(" ", 1) for line in out.splitlines())


def test_a_blackhole_build_refuses_to_be_a_wormhole_machine(lines):
    assert "built for Blackhole, not Wormhole B0" in lines["other_arch"]


def test_three_bit_addr_mode_selects_sets_four_to_seven(lines):
    # ZEROACC CLR_16 block 2 clears rows 32..47 only; AddrMode 5 (bits 14..16) adds set 5's DestIncr 7
    # (read as Wormhole's bits 15..16 it would be set 2, +11)
    assert lines["zeroacc"] == "1111 0 1111 7"
    # SFPLOAD's AddrMode 6 at bits 13..15 adds set 6's 5; SM32 stored raw reads back as INT32 unchanged
    assert lines["sfpload"] == "80000005 5"


def test_movb2a_addr_mode_is_bits_14_to_16(lines):
    # 4 rows then 1 row, each stepping SrcA by 4 and SrcB by 8 through set 7 (what the LLK's topk issues)
    assert lines["movb2a"] == "1001 1310 901 0 8 16"
    assert "MOVB2A instr_mod 1 has no documented meaning" in lines["movb2a_mod1"]


def test_stallwait_condition_bits_are_blackholes(lines):
    assert "waits for the SrcA/SrcB hand-over" in lines["stall_srca_vld"]
    assert lines["stall_bit10"] == "no error"


def test_a_wide_mop_count_is_refused_by_name(lines):
    assert "MOP template 1 with an outer or inner count above 127 on Blackhole" in lines["mop_wide"]


def test_unpacr_nop_fields(lines):
    assert lines["nop_dvalid"] == "0 1 1"  # cleared, handed to the matrix unit, next bank
    assert lines["nop_neginf"] == "7ffff 0"
    assert "UNPACR_NOP Unpack_Pop 0 is not modelled" in lines["nop_pop0"]


def test_unpacr_nop_bank_clr_ctrl_clears_both_banks_once_both_are_free(lines):
    assert "both Src banks released (UNPACR_NOP Bank_Clr_Ctrl)" in lines["nop_both_busy"]
    assert lines["nop_both"] == "0 0 0"  # both banks zero; the unpacker stays on its bank
    assert "Bank_Clr_Ctrl is modelled only as a plain clear of both banks" in lines["nop_both_dvalid"]


def test_a_srca_row_past_63_wraps_into_the_bank(lines):
    # bf16 0x3f01..0x3f10 in SrcA's TF32-overlay layout (Sign | Man10 | Exp8): mantissa bits << 8 | exponent 0x7e
    first, last, neighbours = (int(v, 16) for v in lines["srca_wrap"].split())
    assert (first, last, neighbours) == ((0x01 << 11) | 0x7E, (0x10 << 11) | 0x7E, 0)


def test_setadc_thread_override_is_not_part_of_the_counter(lines):
    assert lines["setadc_x"] == "255 0"


def test_cfgshiftmask_adds_or_merges_the_rotated_scratch(lines):
    add, merged = (int(v, 16) for v in lines["cfgshiftmask"].split())
    assert add == 0x1000 + 0x40
    # mask 0xff and scratch 0xabcd rotated right by 8: 0xff000000 and 0xcd0000ab; old's top byte cleared
    assert merged == (0x12345678 & ~0xFF000000) | (0xCD0000AB & 0xFF000000)
    assert "CFGSHIFTMASK operation 5 is not modelled" in lines["cfgshiftmask_op5"]


def test_sfpmad_is_blackholes_multiply_add(lines):
    # SFPMAD and the vectorised SFPI lanes agree; NaNs are the canonical +NaN (the LLK's GELU'
    # canonicalises NaN with x*1 on Blackhole), zeros keep sign_c & sign_p, and a result below the
    # normal range is rounded at exponent 0 (Wormhole would give +0 for both).
    pairs = [p.split("/") for p in lines["mad"].split()]
    assert all(x == y for x, y in pairs), pairs
    assert [x for x, _ in pairs] == ["7fc00000", "7fc00000", "7fc00000", "80000000", "800000", "80000000", "0"]


def test_sfpi_float_compares_are_sign_magnitude_ordered(lines):
    ge, lt = (int(v, 16) for v in lines["order"].split())
    # lanes: -NaN >= 3.17 no, +NaN >= 3.17 yes, -0 >= +0 no (total order), 3 >= 3 yes
    assert (ge, lt) == (0b1010, 0b0101)


def _rows(*rows: int) -> list[int]:
    return [0x3F80 + r * 16 + c for r in rows for c in range(16)]


def test_one_packer_reads_through_the_selected_interfaces(lines):
    even = [int(v, 16) for v in lines["pack_even"].split()]
    assert even[:32] == _rows(0, 2) and even[32:] == [0xABAB] * 34  # nothing past the 32 datums
    every = [int(v, 16) for v in lines["pack_all"].split()]
    assert every[:64] == _rows(0, 1, 2, 3) and every[64:] == [0xABAB] * 2


def test_strided_reads_take_rows_sixteen_apart(lines):
    # BlackholeA0 PACR.md's DstAccessMode: from start row 3, interface j reads row 3 + 16 j
    every = [int(v, 16) for v in lines["strided_all"].split()]
    assert every[:64] == _rows(3, 19, 35, 51) and every[64:] == [0xABAB] * 2
    two = [int(v, 16) for v in lines["strided_two"].split()]
    assert two[:32] == _rows(3, 19) and two[32:] == [0xABAB] * 34
    words = [int(v, 16) for v in lines["strided_fp32"].split()]
    assert words[:32] == [0x3F800000 + (r << 8) + c for r in (1, 17) for c in range(16)]
    assert words[32] == 0xABABABAB


def test_undocumented_strided_reads_are_refused_by_name(lines):
    # the page leaves the mode undocumented without the two Dst remaps and with interfaces other than 0..n-1
    cases = (("strided_no_remap", "0x41020001", "without DEST_ACCESS_CFG_remap_addrs and swizzle_32b both set"),
             ("strided_even", "0x41020501", "with ReadIntfSel 5 (interfaces other than 0..n-1)"))
    for tag, word, what in cases:
        assert lines[tag].startswith(f"TRISC PACK issued {word} (opcode 0x41 PACR)"), lines[tag]
        assert f"PACR DstAccessMode (strided Dst reads) {what} is not modelled" in lines[tag]


def test_output_row_stride_is_in_bytes(lines):
    # two untouched halfwords before 0x1080, row 0 there, nothing after (ttsim's Blackhole packer; on
    # Wormhole the byte offset itself, low bits cleared, would be added to the 16-byte address)
    out = [int(v, 16) for v in lines["out_row_stride"].split()]
    assert out[:2] == [0xABAB] * 2 and out[2:18] == _rows(0) and out[18:] == [0xABAB] * 48


def test_round_10b_mant_from_fp32_dst_into_fp16(lines):
    # a tie rounds away (0x3C01), 1e6 and NaN saturate, a tiny negative gives -0
    assert lines["round10"] == "3c01 7fff 8000 7fff"


def test_blackhole_only_sfpu_instructions(lines):
    le, gt, recip, mad = (int(v, 16) for v in lines["sfpu"].split())
    assert (le, gt) == (0xFFFFFFFF, 0)
    assert recip == 0x3EFF0000  # exponent 253 - 128, table mantissa 127 for 2.0
    assert mad == 0x3F800000


def test_sfploadmacro_is_refused_by_name(lines):
    # no public source describes Blackhole's SFPLOADMACRO scheduling; its kernels build without it
    assert "SFPLOADMACRO is not modelled on Blackhole" in lines["loadmacro"]
    assert "-DDISABLE_SFPLOADMACRO" in lines["loadmacro"]
