// The Tensix coprocessor of one Tensix tile, as the real LLK drives it: the state its
// instructions read and write, and the one entry point through which the three TRISCs issue them.
//
// Why a machine and not per-API re-implementations: tt-metal's compute API is ~700 functions over
// an LLK that issues a few dozen kinds of Tensix instructions. Modelling those instructions once
// (facts from tenstorrent/tt-isa-documentation, Wormhole B0 and Blackhole, written in our own
// words) lets Tenstorrent's own LLK code run unchanged on the host. See docs/emulator.md
// ("The Tensix machine") for the layers replaced under the LLK and the units modelled.
//
// Layout of this directory (one unit per file, each registers its opcodes):
//   machine.h / machine.cpp   state, the opcode table, issue + MOP expansion + REPLAY
//   config.cpp                WRCFG/RDCFG/SETC16/RMWCIB*, GPR (DMA register) instructions
//   sync.cpp                  STALLWAIT, SEM*, ATGETM/ATRELM, NOPs
//   unpack.cpp                UNPACR*, format decode
//   adc.cpp / adc.h           the ADC instructions (SETADC*, INCADC*, ADDRCR*) and counter helpers
//   fpu.cpp                   ELW*, MVMUL, GMPOOL/GAPOOL, MOV*, ZERO*, TRNSPSRCB, SHIFTX*, RWCs
//   pack.cpp                  PACR*, packer format conversion and rounding
//   sfpu.cpp / sfpu_ops.h     SFP* instructions; sfpu_ops.h is shared with our sfpi.h
//   prng.h                    the PRNGs (SFPU, matrix unit, packers) and the stochastic rounding rule
//   fibers.cpp                the three TRISC fibers per core and blocking
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "arch.h"
#include "frontend.h"
#include "fpu.h"  // fpu: FpuState
#include "pack.h"
#include "sfpu_ops.h"

namespace tc_tensix {

// TRISC thread ids as the hardware numbers them (instruction issue, per-thread config, MOP, ADCs).
enum Thread : int { kUnpack = 0, kMath = 1, kPack = 2, kNumThreads = 3 };
// The thread's name in reports ("UNPACK", "MATH", "PACK"; "?" for anything else).
const char* thread_name(int thread);

constexpr int kSrcRows = 64, kSrcCols = 16, kSrcBanks = 2;
constexpr int kDstRows16 = 1024, kDstCols = 16;
constexpr int kSfpuLanes = 32;        // 4 rows x 8 columns of lanes; each lane sees 2 Dst columns
constexpr int kLRegs = 17;            // LReg[0..7] general, [8..15] constants / special, [16] SFPLOADMACRO-only
constexpr int kGprs = 64;             // per-thread GPRs ("DMA registers"), 32 bit
constexpr int kSemaphores = 8;
constexpr int kReplaySlots = 32;
constexpr int kMopCfgWords = 9;

// A condition an instruction (or a RISC-side poll) waits on before it may execute; the fiber layer
// re-evaluates it each time it considers the thread. `what` names the wait in deadlock reports.
struct Wait {
    std::function<bool()> ready;
    std::string what;
};

// One address-counter channel (ISA: ADCs.md): X/Y/Z/W and their carriage-return registers.
struct AdcChannel {
    uint32_t x = 0, y = 0, z = 0, w = 0;
    uint32_t x_cr = 0, y_cr = 0, z_cr = 0, w_cr = 0;
};
// One thread's ADCs (ADCs.md: ADCs[3], usually indexed by the issuing thread): each unpacker's two
// channels and one pair the four packers share. The ADC instructions (adc.cpp) write them; UNPACR
// and PACR read and advance them, so the unpackers and the packers see one record.
struct ThreadAdcs {
    AdcChannel unpacker[2][2];  // [unpacker][channel]: channel 0 input side, 1 output side
    AdcChannel packers[2];      // [channel]
};

// One thread's read-write counters (ISA: RWCs.md, RWCs[3] indexed by the issuing thread): the rows
// of Dst, SrcA and SrcB the matrix unit's and the SFPU's instructions address, the fidelity phase,
// and the bit that moves AddrMode to ADDR_MOD sets 4..7. Per thread because the LLK runs SFPU code
// on the PACK thread too (the fused SFPU-then-pack kernels), with its own SETRWC and ADDR_MOD sets.
struct Rwc {
    uint32_t srca = 0, srca_cr = 0;
    uint32_t srcb = 0, srcb_cr = 0;
    uint32_t dst = 0, dst_cr = 0;
    uint32_t fidelity = 0;
    uint32_t extra_addr_mod_bit = 0;
};

}  // namespace tc_tensix
// --- unpack: the unpackers' private state (needs kNumThreads above) ---
#include "unpack.h"
namespace tc_tensix {

struct SrcBank {
    uint32_t row[kSrcRows][kSrcCols] = {};  // 19-bit datums held in the low bits (see SrcASrcB.md)
    bool dvalid = false;                    // true: owned by the matrix unit; false: by the unpacker
    // --- Blackhole: the unpacker's Out_data_format when it handed the bank over (the "implied" Src
    // format the matrix unit reads instead of ALU_FORMAT_SPEC, fpu.cpp) ---
    uint32_t format = 0;
};

struct MachineState {
    Arch arch = kArch;  // the build's architecture (arch.h)

