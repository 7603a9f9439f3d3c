// The compute API calls of a kernel running on the Tensix machine (TILECRAFT_COMPUTE=tensix), as
// the kernel emulator's trace and sanitizer see them.
//
// On the machine the compute API is Tenstorrent's: its calls issue the LLK's instructions, and the
// machine computes what the device would, mistakes included (a pack without tile_regs_wait packs
// whatever DST holds). The sanitizer's findings are about the API's protocol, so they are made
// here on the calls themselves: the machine tree makes each call report itself from the MATH
// TRISC, in the kernel's order, with its caller's line (tilecraft/emu/tensix_call_events.py), and
// each report runs the first engine's own checks (the CB counts, the tile indices read against the
// pages waited for and written against the pages reserved, the DST hand-over and capacity) on the
// core's CB and DST bookkeeping, which the first engine's kernels would keep in the same way. The
// TRISCs themselves wait on and move the shared CB counters (tensix/bridge/compute_bridge.cpp).
//
// Not checked on the machine: what needs the unpacker's, packer's and math's configuration as the
// first engine tracks it from the init and reconfig calls (E5401/E5402 formats, E5409 op without
// init, E5406, E5411, E5413): the init and reconfig calls reach the trace, but their configuration
// is not followed here yet.
#include <algorithm>

#include "compute.h"

namespace tc {

namespace {

// An SFPU event's absent DST operand (tensix_call_events.py: NO_DST).
constexpr std::uint32_t kNoDst = 0xFFFFFFFFu;

// The trace event of a call: values[0..3] as the first engine records them, a CB index as the
// bytes of one of its pages.
void trace(Ev kind, const std::uint32_t* v, Loc loc) {
    if (!tracing()) return;
    std::uint32_t a = v[0], b = v[1], c = v[2];
    switch (kind) {
        case Ev::Copy: case Ev::Pack: case Ev::Transpose: case Ev::UnaryBcast: a = trace_page_bytes(a); break;
        case Ev::Binary: case Ev::Matmul: case Ev::Reduce:
            a = trace_page_bytes(a);
            b = trace_page_bytes(b);
            break;
        case Ev::Tilize: case Ev::Untilize:
            a = trace_page_bytes(a);
            c = trace_page_bytes(c);
            break;
        default: break;
    }
    trace_record(kind, a, b, c, v[3], loc);
}

// The CBs of a call, each configured on this core (else E5209, and the run stops).
bool configured(std::initializer_list<std::uint32_t> cbs, const char* call, Loc loc) {
    for (std::uint32_t cb : cbs) {
        if (cb_found(std::int32_t(cb), call, loc) == nullptr) {
            g_dev->aborted = true;
            return false;
        }
    }
    return true;
}

// An unpack of tile `tile` of CB `cb` (configured).
void unpacked(std::uint32_t cb, std::uint32_t tile, const char* call, Loc loc) {
    require_started(call, loc);
    require_waited(cur_core().cbs[cb], cb, tile, call, loc);
}

}  // namespace

void machine_api_call(Ev kind, const char* call, const std::uint32_t* v, Loc loc) {
    cur().last_loc = loc;
    switch (kind) {  // the first engine's own functions, which record their trace events
        case Ev::CbReserve: case Ev::CbPush: case Ev::CbWait: case Ev::CbPop:
            cb_call_on_machine(kind, std::int32_t(v[0]), v[1], loc);
            return;
        case Ev::Acquire: regs_acquire(loc); return;
        case Ev::Commit: regs_commit(loc); return;
        case Ev::RegsWait: regs_wait(loc); return;
        case Ev::Release: regs_release(loc); return;
        case Ev::HwStartup:
            if (configured({v[0], v[1], v[2]}, call, loc)) hw_startup(v[0], v[1], v[2], loc);
            return;
        default: break;
    }
    trace(kind, v, loc);
    switch (kind) {
        case Ev::Copy: case Ev::Transpose: case Ev::UnaryBcast:  // (cb, -, -, -, tile, dst)
            if (!configured({v[0]}, call, loc)) return;
            unpacked(v[0], v[4], call, loc);
            dst_written(v[5], call, loc);
            break;
        case Ev::Binary: case Ev::Reduce:  // (cb a, cb b, -, -, tile a, tile b, dst)
            if (!configured({v[0], v[1]}, call, loc)) return;
            unpacked(v[0], v[4], call, loc);
            unpacked(v[1], v[5], call, loc);
            dst_written(v[6], call, loc);
            break;
        case Ev::Matmul: {  // (in0, in1, ct, rt, in0 tile, in1 tile, dst, kt): in0 row r, in1 column c
            if (!configured({v[0], v[1]}, call, loc)) return;
            for (std::uint32_t r = 0; r < v[3]; ++r) {
                unpacked(v[0], v[4] + r * v[7], call, loc);
                for (std::uint32_t c = 0; c < v[2]; ++c) {
                    unpacked(v[1], v[5] + c, call, loc);
                    dst_written(v[6] + r * v[2] + c, call, loc);
                }
            }
            break;
        }
        case Ev::Pack:  // (cb, -, -, -, dst, output tile index, out of order)
            if (!configured({v[0]}, call, loc)) return;
            pack_page(cur_core().cbs[v[0]], v[4], v[0], v[5], v[6] != 0, loc);
            break;
        case Ev::SfpuUnary: case Ev::SfpuBinary: case Ev::SfpuTernary:  // (op, -, -, -, dst, dst, dst)
            for (int i = 4; i < 7; ++i)
                if (v[i] != kNoDst) dst_written(v[i], call, loc);
            break;
        default: break;
    }
}

}  // namespace tc
