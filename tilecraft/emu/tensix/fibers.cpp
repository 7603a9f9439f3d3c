// The three TRISC fibers of one core: scheduling, blocking, deadlock reports and the crash guard
// (fibers.h says what and why).
#include "fibers.h"

#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>

namespace tc_tensix {

namespace {

constexpr std::size_t kStackBytes = 4u << 20;
// Rounds in which every live thread only polled and nothing changed, before a livelock is reported.
constexpr uint64_t kIdleRoundLimit = 1u << 18;

enum class FiberState { Ready, Blocked, Polling, Done };

struct Fiber {
    ucontext_t ctx{};
    void* mapping = nullptr;
    std::size_t mapping_bytes = 0;
    FiberState state = FiberState::Ready;
    const Wait* wait = nullptr;  // while Blocked; lives on the fiber's own stack
    std::string poll_what;       // while Polling
};

struct Run {
    Machine* machine = nullptr;
    const std::function<void(int)>* body = nullptr;
    ucontext_t scheduler{};
    Fiber fibers[kNumThreads];
    int current = -1;
    bool failed = false;
    std::string error;
};

Run* g_run = nullptr;

std::string describe_word(const Machine& m, int thread) {
    const FrontendState& fe = m.s.frontend;
    if (!fe.issued_any[thread]) return "it has issued no instruction yet";
    char buf[160];
    const uint32_t w = fe.executed_any[thread] ? fe.last_executed[thread] : fe.last_issued[thread];
    std::snprintf(buf, sizeof buf, "its last instruction was 0x%08x (%s)", w, Machine::opcode_name(opcode_of(w)));
    return buf;
}

std::string thread_report(const Run& run) {
    std::string out;
    for (int t = 0; t < kNumThreads; ++t) {
        const Fiber& f = run.fibers[t];
        out += "\n  TRISC ";
        out += thread_name(t);
        switch (f.state) {
            case FiberState::Done: out += ": finished"; continue;
            case FiberState::Blocked: out += ": waits for " + f.wait->what; break;
            case FiberState::Polling: out += ": polls " + f.poll_what; break;
            case FiberState::Ready: out += ": running"; break;
        }
        out += "; " + describe_word(*run.machine, t);
    }
    return out;
}

void fiber_main(int thread) {
    (*g_run->body)(thread);
    g_run->fibers[thread].state = FiberState::Done;
    // returning resumes uc_link: the scheduler
}

void switch_to_scheduler() {
    Fiber& f = g_run->fibers[g_run->current];
    swapcontext(&f.ctx, &g_run->scheduler);
}

// A crash inside kernel code (a bad pointer, a stack overflow into the guard page) ends the run
// with the thread and its last instruction instead of killing the process without a word.
class CrashGuard {
public:
    CrashGuard() {
        alt_ = std::malloc(kAltStackBytes);
        stack_t ss{};
        ss.ss_sp = alt_;
        ss.ss_size = kAltStackBytes;
        sigaltstack(&ss, &old_stack_);
        struct sigaction sa {};
        sa.sa_sigaction = &CrashGuard::handler;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        for (int i = 0; i < kSignalCount; ++i) sigaction(kSignals[i], &sa, &old_[i]);
    }
    ~CrashGuard() {
        for (int i = 0; i < kSignalCount; ++i) sigaction(kSignals[i], &old_[i], nullptr);
        sigaltstack(&old_stack_, nullptr);
        std::free(alt_);
    }
    CrashGuard(const CrashGuard&) = delete;
    CrashGuard& operator=(const CrashGuard&) = delete;

private:
    static constexpr int kSignalCount = 4;
    static constexpr int kSignals[kSignalCount] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
    static constexpr std::size_t kAltStackBytes = 1u << 16;
    struct sigaction old_[kSignalCount] {};
    stack_t old_stack_{};
    void* alt_ = nullptr;

