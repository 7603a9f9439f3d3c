// The profiling trace (see trace.h): recorded only while Device::trace.on is set.
#include "trace.h"

#include <cstring>

#include "device.h"

namespace tc {

bool tracing() { return g_dev != nullptr && g_dev->trace.on; }

std::int64_t trace_record(Ev kind, std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d, Loc loc,
                          std::int64_t ref) {
    return trace_record_at(kind, a, b, c, d, loc.file_name(), loc.line(), ref);
}

std::int64_t trace_record_at(Ev kind, std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d,
                             const char* file, std::uint32_t line, std::int64_t ref) {
    Trace& t = g_dev->trace;
    auto found = t.file_ids.find(file);
    std::uint32_t id;
    if (found == t.file_ids.end()) {
        id = std::uint32_t(t.files.size());
        t.files.emplace_back(file ? file : "");
        t.file_ids.emplace(file, id);
    } else {
        id = found->second;
    }
    const Fiber& f = cur();
    t.events.push_back({std::uint16_t(f.core), std::uint8_t(f.slot), std::uint8_t(kind), id, line, a, b, c, d,
                        0, ref});
    return std::int64_t(t.events.size()) - 1;
}

void trace_set_ref(std::int64_t id, std::int64_t ref) { g_dev->trace.events[std::size_t(id)].ref = ref; }

void trace_wrote(int core, std::uint32_t offset, std::int64_t id) {
    g_dev->trace.last_writer[(std::uint64_t(core) << 32) | offset] = id;
}

std::int64_t trace_last_writer(int core, std::uint32_t offset) {
    const auto& m = g_dev->trace.last_writer;
    auto found = m.find((std::uint64_t(core) << 32) | offset);
    return found == m.end() ? -1 : found->second;
}

std::uint32_t trace_page_bytes(std::uint32_t cb) {
    const Core& c = cur_core();
    return cb < c.cbs.size() && c.cbs[cb].configured ? c.cbs[cb].page_size : 0;
}

}  // namespace tc

using namespace tc;

extern "C" {

void tc_trace_enable(void* handle, int on) { static_cast<Device*>(handle)->trace.on = on != 0; }

std::uint64_t tc_trace_size(void* handle) { return static_cast<Device*>(handle)->trace.events.size(); }

void tc_trace_copy(void* handle, void* out) {
    const Trace& t = static_cast<Device*>(handle)->trace;
    if (!t.events.empty()) std::memcpy(out, t.events.data(), t.events.size() * sizeof(TraceEvent));
}

// the kernel source files the events name, one per line, in id order
const char* tc_trace_files(void* handle) {
    static std::string joined;
    joined.clear();
    for (const std::string& f : static_cast<Device*>(handle)->trace.files) joined += f + "\n";
    return joined.c_str();
}

}  // extern "C"
