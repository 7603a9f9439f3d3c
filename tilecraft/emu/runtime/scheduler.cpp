// Cooperative fibers: one per (core, RISC) that runs a kernel; the compute kernel of a core runs
// as one fiber (its UNPACK/MATH/PACK sections expand in program order, as tt-emule does).
//
// A blocking API call records what it waits for and switches back to the scheduler; the
// scheduler resumes a fiber only when its wait is satisfied, in a fixed round-robin order, so a
// run is deterministic. When no fiber can run and some have not finished, every blocked call is
// reported (core, RISC, call, kernel line) instead of hanging. A crash inside a kernel (a bad
// pointer dereference) is caught on an alternate signal stack and reported at the fiber's last
// API call.
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "device.h"
#include "formats.h"

namespace tc {

namespace {

constexpr std::size_t kStackSize = 1u << 20;
constexpr int kMaxIdlePasses = 100000;  // passes in which only polling loops ran before giving up

void fiber_main(unsigned hi, unsigned lo) {
    Fiber* f = reinterpret_cast<Fiber*>((std::uintptr_t(hi) << 32) | std::uintptr_t(lo));
    f->kernel->entry();
    f->done = true;
    // returning resumes uc_link: the scheduler
}

bool g_progress = false;  // set by every call that changes state other fibers can observe

struct CrashGuard {
    struct sigaction old[4];
    stack_t old_stack{};
    void* alt = nullptr;
    static constexpr int kSignals[4] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};

    static void handler(int sig, siginfo_t* info, void*) {
        Device* d = g_dev;
        if (d == nullptr || d->current == nullptr) {  // not in a kernel: let the default action run
            signal(sig, SIG_DFL);
            raise(sig);
            return;
        }
        Fiber& f = *d->current;
        const char* what = sig == SIGSEGV ? "SIGSEGV (invalid memory access)"
                           : sig == SIGBUS ? "SIGBUS (invalid memory access)"
                           : sig == SIGFPE ? "SIGFPE (arithmetic error, e.g. division by zero)"
                                           : "SIGILL (illegal instruction)";
        Finding finding;
        finding.code = "E5006";
        finding.message = fmt_str("the kernel crashed with %s at address %p; its last API call was here",
                                  what, info->si_addr);
        finding.hint = "a raw pointer the kernel dereferences is not an L1 address of this core (only addresses "
                       "from get_write_ptr/get_read_ptr/get_semaphore and their offsets are), or it is out of range";
        finding.loc = f.last_loc;
        finding.core = f.core;
        finding.slot = f.slot;
        d->findings.push_back(finding);
        d->aborted = true;
        f.done = true;
        setcontext(&d->scheduler_ctx);
    }

    CrashGuard() {
        alt = std::malloc(1 << 16);
        stack_t ss{};
        ss.ss_sp = alt;
        ss.ss_size = 1 << 16;
        sigaltstack(&ss, &old_stack);
        struct sigaction sa {};
        sa.sa_sigaction = handler;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        for (int i = 0; i < 4; ++i) sigaction(kSignals[i], &sa, &old[i]);
    }
    ~CrashGuard() {
        for (int i = 0; i < 4; ++i) sigaction(kSignals[i], &old[i], nullptr);
        sigaltstack(&old_stack, nullptr);
        std::free(alt);
    }
};

void start(Fiber& f) {
    f.stack_size = kStackSize;
    long page = sysconf(_SC_PAGESIZE);
    void* mem = mmap(nullptr, f.stack_size + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                     -1, 0);
    mprotect(mem, page, PROT_NONE);  // guard page: a stack overflow faults instead of corrupting
    f.stack = mem;
    getcontext(&f.ctx);
    f.ctx.uc_stack.ss_sp = static_cast<char*>(mem) + page;
    f.ctx.uc_stack.ss_size = f.stack_size;
    f.ctx.uc_link = &g_dev->scheduler_ctx;
    std::uintptr_t p = reinterpret_cast<std::uintptr_t>(&f);
    makecontext(&f.ctx, reinterpret_cast<void (*)()>(fiber_main), 2, unsigned(p >> 32), unsigned(p & 0xFFFFFFFFu));
    f.started = true;
}

std::string wait_state(const Fiber& f) {
    switch (f.wait) {
        case WaitKind::CbReserve: case WaitKind::CbWait: return cb_wait_state(f.wait, f.core, f.wait_cb, f.wait_value);
        case WaitKind::SemEq:
            return fmt_str("it waits for the semaphore to equal %u; it holds %u", f.wait_value, *f.wait_sem);
        case WaitKind::SemGe:
            return fmt_str("it waits for the semaphore to reach %u; it holds %u", f.wait_value, *f.wait_sem);
        default: return f.describe_poll ? f.describe_poll() : "it polls in a loop that nothing else changes";
    }
}

void report_deadlock() {
    Device& d = *g_dev;
    std::vector<NoteRec> notes;
    const Fiber* first = nullptr;
    const Fiber* overshoot = nullptr;
    for (const Fiber* f : d.fibers) {
        if (f->done) continue;
        if (first == nullptr) first = f;
        if (f->wait == WaitKind::SemEq && *f->wait_sem > f->wait_value && overshoot == nullptr) overshoot = f;
        notes.push_back({fmt_str("%s blocked in %s: %s", where(f->core, f->slot).c_str(), f->wait_call,
                                 wait_state(*f).c_str()),
                         f->wait_loc, f->core, f->slot});
    }
    if (first == nullptr) return;
    if (overshoot != nullptr) {
        report_at(true, "E5502", overshoot->wait_loc, overshoot->core, overshoot->slot,
                  fmt_str("%s waits for the semaphore to equal %u, but it already holds %u and semaphores only count "
                          "up here: the wait can never be satisfied",
                          overshoot->wait_call, overshoot->wait_value, *overshoot->wait_sem),
                  "more increments arrived than the exact count waited for (e.g. several senders share one "
                  "semaphore); wait with noc_semaphore_wait_min, or give each counterpart its own semaphore",
                  notes);
        return;
    }
    report_at(true, "E5501",
              first->wait_loc, first->core, first->slot,
              fmt_str("deadlock: no kernel can make progress (%zu blocked)", notes.size()),
              "each note shows a blocked call and what it waits for; a wait that nothing will ever satisfy is "
              "usually a missing push/pop, an unbalanced semaphore count or a buffer too small for one block",
              notes);
}

}  // namespace

