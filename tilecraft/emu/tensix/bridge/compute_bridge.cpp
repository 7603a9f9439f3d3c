// The compute bridge: a ttnn compute kernel runs on the Tensix machine while the core's
// data-movement kernels run on the kernel emulator's runtime (runtime/), sharing the core's L1 and
// its circular buffers.
//
// * Kernel: the three TRISC objects of one compute kernel (tensix_compute.py builds them) become
//   one emulator kernel whose entry, on the core's compute fiber, runs the core's Tensix machine:
//   the three TRISCs on the machine's own fibers (tensix/fibers.cpp), nested in the emulator's.
// * L1: the machine's L1 is the emulator's L1 of that core (Device::l1_host), so CB pages the
//   readers write are what the unpackers read, and packed tiles are what the writers send.
// * CB counters: on the device the pages pushed (tiles_received) and popped (tiles_acked) of each
//   CB are stream registers (stream_io_map.h) that the TRISCs read and update with STOREREG and the
//   data-movement RISCs read and write too. Here they are the emulator's CircularBuffer::received
//   and ::acked of the core (16-bit counters, as in hardware: CircularBuffer::occupied wraps).
// * Scheduling: a TRISC reading a counter polls; when every TRISC only polls and nothing changed,
//   the machine's scheduler hands the turn back to the emulator's (yield_now), so the readers and
//   writers run. A deadlock across both is the emulator's report, with each TRISC's wait.
// * Trace and sanitizer: the compute API calls tensix_call_events.py lists report themselves from
//   each TRISC with their caller's place (compute_event_hook). The MATH TRISC's, the kernel's
//   sequence, become the emulator's trace events and run its sanitizer's checks
//   (runtime/machine_calls.cpp); an error finding ends the machine's run as it ends any fiber
//   (unless the run records findings and goes on). Each TRISC's latest call is the call it waits
//   in: a TRISC blocked in cb_wait_front/cb_reserve_back is reported at that line, in the words
//   of a data-movement RISC's wait, when the emulator looks for a deadlock.
#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "../fibers.h"
#include "../host_window.h"
#include "../kernel_include/tc_compute_launch.h"
#include "../kernel_include/tc_tensix_kernel.h"
#include "../machine.h"
#include "compute.h"
#include "device.h"
#include "noc/noc_overlay_parameters.h"
#include "trace.h"

namespace {

using TriscMain = void (*)(const tc_tensix::ComputeLaunch*);

// stream_io_map.h / noc_overlay_parameters.h of the bridge's architecture: stream s's registers
// start at NOC_OVERLAY_START_ADDR + s * NOC_STREAM_REG_SPACE_SIZE; operand (CB) i is stream i; a
// CB's pages popped are its stream's STREAM_REMOTE_DEST_BUF_START register, its pages pushed the
// STREAM_REMOTE_DEST_BUF_SIZE one (registers 3 and 4 on Wormhole B0, 8 and 10 on Blackhole).
constexpr std::uintptr_t kOverlayStart = NOC_OVERLAY_START_ADDR, kStreamSpace = NOC_STREAM_REG_SPACE_SIZE;
constexpr std::uintptr_t kTilesAckedReg = STREAM_REMOTE_DEST_BUF_START_REG_INDEX;
constexpr std::uintptr_t kTilesReceivedReg = STREAM_REMOTE_DEST_BUF_SIZE_REG_INDEX;

// A TRISC's latest compute API call: the call it is in.
struct ApiCall {
    tc::Ev kind{};
    const char* name = nullptr;
    std::uint32_t cb = 0, pages = 0;
    std::source_location site;
};

// The emulator core a machine belongs to, while its kernel runs.
struct CoreLink {
    tc::Device* device;
    int core;
    std::uint64_t progress_seen = 0;
    ApiCall calls[3] = {};
    // per TRISC and CB, the pages its calls pushed and popped: the MATH TRISC's calls are the
    // kernel's sequence, the PACK TRISC pushes and the UNPACK TRISC pops
    std::uint32_t pushed[3][tc_tensix::kLaunchCbs] = {}, popped[3][tc_tensix::kLaunchCbs] = {};
    bool sanitizer_stopped = false;  // an error finding of a call ended the run
};

// While the checks of a MATH TRISC's call run, the core's CB counters read as the kernel's
// sequence has them at that call (as if the calls ran one after another): the PACK
// TRISC's pushes and the UNPACK TRISC's pops may lag behind the MATH TRISC's calls or run ahead of
// them. No other fiber runs meanwhile, so nothing else sees the shift.
class SequenceView {
  public:
    explicit SequenceView(CoreLink& link) : link_(link) { shift(+1); }
    ~SequenceView() { shift(-1); }
    SequenceView(const SequenceView&) = delete;
    SequenceView& operator=(const SequenceView&) = delete;

