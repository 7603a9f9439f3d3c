// The three TRISC fibers of one core (fibers.cpp): how code running on the machine blocks, polls
// and fails, and how the runner runs a core's three kernels.
//
// Each TRISC runs on its own ucontext fiber; a scheduler resumes them in a fixed round-robin
// order (UNPACK, MATH, PACK), so a run is deterministic. A thread blocks in Machine::wait_for
// (an instruction waiting on dvalid, a semaphore, a mutex) or yields once per poll of a register
// another thread changes (a semaphore read, an empty mailbox). When no thread can make progress
// the run ends with a report naming each thread's wait and its last instruction; a hard error
// (Machine::fail) or a crash inside kernel code ends it with that message. No exception ever
// crosses a fiber boundary.
#pragma once

#include <functional>
#include <string>

#include "machine.h"

namespace tc_tensix {

// Whether the caller runs on a TRISC fiber (false in the synchronous unit-test build).
bool on_fiber();
// The TRISC (thread id) and machine of the running fiber; only valid when on_fiber().
int fiber_thread();
Machine& fiber_machine();

// Block the running fiber until w.ready() (Machine::wait_for on a fiber).
void fiber_block(const Wait& w);
// A RISC poll of state only other threads change: yield once, remembered as `what` in reports.
void fiber_poll(const std::string& what);
// Let the other threads run before this one continues: after a RISC-side write another thread may
// be waiting for (a mailbox push, a semaphore post), so the receiver acts on it at once, as
// concurrent RISCs do, rather than after the writer has run on.
void fiber_yield();
// End the run with `message` (Machine::fail on a fiber).
[[noreturn]] void fiber_fail(const std::string& message);

// How a run is embedded in a host's own fiber scheduler (the kernel emulator's, where the core's
// data-movement kernels fill the CBs whose counters the TRISCs poll). A round in which every live
// TRISC only polled and nothing changed calls `idle`, which lets the host's other fibers run and
// returns; `report` (valid during that call) describes each TRISC's wait for the host's deadlock
// report. An embedded run leaves crashes, livelocks and time limits to the host.
struct RunHost {
    std::function<void(const std::function<std::string()>& report)> idle;
};

// Runs body(thread) for the three TRISCs of `m` on fibers until all return, one fails, they
// deadlock or `timeout_s` passes. Returns "" on success, else the report. With `host`, the run is
// embedded (RunHost above) and `timeout_s` is not used.
std::string run_triscs(Machine& m, const std::function<void(int thread)>& body, double timeout_s,
                       const RunHost* host = nullptr);

}  // namespace tc_tensix
