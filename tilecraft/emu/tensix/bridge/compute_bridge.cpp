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
// * Trace: the compute API calls tensix_call_events.py lists report themselves from the MATH TRISC
//   with their caller's file:line (compute_event_hook); they become the emulator's trace events
//   with the arguments its own engine records (CB indices as page bytes where it records those).
#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <string>

#include "../fibers.h"
#include "../host_window.h"
#include "../kernel_include/tc_compute_launch.h"
#include "../kernel_include/tc_tensix_kernel.h"
#include "../machine.h"
#include "device.h"
#include "trace.h"

namespace {

using TriscMain = void (*)(const tc_tensix::ComputeLaunch*);

// stream_io_map.h / noc_overlay_parameters.h (Wormhole B0 and Blackhole): stream s's registers
// start at NOC_OVERLAY_START_ADDR + s * NOC_STREAM_REG_SPACE_SIZE; operand (CB) i is stream i.
constexpr std::uintptr_t kOverlayStart = 0xFFB40000u, kStreamSpace = 0x1000u;
constexpr std::uintptr_t kTilesAckedReg = 3, kTilesReceivedReg = 4;  // STREAM_REMOTE_DEST_BUF_START/SIZE

// The emulator core a machine belongs to, while its kernel runs.
struct CoreLink {
    tc::Device* device;
    int core;
    std::uint64_t progress_seen = 0;
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

// A compute API call of the kernel running on the core's compute fiber (compute_event_hook).
void record_compute_event(int kind, std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d,
                          const char* file, unsigned line) {
    if (!tc::tracing()) return;
    using tc::Ev;
    const Ev ev = Ev(kind);
    switch (ev) {  // the CB arguments the emulator's engine records as the bytes of one page
        case Ev::UnaryBcast:
        case Ev::Copy: case Ev::Pack: a = tc::trace_page_bytes(a); break;
        case Ev::Binary: case Ev::Matmul: case Ev::Reduce:
            a = tc::trace_page_bytes(a);
            b = tc::trace_page_bytes(b);
            break;
        case Ev::Tilize: case Ev::Untilize:
            a = tc::trace_page_bytes(a);
            c = tc::trace_page_bytes(c);
            break;
        default: break;
    }
    tc::trace_record_at(ev, a, b, c, d, file, line);
}

// The core's compute fiber: the Tensix machine runs the kernel's three TRISCs.
void run_on_machine() {
    tc::Device& d = *tc::g_dev;
    tc::Fiber& fiber = tc::cur();
    const tc::Kernel& kernel = *fiber.kernel;
    auto* machine = new tc_tensix::Machine(tc_tensix::Arch::WormholeB0);  // tensix_compute.py refuses others
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
        fiber.describe_poll = [&report, &kernel] {
            return "the TRISCs of " + kernel.name + " on the Tensix machine wait:" + report();
        };
        tc::yield_now("the compute kernel (Tensix machine)");
        fiber.describe_poll = nullptr;
    };
    const std::string error = tc_tensix::run_triscs(
        *machine, [&](int thread) { reinterpret_cast<TriscMain>(kernel.trisc_mains[thread])(&launch); }, 0, &host);
    g_links.erase(machine);
    delete machine;
    if (!error.empty()) {
        tc::report_at(true, "E5871", tc::Loc(), fiber.core, fiber.slot,
                      "compute kernel " + kernel.name + " on the Tensix machine: " + error,
                      "the Tensix machine models the instructions the 0.81.1 LLK issues (docs/emulator.md section 10); "
                      "run the kernel on the emulator's own compute engine (TILECRAFT_COMPUTE=emulator) meanwhile");
        d.aborted = true;
    }
}

}  // namespace

extern "C" {

// Loads the three TRISC objects of a compute kernel as one emulator kernel (nullptr on failure;
// tc_last_error-style message in `error`).
void* tc_load_tensix_kernel(void* handle, const char* unpack, const char* math, const char* pack, const char* name,
                            char* error, int error_size) {
    tc_tensix::set_host_window(&stream_register);
    tc_tensix::compute_event_hook = &record_compute_event;
    auto* d = static_cast<tc::Device*>(handle);
    auto* k = new tc::Kernel();
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
