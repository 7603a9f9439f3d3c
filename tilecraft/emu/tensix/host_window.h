// Device addresses that a host embedding the machine backs itself.
//
// When the kernel emulator runs a ttnn compute kernel on the machine (compute_bridge/), the core's
// circular-buffer counters are stream registers that its data-movement kernels (running on the
// emulator's own fibers) and the TRISCs share: the emulator owns them, so it resolves their
// addresses. A RISC read of such a register is a poll of state other fibers change; the reading
// TRISC yields before it reads (mmio.cpp), as it does for a semaphore.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tc_tensix {

class Machine;

struct HostAddress {
    volatile void* ptr = nullptr;  // nullptr: not an address of the host's
    std::string polls;             // what a RISC read of it polls, for reports ("" when not a poll)
};
using HostWindow = HostAddress (*)(Machine& m, int thread, std::uintptr_t addr, std::size_t bytes);

// Installs the host's resolver (nullptr removes it); one per process, consulted after the machine's own map.
void set_host_window(HostWindow window);
// The host's backing for `addr`, if it has one.
HostAddress host_address(Machine& m, int thread, std::uintptr_t addr, std::size_t bytes);

}  // namespace tc_tensix