    // --- L1 of the tile (byte addressed; unpackers read it, packers write it) ---
    uint8_t* l1 = nullptr;
    std::size_t l1_size = 0;

    // --- register files ---
    SrcBank srca[kSrcBanks], srcb[kSrcBanks];
    int srca_unpack_bank = 0, srca_math_bank = 0;  // which bank each side currently works on
    int srcb_unpack_bank = 0, srcb_math_bank = 0;
    uint16_t dst[kDstRows16][kDstCols] = {};        // DstBits (Dst.md); 32-bit view via dst32_*()
    uint32_t lreg[kLRegs][kSfpuLanes] = {};         // SFPU LRegs; 8,9,10,15 read as constants (sfpu_ops.h)
    // --- sfpu: predication (LaneFlags, flag stack), PRNG, SFPCONFIG lane config (sfpu_ops.h) ---
    sfpu::SfpuState sfpu;

    // --- configuration (ConfigurationUnit.md) ---
    // Two config states, CFG_STATE_SIZE*4 words each, back to back in cfg_words as RISC-V sees
    // them at TENSIX_CFG_BASE (the LLK indexes state 1 from state 0's base); cfg[i] is state i.
    std::vector<uint32_t> cfg_words;
    uint32_t* cfg[2] = {nullptr, nullptr};
    std::vector<uint32_t> thread_cfg[kNumThreads];  // per-thread config (SETC16), THD_STATE_SIZE*4 words
    uint32_t gpr[kNumThreads][kGprs] = {};          // also the RISC-visible regfile

    // --- counters ---
    ThreadAdcs adc[kNumThreads];                    // ADCs[thread] (ADCs.md), shared by unpackers and packers
    Rwc rwc[kNumThreads];                           // RWCs[thread] (RWCs.md): each thread its own, no cross access
    // Address modifiers (ADDR_MOD_*) live in thread config of the math/pack threads; the FPU
    // unit reads them from there.

    // --- sync unit (SyncUnit.md) ---
    uint32_t sem_value[kSemaphores] = {}, sem_max[kSemaphores] = {};
    int mutex_owner[8] = {-1, -1, -1, -1, -1, -1, -1, -1};

    // --- frontend: MOP expander and replay buffers (per thread) ---
    uint32_t mop_cfg[kNumThreads][kMopCfgWords] = {};
    uint32_t replay[kNumThreads][kReplaySlots] = {};
    int replay_record_left[kNumThreads] = {};        // >0: next N issued instructions are recorded
    int replay_record_at[kNumThreads] = {};
    bool replay_record_exec[kNumThreads] = {};       // record and also execute

    // --- unpack: per-unpacker ADCs, SrcRow and context counters (unpack.h) ---
    UnpackerState unpack;

    // --- spine: frontend (MOP/REPLAY expanders), RISC-side windows incl. the mailboxes between
    // the RISCs, fiber reports (frontend.h) ---
    FrontendState frontend;

    // --- fpu: the matrix unit's private state (fpu.h) ---
    FpuState fpu;

