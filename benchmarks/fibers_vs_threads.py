"""Why the kernel emulator runs kernels on fibers, not threads: the cost of one hand-off.

Every blocking Metalium call that has to wait (a cb_wait_front on an empty CB, a semaphore wait)
hands the host CPU to another kernel. This measures one hand-off between two kernels that take
turns, the emulator's common case (producer/consumer over a CB):

* fibers: ``swapcontext`` between two ucontext fibers on one thread (the runtime's scheduler);
* threads: two OS threads taking turns through a mutex and a condition variable (what a
  thread-per-(core, RISC) emulator would do at every CB hand-off).

Beyond speed, fibers keep a run deterministic (one fixed schedule) and let the runtime see that
every kernel is blocked (a deadlock report instead of a hang) without locks on the emulated state.

    python benchmarks/fibers_vs_threads.py [--handoffs 200000]
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
from pathlib import Path

from tilecraft.emu.toolchain import compiler

PROGRAM = r"""
#include <ucontext.h>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

static ucontext_t main_ctx, a_ctx, b_ctx;
static long turns;

static void fiber_a() { for (long i = 0; i < turns; ++i) swapcontext(&a_ctx, &b_ctx); swapcontext(&a_ctx, &main_ctx); }
static void fiber_b() { for (;;) swapcontext(&b_ctx, &a_ctx); }

int main(int argc, char** argv) {
    turns = std::atol(argv[1]);
    static char sa[1 << 16], sb[1 << 16];
    getcontext(&a_ctx); a_ctx.uc_stack.ss_sp = sa; a_ctx.uc_stack.ss_size = sizeof sa; makecontext(&a_ctx, fiber_a, 0);
    getcontext(&b_ctx); b_ctx.uc_stack.ss_sp = sb; b_ctx.uc_stack.ss_size = sizeof sb; makecontext(&b_ctx, fiber_b, 0);
    auto t0 = std::chrono::steady_clock::now();
    swapcontext(&main_ctx, &a_ctx);
    auto t1 = std::chrono::steady_clock::now();
    double fiber_ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / (2.0 * turns);

    std::mutex m; std::condition_variable cv; int owner = 0;
    auto player = [&](int me) {
        for (long i = 0; i < turns; ++i) {
            std::unique_lock<std::mutex> lock(m);
            cv.wait(lock, [&] { return owner == me; });
            owner = 1 - me;
            cv.notify_all();
        }
    };
    t0 = std::chrono::steady_clock::now();
    std::thread x(player, 0), y(player, 1);
    x.join(); y.join();
    t1 = std::chrono::steady_clock::now();
    double thread_ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / (2.0 * turns);
    std::printf("%.1f %.1f\n", fiber_ns, thread_ns);
}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--handoffs", type=int, default=200000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = Path(tmp) / "handoff.cpp", Path(tmp) / "handoff"
        src.write_text(PROGRAM)
        subprocess.run([compiler().path, "-std=c++20", "-O2", "-pthread", str(src), "-o", str(exe)], check=True)
        runs = [subprocess.run([str(exe), str(args.handoffs)], capture_output=True, text=True, check=True).stdout
                for _ in range(5)]
    fiber = sorted(float(r.split()[0]) for r in runs)[2]
    thread = sorted(float(r.split()[1]) for r in runs)[2]
    print(f"one hand-off between two kernels (median of 5 runs, {args.handoffs} hand-offs each):")
    print(f"  fibers (swapcontext):                 {fiber:8.1f} ns")
    print(f"  threads (mutex + condition variable): {thread:8.1f} ns   ({thread / fiber:.1f}x)")


if __name__ == "__main__":
    main()
