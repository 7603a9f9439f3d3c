// The profiling trace: every kernel API call a RISC makes, with its kernel source line, recorded
// only when the host asked for it (tilecraft profile). tilecraft.perf.kernel replays the trace
// through the kernel-level cost model; the field meanings per kind are listed in
// tilecraft/emu/trace.py, the Python side of this record.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "tc_emu/runtime.h"

namespace tc {

enum class Ev : std::uint8_t {
    // data movement
    CbReserve = 1, CbPush, CbWait, CbPop, NocRead, NocWrite, NocMcast, NocBarrier, SemWait, SemSet, SemRemote,
    SemMcast, Poll,
    // compute
    HwStartup = 20, Init, Reconfig, Acquire, Commit, RegsWait, Release, Copy, Binary, UnaryBcast, ReuseDest,
    Matmul, Reduce, Transpose, Tilize, Untilize, Pack, SfpuUnary, SfpuBinary, SfpuTernary, Typecast, SfpuInit,
    CopyDest,
};

// 40 bytes, laid out for numpy (tilecraft/emu/trace.py: EVENT_DTYPE)
struct TraceEvent {
    std::uint16_t core;
    std::uint8_t slot;
    std::uint8_t kind;
    std::uint32_t file, line;
    std::uint32_t a, b, c, d;
    std::uint32_t pad;
    std::int64_t ref;  // SemWait: the event that last wrote the semaphore word before the wait passed (-1: none)
};
static_assert(sizeof(TraceEvent) == 40, "TraceEvent layout is shared with Python");

struct Trace {
    bool on = false;
    std::vector<TraceEvent> events;
    std::vector<std::string> files;
    std::unordered_map<const char*, std::uint32_t> file_ids;  // kernel objects stay loaded for the run
    std::unordered_map<std::uint64_t, std::int64_t> last_writer;  // (core << 32 | L1 offset) -> event
};

// Appends one event of the current fiber (its index is the event's id).
std::int64_t trace_record(Ev kind, std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d, Loc loc,
                          std::int64_t ref = -1);
// The same at an explicit file and line (a kernel whose calls report their own call site: the
// Tensix machine's compute bridge).
std::int64_t trace_record_at(Ev kind, std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d,
                             const char* file, std::uint32_t line, std::int64_t ref = -1);
// The event that released the SemWait event `id` (recorded when its wait began, on the real
// dataflow API, whose wait ends inside Tenstorrent's polling loop).
void trace_set_ref(std::int64_t id, std::int64_t ref);
// A semaphore word (core, L1 offset) was written by the event `id`.
void trace_wrote(int core, std::uint32_t offset, std::int64_t id);
std::int64_t trace_last_writer(int core, std::uint32_t offset);
// Page size of a CB of the current core (0 when it is not configured): the bytes one tile moves.
std::uint32_t trace_page_bytes(std::uint32_t cb);
bool tracing();

}  // namespace tc

#define TC_TRACE(...)                                        \
    do {                                                     \
        if (::tc::tracing()) ::tc::trace_record(__VA_ARGS__); \
    } while (0)
