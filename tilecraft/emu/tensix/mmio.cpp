// The machine's side of the layer under the LLK (kernel_include/tc_tensix_kernel.h): instruction
// issue and the memory map a TRISC sees, for the fiber that calls.
//
// Memory map (BabyRISCV/README.md; addresses from the wheel's tensix.h):
//   [0, L1 size)                    L1 of the core
//   TENSIX_CFG_BASE                 both config states back to back (MachineState::cfg_words)
//   TENSIX_MOP_CFG_BASE             the calling thread's MOP config (9 words, per thread)
//   REGFILE_BASE                    the calling thread's GPRs (64 words, per thread)
//   RISCV_DEBUG_REGS_START_ADDR     debug/status registers as plain words (FrontendState)
//   PC_BUF_BASE, TENSIX_MAILBOX*    only through the proxies (side effects on read and write)
// Anything else is a hard error naming the address.
#include <cstdio>
#include <string>

#include "fibers.h"
#include "host_window.h"
#include "kernel_include/tc_tensix_kernel.h"
// The wheel's address map (hw/inc/internal/tt-1xx/<arch>/tensix.h); its tensix_types.h pulls in
// the host's fmt library unless it is built as firmware, which is what the addresses are for.
#ifndef TENSIX_FIRMWARE
#define TENSIX_FIRMWARE
#endif
#include "tensix.h"

