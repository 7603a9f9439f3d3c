// The packers: PACR moves datums from Dst (through format conversion, edge masking, ReLU,
// exponent thresholding, downsampling, optional L1 accumulation) into L1.
//
// Wormhole B0 has four packers, each with its own config block and Dst offset. Blackhole has one
// packer (THCON_SEC0_REG1, DEST_TARGET_REG_CFG_PACK_SEC0) that reads Dst through up to four read
// interfaces (PACR's ReadIntfSel, 0 meaning all four): interface j reads row j of each group of four
// rows, ADC X end - start + 1 datums each, into one output stream (ttsim's Blackhole packer). With
// PACR's DstAccessMode (strided reads) interface j reads the row 16 * j on: interface_row_stride.
//
// Facts from tt-isa-documentation WormholeB0 PACR.md, PACR_SETREG.md and Packers/*.md
// (InputAddressGenerator, OutputAddressGenerator, EdgeMasking, Downsampling, ReLU, ...) and ttsim's
// packer (Blackhole's FP8 E4M3 too, which no ISA page describes), written in our own words. The
// conversions themselves live in format_encode.cpp; their stochastic rounding draws from the
// packer's PRNG (prng.h). Every configuration the model does not cover (compression, L1 source,
// tile-face edge sets, ...) stops the machine through Machine::fail rather than packing something
// else.
#include <cstring>
#include <string>

#include "cfg_defines.h"
#include "format_encode.h"
#include "machine.h"

