// The current machine/thread (current_machine.h): the running TRISC fiber's (fibers.h), else the
// one a CurrentMachineScope bound on this host thread.
#include "current_machine.h"

#include <stdexcept>

#include "fibers.h"
#include "machine.h"

namespace tc_tensix {

namespace {
thread_local Machine* bound_machine = nullptr;
thread_local int bound_thread = kMath;
}  // namespace

Machine& current_machine() {
    if (on_fiber()) return fiber_machine();
    if (bound_machine == nullptr)
        throw std::logic_error("tensix: device-side code (sfpi, instruction issue) ran with no Machine bound to this thread");
    return *bound_machine;
}

int current_thread() { return on_fiber() ? fiber_thread() : bound_thread; }

CurrentMachineScope::CurrentMachineScope(Machine& m, int thread) : saved_machine_(bound_machine), saved_thread_(bound_thread) {
    bound_machine = &m;
    bound_thread = thread;
}

CurrentMachineScope::~CurrentMachineScope() {
    bound_machine = saved_machine_;
    bound_thread = saved_thread_;
}

}  // namespace tc_tensix
