// A script-driven harness for the matrix unit's unit tests (test_fpu.py): one compile serves every
// case. Reads commands from stdin, one per line:
//   cfg NAME VALUE           set a config-state field by its cfg_defines.h name
//   thd NAME VALUE           set a MATH-thread config field by name (ADDR_MOD_*_SEC0..7, ...)
//   srca|srcb BANK ROW F0..F15   a Src row from fp32 bit patterns (hex; stored as TF32/BF16 datums)
//   srca16|srcb16 BANK ROW H0..H15   a Src row from IEEE fp16 bit patterns (hex)
//   dvalid A0 A1 B0 B1       the banks' dvalid flags
//   op NAME ARGS...          issue TT_OP_NAME(ARGS...) from the MATH thread (`op@pack` from PACK)
//   dst32 ROW N | dst16 ROW N    print N rows of Dst as fp32 bits / raw Dst16 bits (hex)
//   srcrow A|B BANK ROW      print a Src row (raw 19-bit datums, hex)
//   rwc | banks              print the MATH thread's RWCs / the bank state
// `thd`, `op` and `rwc` take the suffix `@pack` to act as or on the PACK thread instead.
// A machine error prints "error: <message>" and the script continues.
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cfg_defines.h"
#include "ckernel_ops.h"
#include "datum_layout.h"
#include "machine.h"

using namespace tc_tensix;

struct FieldDef {
    uint32_t addr32, shamt, mask;
};

