// Which Tensix machine and TRISC thread the code running now belongs to.
//
// Host code that stands in for device-side layers (our sfpi.h, instruction issue) has no
// "self" to ask: on the device the RISC-V core *is* the thread. On a TRISC fiber (fibers.h) the
// fiber's machine and thread are current; elsewhere (synchronous unit tests) the ones a
// `CurrentMachineScope` bound on this host thread.
#pragma once

namespace tc_tensix {

class Machine;

// The machine the calling code runs on; a hard error (std::logic_error) when none is bound.
__attribute__((visibility("default"))) Machine& current_machine();
// The TRISC thread id (Thread enum in machine.h) the calling code runs as.
__attribute__((visibility("default"))) int current_thread();

// Binds `m` and `thread` as current for the lifetime of the scope (nests; restores on exit).
class CurrentMachineScope {
public:
    CurrentMachineScope(Machine& m, int thread);
    ~CurrentMachineScope();
    CurrentMachineScope(const CurrentMachineScope&) = delete;
    CurrentMachineScope& operator=(const CurrentMachineScope&) = delete;

private:
    Machine* saved_machine_;
    int saved_thread_;
};

}  // namespace tc_tensix
