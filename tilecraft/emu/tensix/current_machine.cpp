// Default binding of the current machine/thread (current_machine.h): the running TRISC fiber's
// when the fiber layer (fibers.cpp) is linked and the caller is on a fiber, else the one a
// CurrentMachineScope bound on this host thread.
#include "current_machine.h"

#include <stdexcept>

#include "machine.h"

namespace tc_tensix {

// The fiber layer's accessors (fibers.h), referenced weakly so that this file links with or
// without it: unresolved, their addresses are null.
__attribute__((weak)) bool on_fiber();
__attribute__((weak)) int fiber_thread();
__attribute__((weak)) Machine& fiber_machine();

namespace {
thread_local Machine* bound_machine = nullptr;
thread_local int bound_thread = kMath;

bool fiber_bound() { return &on_fiber != nullptr && on_fiber(); }
}  // namespace

Machine& current_machine() {
    if (fiber_bound()) return fiber_machine();
    if (bound_machine == nullptr)
        throw std::logic_error("tensix: device-side code (sfpi, instruction issue) ran with no Machine bound to this thread");
    return *bound_machine;
}

int current_thread() { return fiber_bound() ? fiber_thread() : bound_thread; }

CurrentMachineScope::CurrentMachineScope(Machine& m, int thread) : saved_machine_(bound_machine), saved_thread_(bound_thread) {
    bound_machine = &m;
    bound_thread = thread;
}

CurrentMachineScope::~CurrentMachineScope() {
    bound_machine = saved_machine_;
    bound_thread = saved_thread_;
}

}  // namespace tc_tensix