    // --- pack unit (pack.cpp): output streams, tile position generators, BFP blocks per packer ---
    PackState pack;
};

class Machine;

// An instruction handler: executes one 32-bit instruction word issued by `thread`. A handler that
// must wait calls m.wait_for(...) first (this returns once the condition holds).
using Handler = void (*)(Machine& m, int thread, uint32_t word);

// Opcode of an instruction word (TT_OP(opcode, params) = (opcode << 24) + params).
constexpr uint32_t opcode_of(uint32_t word) { return word >> 24; }
// Bits [lo, lo+width) of an instruction word.
constexpr uint32_t field(uint32_t word, int lo, int width) {
    return (word >> lo) & ((width >= 32) ? 0xffffffffu : ((1u << width) - 1u));
}
// AddrMode of a matrix-unit instruction (ELW*, MVMUL, MOV*, ZEROACC, SHIFTXB); arch.h has its place.
constexpr uint32_t math_addr_mode(uint32_t word) { return field(word, kEnc.math_addr_mode_lo, kEnc.math_addr_mode_bits); }
// The low immediate of a matrix-unit instruction (its Dst row): up to `bits` bits, ending below AddrMode.
constexpr uint32_t math_low_imm(uint32_t word, int bits) {
    return field(word, 0, bits < kEnc.math_addr_mode_lo ? bits : kEnc.math_addr_mode_lo);
}

class Machine {
public:
    MachineState s;

    // A machine is built for one architecture (arch.h: its config register map is compiled in);
    // asking this build for another is a hard error.
    explicit Machine(Arch arch = kArch);
    Machine(const Machine&) = delete;  // cfg[] points into cfg_words
    Machine& operator=(const Machine&) = delete;

    // Issue one instruction from `thread` (after MOP expansion / replay recording): looks up the
    // opcode's handler and runs it; an opcode without a handler is a hard error naming it.
    void issue(int thread, uint32_t word);
    // Execute without frontend processing (MOP/REPLAY call this for the instructions they expand).
    void execute(int thread, uint32_t word);

    // Block the calling thread until `w.ready()` holds (the fiber layer yields meanwhile).
    void wait_for(const Wait& w);

    // Config-register helpers every unit uses: the word at `addr32` of the state the thread's
    // instructions currently target, and a masked field of it.
    uint32_t& cfg_word(int thread, uint32_t addr32);
    uint32_t cfg_field(int thread, uint32_t addr32, uint32_t shamt, uint32_t mask);
    uint32_t& thread_cfg_word(int thread, uint32_t addr32);

    // Dst as 32-bit datums (Dst.md: AdjRow mapping).
    uint32_t dst32_read(uint32_t row, uint32_t col) const;
    void dst32_write(uint32_t row, uint32_t col, uint32_t value);

    // The unit registry: each unit's translation unit registers its opcodes at static-init time.
    static void register_opcode(uint32_t opcode, const char* name, Handler h);
    static const char* opcode_name(uint32_t opcode);
    // Names an opcode no unit handles (the runner names every opcode of the arch's assembly.yaml),
    // so that issuing it fails with its mnemonic.
    static void name_opcode(uint32_t opcode, const char* name);

    // A hard error of the machine (unmodelled opcode/mode, misuse): reported with the thread and
    // the instruction, never a silent wrong result.
    [[noreturn]] void fail(int thread, uint32_t word, const std::string& what) const;
};

// sfpu.cpp: runs the SFPLOADMACRO-scheduled SFPU instructions that are due before an instruction of
// another unit executes (Machine::execute calls it while any are scheduled).
void sfpu_drain(Machine& m, int thread);

// Registers `handler` for `opcode` at static-initialisation time: `TC_OPCODE(0x37, SETRWC, fn);`
// An instruction of one architecture only (arch.h): `TC_OPCODE_ON(Arch::Blackhole, 0x99, SFPARECIP, fn);`
// registers it in that architecture's build; elsewhere the opcode stays unmodelled (named by the runner).
struct OpcodeRegistrar {
    OpcodeRegistrar(uint32_t opcode, const char* name, Handler h, bool on_this_arch = true) {
        if (on_this_arch) Machine::register_opcode(opcode, name, h);
    }
};
#define TC_OPCODE(opc, name, fn) static ::tc_tensix::OpcodeRegistrar tc_reg_##name((opc), #name, (fn))
#define TC_OPCODE_ON(arch, opc, name, fn) \
    static ::tc_tensix::OpcodeRegistrar tc_reg_##name((opc), #name, (fn), ::tc_tensix::kArch == (arch))

}  // namespace tc_tensix
