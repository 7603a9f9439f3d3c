// The opcode registry, instruction issue and the state helpers every unit shares (machine.h).
#include "machine.h"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "cfg_defines.h"  // from the wheel's hw/inc/internal/tt-1xx/<arch>: register sizes and fields
#include "fibers.h"

namespace tc_tensix {

namespace {

struct OpcodeEntry {
    const char* name = nullptr;
    Handler handler = nullptr;
};

std::array<OpcodeEntry, 256>& registry() {
    static std::array<OpcodeEntry, 256> table{};
    return table;
}

}  // namespace

Machine::Machine(Arch arch) {
    if (arch != kArch)
        throw std::runtime_error(std::string("tensix: this machine is built for ") + arch_name(kArch) + ", not " +
                                 arch_name(arch) + " (its config register map is compiled in; build with -DTC_ARCH_...)");
    s.cfg_words.assign(2 * CFG_STATE_SIZE * 4, 0u);
    s.cfg[0] = s.cfg_words.data();
    s.cfg[1] = s.cfg_words.data() + CFG_STATE_SIZE * 4;
    for (auto& t : s.thread_cfg) t.assign(THD_STATE_SIZE * 4, 0u);
    for (unsigned r = 0; r < kLRegs; ++r)
        for (int lane = 0; lane < kSfpuLanes; ++lane) s.lreg[r][lane] = sfpu::initial_lreg(r, lane);
}

void Machine::register_opcode(uint32_t opcode, const char* name, Handler h) {
    OpcodeEntry& e = registry().at(opcode & 0xff);
    if (e.handler != nullptr && e.handler != h) {
        std::fprintf(stderr, "tilecraft tensix: opcode 0x%02x registered twice (%s, %s)\n", opcode, e.name, name);
        std::abort();
    }
    e = OpcodeEntry{name, h};
}

void Machine::name_opcode(uint32_t opcode, const char* name) {
    OpcodeEntry& e = registry().at(opcode & 0xff);
    if (e.handler == nullptr) e.name = name;
}

const char* Machine::opcode_name(uint32_t opcode) {
    const char* n = registry().at(opcode & 0xff).name;
    return n != nullptr ? n : "?";
}

// The frontend (MOPExpander.md): MOP_CFG and MOP are consumed by the MOP expander; every other
// word, and every word a MOP expands to, goes on to the replay expander (replay.cpp).
void Machine::issue(int thread, uint32_t word) {
    s.frontend.last_issued[thread] = word;
    s.frontend.issued_any[thread] = true;
    switch (opcode_of(word)) {
        case kOpMopCfg: s.frontend.mop_mask_hi[thread] = field(word, 0, 16); return;
        case kOpMop: mop_expand(*this, thread, word, [&](uint32_t w) { replay_stage(*this, thread, w); }); return;
        default: replay_stage(*this, thread, word);
    }
}

void Machine::execute(int thread, uint32_t word) {
    s.frontend.last_executed[thread] = word;
    s.frontend.executed_any[thread] = true;
    ++s.frontend.progress;
    const OpcodeEntry& e = registry()[opcode_of(word)];
    if (e.handler == nullptr) fail(thread, word, "this instruction is not modelled by tilecraft's Tensix machine");
    if (!s.sfpu.scheduled.empty() && sfpu::drains_sfpu_schedule(opcode_of(word))) sfpu_drain(*this, thread);
    e.handler(*this, thread, word);
}

void Machine::wait_for(const Wait& w) {
    if (w.ready()) return;
    // On a TRISC fiber the thread yields until another thread makes the condition hold.
    if (on_fiber()) return fiber_block(w);
    // Synchronous machine (unit tests): a wait that does not hold now never will.
    throw std::runtime_error("tensix: waits for " + w.what + " with no other thread to satisfy it");
}

// The state a thread's configuration instructions target: ThreadConfig's CFG_STATE_ID_StateID
// (set by SETC16; WRCFG.md).
uint32_t& Machine::cfg_word(int thread, uint32_t addr32) {
    if (addr32 >= CFG_STATE_SIZE * 4) {
        fail(thread, s.frontend.last_executed[thread], "config register index " + std::to_string(addr32) +
                                                           " is outside the config state (CFG_STATE_SIZE*4 words)");
    }
    const uint32_t state = (s.thread_cfg[thread][CFG_STATE_ID_StateID_ADDR32] & CFG_STATE_ID_StateID_MASK) >>
                           CFG_STATE_ID_StateID_SHAMT;
    return s.cfg[state & 1][addr32];
}

uint32_t Machine::cfg_field(int thread, uint32_t addr32, uint32_t shamt, uint32_t mask) {
    return (cfg_word(thread, addr32) & mask) >> shamt;
}

uint32_t& Machine::thread_cfg_word(int thread, uint32_t addr32) { return s.thread_cfg[thread].at(addr32); }

namespace {
uint32_t dst_adj_row(uint32_t row) { return ((row & 0x1f8u) << 1) | (row & 0x207u); }
}  // namespace

uint32_t Machine::dst32_read(uint32_t row, uint32_t col) const {
    const uint32_t r = dst_adj_row(row & 0x3ffu);
    return (uint32_t(s.dst[r][col]) << 16) | s.dst[r + 8][col];
}

void Machine::dst32_write(uint32_t row, uint32_t col, uint32_t value) {
    const uint32_t r = dst_adj_row(row & 0x3ffu);
    s.dst[r][col] = uint16_t(value >> 16);
    s.dst[r + 8][col] = uint16_t(value & 0xffffu);
}

const char* thread_name(int thread) {
    static const char* const names[kNumThreads] = {"UNPACK", "MATH", "PACK"};
    return thread >= 0 && thread < kNumThreads ? names[thread] : "?";
}

void Machine::fail(int thread, uint32_t word, const std::string& what) const {
    char buf[160];
    std::snprintf(buf, sizeof buf, "TRISC %s issued 0x%08x (opcode 0x%02x %s): ", thread_name(thread), word,
                  opcode_of(word), opcode_name(opcode_of(word)));
    if (on_fiber()) fiber_fail(std::string(buf) + what);
    throw std::runtime_error(std::string(buf) + what);
}

}  // namespace tc_tensix
