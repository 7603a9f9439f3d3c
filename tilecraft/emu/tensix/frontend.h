// The spine's part of the machine: the frontend of each Tensix thread (MOP Expander, Replay
// Expander), the RISC-side windows the LLK reaches through memory-mapped registers (mailboxes,
// debug registers), and what the fiber layer reports about each thread.
//
// MOP/MOP_CFG and REPLAY are handled here, before the opcode table, as the ISA's frontend does
// (MOPExpander.md, REPLAY.md): Machine::issue sends every word through the MOP expander, each
// expanded word through the replay expander, and what comes out to Machine::execute.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>

namespace tc_tensix {

class Machine;

// Opcodes the frontend consumes before the opcode table (ckernel_ops.h's TT_OP_MOP/_MOP_CFG/_REPLAY).
constexpr uint32_t kOpMop = 0x01, kOpMopCfg = 0x03, kOpReplay = 0x04, kOpNop = 0x02;

constexpr int kRiscs = 4;                 // mailbox endpoints: RISCV B, T0, T1, T2
constexpr int kDebugRegWords = 0x1000 / 4;  // RISCV_DEBUG_REGS window backed as plain words

struct FrontendState {
    uint32_t mop_mask_hi[3] = {};         // MOP_CFG's high 16 bits of the template-0 mask, per thread
    uint32_t last_issued[3] = {};         // the last word each RISC issued (deadlock/crash reports)
    uint32_t last_executed[3] = {};       // the last word that reached execution, per thread
    bool issued_any[3] = {}, executed_any[3] = {};
    uint64_t progress = 0;                // bumps on every state change other threads can observe
    // Mailboxes.md: one FIFO from each RISC to each RISC; index [from][to], 0 = B, 1..3 = T0..T2.
    std::deque<uint32_t> mailbox[kRiscs][kRiscs];
    uint32_t debug_regs[kDebugRegWords] = {};  // RISCV_DEBUG_REG_* (wall clock, sticky bits, ...)
};

// The host address backing `bytes` bytes at device address `addr` as TRISC `thread` sees it
// (mmio.cpp has the memory map); an address the machine does not back is a hard error.
volatile void* device_address(Machine& m, int thread, std::uintptr_t addr, std::size_t bytes);

// MOP Expander: expands a MOP word of `thread` per its MOP config, handing each word to `emit`.
void mop_expand(Machine& m, int thread, uint32_t mop_word, const std::function<void(uint32_t)>& emit);
// Replay Expander stage of `thread` for one word coming out of the MOP expander.
void replay_stage(Machine& m, int thread, uint32_t word);

}  // namespace tc_tensix
