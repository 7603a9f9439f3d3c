// The unpackers: UNPACR (L1 -> SrcA / SrcB / Dst) and UNPACR_NOP (the ADC instructions: adc.cpp).
//
// Facts from tt-isa-documentation (WormholeB0 UNPACR_Regular.md, UNPACR_IncrementContextCounter.md,
// UNPACR_FlushCache.md, ADCs.md, SrcASrcB.md)
// and ttsim's src/tensix.cpp (UNPACR_NOP, which the ISA documentation does not describe); the
// code is ours. What the LLK never drives and we do not model (compressed tiles, row search,
// SrcB rarefaction, the UNPACR_NOP pop/stall/bank-reset flavours) is a Machine::fail naming it.
//
// Bank protocol (SrcASrcB.md): SrcBank::dvalid false means the bank belongs to the unpackers.
// An UNPACR waits until the bank its unpacker points at (srca/srcb_unpack_bank) is theirs, writes
// it, and with FlipSrc ("SetDatValid") hands it to the matrix unit (dvalid = true) and moves on to
// the other bank; the matrix unit gives it back by clearing dvalid.
#include <cstdio>
#include <string>

#include "cfg_defines.h"
#include "format_decode.h"
#include "adc.h"
#include "machine.h"

namespace tc_tensix {

namespace {

// One named config field (cfg_defines.h: NAME_ADDR32, NAME_SHAMT, NAME_MASK).
struct Field {
    uint32_t addr32, shamt, mask;
};
#define TC_F(name) Field{name##_ADDR32, name##_SHAMT, uint32_t(name##_MASK)}

uint32_t get(Machine& m, int thread, const Field& f) { return m.cfg_field(thread, f.addr32, f.shamt, f.mask); }
uint32_t get_thread(Machine& m, int thread, const Field& f) { return (m.thread_cfg_word(thread, f.addr32) & f.mask) >> f.shamt; }

// The configuration one unpacker reads (THCON_SEC<n>_* and UNP<n>_*), by field name.
struct UnpackerRegs {
    uint32_t tile_descriptor;  // 4 words; layout in UNPACR_Regular.md "Configuration"
    Field out_format, tileize, haloize, src_reg_set_upd, unpack_if_sel, upsample_rate, upsample_interleave, ovrd_format,
        force_shared_exp, context_count, limit_address, fifo_size;
    Field shift_amount[4], disable_zero_compress[8], unpack_if_sel_cntx[8], dest_cntx[4], tile_x_dim_cntx[4];
    uint32_t base_address[8];    // Base_address, Base_cntx1..7_address (32-bit words)
    Field offset_address[4];     // Offset_address, Offset_cntx1..3_address
    Field format_cntx0;          // Unpack_data_format_cntx0; cntx n: word + (n & 3), +8 bits for n >= 4
    Field out_base, y_stride, z_stride, w_stride, forced_exp, add_dest_addr_cntr;
};

#define TC_UNPACKER_REGS(SEC, UNP)                                                                                        \
    UnpackerRegs {                                                                                                        \
        THCON_##SEC##_REG0_TileDescriptor_ADDR32, TC_F(THCON_##SEC##_REG2_Out_data_format),                               \
            TC_F(THCON_##SEC##_REG2_Tileize_mode), TC_F(THCON_##SEC##_REG2_Haloize_mode),                                 \
            TC_F(THCON_##SEC##_REG2_Unpack_Src_Reg_Set_Upd), TC_F(THCON_##SEC##_REG2_Unpack_If_Sel),                      \
            TC_F(THCON_##SEC##_REG2_Upsample_rate), TC_F(THCON_##SEC##_REG2_Upsample_and_interleave),                     \
            TC_F(THCON_##SEC##_REG2_Ovrd_data_format), TC_F(THCON_##SEC##_REG2_Force_shared_exp),                         \
            TC_F(THCON_##SEC##_REG2_Context_count), TC_F(THCON_##SEC##_REG2_Unpack_limit_address),                        \
            TC_F(THCON_##SEC##_REG2_Unpack_fifo_size),                                                                    \
            {TC_F(THCON_##SEC##_REG2_Shift_amount_cntx0), TC_F(THCON_##SEC##_REG2_Shift_amount_cntx1),                    \
             TC_F(THCON_##SEC##_REG2_Shift_amount_cntx2), TC_F(THCON_##SEC##_REG2_Shift_amount_cntx3)},                   \
            {TC_F(THCON_##SEC##_REG2_Disable_zero_compress_cntx0), TC_F(THCON_##SEC##_REG2_Disable_zero_compress_cntx1),  \
             TC_F(THCON_##SEC##_REG2_Disable_zero_compress_cntx2), TC_F(THCON_##SEC##_REG2_Disable_zero_compress_cntx3),  \
             TC_F(THCON_##SEC##_REG2_Disable_zero_compress_cntx4), TC_F(THCON_##SEC##_REG2_Disable_zero_compress_cntx5),  \
             TC_F(THCON_##SEC##_REG2_Disable_zero_compress_cntx6), TC_F(THCON_##SEC##_REG2_Disable_zero_compress_cntx7)}, \
            {TC_F(THCON_##SEC##_REG2_Unpack_if_sel_cntx0), TC_F(THCON_##SEC##_REG2_Unpack_if_sel_cntx1),                  \
             TC_F(THCON_##SEC##_REG2_Unpack_if_sel_cntx2), TC_F(THCON_##SEC##_REG2_Unpack_if_sel_cntx3),                  \
             TC_F(THCON_##SEC##_REG2_Unpack_if_sel_cntx4), TC_F(THCON_##SEC##_REG2_Unpack_if_sel_cntx5),                  \
             TC_F(THCON_##SEC##_REG2_Unpack_if_sel_cntx6), TC_F(THCON_##SEC##_REG2_Unpack_if_sel_cntx7)},                 \
            {TC_F(THCON_##SEC##_REG5_Dest_cntx0_address), TC_F(THCON_##SEC##_REG5_Dest_cntx1_address),                    \
             TC_F(THCON_##SEC##_REG5_Dest_cntx2_address), TC_F(THCON_##SEC##_REG5_Dest_cntx3_address)},                   \
            {TC_F(THCON_##SEC##_REG5_Tile_x_dim_cntx0), TC_F(THCON_##SEC##_REG5_Tile_x_dim_cntx1),                        \
             TC_F(THCON_##SEC##_REG5_Tile_x_dim_cntx2), TC_F(THCON_##SEC##_REG5_Tile_x_dim_cntx3)},                       \
            {THCON_##SEC##_REG3_Base_address_ADDR32, THCON_##SEC##_REG3_Base_cntx1_address_ADDR32,                        \
             THCON_##SEC##_REG3_Base_cntx2_address_ADDR32, THCON_##SEC##_REG3_Base_cntx3_address_ADDR32,                  \
             THCON_##SEC##_REG4_Base_cntx4_address_ADDR32, THCON_##SEC##_REG4_Base_cntx5_address_ADDR32,                  \
             THCON_##SEC##_REG4_Base_cntx6_address_ADDR32, THCON_##SEC##_REG4_Base_cntx7_address_ADDR32},                 \
            {TC_F(THCON_##SEC##_REG7_Offset_address), TC_F(THCON_##SEC##_REG7_Offset_cntx1_address),                      \
             TC_F(THCON_##SEC##_REG7_Offset_cntx2_address), TC_F(THCON_##SEC##_REG7_Offset_cntx3_address)},               \
            TC_F(THCON_##SEC##_REG7_Unpack_data_format_cntx0), TC_F(UNP##_ADDR_BASE_REG_1_Base),                          \
            TC_F(UNP##_ADDR_CTRL_XY_REG_1_Ystride), TC_F(UNP##_ADDR_CTRL_ZW_REG_1_Zstride),                               \
            TC_F(UNP##_ADDR_CTRL_ZW_REG_1_Wstride), TC_F(UNP##_FORCED_SHARED_EXP_shared_exp),                             \
            TC_F(UNP##_ADD_DEST_ADDR_CNTR_add_dest_addr_cntr)                                                             \
    }

const UnpackerRegs kRegs[2] = {TC_UNPACKER_REGS(SEC0, UNP0), TC_UNPACKER_REGS(SEC1, UNP1)};
const Field kContextOffset[2] = {TC_F(UNPACK_MISC_CFG_CfgContextOffset_0), TC_F(UNPACK_MISC_CFG_CfgContextOffset_1)};
const Field kSrcSetBase[2] = {TC_F(SRCA_SET_Base), TC_F(SRCB_SET_Base)};
const Field kSrcAOvrdWithAddr = TC_F(SRCA_SET_SetOvrdWithAddr);
const Field kInt8Unsigned[2] = {TC_F(ALU_FORMAT_SPEC_REG0_SrcAUnsigned), TC_F(ALU_FORMAT_SPEC_REG0_SrcBUnsigned)};

// Whether unpacker `which` reads Lf8 datums as E4M3 (Blackhole's Unp_LF8_4b_exp, in the THCON
// REG1 block of its section; ttsim's unpacker). Wormhole's Lf8 is E5M2 only.
bool fp8_is_e4m3(Machine& m, int thread, uint32_t which) {
#if defined(THCON_SEC0_REG1_Unp_LF8_4b_exp_ADDR32)
    static const Field kUnpLf8E4m3[2] = {TC_F(THCON_SEC0_REG1_Unp_LF8_4b_exp), TC_F(THCON_SEC1_REG1_Unp_LF8_4b_exp)};
    return get(m, thread, kUnpLf8E4m3[which]) != 0;
#else
    (void)m, (void)thread, (void)which;
    return false;
#endif
}

std::string msg(const char* fmt, unsigned a = 0, unsigned b = 0, unsigned c = 0) {
    char buf[256];
    std::snprintf(buf, sizeof buf, fmt, a, b, c);
    return buf;
}

// ---------------------------------------------------------------------------------------------
// UNPACR (regular mode): the configuration it reads, resolved once per instruction.

struct UnpackJob {
    uint32_t which = 0, context = 0, adc_thread = 0;
    uint32_t in_fmt = 0, out_fmt = 0, in_bits = 0;
    bool bfp_exp_in_l1 = false;
    uint64_t datum_bit_addr = 0;   // L1 bit address of the first datum
    uint64_t exp_addr16 = 0;       // L1 address of its shared exponent, in 1/16-byte units
    uint32_t count = 0;            // datums to read
    uint32_t row_datums = 16;      // datums the unpacker reads contiguously before the next row
    uint32_t row_stride_bytes = 0; // L1 distance between successive rows
    uint32_t limit_bytes = 0, fifo_bytes = 0;
    bool to_dst = false, transpose = false;
    bool srca_rows_from_addr = false;  // SRCA_SET_SetOvrdWithAddr of the issuing thread
    bool all_zero = false;             // AllDatumsAreZero (ZeroWrite2): no L1 data, zeros written
    uint32_t out_addr = 0, col_shift = 0, upsample_zeroes = 0;
    bool upsample_interleave = false;
    uint8_t forced_exp = 0;
    decode::DatumMode mode;  // Src{A,B}Unsigned, Unp_LF8_4b_exp
};

// WrapAddr of the ISA: addresses past the unpacker's FIFO limit wrap back by the FIFO size. `addr`
// counts in units of 1/`per_byte` byte (8: bit addresses of datums, 16: shared-exponent addresses).
uint64_t wrap(const UnpackJob& j, uint64_t addr, uint64_t per_byte) {
    return addr > j.limit_bytes * per_byte ? addr - j.fifo_bytes * per_byte : addr;
}

UnpackJob plan_unpack(Machine& m, int thread, uint32_t word) {
    UnpackJob j;
    j.which = field(word, 23, 1);
    const uint32_t context_number = field(word, 10, 3), context_adc = field(word, 8, 2);
    const bool multi_context = field(word, 7, 1), use_counter = field(word, 3, 1);
    const UnpackerRegs& r = kRegs[j.which];
    auto cfg = [&](const Field& f) { return get(m, thread, f); };

    j.adc_thread = uint32_t(thread);
    if (multi_context) {
        j.context = use_counter ? m.s.unpack.context_counter[j.which][thread] : context_number;
        j.context = (j.context + get_thread(m, thread, kContextOffset[j.which])) & 7u;
        j.adc_thread = context_adc;
        if (j.which == 1 && j.context >= 2) m.fail(thread, word, msg("unpacker 1 has config contexts 0 and 1 only (context %u)", j.context));
        if (context_adc == 3) m.fail(thread, word, "ContextADC 3 names no thread's ADCs");
    }

    const uint32_t d0 = m.cfg_word(thread, r.tile_descriptor), d1 = m.cfg_word(thread, r.tile_descriptor + 1);
    const uint32_t d2 = m.cfg_word(thread, r.tile_descriptor + 2), d3 = m.cfg_word(thread, r.tile_descriptor + 3);
    const bool uncompressed = multi_context ? cfg(r.disable_zero_compress[j.context]) : ((d0 >> 4) & 1u);
    const bool no_bfp_exp_section = (d0 >> 5) & 1u;
    const uint32_t x_dim = (multi_context && j.which == 0) ? cfg(r.tile_x_dim_cntx[j.context & 3]) : (d0 >> 16);
    const uint32_t y_dim = d1 & 0xffu;
    const uint32_t z_dim = ((d1 >> 16) & 0xffu) ? ((d1 >> 16) & 0xffu) : 1u;
    const uint32_t w_dim = (d2 & 0xffu) ? (d2 & 0xffu) : 1u;
    const uint32_t digest_size = d3 >> 24;
    if (!uncompressed) m.fail(thread, word, "compressed (zero-compressed) tiles are not modelled");
    if (field(word, 2, 1)) m.fail(thread, word, "UNPACR RowSearch is not modelled");

    if (multi_context && cfg(r.ovrd_format)) {
        const Field f = r.format_cntx0;
        const uint32_t w = m.cfg_word(thread, f.addr32 + (j.context & 3)) >> (f.shamt + (j.context >= 4 ? 8 : 0));
        j.in_fmt = w & 0xfu;
        j.out_fmt = (w >> 4) & 0xfu;
    } else {
        j.in_fmt = d0 & 0xfu;
        j.out_fmt = cfg(r.out_format);
    }
    j.in_bits = datum_bits(j.in_fmt);
    if (j.in_bits == 0) m.fail(thread, word, msg("input data format code %u names no format", j.in_fmt));

    // Input address: 16-byte units, past the (1 + DigestSize) * 16 byte tile header.
    uint32_t base;
    if (multi_context && j.context != 0) {
        base = m.cfg_word(thread, r.base_address[j.context]) + (cfg(r.offset_address[j.context & 3]) & 0xffffu);
    } else {
        base = m.cfg_word(thread, r.base_address[0]) + (cfg(r.offset_address[0]) & 0xffffu);
    }
    uint64_t in_addr = (uint64_t(base) + 1 + digest_size) * 16;
    j.limit_bytes = cfg(r.limit_address) * 16;
    j.fifo_bytes = cfg(r.fifo_size) * 16;

    const bool force_exp = cfg(r.force_shared_exp);
    j.forced_exp = uint8_t(cfg(r.forced_exp));
    j.bfp_exp_in_l1 = is_bfp(j.in_fmt) && !force_exp;
    uint64_t exp_addr = 0;
    if (j.bfp_exp_in_l1) {
        exp_addr = in_addr;
        if (j.in_fmt == BFP8 || j.in_fmt == BFP8a || !no_bfp_exp_section) {
            const uint64_t exponents = (uint64_t(x_dim) * y_dim * z_dim * w_dim + 15) / 16;
            in_addr += (exponents + 15) / 16 * 16;
        }
    }

    const AdcChannel& xy = m.s.adc[j.adc_thread].unpacker[j.which][0];
    const AdcChannel& zw = m.s.adc[thread].unpacker[j.which][0];
    const uint32_t x_end = m.s.adc[j.adc_thread].unpacker[j.which][1].x + 1;
    if (x_end < xy.x) m.fail(thread, word, msg("ADC X range is empty (X %u, end %u)", xy.x, x_end - 1));
    const uint64_t first = ((uint64_t(zw.w) * z_dim + zw.z) * y_dim + xy.y) * x_dim + xy.x;
    j.count = x_end - xy.x;
    j.datum_bit_addr = wrap(j, in_addr * 8 + first * j.in_bits, 8);
    j.exp_addr16 = wrap(j, exp_addr * 16 + first, 16);

    const bool tileize = cfg(r.tileize);
    // A row is 16 datums; Blackhole reads 32 formats wider than 8 bits per row (ttsim's unpacker),
    // which only a tilize unpack (row stride from Shift_amount) can tell apart.
    j.row_datums = (kArch == Arch::Blackhole && j.in_bits > 8) ? 32 : 16;
    j.row_stride_bytes = tileize ? ((cfg(r.shift_amount[0]) << 4) | (cfg(r.shift_amount[1]) << 8) | (cfg(r.shift_amount[2]) << 12))
                                 : j.in_bits * j.row_datums / 8;

    if (j.which == 0) {
        j.to_dst = multi_context ? cfg(r.unpack_if_sel_cntx[j.context]) : cfg(r.unpack_if_sel);
        j.transpose = cfg(r.haloize);
    }
    const AdcChannel& out = m.s.adc[thread].unpacker[j.which][1];
    uint32_t out_addr = cfg(r.out_base) + out.y * cfg(r.y_stride) + out.z * cfg(r.z_stride) + out.w * cfg(r.w_stride);
    const uint32_t out_bytes = decode::dst_is_32b(j.out_fmt) ? 4 : (datum_bits(j.out_fmt) == 16 ? 2 : 1);
    if (out_addr % out_bytes) m.fail(thread, word, msg("output address %u is not aligned to the %u-byte output datum", out_addr, out_bytes));
    out_addr /= out_bytes;
    if (multi_context && j.which == 0) {
        const uint32_t ctx_out = cfg(r.dest_cntx[j.context & 3]);
        out_addr = (j.to_dst || cfg(r.add_dest_addr_cntr)) ? out_addr + ctx_out : ctx_out;
    }
    j.out_addr = out_addr;
    j.upsample_zeroes = (1u << cfg(r.upsample_rate)) - 1;
    j.upsample_interleave = cfg(r.upsample_interleave);
    j.col_shift = (tileize || j.which == 1) ? 0 : cfg(r.shift_amount[j.context & 3]);
    j.mode.int8_unsigned = get(m, thread, kInt8Unsigned[j.which]);
    j.mode.fp8_e4m3 = fp8_is_e4m3(m, thread, j.which);
    j.srca_rows_from_addr = get_thread(m, thread, kSrcAOvrdWithAddr);
    j.all_zero = field(word, 4, 1);

    if ((j.transpose || tileize) && (j.datum_bit_addr % 128) != 0)
        m.fail(thread, word, "transpose (haloize) and tilize unpacks need a 16-byte aligned first datum");
    if (tileize && j.upsample_zeroes) m.fail(thread, word, "tilize with upsampling is undefined");
    if (j.to_dst && (j.col_shift || j.transpose)) m.fail(thread, word, "unpack to Dst with a column shift or transpose is undefined");
    return j;
}

uint32_t read_l1_bits(Machine& m, int thread, uint32_t word, uint64_t bit_addr, uint32_t bits) {
    const uint64_t byte = bit_addr / 8;
    if (m.s.l1 == nullptr || byte + (bits + 7) / 8 > m.s.l1_size)
        m.fail(thread, word, msg("reads L1 byte 0x%x, outside L1", unsigned(byte)));
    if (bits < 8) return (m.s.l1[byte] >> (bit_addr & 7u)) & ((1u << bits) - 1u);
    uint32_t v = 0;
    for (uint32_t i = 0; i < bits / 8; ++i) v |= uint32_t(m.s.l1[byte + i]) << (8 * i);
    return v;
}

// Writes one converted datum at output address `addr` (16 datums per row) of SrcA/SrcB/Dst.
// The row address of a SrcA bank (64 rows): Blackhole's unpacker keeps only its low six bits, so
// a write past row 63 wraps into the same bank (ttsim's Blackhole unpacker); its fast tilize walks
// the channel-1 Z counter through four banks' worth of rows (32 UNPACRs of 8 rows, a bank handed
// over every 8th) and the face-compressed matmul's context offsets land past row 63 too. On
// Wormhole a row past 63 is undefined (the ISA's UNPACR model) and stays a hard error, except for
// the AllDatumsAreZero writes of the LLK's TEN-3868 workaround (unpack_to_dest_tile_done), issued
// with the channel-1 Z counter still past the tile, which wrap as Blackhole's do.
uint32_t srca_row(Machine& m, int thread, uint32_t word, const UnpackJob& j, uint32_t row) {
    if (row < 64) return row;
    if (kArch == Arch::Blackhole || j.all_zero) return row & 0x3fu;
    m.fail(thread, word, msg("SrcA row %u is out of range (a bank has 64 rows; writing past them is undefined on Wormhole B0)", row));
}

void write_datum(Machine& m, int thread, uint32_t word, const UnpackJob& j, uint32_t bank, uint32_t addr, uint32_t value) {
    uint32_t row = addr / 16, col = addr % 16;
    if (j.which == 1) {
        row = (row + m.s.unpack.src_row[1][thread]) & 0x3fu;
        m.s.srcb[bank].row[row][col] = value;
        return;
    }
    const bool ovrd = j.srca_rows_from_addr;
    if (j.to_dst) {
        row = (row - 4) & (ovrd ? 0xfu : 0x3ffu);
        if (decode::dst_is_32b(j.out_fmt)) {
            m.dst32_write(row, col, value);
        } else {
            m.s.dst[row][col] = uint16_t(value);
        }
        return;
    }
    if (row < 4 || col < j.col_shift) return;  // the first 4 rows of output address space are skipped
    row -= 4;
    col -= j.col_shift;
    if (!ovrd) {
        if (row >= 16) m.fail(thread, word, msg("SrcA row %u is past the 16-row set", row));
        row += m.s.unpack.src_row[0][thread];
    }
    row = srca_row(m, thread, word, j, row);
    if (j.transpose) {
        const uint32_t low = row & 0xfu;
        row = (row & ~0xfu) | col;
        col = low;
    }
    m.s.srca[bank].row[row][col] = value;
}

void unpack_datums(Machine& m, int thread, uint32_t word, const UnpackJob& j) {
    SrcBank* banks = j.which ? m.s.srcb : m.s.srca;
    int& bank = j.which ? m.s.srcb_unpack_bank : m.s.srca_unpack_bank;
    m.wait_for(Wait{[&] { return !banks[bank].dvalid; }, j.which ? "SrcB bank released by the matrix unit" : "SrcA bank released by the matrix unit"});
    const uint32_t b = uint32_t(bank);
    uint64_t bit_addr = j.datum_bit_addr, exp_addr16 = j.exp_addr16;
    uint32_t out_addr = j.out_addr;
    for (uint32_t i = 0; i < j.count; ++i) {
        uint32_t value = 0;
        if (!j.all_zero) {
            const uint32_t bits = read_l1_bits(m, thread, word, bit_addr, j.in_bits);
            uint8_t exp = j.forced_exp;
            if (j.bfp_exp_in_l1) exp = uint8_t(read_l1_bits(m, thread, word, exp_addr16 / 16 * 8, 8));
            if (const char* err = decode::convert(j.in_fmt, j.out_fmt, bits, exp, j.to_dst, j.mode, value)) {
                m.fail(thread, word, std::string("unpacks ") + format_names(j.in_fmt).llk + " to " + format_names(j.out_fmt).llk +
                                         (j.to_dst ? " in Dst" : " in SrcA/SrcB") + ": " + err);
            }
        }
        bit_addr += j.in_bits;
        if ((i + 1) % j.row_datums == 0) bit_addr = wrap(j, bit_addr - uint64_t(j.row_datums) * j.in_bits + 8ull * j.row_stride_bytes, 8);
        if (j.bfp_exp_in_l1 && ++exp_addr16 % 256 == 0) exp_addr16 = wrap(j, exp_addr16, 16);
        for (uint32_t k = 0; k <= j.upsample_zeroes; ++k, ++out_addr) {
            if (j.upsample_interleave && k != 0) continue;
            write_datum(m, thread, word, j, b, out_addr, k == 0 ? value : 0u);
        }
    }
}

// Hands the unpacker's current bank to the matrix unit and moves to the other one (FlipSrc).
void flip_bank(Machine& m, int thread, uint32_t which) {
    int& bank = which ? m.s.srcb_unpack_bank : m.s.srca_unpack_bank;
    SrcBank& handed = (which ? m.s.srcb : m.s.srca)[bank];
    handed.dvalid = true;
    handed.format = get(m, thread, kRegs[which].out_format);  // the implied format (Blackhole's matrix unit reads it)
    bank ^= 1;
    m.s.unpack.src_row[which][thread] = get_thread(m, thread, kSrcSetBase[which]) << 4;
}

void next_context(Machine& m, int thread, uint32_t which, uint32_t current) {
    const uint32_t limit = 1u << get(m, thread, kRegs[which].context_count);
    const uint32_t next = (current + 1) & 7u;
    m.s.unpack.context_counter[which][thread] = next >= limit ? 0 : next;
}

void unpacr(Machine& m, int thread, uint32_t word) {
    const uint32_t which = field(word, 23, 1);
    if (field(word, 13, 2)) {  // UNPACR_IncrementContextCounter.md
        next_context(m, thread, which, m.s.unpack.context_counter[which][thread]);
        return;
    }
    if (field(word, 1, 1)) return;  // UNPACR_FlushCache.md: clears the row-search cache, which has no functional effect
    if (field(word, 5, 1))  // rareb_en (Wormhole) / srcb_bcast (Blackhole)
        m.fail(thread, word, kArch == Arch::Blackhole ? "UNPACR with SrcB broadcast (srcb_bcast) is not modelled"
                                                      : "UNPACR with SrcB rarefaction (rareb_en) is not modelled");

    const UnpackJob j = plan_unpack(m, thread, word);
    unpack_datums(m, thread, word, j);

    if (field(word, 7, 1) && field(word, 3, 1)) next_context(m, thread, which, j.context);
    const uint32_t mode = field(word, 15, 8);
    for (uint32_t t = 0; t < kNumThreads; ++t) {
        if (t != uint32_t(thread) && t != j.adc_thread) continue;
        AdcChannel* ch = m.s.adc[t].unpacker[which];
        adc::bump(ch[0], 2, mode & 3u);
        adc::bump(ch[0], 1, (mode >> 2) & 3u);
        adc::bump(ch[1], 2, (mode >> 4) & 3u);
        adc::bump(ch[1], 1, (mode >> 6) & 3u);
    }
    if (field(word, 6, 1)) {
        flip_bank(m, thread, which);
    } else if (get(m, thread, kRegs[which].src_reg_set_upd)) {
        m.s.unpack.src_row[which][thread] += 16 + (get_thread(m, thread, kSrcSetBase[which]) << 4);
    }
}

// UNPACR_NOP (no ISA page; ttsim's model), decoded into what it does. Wormhole: bits 0..2 select
// one flavour (NOP, ZEROSRC, NEGINFSRC, SET_DVALID). Blackhole: separate fields (tt_llk_blackhole
// assembly.yaml): Unpack_Pop (0..1; 1 clears the bank, 2 is a NOP), Src_ClrVal_Ctrl (2..3; 1 clears
// to -inf), Bank_Clr_Ctrl (4; the LLK's own words, llk_unpack_AB_custom_mm.h: "clears both banks after
// waiting for both of them to be free"; ttsim does not model it), Stall_Clr_Cntrl (5; wait for the
// unpacker's own bank instead of the matrix unit's), Clr_to1_fmt_Ctrl (6..7), Set_Dvalid (8),
// Msg_Clr_Cnt (12..14), Stream_Id (16..21).
struct UnpackNop {
    uint32_t which = 0;
    bool clear = false, neg_inf = false, wait_own_bank = false, set_dvalid = false, both_banks = false;
};

UnpackNop decode_unpack_nop(Machine& m, int thread, uint32_t word) {
    UnpackNop n;
    n.which = field(word, 23, 1);
    if (kArch == Arch::Blackhole) {
        const uint32_t pop = field(word, 0, 2), clr_val = field(word, 2, 2);
        if (pop != 1 && pop != 2) m.fail(thread, word, msg("UNPACR_NOP Unpack_Pop %u is not modelled (1: clear, 2: NOP are)", pop));
        if (clr_val > 1) m.fail(thread, word, msg("UNPACR_NOP Src_ClrVal_Ctrl %u is not modelled", clr_val));
        if (field(word, 6, 2)) m.fail(thread, word, "UNPACR_NOP Clr_to1_fmt_Ctrl is not modelled");
        if (field(word, 12, 3) || field(word, 16, 6)) m.fail(thread, word, "UNPACR_NOP message clearing (Msg_Clr_Cnt, Stream_Id) is not modelled");
        n.clear = pop == 1;
        n.neg_inf = clr_val == 1;
        n.wait_own_bank = field(word, 5, 1);
        n.set_dvalid = field(word, 8, 1);
        n.both_banks = field(word, 4, 1);
        if (n.both_banks && (!n.clear || n.set_dvalid || n.wait_own_bank))
            m.fail(thread, word, "UNPACR_NOP Bank_Clr_Ctrl is modelled only as a plain clear of both banks "
                                 "(Unpack_Pop 1, no Set_Dvalid, no Stall_Clr_Cntrl)");
        return n;
    }
    switch (const uint32_t op = field(word, 0, 23)) {
        case 0b010: return n;                      // UNP_NOP
        case 0b001: n.clear = true; return n;      // UNP_ZEROSRC
        case 0b101: n.clear = n.neg_inf = true; return n;  // UNP_NEGINFSRC (SrcA only)
        case 0b111: n.set_dvalid = true; n.wait_own_bank = true; return n;  // UNP_SET_DVALID
        default: m.fail(thread, word, msg("UNPACR_NOP flavour 0x%x is not modelled (NOP, ZEROSRC, NEGINFSRC, SET_DVALID are)", op));
    }
}

void unpacr_nop(Machine& m, int thread, uint32_t word) {
    const UnpackNop n = decode_unpack_nop(m, thread, word);
    SrcBank* banks = n.which ? m.s.srcb : m.s.srca;
    const int& unpack_bank = n.which ? m.s.srcb_unpack_bank : m.s.srca_unpack_bank;
    if (n.clear) {  // once the awaited bank is released, clear the unpacker's bank (to zero, or -inf as the FPU reads it)
        if (n.neg_inf && n.which == 1) m.fail(thread, word, "UNPACR_NOP clearing SrcB to -inf is not modelled");
        const int& wait_bank = n.wait_own_bank ? unpack_bank : (n.which ? m.s.srcb_math_bank : m.s.srca_math_bank);
        if (n.both_banks)
            m.wait_for(Wait{[&] { return !banks[0].dvalid && !banks[1].dvalid; }, "both Src banks released (UNPACR_NOP Bank_Clr_Ctrl)"});
        else
            m.wait_for(Wait{[&] { return !banks[wait_bank].dvalid; }, "the Src bank released (UNPACR_NOP clear)"});
        const uint32_t fill = n.neg_inf ? 0x7ffffu : 0u;  // Sign | all-ones mantissa | exponent 255
        for (int bank = 0; bank < kSrcBanks; ++bank) {
            if (bank != unpack_bank && !n.both_banks) continue;
            for (auto& row : banks[bank].row)
                for (uint32_t& v : row) v = fill;
        }
    }
    if (n.set_dvalid) {  // hand the unpacker's bank to the matrix unit
        m.wait_for(Wait{[&] { return !banks[unpack_bank].dvalid; }, "Src bank released by the matrix unit (UNPACR_NOP SET_DVALID)"});
        flip_bank(m, thread, n.which);
    }
}

}  // namespace

TC_OPCODE(0x42, UNPACR, unpacr);
TC_OPCODE(0x43, UNPACR_NOP, unpacr_nop);

}  // namespace tc_tensix
