"""The Vector Unit (SFPU) of the Tensix machine: SFP* instruction words (encoded with the wheel's
TT_OP_SFP* macros) over lane values, checked against the ISA documentation's functional models
(exact bits) and against torch for the arithmetic.

One C++ program runs every case (one compile); each case prints ``tag: v0 v1 ...`` in hex.
"""

from __future__ import annotations

import struct

import pytest
import torch

from tests.emu.tensix import prng_model

LANES = 32


def f2b(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def b2f(b: int) -> float:
    return struct.unpack("<f", struct.pack("<I", b & 0xFFFFFFFF))[0]


def _random_normals(gen: torch.Generator, n: int) -> list[int]:
    """FP32 bit patterns with exponents well inside the normal range (products and sums stay normal)."""
    mant = torch.randint(0, 1 << 23, (n,), generator=gen)
    exp = torch.randint(127 - 20, 127 + 20, (n,), generator=gen)
    sign = torch.randint(0, 2, (n,), generator=gen)
    return [int((s << 31) | (e << 23) | m) for s, e, m in zip(sign, exp, mant)]


def _carray(name: str, values: list[int]) -> str:
    return f"static const uint32_t {name}[{len(values)}] = {{{', '.join(f'0x{v:08x}u' for v in values)}}};\n"


GEN = torch.Generator().manual_seed(1234)
MUL_A, MUL_B = _random_normals(GEN, 256), _random_normals(GEN, 256)
ADD_A, ADD_B = _random_normals(GEN, 256), _random_normals(GEN, 256)

PROGRAM = r"""
#include <cstdio>
#include <stdexcept>
#include <string>
#include "ckernel_ops.h"
#include "cfg_defines.h"
#include "machine.h"
using namespace tc_tensix;
""" + _carray("MUL_A", MUL_A) + _carray("MUL_B", MUL_B) + _carray("ADD_A", ADD_A) + _carray("ADD_B", ADD_B) + r"""
static Machine* M;
static void run(uint32_t w) { M->issue(kMath, w); }
static void dump(const char* tag, int r) {
    std::printf("%s:", tag);
    for (int l = 0; l < 32; ++l) std::printf(" %08x", M->s.lreg[r][l]);
    std::printf("\n");
}
static void dump_dst16(const char* tag, int row0) {  // rows row0..row0+3, all 16 columns
    std::printf("%s:", tag);
    for (int r = row0; r < row0 + 4; ++r) for (int c = 0; c < 16; ++c) std::printf(" %08x", M->s.dst[r][c]);
    std::printf("\n");
}
template <class F> static void set(int r, F f) { for (int l = 0; l < 32; ++l) M->s.lreg[r][l] = f(l); }
static void expect_fail(const char* tag, uint32_t w) {
    try { run(w); std::printf("%s: no error\n", tag); }
    catch (const std::runtime_error& e) { std::printf("%s: %s\n", tag, e.what()); }
}

int main() {
    Machine machine;
    M = &machine;
    dump("const8", 8); dump("const10", 10); dump("const11", 11); dump("const15", 15);

    // ---- MAD sub-unit: random products and sums (checked against torch) ----
    for (int batch = 0; batch < 8; ++batch) {
        set(0, [&](int l) { return MUL_A[batch * 32 + l]; });
        set(1, [&](int l) { return MUL_B[batch * 32 + l]; });
        run(TT_OP_SFPMUL(0, 1, 9, 2, 0));  // L2 = L0 * L1 + 0
        dump(("mul" + std::to_string(batch)).c_str(), 2);
        set(0, [&](int l) { return ADD_A[batch * 32 + l]; });
        set(1, [&](int l) { return ADD_B[batch * 32 + l]; });
        run(TT_OP_SFPADD(0, 10, 1, 3, 0));  // L3 = L0 * 1.0 + L1
        dump(("add" + std::to_string(batch)).c_str(), 3);
    }
    // ---- MAD edge cases, one per lane: (a, b, c) ----
    {
        static const uint32_t cases[][3] = {
            {0x3f800001u, 0x3f800002u, 0xbf800000u},  // partial fusion: product cut to 27 bits before the add
            {0x00400000u, 0x3f800000u, 0x3f800000u},  // denormal input counts as zero: 1.0
            {0x0d800000u, 0x0d800000u, 0x00000000u},  // 2^-100 * 2^-100 underflows: +0
            {0x8d800000u, 0x0d800000u, 0x00000000u},  // negative underflow: +0 (sign dropped)
            {0x80000000u, 0x3f800000u, 0x80000000u},  // -0 + -0: +0
            {0x7f800000u, 0x00000000u, 0x00000000u},  // inf * 0: NaN with low bit set
            {0x7f800000u, 0x3f800000u, 0xff800000u},  // inf - inf: NaN
            {0x7f800000u, 0x3f800000u, 0x3f800000u},  // inf + 1: inf
            {0x7f000000u, 0x7f000000u, 0x3f800000u},  // overflow: inf
            {0x3f800000u, 0x3f800000u, 0xbf800000u},  // exact cancellation: +0
            {0x3fc00000u, 0x40000000u, 0x3e800000u},  // 1.5 * 2 + 0.25 = 3.25
            {0x00800000u, 0x3f000000u, 0x00000000u},  // 2^-126 * 0.5: denormal result flushed
        };
        const int n = sizeof cases / sizeof cases[0];
        set(0, [&](int l) { return l < n ? cases[l][0] : 0u; });
        set(1, [&](int l) { return l < n ? cases[l][1] : 0u; });
        set(2, [&](int l) { return l < n ? cases[l][2] : 0u; });
        run(TT_OP_SFPMAD(0, 1, 2, 3, 0));
        dump("mad_edges", 3);
    }
    // ---- immediates: SFPLOADI modes, SFPADDI/SFPMULI ----
    run(TT_OP_SFPLOADI(0, 0, 0x3fc0)); dump("loadi_floatb", 0);          // 1.5
    run(TT_OP_SFPLOADI(0, 1, 0x3c00)); dump("loadi_floata", 0);          // fp16 1.0
    run(TT_OP_SFPLOADI(0, 4, 0xfffe)); dump("loadi_short", 0);           // -2
    run(TT_OP_SFPLOADI(0, 2, 0xfffe)); dump("loadi_ushort", 0);
    run(TT_OP_SFPLOADI(0, 8, 0x1234)); run(TT_OP_SFPLOADI(0, 10, 0x5678)); dump("loadi_upper_lower", 0);
    run(TT_OP_SFPLOADI(1, 0, 0x4000)); run(TT_OP_SFPADDI(0x3f80, 1, 0)); dump("addi", 1);  // 2 + 1
    run(TT_OP_SFPMULI(0x4040, 1, 0)); dump("muli", 1);                                     // 3 * 3

    // ---- field manipulation over per-lane values ----
    static const uint32_t fvals[8] = {0x3f800000u, 0xc0490fdbu, 0x00000000u, 0x7f800000u, 0xff800001u, 0x00400000u, 0x80000000u, 0x42f6e979u};
    set(0, [&](int l) { return fvals[l & 7]; });
    run(TT_OP_SFPEXEXP(0, 0, 1, 0)); dump("exexp", 1);
    run(TT_OP_SFPEXEXP(0, 0, 1, 1)); dump("exexp_nodebias", 1);
    run(TT_OP_SFPEXMAN(0, 0, 1, 0)); dump("exman", 1);
    run(TT_OP_SFPEXMAN(0, 0, 1, 1)); dump("exman_pad9", 1);
    set(1, [](int l) { return uint32_t(l) * 3u; });
    run(TT_OP_SFPSETEXP(0, 0, 1, 0)); dump("setexp_lreg", 1);
    run(TT_OP_SFPSETEXP(0x81, 0, 1, 1)); dump("setexp_imm", 1);
    run(TT_OP_SFPSETMAN(0xabc, 0, 1, 1)); dump("setman_imm", 1);
    run(TT_OP_SFPSETSGN(1, 0, 1, 1)); dump("setsgn_imm", 1);
    run(TT_OP_SFPDIVP2(0xff, 0, 1, 1)); dump("divp2_add", 1);  // exponent - 1 (wrapping)
    run(TT_OP_SFPABS(0, 0, 1, 1)); dump("abs_float", 1);
    set(3, [](int l) { static const uint32_t v[4] = {0xff800000u, 0xff800001u, 0x80000000u, 0xbf800000u}; return v[l & 3]; });
    run(TT_OP_SFPABS(0, 3, 4, 1)); dump("abs_float_specials", 4);
    set(2, [](int l) { return uint32_t(l - 16); });
    run(TT_OP_SFPABS(0, 2, 1, 0)); dump("abs_int", 1);
    run(TT_OP_SFPLZ(0, 2, 1, 0)); dump("lz", 1);
    run(TT_OP_SFPLZ(0, 2, 1, 4)); dump("lz_nosgn", 1);
    set(1, [](int l) { return 0xf0f0f0f0u + uint32_t(l); });
    run(TT_OP_SFPSHFT(0xffc, 0, 1, 1)); dump("shft_imm_right4", 1);
    run(TT_OP_SFPSHFT(0, 2, 1, 0)); dump("shft_lreg", 1);  // by lane-16 (right for lanes < 16)
    set(1, [](int l) { return 0x0ff00ff0u ^ uint32_t(l); });
    run(TT_OP_SFPAND(0, 2, 1, 0)); dump("and", 1);
    run(TT_OP_SFPOR(0, 2, 1, 0)); dump("or", 1);
    run(TT_OP_SFPXOR(0, 2, 1, 0)); dump("xor", 1);
    run(TT_OP_SFPNOT(0, 2, 1, 0)); dump("not", 1);
    run(TT_OP_SFPIADD(0x7ff, 2, 1, 5)); dump("iadd_imm", 1);  // + 2047, flags untouched
    run(TT_OP_SFPIADD(0x801, 2, 1, 5)); dump("iadd_imm_neg", 1);  // - 2047
    set(3, [](int l) { return uint32_t(l * 1000); });
    set(1, [](int l) { return uint32_t(l * 7); });
    run(TT_OP_SFPIADD(0, 3, 1, 6)); dump("isub", 1);  // L1 = L3 - L1
    run(TT_OP_SFPMOV(0, 2, 1, 1)); dump("mov_neg", 1);

    // ---- predication: if / else nesting with the flag stack ----
    set(0, [](int l) { return uint32_t(l - 16); });
    set(1, [](int l) { return uint32_t(l % 4 - 1); });
    set(2, [](int) { return 0u; });
    run(TT_OP_SFPENCC(3, 0, 0, 10));            // use flags, flags all set
    run(TT_OP_SFPPUSHC(0, 0, 0, 0));
    run(TT_OP_SFPSETCC(0, 0, 0, 0));            // if (L0 < 0)
    run(TT_OP_SFPLOADI(2, 2, 0xa));
    run(TT_OP_SFPPUSHC(0, 0, 0, 0));
    run(TT_OP_SFPSETCC(0, 1, 0, 6));            //   if (L1 == 0)
    run(TT_OP_SFPLOADI(2, 2, 0xb));
    run(TT_OP_SFPCOMPC(0, 0, 0, 0));            //   else
    run(TT_OP_SFPLOADI(2, 2, 0xc));
    run(TT_OP_SFPPOPC(0, 0, 0, 0));             //   endif
    run(TT_OP_SFPCOMPC(0, 0, 0, 0));            // else
    run(TT_OP_SFPLOADI(2, 2, 0xd));
    run(TT_OP_SFPPOPC(0, 0, 0, 0));             // endif
    run(TT_OP_SFPLOADI(3, 2, 0xe));             // all lanes again
    dump("cc_nested", 2); dump("cc_after", 3);
    // flags from integer ops: IADD sets LaneFlags = result < 0 (inverted with Mod1 8)
    set(2, [](int) { return 0u; });
    run(TT_OP_SFPIADD(0xff0, 0, 4, 9));          // L4 = L0 - 16; flags = L4 >= 0 (lanes >= 32: none)
    run(TT_OP_SFPLOADI(2, 2, 0x1));
    run(TT_OP_SFPENCC(3, 0, 0, 10));
    run(TT_OP_SFPIADD(0xff8, 0, 4, 1));          // L4 = L0 - 8; flags = L4 < 0 (lanes < 24)
    run(TT_OP_SFPLOADI(2, 2, 0x2));
    run(TT_OP_SFPEXEXP(0, 10, 4, 2));            // exp(1.0)-127 = 0: flags = 0 < 0 = false everywhere enabled
    run(TT_OP_SFPLOADI(2, 2, 0x3));
    run(TT_OP_SFPENCC(0, 0, 0, 2));              // stop using flags
    dump("cc_int_flags", 2);
    // SFPPOPC Mod1 11 combines LaneFlags with the stack top's (XOR) without popping
    set(4, [](int) { return 0u; });
    run(TT_OP_SFPENCC(3, 0, 0, 10));
    run(TT_OP_SFPSETCC(0, 1, 0, 4));             // L1 >= 0: lane % 4 != 0
    run(TT_OP_SFPPUSHC(0, 0, 0, 0));
    run(TT_OP_SFPENCC(3, 0, 0, 10));
    run(TT_OP_SFPSETCC(0, 0, 0, 0));             // L0 < 0: lane < 16
    run(TT_OP_SFPPOPC(0, 0, 0, 11));             // flags = (lane < 16) != (lane % 4 != 0)
    run(TT_OP_SFPLOADI(4, 2, 0x5));
    run(TT_OP_SFPPOPC(0, 0, 0, 0));              // plain pop: flags = lane % 4 != 0
    run(TT_OP_SFPLOADI(4, 2, 0x6));
    run(TT_OP_SFPENCC(0, 0, 0, 2));              // stop using flags
    dump("cc_popc_xor", 4);
    std::printf("depth: %d\n", M->s.sfpu.cc.depth);

    // ---- SFPLOAD / SFPSTORE formats and Dst addressing ----
    {
        Machine d;
        M = &d;
        for (int r = 0; r < 16; ++r) for (int c = 0; c < 16; ++c) d.s.dst[r][c] = uint16_t(r * 16 + c);
        run(TT_OP_SFPLOAD(0, 6, 0, 4 | 2)); dump("load_uint16_rows4_odd", 0);  // rows 4..7, odd columns
        run(TT_OP_SFPLOAD(0, 6, 0, 0)); dump("load_uint16_rows0_even", 0);
        // fp16 (Dst layout Sign,Man10,Exp5): 1.0 = exp 15, man 0; largest pattern with/without fp16a_inf
        d.s.dst[0][0] = uint16_t(15);                   // 1.0
        d.s.dst[0][2] = uint16_t(0x8000 | (0x200 << 5) | 16);  // -3.0
        d.s.dst[0][4] = uint16_t((0x3ff << 5) | 31);     // max pattern
        d.s.dst[0][6] = uint16_t(1 << 5);                // denormal
        run(TT_OP_SFPLOAD(0, 1, 0, 0)); dump("load_fp16", 0);
        // bf16 (Dst layout Sign,Man7,Exp8): 1.5 = exp 127, man 0x40
        d.s.dst[0][0] = uint16_t((0x40 << 8) | 127);
        d.s.dst[0][2] = uint16_t(0x8000 | 128);          // -2.0
        run(TT_OP_SFPLOAD(0, 2, 0, 0)); dump("load_bf16", 0);
        // fp32 / int32 via the Dst32b view
        for (int l = 0; l < 32; ++l) d.dst32_write(l / 8, (l & 7) * 2, 0x80000000u | uint32_t(l));  // sign-magnitude -l
        d.dst32_write(0, 0, 0x3fc00000u);  // Dst32 bits of some float (shuffled layout)
        run(TT_OP_SFPLOAD(0, 4, 0, 0)); dump("load_int32", 0);
        run(TT_OP_SFPLOAD(0, 12, 0, 0)); dump("load_int32_sm", 0);
        // stores
        set(1, [](int l) {
            static const uint32_t v[8] = {0x3f800000u, 0x3fffffffu, 0x477fe000u, 0x47800000u, 0x00400000u, 0xc0490fdbu, 0x38000000u, 0x7f800000u};
            return v[l & 7];
        });
        run(TT_OP_SFPSTORE(1, 1, 0, 8)); dump_dst16("store_fp16", 8);
        run(TT_OP_SFPSTORE(1, 2, 0, 12 | 2)); dump_dst16("store_bf16", 12);
        set(1, [](int l) { return uint32_t(l - 16); });
        run(TT_OP_SFPSTORE(1, 13, 0, 16)); dump_dst16("store_int8_comp", 16);
        run(TT_OP_SFPSTORE(1, 12, 0, 20)); run(TT_OP_SFPLOAD(2, 12, 0, 20)); dump("store_load_int32_sm", 2);
        set(1, [](int l) { return 0x12340000u + uint32_t(l); });
        run(TT_OP_SFPSTORE(1, 9, 0, 24));
        std::printf("store_lo16_dst32: %08x %08x\n", d.dst32_read(24, 0), d.dst32_read(27, 14));
        // address modifiers advance RWC Dst; the thread's Dst offset and the base add in
        d.thread_cfg_word(kMath, ADDR_MOD_DST_SEC0_DestIncr_ADDR32 + 3) = 2;
        d.thread_cfg_word(kMath, DEST_TARGET_REG_CFG_MATH_Offset_ADDR32) = 4;
        for (int r = 0; r < 16; ++r) for (int c = 0; c < 16; ++c) d.s.dst[r][c] = uint16_t(r * 16 + c);
        run(TT_OP_SFPLOAD(0, 6, 3, 0)); dump("load_offset4", 0);
        run(TT_OP_SFPLOAD(0, 6, 3, 0)); dump("load_offset4_rwc2", 0);
        std::printf("rwc_dst: %u\n", d.s.rwc[kMath].dst);
        // the PACK thread's SFPLOAD addresses with its own RWCs, offset and ADDR_MOD sets (all 0 here)
        M->issue(kPack, TT_OP_SFPLOAD(0, 6, 3, 0)); dump("load_pack_own_rwc", 0);
        std::printf("rwc_dst_pack: %u %u\n", d.s.rwc[kPack].dst, d.s.rwc[kMath].dst);
        // predicated store: only enabled lanes write
        d.thread_cfg_word(kMath, DEST_TARGET_REG_CFG_MATH_Offset_ADDR32) = 0;
        d.s.rwc[kMath].dst = 0;
        set(0, [](int l) { return uint32_t(l - 16); });
        set(1, [](int) { return 0xffffu; });
        run(TT_OP_SFPENCC(3, 0, 0, 10));
        run(TT_OP_SFPSETCC(0, 0, 0, 4));  // lanes >= 16
        run(TT_OP_SFPSTORE(1, 6, 0, 0));
        dump_dst16("store_predicated", 0);
        M = &machine;
    }

    // ---- LUT ----
    set(3, [](int l) {
        static const float x[8] = {0.25f, -0.75f, 1.5f, -1.25f, 3.0f, -5.0f, 0.0f, 2.0f};
        return sfpu::bits_of(x[l & 7]);
    });
    set(0, [](int) { return 0x1020u; });  // [0,1): A = lut8(0x10) = 0.5, C = lut8(0x20) = 0.25
    set(1, [](int) { return 0x00b0u; });  // [1,2): A = 1.0, C = lut8(0xb0) = -0.5
    set(2, [](int) { return 0x37ffu; });  // [2,inf): A = lut8(0x37) = 0.34375*... , C = 0
    run(TT_OP_SFPLUT(4, 0, 0)); dump("lut", 4);
    run(TT_OP_SFPLUT(4, 4, 0)); dump("lut_sign", 4);
    set(0, [](int) { return sfpu::bits_of(0.5f); });  set(4, [](int) { return sfpu::bits_of(0.125f); });
    set(1, [](int) { return sfpu::bits_of(2.0f); });  set(5, [](int) { return sfpu::bits_of(-1.0f); });
    set(2, [](int) { return sfpu::bits_of(-0.25f); }); set(6, [](int) { return sfpu::bits_of(4.0f); });
    run(TT_OP_SFPLUTFP32(7, 0)); dump("lutfp32", 7);

    // ---- conversions ----
    set(0, [](int l) { return l < 16 ? uint32_t(l * 12345) : (0x80000000u | uint32_t((l - 16) * 0x01234567)); });
    run(TT_OP_SFPCAST(0, 1, 0)); dump("cast", 1);
    set(0, [](int l) {
        static const uint32_t v[8] = {0x3f808000u, 0x3f818000u, 0x3f80c000u, 0x00400000u, 0xff800001u, 0x80000000u, 0x3f7fffffu, 0x7f7fffffu};
        return v[l & 7];
    });
    run(TT_OP_SFP_STOCH_RND(0, 0, 0, 0, 1, 1)); dump("rnd_fp16b", 1);
    set(0, [](int l) { return sfpu::bits_of(float(l - 16) * 9.75f); });
    run(TT_OP_SFP_STOCH_RND(0, 0, 0, 0, 1, 3)); dump("rnd_int8", 1);
    run(TT_OP_SFP_STOCH_RND(0, 0, 0, 0, 1, 6)); dump("rnd_uint16", 1);
    set(0, [](int l) { return (l & 1 ? 0x80000000u : 0u) | uint32_t(l * 100); });
    run(TT_OP_SFP_STOCH_RND(0, 3, 0, 0, 1, 8 + 5)); dump("rnd_int_shift3", 1);

    // ---- PRNG: seeded from PRNG_SEED, read by SFPMOV (special source 9) and stochastic rounding ----
    machine.cfg_word(kMath, PRNG_SEED_Seed_Val_ADDR32) = 0x1234567u;
    run(TT_OP_SFPMOV(0, 9, 1, 8)); dump("prng0", 1);
    run(TT_OP_SFPMOV(0, 9, 1, 8)); dump("prng1", 1);
    set(0, [](int l) { return 0x3f800000u + uint32_t(l) * 0x800u; });
    run(TT_OP_SFP_STOCH_RND(1, 0, 0, 0, 1, 1)); dump("rnd_stoch_fp16b", 1);

    // ---- swap, transpose, lane shuffles ----
    set(0, [](int l) { return sfpu::bits_of(float(l % 5) - 2.0f); });
    set(1, [](int l) { return sfpu::bits_of(float(l % 3) - 1.0f); });
    run(TT_OP_SFPSWAP(0, 1, 0, 1));  // L0 = min, L1 = max
    dump("swap_min", 0); dump("swap_max", 1);
    run(TT_OP_SFPSWAP(0, 1, 0, 9));  // VEC_MAX_MIN: L0 = max, L1 = min
    dump("swap9_max", 0); dump("swap9_min", 1);
    for (int r = 0; r < 8; ++r) set(r, [r](int l) { return uint32_t(r * 100 + l); });
    run(TT_OP_SFPTRANSP(0, 0, 0, 0));
    dump("transp0", 0); dump("transp1", 1); dump("transp5", 5);
    for (int r = 0; r < 4; ++r) set(r, [r](int l) { return uint32_t(r * 100 + l); });
    run(TT_OP_SFPSHFT2(0, 0, 0, 0)); dump("copy4_l0", 0); dump("copy4_l3", 3);
    set(5, [](int l) { return uint32_t(l); });
    run(TT_OP_SFPSHFT2(0, 5, 6, 3)); dump("rotate", 6);
    run(TT_OP_SFPSHFT2(5 /*VB*/, 2 /*VC*/, 6, 5)); dump("shft2_lreg", 6);

    // ---- SFPCONFIG: LReg[11..14] from LReg[0][0..7], lane config ROW_MASK ----
    set(0, [](int l) { return uint32_t(0x100 + l); });
    run(TT_OP_SFPCONFIG(0, 12, 0)); dump("config_l12", 12);
    set(7, [](int) { return 0u; });
    run(TT_OP_SFPCONFIG(0x2000, 15, 1));  // ROW_MASK bit 1: lanes 8..15 disabled
    run(TT_OP_SFPLOADI(7, 2, 0x77)); dump("row_masked", 7);
    run(TT_OP_SFPCONFIG(0, 15, 1));

    // ---- SFPLOADMACRO: the LLK's where(a, b, c) schedule (ckernel_sfpu_where.h, macros 0 and 2) ----
    {
        Machine w;
        M = &w;
        for (int l = 0; l < 32; ++l) {
            const int row = l / 8, col = (l & 7) * 2;
            w.s.dst[row][col] = uint16_t(l % 3 == 0 ? 0 : 5);   // a at Dst address 0
            w.s.dst[8 + row][col] = uint16_t(100 + l);          // b at 8
            w.s.dst[16 + row][col] = uint16_t(200 + l);         // c at 16
        }
        run(TT_OP_SFPENCC(3, 0, 0, 10));
        run(TT_OP_SFPSETCC(0, 0, 12, 6));  // VD 12: loads instruction template 0 (backdoor)
        run(TT_OP_SFPENCC(0, 0, 13, 0));   // template 1
        run(TT_OP_SFPLOADI(0, 10, 0x0004)); run(TT_OP_SFPLOADI(0, 8, 0x1300)); run(TT_OP_SFPCONFIG(0, 4 + 0, 0));
        run(TT_OP_SFPCONFIG(0x0005, 4 + 2, 1));
        run(TT_OP_SFPCONFIG(0x770, 8, 1));
        run(TT_OP_SFPLOADMACRO((0 << 2), 9, 0, 0));
        run(TT_OP_SFPLOADMACRO((2 << 2), 9, 0, 8));
        run(TT_OP_SFPLOAD(0, 9, 0, 16));
        dump_dst16("where_before_store", 0);
        run(TT_OP_SFPNOP);                 // the scheduled SFPSTORE runs with the next instruction
        dump_dst16("where", 0);
        std::printf("where_flags: %08x\n", w.s.sfpu.cc.flags);
        // instruction-counted delays, LReg[16], the store's own Mod0 (UINT16 from Misc)
        for (int l = 0; l < 32; ++l) w.s.dst[20 + l / 8][(l & 7) * 2] = uint16_t(l);
        set(5, [](int l) { return uint32_t(l * 1000); });
        run(TT_OP_SFPIADD(0, 5, 15, 4));   // template 3: L16 = L5 + [VD]
        run(TT_OP_SFPMOV(0, 3, 2, 8)); dump("template3", 2);
        run(TT_OP_SFPLOADI(0, 10, 0x00cf)); run(TT_OP_SFPLOADI(0, 8, 0x5b00)); run(TT_OP_SFPCONFIG(0, 4 + 1, 0));
        run(TT_OP_SFPCONFIG(0xf06, 8, 1));
        run(TT_OP_SFPLOADMACRO((1 << 2) | 1, 6, 0, 20));  // VD 1, Dst address 20
        run(TT_OP_SFPNOP); run(TT_OP_SFPNOP); run(TT_OP_SFPNOP);
        dump("macro_l16", 16);
        dump_dst16("macro_before_store", 20);
        run(TT_OP_NOP);                    // another unit's instruction: the due store runs first
        dump_dst16("macro_store", 20);
        M = &machine;
    }

    // ---- hard errors ----
    expect_fail("err_loadi_mode", TT_OP_SFPLOADI(0, 3, 0));
    expect_fail("err_popc_empty", TT_OP_SFPPOPC(0, 0, 0, 0));
    for (int i = 0; i < 8; ++i) run(TT_OP_SFPPUSHC(0, 0, 0, 0));
    expect_fail("err_pushc_full", TT_OP_SFPPUSHC(0, 0, 0, 0));
}
"""


@pytest.fixture(scope="module")
def out(tensix_unit_test) -> dict[str, list[int] | str]:
    text = tensix_unit_test(PROGRAM)
    result: dict[str, list[int] | str] = {}
    for line in text.splitlines():
        tag, _, rest = line.partition(":")
        if tag.startswith("err_") or tag in ("depth", "rwc_dst", "rwc_dst_pack", "store_lo16_dst32", "where_flags"):
            result[tag] = rest.strip()
        else:
            result[tag] = [int(v, 16) for v in rest.split()]
    return result


def _ftz(x: torch.Tensor) -> list[int]:
    """float32 results as the SFPU writes them: denormals and -0 become +0."""
    bits = []
    for v in x.tolist():
        b = f2b(v)
        if (b >> 23) & 0xFF == 0:
            b = 0
        bits.append(b)
    return bits


def test_constant_lregs(out):
    assert out["const8"] == [0x3F56594B] * LANES
    assert out["const10"] == [f2b(1.0)] * LANES
    assert out["const11"] == [f2b(-1.0)] * LANES
    assert out["const15"] == [2 * i for i in range(LANES)]


def test_mul_and_add_match_torch_float32(out):
    def as_t(bits):
        return torch.tensor([b2f(b) for b in bits], dtype=torch.float32)

    for batch in range(8):
        sl = slice(batch * 32, batch * 32 + 32)
        assert out[f"mul{batch}"] == _ftz(as_t(MUL_A[sl]) * as_t(MUL_B[sl]))
        assert out[f"add{batch}"] == _ftz(as_t(ADD_A[sl]) + as_t(ADD_B[sl]))


def test_mad_edge_cases_follow_the_isa(out):
    got = out["mad_edges"]
    # (1+2^-23)(1+2^-22) - 1: an IEEE fused multiply-add gives 0x34c00001; the SFPU keeps the product to
    # 24 bits + guard/round/sticky before adding, so the sticky bit lands at 2^-26: 0x34c80000.
    assert got[0] == 0x34C80000
    assert got[1] == f2b(1.0)
    assert got[2] == 0 and got[3] == 0 and got[4] == 0
    assert got[5] == 0x7F800001 and got[6] == 0x7F800001
    assert got[7] == 0x7F800000 and got[8] == 0x7F800000
    assert got[9] == 0
    assert got[10] == f2b(3.25)
    assert got[11] == 0


def test_immediates(out):
    assert out["loadi_floatb"] == [f2b(1.5)] * LANES
    assert out["loadi_floata"] == [f2b(1.0)] * LANES
    assert out["loadi_short"] == [0xFFFFFFFE] * LANES
    assert out["loadi_ushort"] == [0x0000FFFE] * LANES
    assert out["loadi_upper_lower"] == [0x12345678] * LANES
    assert out["addi"] == [f2b(3.0)] * LANES
    assert out["muli"] == [f2b(9.0)] * LANES


FVALS = [0x3F800000, 0xC0490FDB, 0x00000000, 0x7F800000, 0xFF800001, 0x00400000, 0x80000000, 0x42F6E979]


def test_field_manipulation(out):
    lanes = range(LANES)
    v = [FVALS[i & 7] for i in lanes]
    exp = [(x >> 23) & 0xFF for x in v]
    assert out["exexp"] == [(e - 127) & 0xFFFFFFFF for e in exp]
    assert out["exexp_nodebias"] == exp
    assert out["exman"] == [(x & 0x7FFFFF) | 0x800000 for x in v]
    assert out["exman_pad9"] == [x & 0x7FFFFF for x in v]
    assert out["setexp_lreg"] == [(x & 0x807FFFFF) | (((3 * i) & 0xFF) << 23) for i, x in enumerate(v)]
    assert out["setexp_imm"] == [(x & 0x807FFFFF) | (0x81 << 23) for x in v]
    assert out["setman_imm"] == [(x & 0xFF800000) | (0xABC << 11) for x in v]
    assert out["setsgn_imm"] == [x | 0x80000000 for x in v]
    # divp2 adds 0xff (i.e. -1) to the exponent, wrapping (0 -> 255); Inf/NaN unchanged
    assert out["divp2_add"] == [x if (x >> 23) & 0xFF == 255 else (x & 0x807FFFFF) | ((((x >> 23) & 0xFF) + 0xFF) & 0xFF) << 23 for x in v]
    assert out["abs_float"] == [x if x > 0xFF800000 else x & 0x7FFFFFFF for x in v]  # -NaN keeps its sign
    assert out["abs_float_specials"] == [[0x7F800000, 0xFF800001, 0, 0x3F800000][i & 3] for i in lanes]  # -inf -> +inf
    ints = [(i - 16) & 0xFFFFFFFF for i in lanes]
    assert out["abs_int"] == [abs(i - 16) for i in lanes]
    assert out["lz"] == [32 if x == 0 else 32 - x.bit_length() for x in ints]
    assert out["lz_nosgn"] == [32 if x & 0x7FFFFFFF == 0 else 32 - (x & 0x7FFFFFFF).bit_length() for x in ints]
    base = [0xF0F0F0F0 + i for i in lanes]
    assert out["shft_imm_right4"] == [b >> 4 for b in base]
    shifted = [b >> 4 for b in base]
    assert out["shft_lreg"] == [(s << (i - 16)) & 0xFFFFFFFF if i >= 16 else s >> (16 - i) for i, s in enumerate(shifted)]
    b = [0x0FF00FF0 ^ i for i in lanes]
    assert out["and"] == [x & y for x, y in zip(b, ints)]
    assert out["or"] == [(x & y) | y for x, y in zip(b, ints)]
    assert out["xor"] == [((x & y) | y) ^ y for x, y in zip(b, ints)]
    assert out["not"] == [~y & 0xFFFFFFFF for y in ints]
    assert out["iadd_imm"] == [(y + 2047) & 0xFFFFFFFF for y in ints]
    assert out["iadd_imm_neg"] == [(y - 2047) & 0xFFFFFFFF for y in ints]
    assert out["isub"] == [(1000 * i - 7 * i) & 0xFFFFFFFF for i in lanes]
    assert out["mov_neg"] == [y ^ 0x80000000 for y in ints]


def test_predication_nesting(out):
    want = [(0xB if i % 4 == 1 else 0xC) if i < 16 else 0xD for i in range(LANES)]
    assert out["cc_nested"] == want
    assert out["cc_after"] == [0xE] * LANES


def test_popc_combines_with_stack_top(out):
    assert out["cc_popc_xor"] == [6 if i % 4 else (5 if i < 16 else 0) for i in range(LANES)]
    assert out["depth"] == "0"


def test_flags_from_integer_ops(out):
    # 0x1 written nowhere (flags = L0-16 >= 0 never holds); 0x2 in lanes < 24; EXEXP of 1.0 clears all flags
    assert out["cc_int_flags"] == [2 if i < 24 else 0 for i in range(LANES)]


def test_sfpload_addressing_and_formats(out):
    assert out["load_uint16_rows4_odd"] == [(4 + i // 8) * 16 + (i & 7) * 2 + 1 for i in range(LANES)]
    assert out["load_uint16_rows0_even"] == [(i // 8) * 16 + (i & 7) * 2 for i in range(LANES)]
    fp16 = out["load_fp16"]
    assert fp16[0] == f2b(1.0) and fp16[1] == f2b(-3.0)
    assert fp16[2] == (143 << 23) | (0x3FF << 13)  # max pattern: 131008, Dst FP16 has no Inf (fp16a_inf off)
    assert fp16[3] == 1 << 13  # fp16 denormal kept as an fp32 denormal
    bf16 = out["load_bf16"]
    assert bf16[0] == f2b(1.5) and bf16[1] == f2b(-2.0)
    i32 = out["load_int32"]
    assert i32[0] == 0x603F0000  # Dst32b keeps Sign,ManHi7,Exp8,ManLo16: 0x3fc0 high half = exp 0xc0, man 0x3f
    assert i32[1:] == [0x80000000 | i for i in range(1, LANES)]
    assert out["load_int32_sm"][1:] == [(-i) & 0xFFFFFFFF for i in range(1, LANES)]
    assert out["store_load_int32_sm"] == [(i - 16) & 0xFFFFFFFF for i in range(LANES)]
    assert out["store_lo16_dst32"] == "00001234 001f1234"  # LO16 stores the halves swapped


def _dst_fp16(h: int) -> int:
    """IEEE fp16 bits -> Dst's Sign,Man,Exp layout."""
    return (h & 0x8000) | ((h & 0x3FF) << 5) | ((h >> 10) & 0x1F)


def _dst_bf16(h: int) -> int:
    return (h & 0x8000) | ((h & 0x7F) << 8) | ((h >> 7) & 0xFF)


def test_sfpstore_conversions(out):
    # inputs per column pair: 1.0, 1.99999988 (truncated), 65504, 65536 (exponent 31 is finite in Dst),
    # denormal (-> 0), -pi, 2^-15 (below fp16 normal range -> 0), inf (saturates to the largest pattern)
    fp16_want = [0x3C00, 0x3FFF, 0x7BFF, 0x7C00, 0x0000, 0xC248, 0x0000, 0x7FFF]
    got = out["store_fp16"]
    for lane in range(LANES):
        row, col = lane // 8, (lane & 7) * 2
        assert got[row * 16 + col] == _dst_fp16(fp16_want[lane & 7]), lane
        assert got[row * 16 + col + 1] == (8 + row) * 16 + col + 1  # odd columns untouched
    bf16_want = [0x3F80, 0x3FFF, 0x477F, 0x4780, 0x0000, 0xC049, 0x3800, 0x7F80]
    got = out["store_bf16"]
    for lane in range(LANES):
        row, col = lane // 8, (lane & 7) * 2 + 1
        assert got[row * 16 + col] == _dst_bf16(bf16_want[lane & 7]), lane
    got = out["store_int8_comp"]
    for lane in range(LANES):
        v = lane - 16
        want = (0x8000 if v < 0 else 0) | (16 << 10) | abs(v)
        assert got[(lane // 8) * 16 + (lane & 7) * 2] == _dst_fp16(want)


def test_dst_offset_rwc_and_predicated_store(out):
    assert out["load_offset4"] == [(4 + i // 8) * 16 + (i & 7) * 2 for i in range(LANES)]
    assert out["load_offset4_rwc2"] == [(4 + i // 8) * 16 + (i & 7) * 2 + 1 for i in range(LANES)]
    assert out["rwc_dst"] == "4"
    # RWCs.md: RWCs[CurrentThread], so PACK's load starts at its own Dst counter and leaves MATH's
    assert out["load_pack_own_rwc"] == [(i // 8) * 16 + (i & 7) * 2 for i in range(LANES)]
    assert out["rwc_dst_pack"] == "0 4"
    got = out["store_predicated"]
    for lane in range(LANES):
        idx = (lane // 8) * 16 + (lane & 7) * 2
        assert got[idx] == (0xFFFF if lane >= 16 else idx), lane


def test_lut(out):
    xs = [0.25, -0.75, 1.5, -1.25, 3.0, -5.0, 0.0, 2.0]
    lut8_37 = (1 + 7 / 16) * 2.0**-3  # sign 0, exp 3, man 7

    def f(x):
        b = abs(x)
        if b < 1:
            return 0.5 * b + 0.25
        if b < 2:
            return 1.0 * b - 0.125  # lut8(0xb0): sign 1, exponent 3 -> -2^-3
        return lut8_37 * b

    assert out["lut"] == [f2b(f(xs[i & 7])) for i in range(LANES)]
    assert out["lut_sign"] == [f2b(f(xs[i & 7])) | (0x80000000 if xs[i & 7] < 0 else 0) for i in range(LANES)]

    def g(x):
        b = abs(x)
        return 0.5 * b + 0.125 if b < 1 else 2.0 * b - 1.0 if b < 2 else -0.25 * b + 4.0

    assert out["lutfp32"] == [f2b(g(xs[i & 7])) for i in range(LANES)]


def test_conversions(out):
    ints = [i * 12345 if i < 16 else -((i - 16) * 0x01234567) for i in range(LANES)]
    # SFPCAST rounds sign-magnitude integers to nearest even, like torch's int64 -> float32
    want = [f2b(torch.tensor(v, dtype=torch.int64).to(torch.float32).item()) for v in ints]
    want[16] = 0x80000000  # sign-magnitude -0 stays -0
    assert out["cast"] == want
    # fp32 -> bf16 precision, round to nearest with ties away from zero; zero/denormal -> +0,
    # Inf/NaN -> signed Inf, -0 -> +0
    assert out["rnd_fp16b"] == [[0x3F810000, 0x3F820000, 0x3F810000, 0, 0xFF800000, 0, 0x3F800000, 0x7F800000][i & 7] for i in range(LANES)]
    vals = [(i - 16) * 9.75 for i in range(LANES)]

    def round_away(x):
        return int(abs(x) + 0.5) * (1 if x >= 0 else -1)

    def signmag(v):
        return (0x80000000 | -v) if v < 0 else v

    assert out["rnd_int8"] == [signmag(max(-127, min(127, round_away(v)))) for v in vals]
    assert out["rnd_uint16"] == [abs(round_away(v)) for v in vals]
    want = []
    for i in range(LANES):
        mag = (i * 100) / 8
        r = min(127, int(mag + 0.5))
        want.append((0x80000000 if (i & 1) and r else 0) | r)
    assert out["rnd_int_shift3"] == want


def test_prng_and_stochastic_rounding(out):
    state = prng_model.seeded(0x1234567, LANES)
    assert out["prng0"] == state
    state = [prng_model.step(s) for s in state]
    assert out["prng1"] == state
    state = [prng_model.step(s) for s in state]
    want = []
    for lane, rnd in enumerate(state):
        x = 0x3F800000 + lane * 0x800
        dropped = x & 0xFFFF
        want.append(x - dropped + (0x10000 if prng_model.rounds_up(dropped, 16, rnd) else 0))
    assert out["rnd_stoch_fp16b"] == want
    assert set(want) == {0x3F800000, 0x3F810000}  # the random threshold sends lanes both ways


def test_swap_transpose_shuffles(out):
    a = [float(i % 5) - 2 for i in range(LANES)]
    b = [float(i % 3) - 1 for i in range(LANES)]
    assert out["swap_min"] == [f2b(min(x, y)) for x, y in zip(a, b)]
    assert out["swap_max"] == [f2b(max(x, y)) for x, y in zip(a, b)]
    assert out["swap9_max"] == out["swap_max"] and out["swap9_min"] == out["swap_min"]
    # transpose of the 4x4 blocks (register i, row j) within each column, in LReg[0..3] and LReg[4..7]
    for reg, tag in ((0, "transp0"), (1, "transp1"), (5, "transp5")):
        base = reg & 4
        want = [(base + i // 8) * 100 + (reg - base) * 8 + (i & 7) for i in range(LANES)]
        assert out[tag] == want, tag
    assert out["copy4_l0"] == [100 + i for i in range(LANES)]
    assert out["copy4_l3"] == [0] * LANES
    assert out["rotate"] == [i - 1 if i & 7 else i + 7 for i in range(LANES)]
    l2 = [300 + i for i in range(LANES)]  # L2 after COPY4 holds the old L3; L5 holds the lane number
    assert out["shft2_lreg"] == [(i << (s & 31)) & 0xFFFFFFFF for i, s in zip(range(LANES), l2)]


def test_sfpconfig(out):
    assert out["config_l12"] == [0x100 + (i & 7) for i in range(LANES)]
    assert out["row_masked"][:8] == [0x77] * 8
    assert out["row_masked"][8:16] == [0] * 8
    assert out["row_masked"][16:] == [0x77] * 16


def _even_lanes(dump: list[int]) -> list[int]:
    """The 32 lanes' even-column datums of a four-row Dst dump."""
    return [dump[(lane // 8) * 16 + (lane & 7) * 2] for lane in range(LANES)]


def test_loadmacro_where_schedule(out):
    a = [0 if i % 3 == 0 else 5 for i in range(LANES)]
    assert _even_lanes(out["where_before_store"]) == a
    assert _even_lanes(out["where"]) == [100 + i if a[i] else 200 + i for i in range(LANES)]
    assert out["where_flags"] == "ffffffff"


def test_loadmacro_delays_lreg16_and_templates(out):
    # SFPIADD(imm12=0, VC=5, VD=15, Mod1=4) loaded as template 3 through the backdoor
    assert out["template3"] == [(0x79 << 24) | (5 << 8) | (15 << 4) | 4] * LANES
    assert out["macro_l16"] == [i * 1001 for i in range(LANES)]
    assert _even_lanes(out["macro_before_store"]) == list(range(LANES))
    assert _even_lanes(out["macro_store"]) == [(i * 1001) & 0xFFFF for i in range(LANES)]


def test_undefined_modes_are_hard_errors(out):
    assert "SFPLOADI Mod0=3 is undefined" in out["err_loadi_mode"]
    assert "empty flag stack" in out["err_popc_empty"]
    assert "flag stack full" in out["err_pushc_full"]
