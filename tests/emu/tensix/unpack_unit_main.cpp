// Unit scenarios of the Tensix unpackers (driven by test_unpack.py, which prepends the L1 image
// `kL1` and the tile offsets as constexpr values, and checks what this prints against torch).
//
// The configuration is written by field name the way the LLK's configure_unpack_AB,
// _llk_unpack_A_init_/_llk_unpack_A_ and _llk_unpack_tilize_init_ program it; instructions are
// encoded with the wheel's TT_OP_* macros. The synchronous machine plays the math thread by hand:
// after each face it releases the Src banks the way the matrix unit would.
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "cfg_defines.h"
#include "ckernel_ops.h"
#include "machine.h"

using namespace tc_tensix;

namespace {

constexpr uint32_t kSrcA = 0, kSrcB = 1;
constexpr uint32_t kZeroSrc = 0b001, kNegInfSrc = 0b101, kSetDvalid = 0b111, kPop = 0b000;  // p_unpacr_nop
enum Fmt : uint32_t { Float32 = 0, Float16 = 1, Tf32 = 4, Float16_b = 5, Bfp8_b = 6, Int8 = 14 };

#define SETF(m, NAME, v) set_field(m, NAME##_ADDR32, NAME##_SHAMT, NAME##_MASK, v)
void set_field(Machine& m, uint32_t addr, uint32_t shamt, uint32_t mask, uint32_t v) {
    uint32_t& w = m.cfg_word(kUnpack, addr);
    w = (w & ~mask) | ((v << shamt) & mask);
}

uint32_t out_datum_bytes(uint32_t fmt) { return (fmt & 3) == Float32 ? 4 : ((fmt & 3) == Float16 ? 2 : 1); }

// configure_unpack_AB + _llk_unpack_A_init_ (no broadcast) for one input/output format pair.
void configure(Machine& m, uint32_t in_fmt, uint32_t out_fmt, bool transpose = false, bool int8_unsigned = false) {
    const uint32_t x_stride = out_datum_bytes(out_fmt);
    SETF(m, UNP0_ADDR_CTRL_ZW_REG_1_Zstride, 256 * x_stride);
    SETF(m, UNP1_ADDR_CTRL_ZW_REG_1_Zstride, 256 * x_stride);
    SETF(m, UNP0_ADDR_CTRL_XY_REG_1_Ystride, 16 * x_stride);
    SETF(m, ALU_FORMAT_SPEC_REG0_SrcAUnsigned, int8_unsigned);
    // Tile descriptors: format, uncompressed, x_dim (unpacker 0 takes it per context), y 1, z 4 faces.
    m.cfg_word(kUnpack, THCON_SEC0_REG0_TileDescriptor_ADDR32) = in_fmt | (1u << 4);
    m.cfg_word(kUnpack, THCON_SEC0_REG0_TileDescriptor_ADDR32 + 1) = 1u | (4u << 16);
    m.cfg_word(kUnpack, THCON_SEC1_REG0_TileDescriptor_ADDR32) = in_fmt | (1u << 4) | (256u << 16);
    m.cfg_word(kUnpack, THCON_SEC1_REG0_TileDescriptor_ADDR32 + 1) = 1u | (4u << 16);
    const uint32_t cfg0 = out_fmt | (2u << 4) | (uint32_t(transpose) << 8), cfg1 = 0xfu | (0xfu << 16);
    m.cfg_word(kUnpack, THCON_SEC0_REG2_Out_data_format_ADDR32) = cfg0;
    m.cfg_word(kUnpack, THCON_SEC0_REG2_Out_data_format_ADDR32 + 1) = cfg1;
    m.cfg_word(kUnpack, THCON_SEC1_REG2_Out_data_format_ADDR32) = cfg0 & ~(1u << 8);
    m.cfg_word(kUnpack, THCON_SEC1_REG2_Out_data_format_ADDR32 + 1) = cfg1;
    m.cfg_word(kUnpack, THCON_SEC0_REG5_Dest_cntx0_address_ADDR32) = 64u | (64u << 16);
    m.cfg_word(kUnpack, THCON_SEC0_REG5_Tile_x_dim_cntx0_ADDR32) = 256u | (256u << 16);
    m.thread_cfg_word(kUnpack, SRCA_SET_Base_ADDR32) = 0x4;  // SetOvrdWithAddr
    SETF(m, UNP0_ADD_DEST_ADDR_CNTR_add_dest_addr_cntr, 1);
    m.thread_cfg_word(kUnpack, UNPACK_MISC_CFG_CfgContextOffset_0_ADDR32) = 0;
    // unpacker_addr_counter_init + config_unpacker_x_end(16)
    m.issue(kUnpack, TT_OP_SETADCXY(0b011, 0, 0, 0, 0, 0b1011));
    m.issue(kUnpack, TT_OP_SETADCZW(0b011, 0, 0, 0, 0, 0b1111));
    m.issue(kUnpack, TT_OP_SETADCXX(0b011, 255, 0));
}

// What the matrix unit does when it has consumed a face: release both Src banks it points at.
void math_consumes(Machine& m) {
    m.s.srca[m.s.srca_math_bank].dvalid = false;
    m.s.srca_math_bank ^= 1;
    m.s.srcb[m.s.srcb_math_bank].dvalid = false;
    m.s.srcb_math_bank ^= 1;
}

void dump_rows(const char* tag, int index, const uint32_t (*rows)[16], int nrows) {
    for (int r = 0; r < nrows; ++r) {
        std::printf("%s %d %d", tag, index, r);
        for (int c = 0; c < 16; ++c) std::printf(" %x", rows[r][c]);
        std::printf("\n");
    }
}

// _llk_unpack_A_'s MOP for a 4-face tile: per face, SrcA from L1 and a zeroed SrcB, both valid.
void unpack_A_tile(Machine& m, const char* tag, uint32_t l1_addr) {
    m.issue(kUnpack, TT_OP_SETADCZW(0b011, 0, 0, 0, 0, 0b1111));
    m.cfg_word(kUnpack, THCON_SEC0_REG3_Base_address_ADDR32) = (l1_addr >> 4) - 1;
    for (int face = 0; face < 4; ++face) {
        const int bank = m.s.srca_unpack_bank;
        for (auto& row : m.s.srcb[bank].row) row[3] = 0x1234;  // stale data ZEROSRC must clear
        m.issue(kUnpack, TT_OP_UNPACR(kSrcA, 0b1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1));
        m.issue(kUnpack, TT_OP_UNPACR_NOP(kSrcB, kZeroSrc));
        m.issue(kUnpack, TT_OP_UNPACR_NOP(kSrcB, kSetDvalid));
        if (!m.s.srca[bank].dvalid || !m.s.srcb[bank].dvalid) std::printf("%s dvalid not set\n", tag);
        for (auto& row : m.s.srcb[bank].row)
            for (uint32_t v : row)
                if (v != 0) std::printf("%s SrcB not zeroed\n", tag);
        dump_rows(tag, face, m.s.srca[bank].row, 16);
        math_consumes(m);
    }
}

// _llk_unpack_A_ with unpack_to_dest (32-bit input): Dst rows 0..63 as Dst32b.
void unpack_A_to_dest(Machine& m, const char* tag, uint32_t l1_addr) {
    m.thread_cfg_word(kUnpack, SRCA_SET_Base_ADDR32) = 0;  // set_dst_write_addr
    SETF(m, THCON_SEC0_REG2_Unpack_if_sel_cntx0, 1);
    SETF(m, THCON_SEC0_REG5_Dest_cntx0_address, 16 * (4 + 0));
    m.issue(kUnpack, TT_OP_SETADCZW(0b011, 0, 0, 0, 0, 0b1111));
    m.cfg_word(kUnpack, THCON_SEC0_REG3_Base_address_ADDR32) = (l1_addr >> 4) - 1;
    for (int face = 0; face < 4; ++face) m.issue(kUnpack, TT_OP_UNPACR(kSrcA, 0b00010001, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1));
    uint32_t rows[64][16];
    for (int r = 0; r < 64; ++r)
        for (int c = 0; c < 16; ++c) rows[r][c] = m.dst32_read(r, c);
    dump_rows(tag, 0, rows, 64);
}

// _llk_unpack_tilize_init_ + _llk_unpack_tilize_ for one 32x32 row-major tile (block_ct_dim 1).
void unpack_tilize(Machine& m, const char* tag, uint32_t l1_addr, uint32_t fmt) {
    m.issue(kUnpack, TT_OP_SETADCXX(0b001, 255, 0));
    SETF(m, THCON_SEC0_REG2_Tileize_mode, 1);
    const uint32_t row_bytes = 32 * out_datum_bytes(fmt);
    SETF(m, THCON_SEC0_REG2_Shift_amount_cntx0, (row_bytes >> 4) & 0xf);
    SETF(m, THCON_SEC0_REG2_Shift_amount_cntx1, (row_bytes >> 8) & 0xf);
    SETF(m, THCON_SEC0_REG2_Shift_amount_cntx2, (row_bytes >> 12) & 0xf);
    m.cfg_word(kUnpack, THCON_SEC0_REG5_Tile_x_dim_cntx0_ADDR32) = 16u | (16u << 16);
    int face = 0;
    for (uint32_t half = 0; half < 2; ++half) {
        m.issue(kUnpack, TT_OP_SETADCZW(0b001, 0, 0, 0, 0, 0b1111));
        m.cfg_word(kUnpack, THCON_SEC0_REG3_Base_address_ADDR32) = ((l1_addr + half * 16 * row_bytes) >> 4) - 1;
        for (int k = 0; k < 2; ++k, ++face) {
            const int bank = m.s.srca_unpack_bank;
            m.issue(kUnpack, TT_OP_UNPACR(kSrcA, 0b1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1));
            m.issue(kUnpack, TT_OP_UNPACR_NOP(kSrcB, kZeroSrc));
            m.issue(kUnpack, TT_OP_UNPACR_NOP(kSrcB, kSetDvalid));
            dump_rows(tag, face, m.s.srca[bank].row, 16);
            math_consumes(m);
        }
    }
}

// Unpacker 1 in config context 1 (switch_config_context: CfgContextOffset 1, Base_cntx1_address).
void unpack_B_context1(Machine& m, const char* tag, uint32_t l1_addr) {
    m.thread_cfg_word(kUnpack, UNPACK_MISC_CFG_CfgContextOffset_0_ADDR32) = 0x0101;
    m.issue(kUnpack, TT_OP_SETADCZW(0b011, 0, 0, 0, 0, 0b1111));
    m.cfg_word(kUnpack, THCON_SEC1_REG3_Base_cntx1_address_ADDR32) = (l1_addr >> 4) - 1;
    for (int face = 0; face < 4; ++face) {
        const int bank = m.s.srcb_unpack_bank;
        m.issue(kUnpack, TT_OP_UNPACR(kSrcB, 0b1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1));
        dump_rows(tag, face, m.s.srcb[bank].row, 16);
        m.s.srcb[m.s.srcb_math_bank].dvalid = false;
        m.s.srcb_math_bank ^= 1;
    }
}

void expect_failure(const char* tag, Machine& m, uint32_t word) {
    try {
        m.issue(kUnpack, word);
        std::printf("%s no error\n", tag);
    } catch (const std::runtime_error& e) {
        std::printf("%s %s\n", tag, e.what());
    }
}

void adc_scenario() {
    Machine m;
    auto show = [&](const char* step) {
        const AdcChannel& a = m.s.adc[kUnpack].unpacker[0][0];
        const AdcChannel& b = m.s.adc[kUnpack].unpacker[1][1];
        const AdcChannel& p = m.s.adc[kUnpack].packers[0];
        const AdcChannel& o = m.s.adc[kMath].unpacker[0][0];
        std::printf("adc %s %u %u %u %u %u %u %u %u %u %u %u %u %u\n", step, a.x, a.y, a.z, a.w, a.y_cr, b.x, b.y, b.z, b.w, p.x,
                    p.z, o.x, o.z);
    };
    m.issue(kUnpack, TT_OP_SETADCXY(0b111, 3, 2, 5, 1, 0b1111));
    show("setxy");
    m.issue(kUnpack, TT_OP_SETADCZW(0b011, 4, 6, 7, 2, 0b0101));
    show("setzw");
    m.issue(kUnpack, TT_OP_INCADCXY(0b001, 0, 0, 3, 4));
    show("incxy");
    m.issue(kUnpack, TT_OP_ADDRCRXY(0b001, 0, 0, 2, 0, 0b0010));
    show("addrcrxy");
    m.issue(kUnpack, TT_OP_INCADCZW(0b111, 1, 1, 1, 1));
    m.issue(kUnpack, TT_OP_ADDRCRZW(0b001, 0, 0, 0, 5, 0b0001));
    show("zw");
    m.issue(kUnpack, TT_OP_SETADCXX(0b010, 511, 7));
    m.issue(kUnpack, TT_OP_SETADC(0b001, 0, 2, (2u << 16) | 9));  // ThreadOverride 2: the math thread's ADCs
    show("xx");
}

// A machine whose L1 is `l1`, configured for one format pair.
struct Bench {
    Machine machine;
    Machine& m() { return machine; }  // also on a temporary Bench, for one scenario call
    Bench(std::vector<uint8_t>& l1, uint32_t in_fmt, uint32_t out_fmt, bool transpose = false, bool int8_unsigned = false) {
        machine.s.l1 = l1.data();
        machine.s.l1_size = l1.size();
        configure(machine, in_fmt, out_fmt, transpose, int8_unsigned);
    }
};

}  // namespace