#define F(n) {#n, {n##_ADDR32, n##_SHAMT, n##_MASK}}
#define ADDR_MOD_FIELDS(i)                                                                                        \
    F(ADDR_MOD_AB_SEC##i##_SrcAIncr), F(ADDR_MOD_AB_SEC##i##_SrcACR), F(ADDR_MOD_AB_SEC##i##_SrcAClear),         \
        F(ADDR_MOD_AB_SEC##i##_SrcBIncr), F(ADDR_MOD_AB_SEC##i##_SrcBCR), F(ADDR_MOD_AB_SEC##i##_SrcBClear),     \
        F(ADDR_MOD_DST_SEC##i##_DestIncr), F(ADDR_MOD_DST_SEC##i##_DestCR), F(ADDR_MOD_DST_SEC##i##_DestClear),  \
        F(ADDR_MOD_DST_SEC##i##_DestCToCR), F(ADDR_MOD_DST_SEC##i##_FidelityIncr),                              \
        F(ADDR_MOD_DST_SEC##i##_FidelityClear), F(ADDR_MOD_BIAS_SEC##i##_BiasIncr)

static const std::map<std::string, FieldDef> kCfg = {
    F(ALU_FORMAT_SPEC_REG0_SrcA), F(ALU_FORMAT_SPEC_REG1_SrcB), F(ALU_FORMAT_SPEC_REG_SrcA_val),
    F(ALU_FORMAT_SPEC_REG_SrcA_override), F(ALU_ACC_CTRL_Fp32_enabled), F(ALU_ACC_CTRL_INT8_math_enabled),
    F(ALU_ACC_CTRL_Zero_Flag_disabled_src), F(ALU_ROUNDING_MODE_Fpu_srnd_en), F(PRNG_SEED_Seed_Val),
};
static const std::map<std::string, FieldDef> kThread = {
    F(FIDELITY_BASE_Phase), F(CLR_DVALID_SrcA_Disable), F(CLR_DVALID_SrcB_Disable), F(DEST_TARGET_REG_CFG_MATH_Offset),
#if defined(ADDR_MOD_SET_Base_ADDR32)  // Wormhole only: Blackhole's AddrMode names all eight sets
    F(ADDR_MOD_SET_Base),
#endif
    ADDR_MOD_FIELDS(0), ADDR_MOD_FIELDS(1), ADDR_MOD_FIELDS(2), ADDR_MOD_FIELDS(3),
    ADDR_MOD_FIELDS(4), ADDR_MOD_FIELDS(5), ADDR_MOD_FIELDS(6), ADDR_MOD_FIELDS(7),
};

using Args = std::vector<uint32_t>;
#define OP5(n) {#n, [](const Args& a) { return uint32_t(TT_OP_##n(a.at(0), a.at(1), a.at(2), a.at(3), a.at(4))); }}
#define OP4(n) {#n, [](const Args& a) { return uint32_t(TT_OP_##n(a.at(0), a.at(1), a.at(2), a.at(3))); }}
#define OP3(n) {#n, [](const Args& a) { return uint32_t(TT_OP_##n(a.at(0), a.at(1), a.at(2))); }}
#define OP2(n) {#n, [](const Args& a) { return uint32_t(TT_OP_##n(a.at(0), a.at(1))); }}
#define OP1(n) {#n, [](const Args& a) { return uint32_t(TT_OP_##n(a.at(0))); }}
static const std::map<std::string, std::function<uint32_t(const Args&)>> kOps = {
    OP5(ELWADD), OP5(ELWSUB), OP5(ELWMUL), OP4(MVMUL), OP5(GAPOOL), OP5(GMPOOL), OP5(DOTPV), OP5(MOVA2D),
    OP5(MOVB2D), OP5(MOVD2A), OP5(MOVD2B), OP4(MOVB2A), OP3(ZEROACC), OP4(ZEROSRC), OP2(SHIFTXA), OP3(SHIFTXB),
    {"SETRWC", [](const Args& a) { return uint32_t(TT_OP_SETRWC(a.at(0), a.at(1), a.at(2), a.at(3), a.at(4), a.at(5))); }},
    OP4(INCRWC), OP2(CLEARDVALID), OP1(SETDVALID), OP2(GATESRCRST), {"TRNSPSRCB", [](const Args&) { return uint32_t(TT_OP_TRNSPSRCB); }},
};

static void set_field(uint32_t& word, const FieldDef& f, uint32_t value) { word = (word & ~f.mask) | ((value << f.shamt) & f.mask); }

int main() {
    Machine m;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string cmd;
        if (!(in >> cmd)) continue;
        int thread = kMath;
        if (const auto at = cmd.find("@pack"); at != std::string::npos && at + 5 == cmd.size()) {
            thread = kPack;
            cmd.erase(at);
        }
        try {
            if (cmd == "cfg" || cmd == "thd") {
                std::string name;
                uint32_t value;
                in >> name >> value;
                const auto& table = cmd == "cfg" ? kCfg : kThread;
                const FieldDef& f = table.at(name);
                set_field(cmd == "cfg" ? m.cfg_word(thread, f.addr32) : m.thread_cfg_word(thread, f.addr32), f, value);
            } else if (cmd.rfind("src", 0) == 0 && cmd != "srcrow") {
                int bank, row;
                in >> bank >> row;
                SrcBank& b = (cmd[3] == 'a') ? m.s.srca[bank] : m.s.srcb[bank];
                for (int c = 0; c < 16; ++c) {
                    uint32_t v;
                    in >> std::hex >> v;
                    b.row[row][c] = cmd.size() > 4 ? src_from_fp16(uint16_t(v)) : src_from_fp32(v);
                }
            } else if (cmd == "dvalid") {
                int a0, a1, b0, b1;
                in >> a0 >> a1 >> b0 >> b1;
                m.s.srca[0].dvalid = a0, m.s.srca[1].dvalid = a1, m.s.srcb[0].dvalid = b0, m.s.srcb[1].dvalid = b1;
            } else if (cmd == "op") {
                std::string name;
                in >> name;
                Args args;
                uint32_t v;
                while (in >> v) args.push_back(v);
                m.issue(thread, kOps.at(name)(args));
            } else if (cmd == "dst32" || cmd == "dst16") {
                uint32_t row, n;
                in >> row >> n;
                for (uint32_t r = row; r < row + n; ++r) {
                    for (uint32_t c = 0; c < 16; ++c)
                        std::printf(" %08x", cmd == "dst32" ? fp32_from_dst32(m.dst32_read(r, c)) : uint32_t(m.s.dst[r][c]));
                    std::printf("\n");
                }
            } else if (cmd == "srcrow") {
                std::string which;
                int bank, row;
                in >> which >> bank >> row;
                const SrcBank& b = which == "A" ? m.s.srca[bank] : m.s.srcb[bank];
                for (int c = 0; c < 16; ++c) std::printf(" %05x", b.row[row][c]);
                std::printf("\n");
            } else if (cmd == "rwc") {
                const Rwc& r = m.s.rwc[thread];
                std::printf("rwc %u %u %u %u %u %u %u\n", r.srca, r.srca_cr, r.srcb, r.srcb_cr, r.dst, r.dst_cr, r.fidelity);
            } else if (cmd == "banks") {
                const MachineState& s = m.s;
                std::printf("banks %d %d %d %d %d %d %d %d\n", s.srca_math_bank, s.srcb_math_bank, s.srca_unpack_bank,
                            s.srcb_unpack_bank, s.srca[0].dvalid, s.srca[1].dvalid, s.srcb[0].dvalid, s.srcb[1].dvalid);
            } else {
                std::printf("error: unknown command %s\n", cmd.c_str());
            }
        } catch (const std::exception& e) {
            std::printf("error: %s\n", e.what());
        }
        std::fflush(stdout);
    }
}