    static void handler(int sig, siginfo_t* info, void*) {
        Run* run = g_run;
        if (run == nullptr || run->current < 0) {  // not in kernel code: the default action
            signal(sig, SIG_DFL);
            raise(sig);
            return;
        }
        const char* what = sig == SIGSEGV ? "SIGSEGV (invalid memory access)"
                           : sig == SIGBUS ? "SIGBUS (invalid memory access)"
                           : sig == SIGFPE ? "SIGFPE (arithmetic error)"
                                           : "SIGILL (illegal instruction)";
        char buf[200];
        std::snprintf(buf, sizeof buf, "TRISC %s crashed with %s at address %p; ", thread_name(run->current), what,
                      info->si_addr);
        run->error = buf + describe_word(*run->machine, run->current) +
                     ". A pointer the kernel dereferences is not backed by the machine (device addresses go through "
                     "the machine's memory map, docs/emulator.md), or the kernel overflowed its stack.";
        run->failed = true;
        setcontext(&run->scheduler);
    }
};

void start_fiber(Run& run, int thread) {
    Fiber& f = run.fibers[thread];
    const long page = sysconf(_SC_PAGESIZE);
    f.mapping_bytes = kStackBytes + std::size_t(page);
    f.mapping = mmap(nullptr, f.mapping_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                     -1, 0);
    if (f.mapping == MAP_FAILED) {
        std::perror("tilecraft tensix: mmap of a fiber stack");
        std::abort();
    }
    mprotect(f.mapping, std::size_t(page), PROT_NONE);  // guard page: an overflow faults, not corrupts
    getcontext(&f.ctx);
    f.ctx.uc_stack.ss_sp = static_cast<char*>(f.mapping) + page;
    f.ctx.uc_stack.ss_size = kStackBytes;
    f.ctx.uc_link = &run.scheduler;
    makecontext(&f.ctx, reinterpret_cast<void (*)()>(&fiber_main), 1, thread);
}

// One round-robin pass: resumes each thread that can run. Returns whether any thread ran.
bool run_round(Run& run) {
    bool ran = false;
    for (int t = 0; t < kNumThreads && !run.failed; ++t) {
        Fiber& f = run.fibers[t];
        if (f.state == FiberState::Done) continue;
        if (f.state == FiberState::Blocked && !f.wait->ready()) continue;
        ran = true;
        run.current = t;
        swapcontext(&run.scheduler, &f.ctx);
        run.current = -1;
    }
    return ran;
}

bool all_done(const Run& run) {
    for (const Fiber& f : run.fibers)
        if (f.state != FiberState::Done) return false;
    return true;
}

bool only_polling(const Run& run) {
    for (const Fiber& f : run.fibers)
        if (f.state == FiberState::Ready) return false;
    return true;
}

}  // namespace

bool on_fiber() { return g_run != nullptr && g_run->current >= 0; }
int fiber_thread() { return g_run->current; }
Machine& fiber_machine() { return *g_run->machine; }

void fiber_block(const Wait& w) {
    Fiber& f = g_run->fibers[g_run->current];
    f.state = FiberState::Blocked;
    f.wait = &w;
    switch_to_scheduler();  // resumed only once w.ready()
    f.state = FiberState::Ready;
    f.wait = nullptr;
}

void fiber_poll(const std::string& what) {
    Fiber& f = g_run->fibers[g_run->current];
    f.state = FiberState::Polling;
    f.poll_what = what;
    switch_to_scheduler();
    f.state = FiberState::Ready;
}

void fiber_yield() {
    switch_to_scheduler();  // state stays Ready: the scheduler resumes this fiber in its next turn
}

void fiber_fail(const std::string& message) {
    g_run->error = message;
    g_run->failed = true;
    setcontext(&g_run->scheduler);
    std::abort();  // setcontext does not return
}

// The embedded scheduler's turn is over until its host resumes it: other cores' runs use the
// fiber layer meanwhile, so this run's state is put back afterwards.
void hand_to_host(Run& run, const RunHost& host) {
    host.idle([&run] { return thread_report(run); });
    g_run = &run;
}

std::string run_triscs(Machine& m, const std::function<void(int thread)>& body, double timeout_s,
                       const RunHost* host) {
    Run run;
    run.machine = &m;
    run.body = &body;
    g_run = &run;
    std::string result;
    {
        std::optional<CrashGuard> guard;
        if (host == nullptr) guard.emplace();
        for (int t = 0; t < kNumThreads; ++t) start_fiber(run, t);
        const auto start = std::chrono::steady_clock::now();
        uint64_t idle_rounds = 0;
        while (!run.failed && !all_done(run)) {
            const uint64_t progress_before = m.s.frontend.progress;
            if (!run_round(run)) {
                if (!run.failed) result = "the three TRISCs deadlocked: no thread can make progress." + thread_report(run);
                break;
            }
            const bool idle = m.s.frontend.progress == progress_before && only_polling(run);
            if (idle && host != nullptr) {
                hand_to_host(run, *host);
                continue;
            }
            if (idle) {
                if (++idle_rounds > kIdleRoundLimit) {
                    result = "the three TRISCs livelocked: every live thread polls state that nothing changes." +
                             thread_report(run);
                    break;
                }
            } else {
                idle_rounds = 0;
            }
            const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
            if (host == nullptr && elapsed.count() > timeout_s) {
                char buf[120];
                std::snprintf(buf, sizeof buf, "the run did not finish within %.1f s.", timeout_s);
                result = buf + thread_report(run);
                break;
            }
        }
        if (run.failed) result = run.error;
    }
    for (Fiber& f : run.fibers)
        if (f.mapping != nullptr) munmap(f.mapping, f.mapping_bytes);
    g_run = nullptr;
    return result;
}

}  // namespace tc_tensix
