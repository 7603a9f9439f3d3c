// tilecraft kernel emulator: api/debug/waypoint.h of TT-Metalium 0.81.1. Waypoints are the
// watcher's breadcrumbs for a hung core; the emulator's deadlock report names each blocked call's
// line instead, so WAYPOINT compiles to nothing (as without the watcher).
#pragma once

#define WAYPOINT(x)