int main() {
    struct Case {
        const char* tag;
        uint32_t in_fmt, out_fmt, addr;
        bool transpose, int8_unsigned;
    };
    const Case cases[] = {
        {"bf16", Float16_b, Float16_b, kBf16Tile, false, false}, {"tf32", Float32, Tf32, kFp32Tile, false, false},
        {"fp32_bf16", Float32, Float16_b, kFp32Tile, false, false}, {"fp16", Float16, Float16, kFp16Tile, false, false},
        {"fp32_fp16", Float32, Float16, kFp32Tile, false, false},
        {"bfp8b", Bfp8_b, Bfp8_b, kBfp8Tile, false, false}, {"int8", Int8, Int8, kInt8Tile, false, false},
        {"uint8", Int8, Int8, kInt8Tile, false, true}, {"transpose", Float16_b, Float16_b, kBf16Tile, true, false},
    };
    std::vector<uint8_t> l1(kL1, kL1 + sizeof kL1);
    for (const Case& c : cases) unpack_A_tile(Bench(l1, c.in_fmt, c.out_fmt, c.transpose, c.int8_unsigned).m(), c.tag, c.addr);
    unpack_A_to_dest(Bench(l1, Float32, Float32).m(), "dest_fp32", kFp32Tile);
    unpack_tilize(Bench(l1, Float16_b, Float16_b).m(), "tilize", kRowMajorBf16, Float16_b);
    unpack_B_context1(Bench(l1, Float16_b, Float16_b).m(), "srcb_ctx1", kBf16Tile);
    {
        Bench b(l1, Float16_b, Float16_b);
        Machine& m = b.m();
        m.cfg_word(kUnpack, THCON_SEC0_REG3_Base_address_ADDR32) = (kBf16Tile >> 4) - 1;
        m.s.srca[m.s.srca_unpack_bank].dvalid = true;  // the matrix unit still owns the bank
        expect_failure("err_wait", m, TT_OP_UNPACR(kSrcA, 0b1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1));
        m.s.srca[m.s.srca_unpack_bank].dvalid = false;
        expect_failure("err_rowsearch", m, TT_OP_UNPACR(kSrcA, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 1));
        expect_failure("err_nop_pop", m, TT_OP_UNPACR_NOP(kSrcA, kPop));
        // unpack_to_dest_tile_done's TEN-3868 workaround: a zero write with ch1 Z past the tile wraps.
        m.issue(kUnpack, TT_OP_SETADCXX(0b001, 15, 0));
        m.issue(kUnpack, TT_OP_SETADCZW(0b001, 0, 4, 0, 0, 0b0100));
        m.s.srca[m.s.srca_unpack_bank].row[0][7] = 0x1234;
        m.issue(kUnpack, TT_OP_UNPACR(kSrcA, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1));
        std::printf("zero_wrap %x\n", m.s.srca[m.s.srca_unpack_bank].row[0][7]);
        expect_failure("err_row", m, TT_OP_UNPACR(kSrcA, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1));
        m.issue(kUnpack, TT_OP_UNPACR_NOP(kSrcA, kNegInfSrc));
        std::printf("neginf %x %x\n", m.s.srca[m.s.srca_unpack_bank].row[0][0], m.s.srca[m.s.srca_unpack_bank].row[63][15]);
        SETF(m, THCON_SEC0_REG2_Out_data_format, Float32);
        expect_failure("err_format", m, TT_OP_UNPACR(kSrcA, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1));
    }
    adc_scenario();
    try {  // a machine build serves the architecture it was compiled for (arch.h)
        Machine bh(Arch::Blackhole);
        std::printf("err_other_arch no error\n");
    } catch (const std::runtime_error& e) {
        std::printf("err_other_arch %s\n", e.what());
    }
}
