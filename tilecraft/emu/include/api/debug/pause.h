// tilecraft kernel emulator: api/debug/pause.h of TT-Metalium 0.81.1. PAUSE() waits for the host
// to resume the core under the watcher; the emulator has no interactive host, so it is a no-op
// (as without the watcher).
#pragma once

#include "api/debug/waypoint.h"

#define PAUSE() \
    do {        \
    } while (0)
