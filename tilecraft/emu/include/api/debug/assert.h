// tilecraft kernel emulator: api/debug/assert.h of TT-Metalium 0.81.1, written from its documented
// behaviour. With the watcher on, a failed ASSERT hangs the RISC and the host reports the line;
// the emulator checks every ASSERT (as a watcher build would) and reports E5008 at the kernel line.
#pragma once

#include "tc_emu/runtime.h"

#define ASSERT(condition, ...) \
    (void(not(condition) ? (::tc::assert_failed(#condition, ::tc::Loc::current()), 0) : 0))
#define ASSERT_ENABLED 1