namespace tc_tensix {

namespace {

constexpr uint32_t kNumPackers = 4;

// The four packers' THCON config blocks (the SEC0_REG1 field layout repeats in each).
constexpr uint32_t kPackerCfgBase[kNumPackers] = {
    THCON_SEC0_REG1_Row_start_section_size_ADDR32, THCON_SEC0_REG8_Row_start_section_size_ADDR32,
    THCON_SEC1_REG1_Row_start_section_size_ADDR32, THCON_SEC1_REG8_Row_start_section_size_ADDR32};

// ADDR_MOD_PACK_SEC0..3 words of thread config (fields laid out as ADDR_MOD_PACK_SEC0_*).
constexpr uint32_t kAddrModPack[4] = {ADDR_MOD_PACK_SEC0_YsrcIncr_ADDR32, ADDR_MOD_PACK_SEC1_YsrcIncr_ADDR32,
                                      ADDR_MOD_PACK_SEC2_YsrcIncr_ADDR32, ADDR_MOD_PACK_SEC3_YsrcIncr_ADDR32};

#define TC_CFG(m, t, NAME) (m).cfg_field((t), NAME##_ADDR32, NAME##_SHAMT, NAME##_MASK)
// A field of packer i's config block, named by its THCON_SEC0_REG1 definition.
#define TC_PACKER(m, t, i, NAME)                                                                              \
    (m).cfg_field((t), THCON_SEC0_REG1_##NAME##_ADDR32 - kPackerCfgBase[0] + kPackerCfgBase[i],               \
                  THCON_SEC0_REG1_##NAME##_SHAMT, THCON_SEC0_REG1_##NAME##_MASK)
#define TC_ADDR_MOD(word, NAME) (((word) & ADDR_MOD_PACK_SEC0_##NAME##_MASK) >> ADDR_MOD_PACK_SEC0_##NAME##_SHAMT)

// Decoded fields of a PACR instruction word (PACR.md, assembly.yaml). Bits 8..11 are PackSel (the
// packers, Wormhole) or ReadIntfSel (the Dst read interfaces of the one packer, Blackhole).
struct Pacr {
    bool last, flush, ovrd_thread_id, zero_write;
    uint32_t packer_mask, addr_mod;
    bool dst_strided = false;  // Blackhole's DstAccessMode
};

Pacr decode(Machine& m, int t, uint32_t w) {
    Pacr p{field(w, 0, 1) != 0, field(w, 1, 1) != 0, field(w, 7, 1) != 0, field(w, 12, 1) != 0, field(w, 8, 4),
           field(w, 15, 2)};
    if (kArch == Arch::Blackhole) {
        // Blackhole's further fields (tt_llk_blackhole assembly.yaml); only DstAccessMode is modelled.
        if (field(w, 2, 2)) m.fail(t, w, "PACR CtxtCtrl is not modelled");
        if (field(w, 13, 2)) m.fail(t, w, "PACR AddrCntContext is not modelled");
        p.dst_strided = field(w, 17, 1) != 0;
        if (field(w, 18, 3)) m.fail(t, w, "PACR RowPadZero is not modelled");
        if (field(w, 21, 2)) m.fail(t, w, "PACR CfgContext is not modelled");
        if (p.packer_mask == 0) p.packer_mask = 0xf;  // ReadIntfSel 0: all four read interfaces
    } else if (p.packer_mask == 0) {
        p.packer_mask = 1;  // PackSel 0b0000 means packer 0
    }
    return p;
}

// What every packer of one PACR shares: the early-conversion / ReLU setup of the config state.
struct PackSetup {
    fmt::EarlyConfig early;
    uint32_t relu_mode = 0, relu_threshold = 0;
    bool edge_to_neg_inf = false;
    // Stochastic rounding: Gasket_srnd_en in the early conversion out of Dst (the packers' Dst
    // connection holds its PRNGs, SoftReset.md), Packer_srnd_en in the late conversion's BFP
    // rounding (FormatConversion.md names both places); the LLK sets the two together.
    bool early_stochastic = false, late_stochastic = false;
};

PackSetup read_setup(Machine& m, int t, uint32_t w) {
    PackSetup s;
    s.early.read_32b = TC_CFG(m, t, PCK_DEST_RD_CTRL_Read_32b_data) != 0;
    s.early.round_10b_mant = TC_CFG(m, t, PCK_DEST_RD_CTRL_Round_10b_mant) != 0;
    s.early.round_10b_into_fp16 = kArch == Arch::Blackhole;
    s.early.read_raw = TC_CFG(m, t, PCK_DEST_RD_CTRL_Read_int8) != 0;
    s.early.read_unsigned = TC_CFG(m, t, PCK_DEST_RD_CTRL_Read_unsigned) != 0;
    s.early.intermediate = TC_CFG(m, t, ALU_FORMAT_SPEC_REG_Dstacc_override) ? TC_CFG(m, t, ALU_FORMAT_SPEC_REG_Dstacc_val)
                                                                              : TC_CFG(m, t, ALU_FORMAT_SPEC_REG2_Dstacc);
    s.relu_mode = TC_CFG(m, t, STACC_RELU_ApplyRelu) & 3u;
    s.relu_threshold = TC_CFG(m, t, STACC_RELU_ReluThreshold);
    if (s.early.relu_path_dst32_fp16()) {  // ReLU before the rebias, inside the early conversion
        s.early.relu_mode = s.relu_mode;
        s.early.relu_threshold = s.relu_threshold;
    }
    s.edge_to_neg_inf = TC_CFG(m, t, PCK_EDGE_MODE_mode) != 0;
    s.early_stochastic = TC_CFG(m, t, ALU_ROUNDING_MODE_Gasket_srnd_en) != 0;
    s.late_stochastic = TC_CFG(m, t, ALU_ROUNDING_MODE_Packer_srnd_en) != 0;
    if (TC_CFG(m, t, PCK_EDGE_TILE_FACE_SET_SELECT_enable))
        m.fail(t, w, "edge masking by tile face sets (PCK_EDGE_TILE_FACE_SET_SELECT_enable) is not modelled");
    if ((s.early.intermediate & 0xfu) == INT8 && TC_CFG(m, t, INT_DESCALE_Enable))
        m.fail(t, w, "integer descaling (INT_DESCALE_Enable) in the early conversion to INT8 is not modelled");
    return s;
}

// Packer i's features the model does not cover.
void check_packer_supported(Machine& m, int t, uint32_t w, unsigned i) {
    const std::string who = "packer " + std::to_string(i) + ": ";
#if defined(THCON_SEC0_REG1_All_pack_disable_zero_compress_ADDR32)  // Wormhole: a per-packer override
    const bool compress_ovrd = TC_CFG(m, t, THCON_SEC0_REG1_All_pack_disable_zero_compress_ovrd) != 0;
    const bool no_compress = compress_ovrd ? ((TC_CFG(m, t, THCON_SEC0_REG1_All_pack_disable_zero_compress) >> i) & 1u) != 0
                                           : TC_PACKER(m, t, i, Disable_zero_compress) != 0;
#else
    if (TC_CFG(m, t, THCON_SEC0_REG1_All_pack_disable_zero_compress_ovrd))
        m.fail(t, w, who + "All_pack_disable_zero_compress_ovrd is not modelled on Blackhole");
    const bool no_compress = TC_PACKER(m, t, i, Disable_zero_compress) != 0;
#endif
    if (!no_compress) m.fail(t, w, who + "zero compression (Disable_zero_compress = 0) is not modelled");
    if (TC_PACKER(m, t, i, Add_l1_dest_addr_offset)) m.fail(t, w, who + "Add_l1_dest_addr_offset is not modelled");
    if (i == 0 && TC_PACKER(m, t, i, Source_interface_selection))
        m.fail(t, w, who + "packing from L1 (Source_interface_selection = 1) is not modelled");
    if (TC_PACKER(m, t, i, Dis_shared_exp_assembler)) m.fail(t, w, who + "Dis_shared_exp_assembler is not modelled");
    if (TC_PACKER(m, t, i, Downsample_rate)) m.fail(t, w, who + "Downsample_rate is not modelled");
}

// Whether FP8 (Lf8) output is E4M3: Blackhole's Pac_LF8_4b_exp of its one packer (ttsim's packer).
bool packs_fp8_e4m3(Machine& m, int t) {
#if defined(THCON_SEC0_REG1_Pac_LF8_4b_exp_ADDR32)
    return TC_CFG(m, t, THCON_SEC0_REG1_Pac_LF8_4b_exp) != 0;
#else
    (void)m, (void)t;
    return false;
#endif
}

// Dst rows between consecutive read interfaces of a Blackhole PACR: 1, or 16 for DstAccessMode.
//
// BlackholeA0 PACR.md: in the strided mode the enabled read interfaces read rows 16 apart instead
// of adjacent rows, and the mode is meant to run with DEST_ACCESS_CFG_remap_addrs and
// DEST_ACCESS_CFG_swizzle_32b set. Those two permute where a logical Dst row is stored (Dst.md's
// Adj16 / Adj32; under Adj16 logical rows 16 apart lie 8 rows apart physically, which ttsim names
// the packer's own stride). Every other unit goes through the same permutation, so this machine
// keeps the logical rows, and the strided interface j reads logical row StartRow + 16 * j (no
// alignment to a group of four), in the Dst16b or the Dst32b view as Read_32b_data says (ttsim's
// packer reads the same rows). The page leaves undocumented what the mode does without the two
// remaps and how it combines with read interfaces other than 0..n-1, or with more than one row's
// datums per interface: those stop the machine by name.
uint32_t interface_row_stride(Machine& m, int t, uint32_t w, const Pacr& p, uint32_t per_reader) {
    if (!p.dst_strided) return 1;
#if defined(DEST_ACCESS_CFG_remap_addrs_ADDR32)
    if (!TC_CFG(m, t, DEST_ACCESS_CFG_remap_addrs) || !TC_CFG(m, t, DEST_ACCESS_CFG_swizzle_32b))
        m.fail(t, w, "PACR DstAccessMode (strided Dst reads) without DEST_ACCESS_CFG_remap_addrs and swizzle_32b "
                     "both set is not modelled (undocumented)");
#endif
    switch (p.packer_mask) {
        case 0x1: case 0x3: case 0x7: case 0xf: break;
        default:
            m.fail(t, w, "PACR DstAccessMode (strided Dst reads) with ReadIntfSel " + std::to_string(p.packer_mask) +
                             " (interfaces other than 0..n-1) is not modelled (undocumented)");
    }
    if (per_reader > 16)
        m.fail(t, w, "PACR DstAccessMode (strided Dst reads) of " + std::to_string(per_reader) +
                         " datums per read interface (more than a row) is not modelled");
    return 16;
}

// Edge mask of the datum row the tile position generator is at (EdgeMasking.md).
uint32_t edge_mask(Machine& m, int t, unsigned i, const PackerStreams& ps) {
    const uint32_t row_set = (TC_CFG(m, t, PCK_EDGE_TILE_ROW_SET_SELECT_select) >> (2 * i)) & 3u;
    const uint32_t mapping = m.cfg_word(t, TILE_ROW_SET_MAPPING_0_row_set_mapping_0_ADDR32 + row_set);
    const uint32_t offset_sec = (mapping >> (2 * (ps.tpg_y & 0xfu))) & 3u;
    return m.cfg_word(t, PCK_EDGE_OFFSET_SEC0_mask_ADDR32 + offset_sec) & 0xffffu;
}

void advance_tile_position(Machine& m, int t, unsigned i, PackerStreams& ps) {
    if (++ps.tpg_x < 16) return;
    ps.tpg_x = 0;
    const uint32_t counters = m.cfg_word(t, PACK_COUNTERS_SEC0_pack_per_xy_plane_ADDR32 + i);
    const unsigned reads_per_plane = (counters & PACK_COUNTERS_SEC0_pack_reads_per_xy_plane_MASK) >>
                                     PACK_COUNTERS_SEC0_pack_reads_per_xy_plane_SHAMT;
    unsigned& inner = (counters & PACK_COUNTERS_SEC0_pack_yz_transposed_MASK) ? ps.tpg_z : ps.tpg_y;
    unsigned& outer = (counters & PACK_COUNTERS_SEC0_pack_yz_transposed_MASK) ? ps.tpg_y : ps.tpg_z;
    if (++inner == reads_per_plane) inner = 0, ++outer;
}

// `n` bytes of L1 at `addr`, or a hard error naming the PACR.
uint8_t* l1_bytes(Machine& m, int t, uint32_t w, uint32_t addr, uint32_t n) {
    if (m.s.l1 == nullptr || std::size_t(addr) + n > m.s.l1_size)
        m.fail(t, w, "packer writes L1 bytes [" + std::to_string(addr) + ", " + std::to_string(addr + n) +
                         ") outside L1 (size " + std::to_string(m.s.l1_size) + ")");
    return m.s.l1 + addr;
}

// The threshold packer `ps` rounds its next datum with (prng.h): stochastic ones step the lane of
// the datum's column.
uint32_t rounding_threshold(Machine& m, int t, PackerStreams& ps, bool stochastic, uint32_t column) {
    if (!stochastic) return rounding::kNearest;
    return ps.rounding_prng.next_threshold(m.cfg_word(t, PRNG_SEED_Seed_Val_ADDR32), int(column & 15u));
}

// Appends one late-converted datum to packer i's output streams (a BFP block's datums round by
// their thresholds once the block is complete).
void emit(Machine& m, int t, uint32_t w, PackerStreams& ps, uint32_t out_format, bool l1_acc, uint32_t datum,
          bool stochastic) {
    const int bits = int(datum_bits(out_format));
    if (is_bfp(out_format)) {
        ps.bfp_thresholds[ps.bfp_fill] = rounding_threshold(m, t, ps, stochastic, ps.bfp_fill);
        ps.bfp_block[ps.bfp_fill++] = datum;
        if (ps.bfp_fill < 16) return;
        ps.bfp_fill = 0;
        uint8_t shared_exp = 0, datums[16];
        fmt::encode_bfp_block(ps.bfp_block, out_format, &shared_exp, datums, ps.bfp_thresholds);
        *l1_bytes(m, t, w, ps.exp_addr, 1) = shared_exp;
        ps.exp_addr += 1;
        const uint32_t n = uint32_t(16 * bits / 8);
        uint8_t* out = l1_bytes(m, t, w, ps.data_addr, n);
        std::memset(out, 0, n);
        for (int j = 0; j < 16; ++j) out[j * bits / 8] |= uint8_t(datums[j] << ((j * bits) % 8));
        ps.data_addr += n;
        return;
    }
    const uint32_t n = uint32_t(bits / 8);
    uint8_t* out = l1_bytes(m, t, w, ps.data_addr, n);
    if (l1_acc) {
        uint32_t old = 0;
        for (uint32_t b = 0; b < n; ++b) old |= uint32_t(out[b]) << (8 * b);
        datum = fmt::l1_accumulate(out_format, old, datum);
    }
    for (uint32_t b = 0; b < n; ++b) out[b] = uint8_t(datum >> (8 * b));
    ps.data_addr += n;
}

// Flush at Last/Flush: partial 16-byte output buffers are padded with zeros.
void flush_streams(Machine& m, int t, uint32_t w, unsigned i, PackerStreams& ps, uint32_t out_format) {
    if (ps.bfp_fill != 0)
        m.fail(t, w, "packer " + std::to_string(i) + " flushes an incomplete BFP block (" + std::to_string(ps.bfp_fill) +
                         " of 16 datums)");
    const auto pad = [&](uint32_t& addr) {
        const uint32_t end = (addr + 15u) & ~15u;
        if (end != addr) std::memset(l1_bytes(m, t, w, addr, end - addr), 0, end - addr);
        addr = end;
    };
    pad(ps.data_addr);
    if (is_bfp(out_format)) pad(ps.exp_addr);
    ps.needs_new_address = true;
}

// Output address generator for packer i when its streams need new addresses. The channel-1 ADC
// offset (Y/Z/W times their strides, in bytes) moves the 16-byte output address: on Wormhole by the
// byte offset with its low four bits cleared (OutputAddressGenerator.md's functional model), on
// Blackhole by the offset in 16-byte units (ttsim's Blackhole packer; the fast-untilize LLK steps
// output rows with a byte stride of one row in PCK0_ADDR_CTRL_XY_REG_1_Ystride, and its silicon
// bound of 256 KiB on that offset is first crossed at the 133 tiles per row it reports).
void start_streams(Machine& m, int t, unsigned i, uint32_t addr16, PackerStreams& ps, uint32_t out_format) {
    const AdcChannel& out = m.s.adc[t].packers[1];
    const uint32_t yzw = TC_CFG(m, t, PCK0_ADDR_BASE_REG_1_Base) + out.y * TC_CFG(m, t, PCK0_ADDR_CTRL_XY_REG_1_Ystride) +
                         out.z * TC_CFG(m, t, PCK0_ADDR_CTRL_ZW_REG_1_Zstride) +
                         out.w * TC_CFG(m, t, PCK0_ADDR_CTRL_ZW_REG_1_Wstride);
    addr16 += kArch == Arch::Blackhole ? yzw >> 4 : yzw & ~0xfu;
    if (out_format & 2u) {  // formats under 16 bits reserve an exponent section first
        ps.exp_addr = (addr16 & 0x1ffffu) << 4;
        addr16 += TC_PACKER(m, t, i, Exp_section_size);
    }
    ps.data_addr = (addr16 & 0x1ffffu) << 4;
    ps.needs_new_address = false;
    ps.tpg_x = ps.tpg_y = ps.tpg_z = 0;
}

void run_packer(Machine& m, int t, uint32_t w, const Pacr& p, const PackSetup& setup, unsigned i, uint32_t addr16) {
    check_packer_supported(m, t, w, i);
    PackerStreams& ps = m.s.pack.packer[i];
    const uint32_t in_format = TC_PACKER(m, t, i, In_data_format), out_format = TC_PACKER(m, t, i, Out_data_format);
    if (in_format != (setup.early.intermediate & 0xfu))
        m.fail(t, w, std::string("packer ") + std::to_string(i) + ": In_data_format " + format_names(in_format).isa +
                         " differs from the Dstacc (intermediate) format " + format_names(setup.early.intermediate).isa);
    const bool fp8_e4m3 = packs_fp8_e4m3(m, t);
    if (kArch == Arch::Blackhole && in_format == FP8)
        m.fail(t, w, "Blackhole's FP8 (Lf8) as the packer's In_data_format is not modelled (the LLK packs FP8 from FP16)");
    if (kArch == Arch::Blackhole && out_format == FP8 && !fp8_e4m3)
        m.fail(t, w, "Blackhole's FP8 E5M2 packing (Lf8 with Pac_LF8_4b_exp clear) is not modelled");
    const bool l1_acc = TC_PACKER(m, t, i, Pack_L1_Acc) != 0;
    if (l1_acc && is_bfp(out_format)) m.fail(t, w, "L1 accumulation into a BFP format is not modelled");
    const bool exp_threshold_en = TC_PACKER(m, t, i, Exp_threshold_en) != 0;
    const uint32_t exp_threshold = TC_PACKER(m, t, i, Exp_threshold);
    uint32_t downsample = TC_PACKER(m, t, i, Downsample_mask);
    if (downsample == 0) downsample = 0xffffu;

    // Input address generator (InputAddressGenerator.md): start datum in Dst and datum count.
    const AdcChannel& in = m.s.adc[t].packers[0];
    const uint32_t bytes_per_datum = (in_format & 3u) == 0 ? 4u : (in_format & 3u) == 1 ? 2u : 1u;
    const uint32_t x_mask = bytes_per_datum == 4 ? 0x3u : bytes_per_datum == 2 ? 0x7u : 0xfu;
    const uint32_t byte_addr = TC_CFG(m, t, PCK0_ADDR_BASE_REG_0_Base) +
                               in.x * (TC_CFG(m, t, PCK0_ADDR_CTRL_XY_REG_0_Xstride) & 0xfu) +
                               in.y * TC_CFG(m, t, PCK0_ADDR_CTRL_XY_REG_0_Ystride) +
                               in.z * TC_CFG(m, t, PCK0_ADDR_CTRL_ZW_REG_0_Zstride) +
                               in.w * TC_CFG(m, t, PCK0_ADDR_CTRL_ZW_REG_0_Wstride);
    const uint32_t dest_offset = m.cfg_field(t, DEST_TARGET_REG_CFG_PACK_SEC0_Offset_ADDR32 + i,
                                             DEST_TARGET_REG_CFG_PACK_SEC0_Offset_SHAMT, DEST_TARGET_REG_CFG_PACK_SEC0_Offset_MASK);
    const uint32_t first = (((byte_addr / bytes_per_datum) & ~x_mask) + (in.x & x_mask) + (dest_offset << 4)) & 0x3fffu;
    const uint32_t per_reader = p.flush ? 0u : m.s.adc[t].packers[1].x - in.x + 1u;
    // Blackhole: the selected read interfaces, in order; each reads `per_reader` datums of its row.
    uint32_t reader_row[4] = {0, 0, 0, 0}, readers = 1;
    if (kArch == Arch::Blackhole) {
        readers = 0;
        const uint32_t row_stride = interface_row_stride(m, t, w, p, per_reader);
        for (uint32_t j = 0; j < 4; ++j)
            if ((p.packer_mask >> j) & 1u) reader_row[readers++] = j * row_stride;
        if (readers > 1 && per_reader > 16)
            m.fail(t, w, "PACR through " + std::to_string(readers) + " Dst read interfaces of " + std::to_string(per_reader) +
                             " datums each (more than a row) is not modelled");
    }
    const uint32_t count = per_reader * readers;
    if (count > 16u * kDstRows16)
        m.fail(t, w, "packer datum count " + std::to_string(count) + " (ADC X end - X start + 1) exceeds Dst");
    const bool from_null = p.zero_write || p.flush;

    if (ps.needs_new_address) start_streams(m, t, i, addr16, ps, out_format);

    uint32_t row_mask = 0;
    for (uint32_t k = 0; k < count; ++k) {
        uint32_t v = 0;  // /dev/null supplies zeros
        bool relu_done = false;  // by the early conversion (EarlyConfig::relu_path_dst32_fp16)
        if (!from_null) {
            if (k == 0 || ps.tpg_x == 0) row_mask = edge_mask(m, t, i, ps);
            const uint32_t rel = readers == 1 ? k : 16 * reader_row[k / per_reader] + k % per_reader;
            const uint32_t a = (first + rel) & 0x3fffu, row = a >> 4, col = a & 0xfu;
            if (row_mask & (1u << col)) {
                const uint32_t raw = setup.early.read_32b ? m.dst32_read(row, col) : m.s.dst[row][col];
                try {
                    v = fmt::early_convert(setup.early, raw, rounding_threshold(m, t, ps, setup.early_stochastic, col));
                    relu_done = setup.early.relu_path_dst32_fp16();
                } catch (const fmt::UnsupportedConversion& e) {
                    m.fail(t, w, e.what());
                }
            } else if (setup.edge_to_neg_inf) {
                v = fmt::negative_infinity(setup.early.intermediate);
            }
            advance_tile_position(m, t, i, ps);
        }
        const bool keep = (downsample & 1u) != 0;
        downsample = ((downsample << 15) | (downsample >> 1)) & 0xffffu;
        if (!keep) continue;
        try {
            if (!relu_done) v = fmt::apply_relu(setup.early.intermediate, setup.relu_mode, setup.relu_threshold, v);
            if (exp_threshold_en) v = fmt::apply_exp_threshold(in_format, exp_threshold, v);
            emit(m, t, w, ps, out_format, l1_acc, fmt::late_convert(in_format, out_format, v, fp8_e4m3), setup.late_stochastic);
        } catch (const fmt::UnsupportedConversion& e) {
            m.fail(t, w, std::string("packer ") + std::to_string(i) + ": " + e.what());
        }
    }
    if (p.last || p.flush) flush_streams(m, t, w, i, ps, out_format);
}

// AddrMod applied to the issuing thread's packer ADC after the addresses are taken (both channels).
void apply_addr_mod(Machine& m, int t, uint32_t addr_mod) {
    const uint32_t am = m.thread_cfg_word(t, kAddrModPack[addr_mod & 3u]);
    AdcChannel& in = m.s.adc[t].packers[0];
    AdcChannel& out = m.s.adc[t].packers[1];
    const auto step_y = [](AdcChannel& ch, uint32_t clear, uint32_t carriage_return, uint32_t incr) {
        if (clear) ch.y = ch.y_cr = 0;
        else if (carriage_return) ch.y = ch.y_cr += incr;
        else ch.y += incr;
    };
    const auto step_z = [](AdcChannel& ch, uint32_t clear, uint32_t incr) {
        if (clear) ch.z = ch.z_cr = 0;
        else ch.z += incr;
    };
    step_y(in, TC_ADDR_MOD(am, YsrcClear), TC_ADDR_MOD(am, YsrcCR), TC_ADDR_MOD(am, YsrcIncr));
    step_z(in, TC_ADDR_MOD(am, ZsrcClear), TC_ADDR_MOD(am, ZsrcIncr));
    step_y(out, TC_ADDR_MOD(am, YdstClear), TC_ADDR_MOD(am, YdstCR), TC_ADDR_MOD(am, YdstIncr));
    step_z(out, TC_ADDR_MOD(am, ZdstClear), TC_ADDR_MOD(am, ZdstIncr));
}

void exec_pacr(Machine& m, int t, uint32_t w) {
    const Pacr p = decode(m, t, w);
    if (p.ovrd_thread_id) m.fail(t, w, "PACR with OvrdThreadId (ADC chosen by Addr_cnt_context) is not modelled");
    if (kArch == Arch::WormholeB0) {
        switch (p.packer_mask) {
            case 0x1: case 0x2: case 0x4: case 0x8: case 0x3: case 0xc: case 0xf: break;
            default: m.fail(t, w, "PACR packer mask " + std::to_string(p.packer_mask) + " is undefined");
        }
    }
    const PackSetup setup = read_setup(m, t, w);
    if (kArch == Arch::Blackhole) {  // the one packer, at L1_Dest_addr (+1: the tile header skip as on Wormhole)
        const uint32_t addr16 = TC_PACKER(m, t, 0, L1_Dest_addr) + (TC_PACKER(m, t, 0, Sub_l1_tile_header_size) ? 0u : 1u);
        run_packer(m, t, w, p, setup, 0, addr16);
        apply_addr_mod(m, t, p.addr_mod);
        return;
    }
    uint32_t packer0_addr = 0;
    for (unsigned i = 0; i < kNumPackers; ++i) {
        // Output address of packer i in 16-byte units; packers 1-3 are relative to packer 0 when
        // packer 0's address has bit 31 set (OutputAddressGenerator.md).
        uint32_t addr16 = TC_PACKER(m, t, i, L1_Dest_addr) + (TC_PACKER(m, t, i, Sub_l1_tile_header_size) ? 0u : 1u);
        if (i == 0) packer0_addr = addr16;
        else if (packer0_addr & 0x80000000u) addr16 += packer0_addr;
        if ((p.packer_mask >> i) & 1u) run_packer(m, t, w, p, setup, i, addr16);
    }
    apply_addr_mod(m, t, p.addr_mod);
}

void exec_pacr_setreg(Machine& m, int t, uint32_t w) {
    m.fail(t, w, "PACR_SETREG (MMIO write sequenced with the packers) is not modelled; the Wormhole LLK does not issue it");
}

}  // namespace

TC_OPCODE(0x41, PACR, exec_pacr);
TC_OPCODE(0x4a, PACR_SETREG, exec_pacr_setreg);

}  // namespace tc_tensix