std::string cb_wait_state(WaitKind kind, int core, std::int32_t cb, std::uint32_t pages) {
    const CircularBuffer& b = g_dev->cores[core].cbs[cb];
    if (kind == WaitKind::CbReserve)
        return fmt_str("it waits for %u free pages of CB %d; %u of its %u pages are free", pages, cb,
                       b.num_pages - b.occupied(), b.num_pages);
    return fmt_str("it waits for %u pages in CB %d; %u have been pushed and not popped", pages, cb, b.occupied());
}

bool wait_satisfied(const Fiber& f) {
    Device& d = *g_dev;
    switch (f.wait) {
        case WaitKind::None: return true;
        case WaitKind::CbReserve: {
            const CircularBuffer& cb = d.cores[f.core].cbs[f.wait_cb];
            return cb.num_pages - cb.occupied() >= f.wait_value;
        }
        case WaitKind::CbWait: return d.cores[f.core].cbs[f.wait_cb].occupied() >= f.wait_value;
        case WaitKind::SemEq: return *f.wait_sem == f.wait_value;
        case WaitKind::SemGe: return *f.wait_sem >= f.wait_value;
        case WaitKind::Poll: return true;
    }
    return true;
}

void block(WaitKind kind, const char* call, Loc loc) {
    Fiber& f = cur();
    f.wait = kind;
    f.wait_call = call;
    f.wait_loc = loc;
    swapcontext(&f.ctx, &g_dev->scheduler_ctx);
}

void yield_now(const char* call, Loc loc) {
    Fiber& f = cur();
    f.wait = WaitKind::Poll;  // ready at once: only gives the other fibers a turn
    f.wait_call = call;
    f.wait_loc = loc;
    swapcontext(&f.ctx, &g_dev->scheduler_ctx);
}

void note_progress() { g_progress = true; }

void run_all() {
    Device& d = *g_dev;
    CrashGuard guard;
    for (Fiber* f : d.fibers) start(*f);
    int idle_passes = 0;
    while (!d.aborted) {
        bool any_left = false, ran = false;
        g_progress = false;
        bool only_polls = true;
        for (Fiber* f : d.fibers) {
            if (f->done) continue;
            any_left = true;
            if (!wait_satisfied(*f)) continue;
            bool polling = f->wait == WaitKind::Poll;
            f->wait = WaitKind::None;
            d.current = f;
            ++d.switches;
            swapcontext(&d.scheduler_ctx, &f->ctx);
            d.current = nullptr;
            ran = true;
            if (!(polling && f->wait == WaitKind::Poll)) only_polls = false;
            if (d.aborted) break;
        }
        if (!any_left || d.aborted) break;
        if (!ran) {
            report_deadlock();
            break;
        }
        idle_passes = (only_polls && !g_progress) ? idle_passes + 1 : 0;
        if (idle_passes > kMaxIdlePasses) {
            report_deadlock();
            break;
        }
    }
}

}  // namespace tc