namespace tc_tensix {

namespace {

constexpr uint32_t kPcBufSemaphoreBase = 8;  // ckernel_structs.h's PC_BUF_SEMAPHORE_BASE
constexpr uint32_t kSemaphoreMax = 15;       // SEMPOST.md: a semaphore counts up to 15
constexpr uintptr_t kMopCfgBytes = kMopCfgWords * 4;
constexpr uintptr_t kRegfileBytes = kGprs * 4;

std::string hex(uintptr_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

// The running fiber, or a hard error: the kernel-side layer only works on a TRISC fiber.
Machine& machine_here(const char* what) {
    if (!on_fiber()) {
        std::fprintf(stderr, "tilecraft tensix: %s called outside a TRISC fiber\n", what);
        std::abort();
    }
    return fiber_machine();
}

// A hard error of the RISC side (no Tensix instruction to name): the thread and what it did.
[[noreturn]] void fail_here(const std::string& what) {
    fiber_fail(std::string("TRISC ") + thread_name(fiber_thread()) + ": " + what);
}

bool within(uintptr_t addr, std::size_t bytes, uintptr_t base, uintptr_t size) {
    return addr >= base && addr - base <= size && bytes <= size - (addr - base);
}

// Mailboxes.md: TENSIX_MAILBOX<box>_BASE from RISCV T<i> writes the T<i> -> <box> FIFO and reads
// the <box> -> T<i> FIFO (box 0 is RISCV B, 1..3 are T0..T2).
int risc_of_thread(int thread) { return thread + 1; }

HostWindow g_host_window = nullptr;

}  // namespace

void set_host_window(HostWindow window) { g_host_window = window; }

HostAddress host_address(Machine& m, int thread, uintptr_t addr, std::size_t bytes) {
    return g_host_window != nullptr ? g_host_window(m, thread, addr, bytes) : HostAddress{};
}

void issue_from_kernel(uint32_t word) {
    Machine& m = machine_here("issue_from_kernel");
    m.issue(fiber_thread(), word);
}

volatile void* mmio_address(uintptr_t addr, std::size_t bytes) {
    Machine& m = machine_here("mmio_address");
    const HostAddress shared = host_address(m, fiber_thread(), addr, bytes);
    if (shared.ptr != nullptr) {
        if (!shared.polls.empty()) fiber_poll(shared.polls);  // the host's other fibers may change it
        return shared.ptr;
    }
    return device_address(m, fiber_thread(), addr, bytes);
}

volatile void* device_address(Machine& m, int t, uintptr_t addr, std::size_t bytes) {
    MachineState& s = m.s;
    if (within(addr, bytes, 0, s.l1_size)) return s.l1 + addr;
    if (within(addr, bytes, TENSIX_CFG_BASE, s.cfg_words.size() * 4))
        return reinterpret_cast<uint8_t*>(s.cfg_words.data()) + (addr - TENSIX_CFG_BASE);
    if (within(addr, bytes, TENSIX_MOP_CFG_BASE, kMopCfgBytes))
        return reinterpret_cast<uint8_t*>(s.mop_cfg[t]) + (addr - TENSIX_MOP_CFG_BASE);
    if (within(addr, bytes, REGFILE_BASE, kRegfileBytes))
        return reinterpret_cast<uint8_t*>(s.gpr[t]) + (addr - REGFILE_BASE);
    if (within(addr, bytes, RISCV_DEBUG_REGS_START_ADDR, sizeof s.frontend.debug_regs))
        return reinterpret_cast<uint8_t*>(s.frontend.debug_regs) + (addr - RISCV_DEBUG_REGS_START_ADDR);
    if (volatile void* shared = host_address(m, t, addr, bytes).ptr) return shared;
    m.fail(t, s.frontend.last_executed[t],
           "device address " + hex(addr) + " (" + std::to_string(bytes) +
               " bytes) is not backed by tilecraft's Tensix machine (L1, config registers, MOP config, GPRs and debug "
               "registers are; see docs/emulator.md). The RISC accessed it after this instruction");
}

uint32_t pcbuf_load(uint32_t word_index) {
    Machine& m = machine_here("pcbuf_load");
    if (word_index >= kPcBufSemaphoreBase && word_index < kPcBufSemaphoreBase + kSemaphores) {
        // A semaphore read is how a TRISC polls another thread: let the others run first.
        const uint32_t sem = word_index - kPcBufSemaphoreBase;
        fiber_poll("semaphore " + std::to_string(sem) + " (value " + std::to_string(m.s.sem_value[sem]) + ")");
        return m.s.sem_value[sem];
    }
    // TTSync reads (tensix_sync/mop_sync): complete once the thread's coprocessor work is done,
    // which it always is here (units complete at issue).
    if (word_index == 1 || word_index == 2) return 0;
    fail_here("the kernel reads PC buffer word " + std::to_string(word_index) +
                     " (a PCBuf FIFO from RISCV B), which is not modelled");
}

void pcbuf_store(uint32_t word_index, uint32_t value) {
    Machine& m = machine_here("pcbuf_store");
    MachineState& s = m.s;
    if (word_index >= kPcBufSemaphoreBase && word_index < kPcBufSemaphoreBase + kSemaphores) {
        // ckernel.h SemaphoreAccess: LSB set -> SEMGET (decrement if > 0), clear -> SEMPOST (to 15).
        uint32_t& v = s.sem_value[word_index - kPcBufSemaphoreBase];
        if ((value & 1u) != 0) {
            if (v > 0) --v;
        } else if (v < kSemaphoreMax) {
            ++v;
        }
        ++s.frontend.progress;
        fiber_yield();
        return;
    }
    if (word_index == 1 || word_index == 2) return;  // TTSync: a write from T<i> is discarded (PCBufs.md)
    fail_here("the kernel writes PC buffer word " + std::to_string(word_index) + ", which is not modelled");
}

uint32_t mailbox_load(int box, uint32_t word_index) {
    Machine& m = machine_here("mailbox_load");
    const int me = risc_of_thread(fiber_thread());
    std::deque<uint32_t>& fifo = m.s.frontend.mailbox[box][me];
    if ((word_index & 1u) != 0) {  // byte address & 4: non-blocking "anything to read?" query
        if (fifo.empty()) fiber_poll("mailbox " + std::to_string(box) + " (empty)");
        return fifo.empty() ? 0 : 1;
    }
    m.wait_for(Wait{[&fifo] { return !fifo.empty(); }, "a value in mailbox " + std::to_string(box) + " (it is empty)"});
    const uint32_t v = fifo.front();
    fifo.pop_front();
    ++m.s.frontend.progress;
    return v;
}

void mailbox_store(int box, uint32_t value) {
    Machine& m = machine_here("mailbox_store");
    const int me = risc_of_thread(fiber_thread());
    m.s.frontend.mailbox[me][box].push_back(value);
    ++m.s.frontend.progress;
    fiber_yield();
}

ComputeEventHook compute_event_hook = nullptr;

void llk_assert_failed(const char* condition, const char* message, const char* file, int line) {
    machine_here("llk_assert_failed");
    fail_here(std::string("LLK_ASSERT(") + condition + ") failed at " + file + ":" + std::to_string(line) + ": " +
                     message);
}

}  // namespace tc_tensix
