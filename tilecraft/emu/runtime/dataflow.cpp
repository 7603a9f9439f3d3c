// Data movement: kernel arguments, circular buffers, NoC transfers, semaphores.
//
// Transfers copy their bytes when they are issued; what the hardware leaves undefined until a
// barrier is checked instead: the sanitizer remembers every read and write not yet covered by a
// barrier and reports a cb_push_back of pages a read is still filling, or a cb_pop_front of
// pages a write is still sending. The NoC checks follow tt-metal's watcher NoC sanitizer
// (target coordinates, address ranges, alignment of the two ends, multicast rectangles) plus the
// circular-buffer and firmware-region rules of tt-metal's LLK asserts (see docs/emulator.md).
#include <algorithm>
#include <cstring>

#include "device.h"
#include "formats.h"

namespace tc {

namespace {

constexpr int kLocalBits = 36;
constexpr std::uint64_t kLocalMask = (std::uint64_t(1) << kLocalBits) - 1;
constexpr int kSemStride = 16;

std::uint32_t coord(std::uint64_t addr, int field) { return std::uint32_t((addr >> (kLocalBits + 6 * field)) & 0x3F); }

struct Target {
    bool dram = false;
    int index = -1;            // core or DRAM bank
    std::uint64_t local = 0;   // L1 offset or bank offset
};

std::string xy(std::uint32_t x, std::uint32_t y) { return fmt_str("(%u, %u)", x, y); }

// The L1 offset of a local address the current kernel passes (its own L1).
std::uint32_t local_offset(std::uint32_t addr, std::uint32_t size, bool write, const char* call, Loc loc) {
    Device& d = *g_dev;
    std::uint32_t off = 0;
    int owner = -1;
    bool inside = d.l1_offset(addr, off, &owner);
    if (owner >= 0 && owner != cur().core) {
        report(true, "E5302", loc,
               fmt_str("%s: local L1 address 0x%x belongs to core %s, not to this core %s", call, addr,
                       core_name(owner).c_str(), core_name(cur().core).c_str()),
               "an L1 address received from another core must go through get_noc_addr(x, y, addr)");
    }
    if (size == 0) report(true, "E5302", loc, fmt_str("%s: zero-length transfer", call));
    if (!inside || std::uint64_t(off) + size > d.arch.l1_size) {
        report(true, "E5302", loc,
               fmt_str("%s: local L1 range [0x%x, 0x%llx) runs past the end of L1 (0x%x bytes)", call, off,
                       (unsigned long long)(std::uint64_t(off) + size), d.arch.l1_size),
               "local addresses come from get_write_ptr/get_read_ptr/get_semaphore (plus offsets inside their "
               "buffers) or the host's buffer addresses");
        return 0;
    }
    if (write && off < d.arch.sem_base) {
        report(true, "E5307", loc,
               fmt_str("%s: writes L1 [0x%x, 0x%llx), inside the firmware/mailbox region below 0x%x", call, off,
                       (unsigned long long)(std::uint64_t(off) + size), d.arch.sem_base));
    }
    return off;
}

// A transfer touching a core's L1 must stay inside the circular buffer it starts in (watcher CB check).
void check_cb_bounds(int core, std::uint64_t off, std::uint32_t size, const char* call, Loc loc) {
    Core& c = g_dev->cores[core];
    for (std::size_t i = 0; i < c.cbs.size(); ++i) {
        const CircularBuffer& cb = c.cbs[i];
        if (!cb.configured || off < cb.addr || off >= cb.limit()) continue;
        if (off + size > cb.limit()) {
            report(true, "E5308", loc,
                   fmt_str("%s: the transfer [0x%llx, 0x%llx) on core %s runs past the end of CB %zu (which ends at "
                           "0x%x)",
                           call, (unsigned long long)off, (unsigned long long)(off + size), core_name(core).c_str(), i,
                           cb.limit()),
                   "a CB does not wrap inside a block: its size must be a multiple of the pages reserved at once");
        }
        return;
    }
}

bool resolve(std::uint64_t addr, Target& t, const char* call, Loc loc) {
    Device& d = *g_dev;
    std::uint32_t x = coord(addr, 0), y = coord(addr, 1);
    t.local = addr & kLocalMask;
    int core = d.core_index_at(x, y);
    if (core >= 0) {
        std::uint32_t off = 0;
        if (!d.l1_offset(t.local, off)) {
            report(true, "E5302", loc,
                   fmt_str("%s: NoC address targets L1 address 0x%llx of core %s, past the end of L1 (0x%x)", call,
                           (unsigned long long)t.local, core_name(core).c_str(), d.arch.l1_size));
            return false;
        }
        t.dram = false;
        t.index = core;
        t.local = off;
        return true;
    }
    int bank = d.dram_bank_at(x, y);
    if (bank >= 0) {
        t.dram = true;
        t.index = bank;
        return true;
    }
    report(true, "E5304", loc,
           fmt_str("%s: NoC address targets coordinates %s, which are neither a Tensix core of the grid nor a DRAM "
                   "bank",
                   call, xy(x, y).c_str()),
           "NoC coordinates come from the host (device.worker_core_from_logical_core) or get_noc_addr of a "
           "TensorAccessor; logical core coordinates are not NoC coordinates");
    return false;
}

// Bounds and alignment of the remote end; returns the host pointer of its first byte.
std::uint8_t* remote_bytes(const Target& t, std::uint32_t size, bool write, std::uint32_t local_l1,
                           const char* call, Loc loc) {
    Device& d = *g_dev;
    std::uint32_t align = 16;
    if (t.dram) {
        align = write ? 16 : d.arch.dram_alignment;
        DramBank& bank = d.dram[t.index];
        bool inside = false;
        for (Region& r : bank.regions) {
            if (t.local >= r.start && t.local + size <= r.end) {
                inside = true;
                r.written = r.written || write;
                break;
            }
        }
        if (!inside) {
            report(true, "E5303", loc,
                   fmt_str("%s: DRAM range [0x%llx, 0x%llx) of bank %d is outside every buffer the host allocated "
                           "there",
                           call, (unsigned long long)t.local, (unsigned long long)(t.local + size), t.index),
                   "check the page id against the tensor's page count and the page size against the tensor's");
            return nullptr;
        }
    } else {
        if (t.local + size > d.arch.l1_size) {
            report(true, "E5302", loc,
                   fmt_str("%s: L1 range [0x%llx, 0x%llx) of core %s runs past the end of L1 (0x%x)", call,
                           (unsigned long long)t.local, (unsigned long long)(t.local + size),
                           core_name(t.index).c_str(), d.arch.l1_size));
            return nullptr;
        }
        if (write && t.local < d.arch.sem_base) {
            report(true, "E5307", loc,
                   fmt_str("%s: writes L1 [0x%llx, 0x%llx) of core %s, inside the firmware/mailbox region below "
                           "0x%x",
                           call, (unsigned long long)t.local, (unsigned long long)(t.local + size),
                           core_name(t.index).c_str(), d.arch.sem_base));
        }
        check_cb_bounds(t.index, t.local, size, call, loc);
    }
    if ((t.local & (align - 1)) != (local_l1 & (align - 1))) {
        report(true, "E5301", loc,
               fmt_str("%s: misaligned transfer: the %s address 0x%llx and the local L1 address 0x%x differ modulo "
                       "%u bytes",
                       call, t.dram ? "DRAM" : "remote L1", (unsigned long long)t.local, local_l1, align),
               t.dram ? "DRAM reads need both ends aligned alike to the DRAM read alignment; use aligned page sizes"
                      : "L1-to-L1 transfers need both ends aligned alike to 16 bytes");
    }
    if (t.dram) return d.dram[t.index].mem + t.local;
    return d.l1_host(t.index, std::uint32_t(t.local));
}

void in_flight(std::vector<InFlight>& list, std::uint32_t start, std::uint32_t size, Loc loc) {
    list.push_back({start, start + size, loc});
}

const InFlight* overlapping(const std::vector<InFlight>& list, std::uint32_t start, std::uint32_t end) {
    for (const InFlight& t : list) {
        if (t.start < end && start < t.end) return &t;
    }
    return nullptr;
}

// Destinations of a multicast rectangle on one NoC: NOC 0 routes toward increasing coordinates,
// NOC 1 toward decreasing ones, both around the torus; the start corner is where the route begins.
struct Rect {
    std::vector<int> cores;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> others;  // coordinates that are not Tensix cores
    bool wraps = false;
    std::uint32_t x0, y0, x1, y1;  // physical corners (start x0, y0; end x1, y1)
    std::uint32_t kx0, ky0, kx1, ky1;  // the corners as the kernel gave them (for messages)
};

std::vector<std::uint32_t> route(std::uint32_t from, std::uint32_t to, std::uint32_t size, bool forward) {
    std::vector<std::uint32_t> out;
    std::uint32_t v = from % size;
    for (std::uint32_t i = 0; i < size; ++i) {
        out.push_back(v);
        if (v == to) break;
        v = forward ? (v + 1) % size : (v + size - 1) % size;
    }
    return out;
}

Rect multicast_rect(std::uint64_t addr, std::uint8_t noc) {
    Device& d = *g_dev;
    Rect r;
    r.kx1 = r.x1 = coord(addr, 0);
    r.ky1 = r.y1 = coord(addr, 1);
    r.kx0 = r.x0 = coord(addr, 2);
    r.ky0 = r.y0 = coord(addr, 3);
    d.to_physical(r.x0, r.y0);
    d.to_physical(r.x1, r.y1);
    bool forward = noc == 0;
    r.wraps = forward ? (r.x1 < r.x0 || r.y1 < r.y0) : (r.x1 > r.x0 || r.y1 > r.y0);
    for (std::uint32_t y : route(r.y0, r.y1, d.arch.noc_size_y, forward)) {
        for (std::uint32_t x : route(r.x0, r.x1, d.arch.noc_size_x, forward)) {
            int core = d.core_index_at(x, y);
            if (core >= 0) r.cores.push_back(core);
            else r.others.push_back({x, y});
        }
    }
    return r;
}

int d_core_at(std::uint32_t x, std::uint32_t y) { return g_dev->core_index_at(x, y); }

// Checks a multicast's rectangle and destination count; returns the cores it writes.
std::vector<int> multicast_targets(std::uint64_t addr, std::uint32_t num_dests, bool loopback, std::uint8_t noc,
                                   const char* call, Loc loc) {
    Rect r = multicast_rect(addr, noc);
    int self = cur().core;
    // As tt-metal's NoC sanitizer: both corners must be Tensix cores. Inside a rectangle that does not
    // wrap, coordinates that are not Tensix cores (Wormhole's DRAM column x=5 and Ethernet row y=6,
    // harvested rows) are passed over: a multicast to a whole worker row or grid is the usual pattern.
    int corner0 = d_core_at(r.x0, r.y0), corner1 = d_core_at(r.x1, r.y1);
    if (corner0 < 0 || corner1 < 0) {
        report(true, "E5305", loc,
               fmt_str("%s on NOC %u: the rectangle's corner %s is not a Tensix core of the grid", call, unsigned(noc),
                       corner0 < 0 ? xy(r.kx0, r.ky0).c_str() : xy(r.kx1, r.ky1).c_str()),
               "multicast rectangles run between two worker cores: get_noc_multicast_addr of "
               "worker_core_from_logical_core coordinates");
    } else if (r.wraps) {
        // the torus carries it (the watcher allows it), but round the far side: to cores outside the
        // rectangle the corners span, and not to those inside it
        std::uint32_t lo_x = std::min(r.x0, r.x1), hi_x = std::max(r.x0, r.x1);
        std::uint32_t lo_y = std::min(r.y0, r.y1), hi_y = std::max(r.y0, r.y1);
        std::size_t meant = 0;
        for (std::uint32_t y = lo_y; y <= hi_y; ++y)
            for (std::uint32_t x = lo_x; x <= hi_x; ++x) meant += d_core_at(x, y) >= 0;
        const char* order = noc == 0 ? "NOC 0 routes toward increasing coordinates: the start corner must be the "
                                       "smaller one"
                                     : "NOC 1 routes toward decreasing coordinates: the start corner must be the "
                                       "larger one";
        report(true, "E5305", loc,
               fmt_str("%s on NOC %u: the rectangle from %s to %s wraps around the NoC torus: it reaches %zu cores "
                       "round the far side of the chip instead of the %zu between its corners",
                       call, unsigned(noc), xy(r.kx0, r.ky0).c_str(), xy(r.kx1, r.ky1).c_str(), r.cores.size(), meant),
               fmt_str("%s (tt-metal swaps the corners for NOC 1: get_noc_multicast_addr(x_end, y_end, x_start, "
                       "y_start, addr))",
                       order));
    }
    std::vector<int> targets;
    for (int core : r.cores) {
        if (core != self || loopback) targets.push_back(core);
    }
    if (targets.size() != num_dests) {
        report(true, "E5306", loc,
               fmt_str("%s: num_dests is %u but the rectangle from %s to %s holds %zu destination cores%s", call,
                       num_dests, xy(r.kx0, r.ky0).c_str(), xy(r.kx1, r.ky1).c_str(), targets.size(),
                       loopback ? " (the sender included: loopback)" : " (the sender excluded)"),
               "num_dests counts the acknowledgements the NoC waits for: a wrong count hangs the write barrier or "
               "lets it pass before the data landed");
    }
    return targets;
}

}  // namespace

std::uint32_t multicast_destinations(std::uint64_t addr, bool loopback, std::uint8_t noc) {
    const Rect r = multicast_rect(addr, noc);
    std::uint32_t count = 0;
    for (int core : r.cores) count += core != cur().core || loopback;
    return count;
}

void multicast_checked(std::uint64_t addr, std::uint32_t num_dests, bool loopback, std::uint32_t noc, const char* call,
                       Loc loc) {
    multicast_targets(addr, num_dests, loopback, std::uint8_t(noc), call, loc);
}

namespace {

// The logical bounding rectangle of a multicast's destination cores, packed x0 | y0 << 8 | x1 << 16 | y1 << 24.
std::uint32_t target_rect(const std::vector<int>& targets) {
    std::uint32_t x0 = 255, y0 = 255, x1 = 0, y1 = 0;
    for (int core : targets) {
        const Core& c = g_dev->cores[core];
        x0 = std::min<std::uint32_t>(x0, c.lx);
        y0 = std::min<std::uint32_t>(y0, c.ly);
        x1 = std::max<std::uint32_t>(x1, c.lx);
        y1 = std::max<std::uint32_t>(y1, c.ly);
    }
    return targets.empty() ? 0 : x0 | (y0 << 8) | (x1 << 16) | (y1 << 24);
}

// A NoC transfer's trace event (NocRead, NocWrite, NocMcast; `remote` and `local` its two ends). On
// the real dataflow API one call issues a transfer larger than a NoC packet as consecutive packets:
// those are one event of the call's bytes, as the emulator's own API records the call.
void trace_transfer(Ev kind, std::uint32_t bytes, std::uint32_t b, std::uint32_t c, std::uint8_t noc,
                    std::uint64_t remote, std::uint32_t local, Loc loc) {
    if (!tracing()) return;
    Fiber& f = cur();
    Fiber::OpenTransfer& open = f.open_transfer;
    if (f.api_call != 0 && open.event >= 0 && open.call == f.api_call && open.remote == remote &&
        open.local == local) {
        TraceEvent& e = g_dev->trace.events[std::size_t(open.event)];
        if (e.kind == std::uint8_t(kind) && e.b == b && e.c == c && e.d == noc) {
            e.a += bytes;
            open.remote += bytes;
            open.local += bytes;
            return;
        }
    }
    open = {trace_record(kind, bytes, b, c, noc, loc), f.api_call, remote + bytes, local + bytes};
}

// A semaphore word another core's L1 holds was written over the NoC: the trace's SemRemote event.
void trace_remote_word(volatile std::uint32_t* w, std::uint8_t noc, Loc loc) {
    if (!tracing()) return;
    std::uint32_t off = 0;
    int owner = -1;
    g_dev->l1_offset(reinterpret_cast<std::uintptr_t>(w), off, &owner);
    trace_wrote(owner, off, trace_record(Ev::SemRemote, std::uint32_t(owner), 0, 0, noc, loc));
}

}  // namespace

// ---------------------------------------------------------------- arguments and identity
std::uint32_t* arg_pointer(std::uint32_t index, bool common, Loc loc) {
    Fiber& f = cur();
    f.last_loc = loc;
    const std::vector<std::uint32_t>& values = common ? f.common_args : f.args;
    if (index >= values.size()) {
        report(true, "E5103", loc,
               fmt_str("%s(%u): the kernel '%s' on core %s has %zu %sruntime args", common ? "get_common_arg_val" : "get_arg_val",
                       index, f.kernel->name.c_str(), core_name(f.core).c_str(), values.size(), common ? "common " : ""),
               common ? "set KernelDescriptor.common_runtime_args" : "set runtime_args[x][y] for this core");
        static std::uint32_t zero = 0;
        return &zero;
    }
    std::uint32_t base = g_dev->arch.args_base + std::uint32_t(f.slot) * 0x2000 + (common ? 0x1000 : 0);
    return reinterpret_cast<std::uint32_t*>(g_dev->l1_host(f.core, base)) + index;
}

std::uint32_t arg(std::uint32_t index, bool common, Loc loc) { return *arg_pointer(index, common, loc); }

std::uint8_t* my_noc_x() { return cur_core().my_x; }
std::uint8_t* my_noc_y() { return cur_core().my_y; }
std::uint8_t logical_x() { return std::uint8_t(cur_core().lx); }
std::uint8_t logical_y() { return std::uint8_t(cur_core().ly); }

// ---------------------------------------------------------------- circular buffers
// Refresh the RISC's LocalCBInterface view of `cb`, if the kernel asked for one.
static void sync_cb_view(int core, int slot, std::int32_t cb) {
    std::vector<CbInterface>& views = g_dev->cores[core].cb_views[slot];
    if (views.empty()) return;
    const CircularBuffer& b = g_dev->cores[core].cbs[cb];
    const std::uint32_t shift = slot == TRISC ? 4 : 0;  // CIRCULAR_BUFFER_COMPUTE_ADDR_SHIFT on TRISCs
    CbInterface& v = views[cb];
    v.fifo_size = b.size >> shift;
    v.fifo_limit = g_dev->l1_addr(core, b.limit()) >> shift;
    v.fifo_page_size = b.page_size >> shift;
    v.fifo_num_pages = b.num_pages;
    v.fifo_rd_ptr = g_dev->l1_addr(core, b.rd_ptr[slot]) >> shift;
    v.fifo_wr_ptr = g_dev->l1_addr(core, b.wr_ptr[slot]) >> shift;
    v.tiles_acked = std::uint16_t(b.acked);
    v.tiles_received = std::uint16_t(b.received);
    v.fifo_wr_tile_ptr = b.pack_tile_ptr;
}

CircularBuffer* cb_found(std::int32_t cb, const char* call, Loc loc) {
    Core& c = cur_core();
    cur().last_loc = loc;
    if (cb >= 0 && std::uint32_t(cb) < c.cbs.size() && c.cbs[cb].configured) return &c.cbs[cb];
    report(true, "E5209", loc, fmt_str("%s: CB %d is not configured on core %s", call, cb, core_name(c.index).c_str()),
           fmt_str("add a CBDescriptor whose format descriptor has buffer_index=%d and whose core ranges "
                   "include this core", cb));
    return nullptr;
}

CircularBuffer& cb_checked(std::int32_t cb, const char* call, Loc loc) {
    CircularBuffer* b = cb_found(cb, call, loc);
    if (b == nullptr) {
        g_dev->aborted = true;
        block(WaitKind::Poll, call, loc);  // never resumed: the run stops
    }
    return *b;
}

namespace {

constexpr const char* kCbCallNames[] = {"cb_reserve_back", "cb_push_back", "cb_wait_front", "cb_pop_front"};

const char* cb_call_name(Ev kind) { return kCbCallNames[int(kind) - int(Ev::CbReserve)]; }

// RISC `slot` may now write (`reserve`) or read `n` pages of the CB.
void grant(CircularBuffer& b, std::uint32_t n, bool reserve, int slot) {
    std::uint32_t& granted = (reserve ? b.reserved : b.waited)[slot];
    granted = std::max(granted, n);
}

void check_reserve(CircularBuffer& b, std::int32_t cb, std::uint32_t n, int slot, Loc loc) {
    if (n > b.num_pages) {
        report(true, "E5204", loc,
               fmt_str("cb_reserve_back(%d, %u): CB %d holds only %u pages, so the reservation can never be granted",
                       cb, n, cb, b.num_pages),
               "make the CB at least as large as the pages reserved at once");
    }
    // granted once the reservation's wait ends; nothing of this RISC reads it before then
    grant(b, n, true, slot);
}

void check_wait(CircularBuffer& b, std::int32_t cb, std::uint32_t n, int slot, Loc loc) {
    if (n > b.num_pages) {
        report(true, "E5204", loc,
               fmt_str("cb_wait_front(%d, %u): CB %d holds only %u pages, so the wait can never be satisfied", cb, n,
                       cb, b.num_pages),
               "make the CB at least as large as the pages waited for at once");
    }
    grant(b, n, false, slot);
}

void push_view(CircularBuffer& b, std::int32_t cb, std::uint32_t n, int slot, Loc loc) {
    if (n > b.reserved[slot] && n > b.num_pages - b.occupied()) {
        report(true, "E5201", loc,
               fmt_str("cb_push_back(%d, %u) pushes more pages than the %u reserved by cb_reserve_back", cb, n,
                       b.reserved[slot]),
               "reserve the pages first: cb_reserve_back(cb, n) before writing and pushing them");
    } else if (n > b.reserved[slot]) {
        // on the device a reservation only waits for space: pages that are free at the push were
        // handed over intact unless the consumer freed them after they were written
        report(false, "E5210", loc,
               fmt_str("cb_push_back(%d, %u) pushes more pages than the %u reserved by cb_reserve_back; they are free "
                       "now, so the data arrives only if they were free when it was written",
                       cb, n, b.reserved[slot]),
               "reserve the pages first: cb_reserve_back(cb, n) before writing and pushing them");
    }
    std::uint32_t start = b.wr_ptr[slot], end = start + n * b.page_size;
    if (end > b.limit()) {
        report(true, "E5203", loc,
               fmt_str("cb_push_back(%d, %u): the pages run past the end of the CB (write pointer 0x%x, end 0x%x)", cb,
                       n, start, b.limit()),
               "a CB does not wrap inside a push: its page count must be a multiple of the pages pushed at once");
    }
    if (const InFlight* t = overlapping(cur_core().reads[slot], start, end)) {
        report(true, "E5205", loc,
               fmt_str("cb_push_back(%d, %u) hands pages to the consumer while a NoC read issued at %s:%u into them is "
                       "not complete",
                       cb, n, t->loc.file_name(), t->loc.line()),
               "call noc_async_read_barrier() before cb_push_back");
    }
    b.wr_ptr[slot] += n * b.page_size;
    if (b.wr_ptr[slot] >= b.limit()) b.wr_ptr[slot] -= b.size;
    b.reserved[slot] -= std::min(n, b.reserved[slot]);
    if (slot == TRISC) b.pack_tile_ptr = 0;
}

void pop_view(CircularBuffer& b, std::int32_t cb, std::uint32_t n, int slot, Loc loc) {
    if (n > b.waited[slot]) {
        report(true, "E5202", loc,
               fmt_str("cb_pop_front(%d, %u) pops more pages than the %u waited for with cb_wait_front", cb, n,
                       b.waited[slot]),
               "wait for the pages first: cb_wait_front(cb, n) before reading and popping them");
    }
    std::uint32_t start = b.rd_ptr[slot], end = start + n * b.page_size;
    if (end > b.limit()) {
        report(true, "E5203", loc,
               fmt_str("cb_pop_front(%d, %u): the pages run past the end of the CB (read pointer 0x%x, end 0x%x)", cb,
                       n, start, b.limit()),
               "a CB does not wrap inside a pop: its page count must be a multiple of the pages popped at once");
    }
    if (const InFlight* t = overlapping(cur_core().writes[slot], start, end)) {
        report(true, "E5206", loc,
               fmt_str("cb_pop_front(%d, %u) frees pages that a NoC write issued at %s:%u is still sending", cb, n,
                       t->loc.file_name(), t->loc.line()),
               "call noc_async_write_barrier() or noc_async_writes_flushed() before cb_pop_front");
    }
    b.rd_ptr[slot] += n * b.page_size;
    if (b.rd_ptr[slot] >= b.limit()) b.rd_ptr[slot] -= b.size;
    b.waited[slot] -= std::min(n, b.waited[slot]);
}

// The checks of a CB call (`kind`) and the calling RISC's own record of it in slot `slot` (the
// pages it reserved and waited for, its read and write pointers), without moving the CB's shared
// counters. One set for every caller: the emulator's API (which then waits and moves the counters
// itself), the real dataflow API (runtime/noc_niu.cpp's api_check; Tenstorrent's code moves the
// counters through the stream registers) and the Tensix machine (cb_call_on_machine; its TRISCs
// wait and move the counters).
void check_call(Ev kind, CircularBuffer& b, std::int32_t cb, std::uint32_t n, int slot, Loc loc) {
    TC_TRACE(kind, std::uint32_t(cb), n, 0, 0, loc);
    switch (kind) {
        case Ev::CbReserve: check_reserve(b, cb, n, slot, loc); break;
        case Ev::CbPush: push_view(b, cb, n, slot, loc); break;
        case Ev::CbWait: check_wait(b, cb, n, slot, loc); break;
        default: pop_view(b, cb, n, slot, loc); break;
    }
}

// A CB call of the current RISC: the CB (stopping the fiber at E5209), checked by check_call.
CircularBuffer& checked_call(Ev kind, std::int32_t cb, std::uint32_t n, Loc loc) {
    CircularBuffer& b = cb_checked(cb, cb_call_name(kind), loc);
    check_call(kind, b, cb, n, cur().slot, loc);
    return b;
}

// Blocks the RISC until `n` pages of the CB are free (`reserve`) or filled, then refreshes its view.
void cb_block_for(CircularBuffer& b, std::int32_t cb, std::uint32_t n, bool reserve, Loc loc) {
    Fiber& f = cur();
    while ((reserve ? b.num_pages - b.occupied() : b.occupied()) < n) {
        f.wait_cb = cb;
        f.wait_value = n;
        block(reserve ? WaitKind::CbReserve : WaitKind::CbWait, reserve ? "cb_reserve_back" : "cb_wait_front", loc);
    }
    sync_cb_view(f.core, f.slot, cb);
}

// Pages pushed (popped): the CB's counter moves, the RISC's view follows, the other RISCs may go on.
void cb_count(std::int32_t cb, std::uint32_t& counter, std::int32_t pages) {
    counter += std::uint32_t(pages);
    sync_cb_view(cur().core, cur().slot, cb);
    note_progress();
}

}  // namespace

CircularBuffer& cb_reserve_checked(std::int32_t cb, std::uint32_t n, Loc loc) {
    return checked_call(Ev::CbReserve, cb, n, loc);
}

CircularBuffer& cb_wait_checked(std::int32_t cb, std::uint32_t n, Loc loc) {
    return checked_call(Ev::CbWait, cb, n, loc);
}

CircularBuffer& cb_push_checked(std::int32_t cb, std::uint32_t n, Loc loc) {
    return checked_call(Ev::CbPush, cb, n, loc);
}

CircularBuffer& cb_pop_checked(std::int32_t cb, std::uint32_t n, Loc loc) {
    return checked_call(Ev::CbPop, cb, n, loc);
}

void cb_moved_checked(Ev kind, std::int32_t cb, std::uint32_t n, std::uint32_t ptr, Loc loc) {
    CircularBuffer& b = cb_checked(cb, cb_call_name(kind), loc);
    std::uint32_t offset = 0;
    if (g_dev->l1_offset(ptr, offset)) (kind == Ev::CbPush ? b.wr_ptr : b.rd_ptr)[cur().slot] = offset;
    check_call(kind, b, cb, n, cur().slot, loc);
}

void cb_reserve_back(std::int32_t cb, std::int32_t pages, Loc loc) {
    cb_block_for(cb_reserve_checked(cb, std::uint32_t(pages), loc), cb, std::uint32_t(pages), true, loc);
}

void cb_push_back(std::int32_t cb, std::int32_t pages, Loc loc) {
    cb_count(cb, cb_push_checked(cb, std::uint32_t(pages), loc).received, pages);
}

void cb_wait_front(std::int32_t cb, std::int32_t pages, Loc loc) {
    cb_block_for(cb_wait_checked(cb, std::uint32_t(pages), loc), cb, std::uint32_t(pages), false, loc);
}

void cb_pop_front(std::int32_t cb, std::int32_t pages, Loc loc) {
    cb_count(cb, cb_pop_checked(cb, std::uint32_t(pages), loc).acked, pages);
}

void cb_call_on_machine(Ev kind, std::int32_t cb, std::uint32_t pages, Loc loc) {
    CircularBuffer* b = cb_found(cb, cb_call_name(kind), loc);
    if (b == nullptr) {
        g_dev->aborted = true;
        return;
    }
    check_call(kind, *b, cb, pages, TRISC, loc);
}

void cb_poll_granted(CircularBuffer& b, std::uint32_t n, bool reserve) { grant(b, n, reserve, cur().slot); }

bool cb_pages_reservable_at_back(std::int32_t cb, std::int32_t pages, Loc loc) {
    CircularBuffer& b = cb_checked(cb, "cb_pages_reservable_at_back", loc);
    TC_TRACE(Ev::Poll, 0, 0, 0, 0, loc);
    yield_now("cb_pages_reservable_at_back", loc);  // a polling loop around this call must let the consumer run
    bool ok = b.num_pages - b.occupied() >= std::uint32_t(pages);
    if (ok) cb_poll_granted(b, std::uint32_t(pages), true);
    return ok;
}

bool cb_pages_available_at_front(std::int32_t cb, std::int32_t pages, Loc loc) {
    CircularBuffer& b = cb_checked(cb, "cb_pages_available_at_front", loc);
    TC_TRACE(Ev::Poll, 0, 0, 0, 0, loc);
    yield_now("cb_pages_available_at_front", loc);
    bool ok = b.occupied() >= std::uint32_t(pages);
    if (ok) cb_poll_granted(b, std::uint32_t(pages), false);
    return ok;
}

std::uint32_t cb_write_ptr(std::uint32_t cb, Loc loc) {
    CircularBuffer& b = cb_checked(std::int32_t(cb), "get_write_ptr", loc);
    return g_dev->l1_addr(cur().core, b.wr_ptr[cur().slot]);
}

std::uint32_t cb_read_ptr(std::uint32_t cb, Loc loc) {
    CircularBuffer& b = cb_checked(std::int32_t(cb), "get_read_ptr", loc);
    return g_dev->l1_addr(cur().core, b.rd_ptr[cur().slot]);
}

CbInterface* cb_interface(std::uint32_t cb, Loc loc) {
    cb_checked(std::int32_t(cb), "get_local_cb_interface", loc);
    Fiber& f = cur();
    std::vector<CbInterface>& views = cur_core().cb_views[f.slot];
    if (views.empty()) views.resize(cur_core().cbs.size());
    sync_cb_view(f.core, f.slot, std::int32_t(cb));
    return &views[cb];
}

std::uint32_t cb_tile_address(std::uint32_t cb, std::uint32_t tile, Loc loc) {
    CircularBuffer& b = cb_checked(std::int32_t(cb), "get_tile_address", loc);
    return g_dev->l1_addr(cur().core, b.rd_ptr[cur().slot] + tile * b.page_size);
}

// ---------------------------------------------------------------- NoC
std::uint32_t num_banks(bool dram) {
    return std::uint32_t(dram ? g_dev->dram.size() : g_dev->l1_banks.size());
}

std::uint32_t bank_xy(bool dram, std::uint32_t bank, std::uint8_t) {
    Device& d = *g_dev;
    if (dram) return bank < d.dram.size() ? (std::uint32_t(d.dram[bank].ny) << 6) | d.dram[bank].nx : 0;
    if (bank >= d.l1_banks.size()) return 0;
    const Core& c = d.cores[d.l1_banks[bank]];
    return (std::uint32_t(c.vy) << 6) | c.vx;
}

void noc_read(std::uint64_t src, std::uint32_t dst_l1, std::uint32_t size, std::uint8_t noc, Loc loc) {
    cur().last_loc = loc;
    (void)noc;
    std::uint32_t off = local_offset(dst_l1, size, true, "noc_async_read", loc);
    Target t;
    if (!resolve(src, t, "noc_async_read", loc)) return;
    std::uint8_t* from = remote_bytes(t, size, false, off, "noc_async_read", loc);
    if (from == nullptr) return;
    trace_transfer(Ev::NocRead, size, t.dram ? 1 : 0, std::uint32_t(t.index), noc, src, off, loc);
    check_cb_bounds(cur().core, off, size, "noc_async_read", loc);
    std::memmove(g_dev->l1_host(cur().core, off), from, size);
    in_flight(cur_core().reads[cur().slot], off, size, loc);
    note_progress();
}

void noc_zero_l1(std::uint32_t dst_l1, std::uint32_t size, std::uint8_t noc, Loc loc) {
    cur().last_loc = loc;
    (void)noc;
    std::uint32_t off = local_offset(dst_l1, size, true, "Noc::async_write_zeros", loc);
    check_cb_bounds(cur().core, off, size, "Noc::async_write_zeros", loc);
    std::memset(g_dev->l1_host(cur().core, off), 0, size);
    note_progress();
}

void noc_write(std::uint32_t src_l1, std::uint64_t dst, std::uint32_t size, std::uint8_t noc, Loc loc) {
    cur().last_loc = loc;
    (void)noc;
    std::uint32_t off = local_offset(src_l1, size, false, "noc_async_write", loc);
    Target t;
    if (!resolve(dst, t, "noc_async_write", loc)) return;
    std::uint8_t* to = remote_bytes(t, size, true, off, "noc_async_write", loc);
    if (to == nullptr) return;
    trace_transfer(Ev::NocWrite, size, t.dram ? 1 : 0, std::uint32_t(t.index), noc, dst, off, loc);
    std::memmove(to, g_dev->l1_host(cur().core, off), size);
    in_flight(cur_core().writes[cur().slot], off, size, loc);
    note_progress();
}

void noc_write_multicast(std::uint32_t src_l1, std::uint64_t dst, std::uint32_t size, std::uint32_t num_dests,
                         bool linked, bool loopback, std::uint8_t noc, Loc loc) {
    (void)linked;
    const char* call = loopback ? "noc_async_write_multicast_loopback_src" : "noc_async_write_multicast";
    cur().last_loc = loc;
    std::uint32_t off = local_offset(src_l1, size, false, call, loc);
    std::vector<int> targets = multicast_targets(dst, num_dests, loopback, noc, call, loc);
    std::uint64_t local = dst & kLocalMask;
    std::uint32_t remote_off = 0;
    if (!g_dev->l1_offset(local, remote_off)) {
        report(true, "E5302", loc, fmt_str("%s: multicast L1 address 0x%llx is past the end of L1", call,
                                           (unsigned long long)local));
        return;
    }
    trace_transfer(Ev::NocMcast, size, std::uint32_t(targets.size()), target_rect(targets), noc, dst, off, loc);
    for (int core : targets) {
        Target t;
        t.index = core;
        t.local = remote_off;
        std::uint8_t* to = remote_bytes(t, size, true, off, call, loc);
        if (to != nullptr) std::memmove(to, g_dev->l1_host(cur().core, off), size);
    }
    in_flight(cur_core().writes[cur().slot], off, size, loc);
    note_progress();
}

void noc_barrier(Barrier kind, std::uint8_t noc, Loc loc) {
    cur().last_loc = loc;
    TC_TRACE(Ev::NocBarrier, std::uint32_t(kind), 0, 0, noc, loc);
    noc_transfers_done(kind);
}

void noc_transfers_done(Barrier kind) {
    Core& c = cur_core();
    int slot = cur().slot;
    if (kind == Barrier::Reads || kind == Barrier::Full) c.reads[slot].clear();
    if (kind == Barrier::Writes || kind == Barrier::WritesFlushed || kind == Barrier::PostedWritesFlushed ||
        kind == Barrier::Full)
        c.writes[slot].clear();
}

void yield_point(Loc loc) {
    cur().last_loc = loc;
    TC_TRACE(Ev::Poll, 0, 0, 0, 0, loc);
    yield_now("invalidate_l1_cache", loc);
}

// ---------------------------------------------------------------- semaphores
std::uint32_t semaphore_address(std::uint32_t id, Loc loc) {
    Core& c = cur_core();
    cur().last_loc = loc;
    if (id >= 16 || !c.semaphore_used[id]) {
        report(true, "E5311", loc,
               fmt_str("get_semaphore(%u): no semaphore with id %u was created on core %s", id, id,
                       core_name(c.index).c_str()),
               "add a SemaphoreDescriptor(id=..., core_ranges=...) covering this core");
    }
    return g_dev->l1_addr(c.index, g_dev->arch.sem_base + (id % 16) * kSemStride);
}

volatile std::uint32_t* checked_sem(volatile std::uint32_t* sem, const char* call, Loc loc) {
    std::uint32_t off = 0;
    int owner = -1;
    std::uint32_t addr = std::uint32_t(reinterpret_cast<std::uintptr_t>(sem));
    if (!g_dev->l1_offset(reinterpret_cast<std::uintptr_t>(sem), off, &owner) || owner != cur().core || (off & 3)) {
        report(true, "E5302", loc,
               fmt_str("%s: 0x%x is not a 4-byte aligned L1 address of this core", call, addr),
               "pass reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore(id)) or an L1 word of this core");
    }
    return sem;
}

void sem_wait(volatile std::uint32_t* sem, std::uint32_t value, bool at_least, Loc loc) {
    const char* call = at_least ? "noc_semaphore_wait_min" : "noc_semaphore_wait";
    cur().last_loc = loc;
    checked_sem(sem, call, loc);
    Fiber& f = cur();
    while (at_least ? *sem < value : *sem != value) {
        f.wait_sem = sem;
        f.wait_value = value;
        block(at_least ? WaitKind::SemGe : WaitKind::SemEq, call, loc);
    }
    trace_sem_wait(sem, value, at_least, loc);
}

namespace {
std::uint32_t sem_offset(volatile std::uint32_t* sem) {
    std::uint32_t off = 0;
    g_dev->l1_offset(reinterpret_cast<std::uintptr_t>(sem), off);
    return off;
}
}  // namespace

std::int64_t trace_sem_wait(volatile std::uint32_t* sem, std::uint32_t value, bool at_least, Loc loc) {
    if (!tracing()) return -1;
    return trace_record(Ev::SemWait, value, at_least, 0, 0, loc, trace_last_writer(cur().core, sem_offset(sem)));
}

void trace_sem_released(std::int64_t event, volatile std::uint32_t* sem) {
    trace_set_ref(event, trace_last_writer(cur().core, sem_offset(sem)));
}

void trace_sem_set(volatile std::uint32_t* sem, std::uint32_t value, Loc loc) {
    if (tracing()) trace_wrote(cur().core, sem_offset(sem), trace_record(Ev::SemSet, value, 0, 0, 0, loc));
}

void sem_set(volatile std::uint32_t* sem, std::uint32_t value, Loc loc) {
    cur().last_loc = loc;
    checked_sem(sem, "noc_semaphore_set", loc);
    *sem = value;
    trace_sem_set(sem, value, loc);
    note_progress();
}

static volatile std::uint32_t* remote_word(std::uint64_t addr, const char* call, Loc loc) {
    Target t;
    if (!resolve(addr, t, call, loc)) return nullptr;
    if (t.dram) {
        report(true, "E5304", loc, fmt_str("%s: the NoC address is a DRAM bank, not a Tensix core's L1", call));
        return nullptr;
    }
    if ((t.local & 3) || t.local + 4 > g_dev->arch.l1_size) {
        report(true, "E5301", loc, fmt_str("%s: L1 address 0x%llx is not a 4-byte aligned L1 word", call,
                                           (unsigned long long)t.local));
        return nullptr;
    }
    if (t.local < g_dev->arch.sem_base) {
        report(true, "E5307", loc,
               fmt_str("%s: writes L1 0x%llx of core %s, inside the firmware/mailbox region", call,
                       (unsigned long long)t.local, core_name(t.index).c_str()));
    }
    return reinterpret_cast<volatile std::uint32_t*>(g_dev->l1_host(t.index, std::uint32_t(t.local)));
}

void sem_inc(std::uint64_t addr, std::uint32_t incr, std::uint8_t noc, Loc loc) {
    (void)noc;
    cur().last_loc = loc;
    if (volatile std::uint32_t* w = remote_word(addr, "noc_semaphore_inc", loc)) {
        *w = *w + incr;
        trace_remote_word(w, noc, loc);
    }
    note_progress();
}

void sem_set_remote(std::uint32_t src_l1, std::uint64_t dst, std::uint8_t noc, Loc loc) {
    (void)noc;
    cur().last_loc = loc;
    std::uint32_t off = local_offset(src_l1, 4, false, "noc_semaphore_set_remote", loc);
    std::uint32_t value;
    std::memcpy(&value, g_dev->l1_host(cur().core, off), 4);
    if (volatile std::uint32_t* w = remote_word(dst, "noc_semaphore_set_remote", loc)) {
        *w = value;
        trace_remote_word(w, noc, loc);
    }
    note_progress();
}

static void multicast_word(std::uint64_t dst, std::uint32_t num_dests, bool loopback, std::uint8_t noc,
                           const char* call, Loc loc, std::uint32_t value, bool add) {
    std::vector<int> targets = multicast_targets(dst, num_dests, loopback, noc, call, loc);
    std::uint32_t off = 0;
    if (!g_dev->l1_offset(dst & kLocalMask, off) || (off & 3)) {
        report(true, "E5301", loc, fmt_str("%s: the multicast address is not a 4-byte aligned L1 word", call));
        return;
    }
    std::int64_t id = tracing() ? trace_record(Ev::SemMcast, std::uint32_t(targets.size()), 0, target_rect(targets),
                                               noc, loc)
                                : -1;
    for (int core : targets) {
        volatile std::uint32_t* w = reinterpret_cast<volatile std::uint32_t*>(g_dev->l1_host(core, off));
        *w = add ? *w + value : value;
        if (id >= 0) trace_wrote(core, off, id);
    }
    note_progress();
}

void sem_set_multicast(std::uint32_t src_l1, std::uint64_t dst, std::uint32_t num_dests, bool loopback,
                       std::uint8_t noc, Loc loc) {
    const char* call = loopback ? "noc_semaphore_set_multicast_loopback_src" : "noc_semaphore_set_multicast";
    cur().last_loc = loc;
    std::uint32_t off = local_offset(src_l1, 4, false, call, loc);
    std::uint32_t value;
    std::memcpy(&value, g_dev->l1_host(cur().core, off), 4);
    multicast_word(dst, num_dests, loopback, noc, call, loc, value, false);
}

void sem_inc_multicast(std::uint64_t addr, std::uint32_t incr, std::uint32_t num_dests, std::uint8_t noc, Loc loc) {
    cur().last_loc = loc;
    multicast_word(addr, num_dests, false, noc, "noc_semaphore_inc_multicast", loc, incr, true);
}

void inline_dw_write(std::uint64_t addr, std::uint32_t value, std::uint8_t be, bool multicast,
                     std::uint32_t num_dests, std::uint8_t noc, Loc loc) {
    cur().last_loc = loc;
    if (multicast) {
        multicast_word(addr, num_dests, false, noc, "noc_inline_mcast_dw_write", loc, value, false);
        return;
    }
    volatile std::uint32_t* w = remote_word(addr, "noc_inline_dw_write", loc);
    if (w == nullptr) return;
    std::uint32_t old = *w, mask = 0;
    for (int i = 0; i < 4; ++i)
        if (be & (1u << i)) mask |= 0xFFu << (8 * i);
    *w = (old & ~mask) | (value & mask);
    trace_remote_word(w, noc, loc);
    note_progress();
}

// ---------------------------------------------------------------- debug print
void dprint(const char* text) { g_dev->dprint_buffer += text; }

void dprint_endl() {
    Device& d = *g_dev;
    d.dprint_log += where(cur().core, cur().slot) + ": " + d.dprint_buffer + "\n";
    d.dprint_buffer.clear();
}

}  // namespace tc

void tc_named_compile_time_arg_is_not_defined(const char* name, std::size_t length, tc::Loc loc) {
    tc::report(true, "E5116", loc,
               tc::fmt_str("get_named_compile_time_arg_val(\"%.*s\"): the host passed no named compile-time arg of "
                           "that name",
                           int(length), name),
               "add it to KernelDescriptor.named_compile_time_args");
}
