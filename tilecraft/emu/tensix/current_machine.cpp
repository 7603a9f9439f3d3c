// Default binding of the current machine/thread (current_machine.h): one per host thread.
#include "current_machine.h"

#include <stdexcept>

#include "machine.h"

namespace tc_tensix {

namespace {
thread_local Machine* bound_machine = nullptr;
thread_local int bound_thread = kMath;
}  // namespace

Machine& current_machine() {
    if (bound_machine == nullptr)
        throw std::logic_error("tensix: device-side code (sfpi, instruction issue) ran with no Machine bound to this thread");
    return *bound_machine;
}

int current_thread() { return bound_thread; }

CurrentMachineScope::CurrentMachineScope(Machine& m, int thread) : saved_machine_(bound_machine), saved_thread_(bound_thread) {
    bound_machine = &m;
    bound_thread = thread;
}

CurrentMachineScope::~CurrentMachineScope() {
    bound_machine = saved_machine_;
    bound_thread = saved_thread_;
}

}  // namespace tc_tensix