  private:
    void shift(int sign) {
        std::vector<tc::CircularBuffer>& cbs = link_.device->cores[link_.core].cbs;
        for (std::size_t i = 0; i < cbs.size() && i < std::size_t(tc_tensix::kLaunchCbs); ++i) {
            cbs[i].received += std::uint32_t(sign) * (link_.pushed[tc_tensix::kMath][i] - link_.pushed[tc_tensix::kPack][i]);
            cbs[i].acked += std::uint32_t(sign) * (link_.popped[tc_tensix::kMath][i] - link_.popped[tc_tensix::kUnpack][i]);
        }
    }
    CoreLink& link_;
};
std::map<const tc_tensix::Machine*, CoreLink> g_links;

tc_tensix::HostAddress stream_register(tc_tensix::Machine& m, int, std::uintptr_t addr, std::size_t bytes) {
    if (addr < kOverlayStart || addr >= kOverlayStart + 64 * kStreamSpace || bytes > 4) return {};
    const auto link = g_links.find(&m);
    if (link == g_links.end()) return {};
    const std::uintptr_t cb_index = (addr - kOverlayStart) / kStreamSpace, reg = (addr % kStreamSpace) / 4;
    if (addr % 4 != 0 || (reg != kTilesAckedReg && reg != kTilesReceivedReg)) return {};
    tc::Core& core = link->second.device->cores[link->second.core];
    if (cb_index >= core.cbs.size()) return {};
    tc::CircularBuffer& cb = core.cbs[cb_index];
    const bool received = reg == kTilesReceivedReg;
    return {received ? &cb.received : &cb.acked,
            "CB " + std::to_string(cb_index) + "'s " + (received ? "tiles_received" : "tiles_acked") + " (" +
                std::to_string(std::uint16_t(cb.received)) + " pages pushed, " +
                std::to_string(std::uint16_t(cb.acked)) + " popped)"};
}

tc_tensix::ComputeLaunch launch_of(tc::Device& d, int core_index) {
    tc::Core& core = d.cores[core_index];
    tc_tensix::ComputeLaunch launch;
    const std::uint32_t args = d.arch.args_base + std::uint32_t(tc::TRISC) * 0x2000;  // tc_add_fiber's layout
    launch.rta = reinterpret_cast<std::uint32_t*>(d.l1_host(core_index, args));
    launch.crta = reinterpret_cast<std::uint32_t*>(d.l1_host(core_index, args + 0x1000));
    for (std::size_t i = 0; i < core.cbs.size() && i < std::size_t(tc_tensix::kLaunchCbs); ++i) {
        const tc::CircularBuffer& cb = core.cbs[i];
        if (!cb.configured) continue;
        launch.cb_mask |= std::uint64_t(1) << i;
        std::uint32_t* word = launch.cb_config[i];
        word[0] = cb.addr;
        word[1] = cb.size;
        word[2] = cb.num_pages;
        word[3] = cb.page_size;
    }
    launch.logical_x = std::uint8_t(core.lx);
    launch.logical_y = std::uint8_t(core.ly);
    return launch;
}

std::size_t error_findings(const tc::Device& d) {
    std::size_t n = 0;
    for (const tc::Finding& f : d.findings) n += f.error ? 1 : 0;
    return n;
}

// A compute API call of the kernel on TRISC `trisc` (compute_event_hook), on the core's compute
// fiber. The checks report without leaving the fiber (the machine's run must end by its own
// scheduler); an error then ends the run when the emulator stops at the first.
void compute_call(int trisc, int kind, const char* call, const std::uint32_t* values, const std::source_location& site) {
    CoreLink& link = g_links.at(&tc_tensix::fiber_machine());
    link.calls[trisc] = ApiCall{tc::Ev(kind), call, values[0], values[1], site};
    const auto count = [&] {  // the call's own pages, after its checks
        if (values[0] >= std::uint32_t(tc_tensix::kLaunchCbs)) return;
        if (tc::Ev(kind) == tc::Ev::CbPush) link.pushed[trisc][values[0]] += values[1];
        if (tc::Ev(kind) == tc::Ev::CbPop) link.popped[trisc][values[0]] += values[1];
    };
    if (trisc != tc_tensix::kMath) return count();
    tc::Device& d = *link.device;
    const bool fatal = d.sanitize_fatal;
    const std::size_t errors = error_findings(d);
    d.sanitize_fatal = false;
    {
        const SequenceView view(link);
        tc::machine_api_call(tc::Ev(kind), call, values, site);
    }
    d.sanitize_fatal = fatal;
    count();
    if (d.aborted || (fatal && error_findings(d) > errors)) {
        link.sanitizer_stopped = true;
        tc_tensix::fiber_fail(std::string("the sanitizer stopped the run at ") + call);
    }
}

// The TRISC blocked in a CB call (UNPACK in cb_wait_front, PACK in cb_reserve_back), if any: the
// compute kernel's wait, as the deadlock report names it.
const ApiCall* blocked_cb_call(const CoreLink& link) {
    const tc::Core& core = link.device->cores[link.core];
    for (const ApiCall& call : link.calls) {
        if (call.name == nullptr || call.cb >= core.cbs.size()) continue;
        const tc::CircularBuffer& cb = core.cbs[call.cb];
        if ((call.kind == tc::Ev::CbWait && cb.occupied() < call.pages) ||
            (call.kind == tc::Ev::CbReserve && cb.num_pages - cb.occupied() < call.pages))
            return &call;
    }
    return nullptr;
}

// The core's compute fiber: the Tensix machine runs the kernel's three TRISCs.
void run_on_machine() {
    tc::Device& d = *tc::g_dev;
    tc::Fiber& fiber = tc::cur();
    const tc::Kernel& kernel = *fiber.kernel;
    auto* machine = new tc_tensix::Machine();  // the architecture this bridge is built for (tensix_compute.py)
    machine->s.l1 = d.l1_host(fiber.core, 0);
    machine->s.l1_size = d.arch.l1_size;
    g_links[machine] = CoreLink{&d, fiber.core};
    const tc_tensix::ComputeLaunch launch = launch_of(d, fiber.core);
    std::string waits;  // the TRISCs' waits while the emulator's other fibers run
    tc_tensix::RunHost host;
    host.idle = [&](const std::function<std::string()>& report) {
        CoreLink& link = g_links[machine];
        if (machine->s.frontend.progress != link.progress_seen) tc::note_progress();  // counters moved
        link.progress_seen = machine->s.frontend.progress;
        if (const ApiCall* call = blocked_cb_call(link)) {
            const tc::WaitKind kind = call->kind == tc::Ev::CbWait ? tc::WaitKind::CbWait : tc::WaitKind::CbReserve;
            fiber.describe_poll = [&link, call, kind] {
                return tc::cb_wait_state(kind, link.core, std::int32_t(call->cb), call->pages);
            };
            tc::yield_now(call->kind == tc::Ev::CbWait ? "cb_wait_front" : "cb_reserve_back", call->site);
        } else {
            fiber.describe_poll = [&report, &kernel] {
                return "the TRISCs of " + kernel.name + " on the Tensix machine wait:" + report();
            };
            const ApiCall& last = link.calls[tc_tensix::kMath];
            tc::yield_now("the compute kernel (Tensix machine)", last.site);
        }
        fiber.describe_poll = nullptr;
    };
    const std::string error = tc_tensix::run_triscs(
        *machine, [&](int thread) { reinterpret_cast<TriscMain>(kernel.trisc_mains[thread])(&launch); }, 0, &host);
    const bool stopped = g_links[machine].sanitizer_stopped;
    const tc::Loc last_call = g_links[machine].calls[tc_tensix::kMath].site;  // the kernel's line
    g_links.erase(machine);
    delete machine;
    if (stopped) {  // the finding is reported; the run stops
        d.aborted = true;
        return;
    }
    if (!error.empty()) {
        tc::report_at(true, "E5871", last_call, fiber.core, fiber.slot,
                      "compute kernel " + kernel.name + " on the Tensix machine: " + error,
                      "the Tensix machine models the instructions the 0.81.1 LLK issues (docs/emulator.md section 10); "
                      "what it lacks is a tilecraft limitation: the kernel itself may be right");
        d.aborted = true;
    }
}

}  // namespace

extern "C" {

// Loads the three TRISC objects of a compute kernel as one emulator kernel (nullptr on failure;
// tc_last_error-style message in `error`).
// `fp32_dest_acc`, `dst_full_sync`: the kernel's DST mode (ComputeConfigDescriptor), for the DST checks;
// `unpack_to_dest_fp32`: its 64 CBs' UnpackToDestFp32 flags, for the unpack checks (E5411).
void* tc_load_tensix_kernel(void* handle, const char* unpack, const char* math, const char* pack, const char* name,
                            int fp32_dest_acc, int dst_full_sync, const std::uint8_t* unpack_to_dest_fp32, char* error,
                            int error_size) {
    tc_tensix::set_host_window(&stream_register);
    tc_tensix::compute_event_hook = &compute_call;
    auto* d = static_cast<tc::Device*>(handle);
    auto* k = new tc::Kernel();
    k->fp32_dest_acc = fp32_dest_acc != 0;
    k->dst_full_sync = dst_full_sync != 0;
    std::memcpy(k->unpack_to_dest_fp32, unpack_to_dest_fp32, sizeof k->unpack_to_dest_fp32);
    const char* paths[3] = {unpack, math, pack};
    for (int t = 0; t < 3; ++t) {
        k->trisc_libs[t] = dlopen(paths[t], RTLD_NOW | RTLD_LOCAL);
        if (k->trisc_libs[t] != nullptr) k->trisc_mains[t] = dlsym(k->trisc_libs[t], "tc_compute_trisc_main");
        if (k->trisc_mains[t] == nullptr) {
            std::snprintf(error, std::size_t(error_size), "%s", k->trisc_libs[t] ? "no tc_compute_trisc_main" : dlerror());
            for (void* lib : k->trisc_libs)
                if (lib != nullptr) dlclose(lib);
            delete k;
            return nullptr;
        }
    }
    k->entry = &run_on_machine;
    k->name = name;
    d->kernels.push_back(k);
    return k;
}

}  // extern "C"
