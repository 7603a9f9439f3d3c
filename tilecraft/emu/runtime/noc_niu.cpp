// The device registers a data-movement kernel reaches when it runs on the real 0.81.1 dataflow API
// (TILECRAFT_DATAFLOW=real; tilecraft/emu/tensix_dataflow.py builds it, docs/emulator.md section 12).
//
// Tenstorrent's dataflow_api.h / noc_nonblocking_api.h program the NoC through each core's NIU:
// per NoC four command buffers of registers (noc_parameters.h: NOC_TARG_ADDR_LO/MID,
// NOC_RET_ADDR_LO/MID, NOC_PACKET_TAG, NOC_CTRL, NOC_AT_LEN_BE, NOC_AT_DATA, NOC_CMD_CTRL ...),
// status counters (NOC_STATUS: NIU_MST_RD_RESP_RECEIVED, NIU_MST_WR_ACK_RECEIVED, ...) and
// configuration words (NOC_CFG: NOC_ID_LOGICAL). The machine include tree (tensix_tree.py) turns
// the accessors of those registers into noc_register_write/read below, and every other cast of a
// device address into dataflow_address.
//
// The NIU model. A register write stores the word; a write of NOC_CMD_CTRL with its send bit
// issues the command the buffer's registers describe, at once (the transfer's bytes land when it
// is issued; the buffer is ready again when the kernel next looks). NOC_CTRL says what it is:
//   * NOC_CMD_AT: an atomic; NOC_AT_LEN_BE's instruction field must be NOC_AT_INS_INCR_GET (the
//     only one the 0.81.1 API issues): the L1 word at the target gets NOC_AT_DATA added, wrapping
//     at the NOC_AT_WRAP bit; with NOC_CMD_BRCST_PACKET on every core of the target rectangle.
//   * NOC_CMD_WR with NOC_CMD_WR_INLINE: NOC_AT_DATA to the target word, bytes per NOC_AT_LEN_BE.
//   * NOC_CMD_WR: NOC_AT_LEN_BE bytes from local L1 at NOC_TARG_ADDR_LO to NOC_RET_ADDR (MID:LO),
//     multicast to a rectangle with NOC_CMD_BRCST_PACKET (the sender too with NOC_CMD_BRCST_SRC_INCLUDE).
//   * otherwise a read: NOC_AT_LEN_BE bytes from NOC_TARG_ADDR (MID:LO) to local L1 at NOC_RET_ADDR_LO.
// The transfers go through the emulator's NoC (dataflow.cpp): its address resolution, bounds,
// alignment and multicast-rectangle checks. The counters advance as the NIU's do: a read adds one
// response (NIU_MST_RD_RESP_RECEIVED); a write with NOC_CMD_RESP_MARKED one non-posted request
// (NIU_MST_NONPOSTED_WR_REQ_SENT) and one acknowledgement per destination (NIU_MST_WR_ACK_RECEIVED),
// without it one posted request (NIU_MST_POSTED_WR_REQ_SENT); a marked atomic one response per
// destination (NIU_MST_ATOMIC_RESP_RECEIVED). Transaction ids never have anything outstanding.
//
// Anything else of the NIU, and any device address outside L1, the stream registers holding the
// CB counters and the wall clock, is a hard error (E5861) naming the register: never a silent
// wrong value.
//
// The emulator's own API checks (api_check; tilecraft/emu/dataflow_checks.py lists the calls): the
// CB, argument and semaphore checks of dataflow.cpp run on the state the emulator keeps, before
// Tenstorrent's code of the call runs, so the same mistakes get the same findings on both APIs.
#include <sys/mman.h>

#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "../tensix/kernel_include/tc_dataflow_launch.h"
#include "device.h"

namespace tc {

namespace {

// noc_parameters.h (Wormhole B0 and Blackhole share this layout)
constexpr std::uint32_t kNocRegs = 0xFFB20000u, kNocInstance = 0x10000u, kCmdBufBits = 10;
constexpr std::uint32_t kTargLo = 0x0, kTargMid = 0x4, kRetLo = 0xC, kRetMid = 0x10, kPacketTag = 0x18, kCtrl = 0x1C,
                        kAtLenBe = 0x20, kAtData = 0x24, kCmdCtrl = 0x28, kNodeId = 0x2C, kEndpointId = 0x30,
                        kClearOutstanding = 0x50, kCfgBase = 0x100, kStatusBase = 0x200;
constexpr std::uint32_t kCmdAt = 1u << 0, kCmdWr = 1u << 1, kCmdWrInline = 1u << 3, kCmdRespMarked = 1u << 4,
                        kCmdBrcst = 1u << 5, kCmdLinked = 1u << 6, kCmdSrcInclude = 1u << 17;
constexpr std::uint32_t kAtInsIncrGet = 0x1;
constexpr std::uint32_t kNocIdLogical = 0xE;
// NOC_STATUS counters the model keeps
constexpr std::uint32_t kAtomicResp = 0x0, kWrAck = 0x1, kRdResp = 0x2, kRdReqSent = 0x5, kNonpostedAtomicSent = 0x6,
                        kPostedAtomicSent = 0x7, kNonpostedWrSent = 0xA, kPostedWrSent = 0xB;
constexpr std::uint32_t kStatusWords = 0x40;
// stream registers (noc_overlay_parameters.h): CB i's counters live in stream i
constexpr std::uint32_t kOverlayStart = 0xFFB40000u, kStreamSpace = 0x1000u, kAckedReg = 3, kReceivedReg = 4;
// tensix.h: the RISC's wall clock
constexpr std::uint32_t kWallClockLo = 0xFFB121F0u, kWallClockHi = 0xFFB121F8u;

struct CmdBuf {
    std::uint32_t reg[kCfgBase / 4] = {};
};

struct Niu {
    CmdBuf buf[4];
    std::uint32_t status[kStatusWords] = {};
};

// The register words a kernel gets a pointer to (the CB counters, the wall clock). RISC-V code
// keeps addresses in 32 bits (llk_io reads a counter by `reg_read((uint32_t)ptr)`), so these
// words live in a mapping below 4 GiB; the counters' owner stays the emulator's CircularBuffer,
// and a word handed out is a copy of it that is written back before anything else can look.
struct Mirror {
    std::uint32_t* word;
    std::uint32_t* owner;  // nullptr: nothing to write back (the wall clock)
    std::uint32_t given;
};
constexpr std::uint32_t kMirrorsPerCore = 2 * 64 + 2;  // acked and received of 64 CBs, the wall clock

// One NIU per NoC per core, and the register mirrors, for the device that runs now.
struct NiuFile {
    std::uint64_t serial = ~std::uint64_t(0);
    std::vector<Niu> nius;             // core * 2 + noc
    std::vector<std::uint64_t> clock;  // per core: the wall clock, one tick per read
    std::uint32_t* mirrors = nullptr;  // core * kMirrorsPerCore words, mapped below 4 GiB
    std::size_t mirror_bytes = 0;
    std::vector<Mirror> handed_out;
};
NiuFile g_file;
std::map<const Fiber*, std::set<const void*>> g_polled;  // per fiber: where it polled since its last activity

void reset_file() {
    Device& d = *g_dev;
    g_file.serial = d.serial;
    g_file.nius.assign(d.cores.size() * 2, Niu{});
    g_file.clock.assign(d.cores.size(), 0);
    g_file.handed_out.clear();
    g_polled.clear();
    if (g_file.mirrors != nullptr) munmap(g_file.mirrors, g_file.mirror_bytes);
    g_file.mirror_bytes = d.cores.size() * kMirrorsPerCore * 4;
    void* m = mmap(nullptr, g_file.mirror_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
    g_file.mirrors = m == MAP_FAILED ? nullptr : static_cast<std::uint32_t*>(m);
}

Niu& niu(int core, std::uint32_t noc) {
    if (g_file.serial != g_dev->serial) reset_file();
    return g_file.nius[std::size_t(core) * 2 + noc];
}

// The kernel's stores to the words it was handed go to their owners.
void write_back() {
    for (const Mirror& m : g_file.handed_out) {
        if (m.owner != nullptr && *m.word != m.given) {
            *m.owner = *m.word;
            note_progress();
        }
    }
    g_file.handed_out.clear();
}

// A pointer the kernel may keep in 32 bits to a copy of `*owner` (or of `value` when there is no owner).
volatile void* mirror(int core, std::uint32_t index, std::uint32_t* owner, std::uint32_t value) {
    niu(core, 0);
    if (g_file.mirrors == nullptr) {
        stop_here("E5861", cur().last_loc, "mapping the NIU model's register words below 4 GiB failed", "");
    }
    std::uint32_t* word = g_file.mirrors + std::size_t(core) * kMirrorsPerCore + index;
    *word = owner != nullptr ? *owner : value;
    g_file.handed_out.push_back({word, owner, *word});
    return word;
}

// The device address of the register whose copy lies at `addr` (0 when `addr` is not such a copy):
// the kernel reads the register again through the address it kept in 32 bits.
std::uintptr_t mirrored_register(std::uintptr_t addr) {
    const auto base = reinterpret_cast<std::uintptr_t>(g_file.mirrors);
    if (g_file.mirrors == nullptr || g_file.serial != g_dev->serial || addr < base ||
        addr >= base + g_file.mirror_bytes)
        return 0;
    const std::uint32_t index = std::uint32_t((addr - base) / 4) % kMirrorsPerCore;
    if (index >= 128) return index == 128 ? kWallClockLo : kWallClockHi;
    return kOverlayStart + (index / 2) * kStreamSpace + 4 * ((index % 2) != 0 ? kReceivedReg : kAckedReg);
}

std::string hex(std::uint64_t v) { return fmt_str("0x%llx", (unsigned long long)v); }

const char* cmd_reg_name(std::uint32_t reg) {
    static const std::map<std::uint32_t, const char*> names = {
        {0x0, "NOC_TARG_ADDR_LO"}, {0x4, "NOC_TARG_ADDR_MID"}, {0x8, "NOC_TARG_ADDR_HI"},
        {0xC, "NOC_RET_ADDR_LO"},  {0x10, "NOC_RET_ADDR_MID"}, {0x14, "NOC_RET_ADDR_HI"},
        {0x18, "NOC_PACKET_TAG"},  {0x1C, "NOC_CTRL"},         {0x20, "NOC_AT_LEN_BE"},
        {0x24, "NOC_AT_DATA"},     {0x28, "NOC_CMD_CTRL"},     {0x2C, "NOC_NODE_ID"},
        {0x30, "NOC_ENDPOINT_ID"}, {0x50, "NOC_CLEAR_OUTSTANDING_REQ_CNT"}};
    auto it = names.find(reg);
    return it == names.end() ? "an unnamed command-buffer register" : it->second;
}

// A hard error of the data-movement layer: the run stops, naming what the kernel did.
[[noreturn]] void unmodelled(const std::string& what) {
    Fiber& f = cur();
    stop_here("E5861",
              f.last_loc,
              fmt_str("%s (kernel %s on the real dataflow API) %s, which tilecraft's NoC/NIU model does not "
                      "model",
                      where(f.core, f.slot).c_str(), f.kernel->name.c_str(), what.c_str()),
              "docs/emulator.md section 12 lists the NIU registers and commands that are modelled; run the kernel "
              "on the emulator's own dataflow API meanwhile (TILECRAFT_DATAFLOW=emulator, the default)");
    __builtin_unreachable();
}

std::uint32_t node_id(int core, std::uint32_t noc) {
    const Core& c = g_dev->cores[core];
    return std::uint32_t(c.my_x[noc]) | (std::uint32_t(c.my_y[noc]) << 6);
}

std::uint64_t noc_address(const CmdBuf& b, std::uint32_t lo, std::uint32_t mid) {
    return (std::uint64_t(b.reg[mid / 4]) << 32) | b.reg[lo / 4];
}

// The command buffer's command, as the NIU carries it out when NOC_CMD_CTRL is written.
void issue(Niu& n, std::uint32_t noc, std::uint32_t buf) {
    CmdBuf& b = n.buf[buf];
    const std::uint32_t ctrl = b.reg[kCtrl / 4], len = b.reg[kAtLenBe / 4];
    const bool marked = (ctrl & kCmdRespMarked) != 0, brcst = (ctrl & kCmdBrcst) != 0;
    const auto noc8 = std::uint8_t(noc);
    if ((ctrl & kCmdAt) != 0) {
        const std::uint32_t ins = (len >> 12) & 0xF, wrap = (len >> 2) & 0x1F;
        if (ins != kAtInsIncrGet)
            unmodelled(fmt_str("issues NoC atomic instruction %u (NOC_AT_LEN_BE %s; only NOC_AT_INS_INCR_GET is "
                               "modelled)", ins, hex(len).c_str()));
        if (wrap != 31)
            unmodelled(fmt_str("issues a NoC atomic increment wrapping at bit %u (NOC_AT_WRAP; only 31, a plain "
                               "32-bit add, is modelled)", wrap));
        const std::uint64_t target = noc_address(b, kTargLo, kTargMid);
        const std::uint32_t incr = b.reg[kAtData / 4];
        std::uint32_t dests = 1;
        if (brcst) {
            dests = multicast_destinations(target, false, noc8);
            sem_inc_multicast(target, incr, dests, noc8, cur().last_loc);
        } else {
            sem_inc(target, incr, noc8, cur().last_loc);
        }
        if (marked) {
            n.status[kAtomicResp] += dests;
            ++n.status[kNonpostedAtomicSent];
        } else {
            ++n.status[kPostedAtomicSent];
        }
        return;
    }
    if ((ctrl & kCmdWr) != 0) {
        std::uint32_t dests = 1;
        if ((ctrl & kCmdWrInline) != 0) {
            // noc_fast_write_dw_inline: the byte enables are shifted to the target's byte in the 32-byte NoC word
            const std::uint64_t target = noc_address(b, kTargLo, kTargMid);
            const std::uint32_t be = (len >> ((target & 31u) & ~3u)) & 0xFu;
            if (brcst) {
                if (be != 0xF)
                    unmodelled(fmt_str("issues an inline multicast write of part of a word (byte enables %s)",
                                       hex(be).c_str()));
                dests = multicast_destinations(target, false, noc8);
                inline_dw_write(target & ~std::uint64_t(3), b.reg[kAtData / 4], 0xF, true, dests, noc8,
                                cur().last_loc);
            } else {
                inline_dw_write(target & ~std::uint64_t(3), b.reg[kAtData / 4], std::uint8_t(be), false, 1, noc8,
                                cur().last_loc);
            }
        } else {
            const std::uint32_t src = b.reg[kTargLo / 4];
            const std::uint64_t dst = noc_address(b, kRetLo, kRetMid);
            if (brcst) {
                const bool loopback = (ctrl & kCmdSrcInclude) != 0;
                dests = multicast_destinations(dst, loopback, noc8);
                noc_write_multicast(src, dst, len, dests, (ctrl & kCmdLinked) != 0, loopback, noc8, cur().last_loc);
            } else {
                noc_write(src, dst, len, noc8, cur().last_loc);
            }
        }
        if (marked) {
            ++n.status[kNonpostedWrSent];
            n.status[kWrAck] += dests;
        } else {
            ++n.status[kPostedWrSent];
        }
        return;
    }
    if (brcst) unmodelled("issues a multicast NoC read (NOC_CTRL " + hex(ctrl) + ")");
    noc_read(noc_address(b, kTargLo, kTargMid), b.reg[kRetLo / 4], len, noc8, cur().last_loc);
    ++n.status[kRdReqSent];
    ++n.status[kRdResp];
}

// A NIU register: its NoC, buffer and offset in the buffer (< kCfgBase), or a NOC_CFG/NOC_STATUS word.
struct NiuReg {
    std::uint32_t noc, buf, offset;
};

NiuReg decode(std::uint32_t addr) {
    const std::uint32_t rel = addr - kNocRegs;
    return {rel / kNocInstance, (rel % kNocInstance) >> kCmdBufBits, rel & ((1u << kCmdBufBits) - 1)};
}

bool is_niu(std::uintptr_t addr) { return addr >= kNocRegs && addr < kNocRegs + 2 * kNocInstance; }

// A polling loop's turn for the other fibers. A fiber that polls again a place it polled since its
// last NoC command (the same register or loop; a loop may poll several, as cb_reserve_back's polls
// invalidate_l1_cache and the CB counter) only polls; a new place was progress the others may see
// (the scheduler's livelock count, scheduler.cpp). `what` names the poll in a deadlock report.
void poll_at(const void* site, std::string what) {
    write_back();
    Fiber& f = cur();
    niu(f.core, 0);  // a new device starts with no poll sites
    if (g_polled[&f].insert(site).second) note_progress();
    f.describe_poll = [what = std::move(what)] { return "it polls " + what; };
    yield_now("a polling loop (real dataflow API)", f.last_loc);
    f.describe_poll = nullptr;
}

void mark_activity() { g_polled[&cur()].clear(); }

}  // namespace

}  // namespace tc

namespace tc_tensix {

using tc::cur;
using tc::g_dev;

void noc_register_write(std::uint32_t addr, std::uint32_t value) {
    tc::write_back();
    tc::mark_activity();
    tc::note_progress();
    if (!tc::is_niu(addr)) tc::unmodelled("writes NIU address " + tc::hex(addr) + ", outside the NoC registers");
    const tc::NiuReg r = tc::decode(addr);
    tc::Niu& n = tc::niu(cur().core, r.noc);
    if (r.offset >= tc::kCfgBase)
        tc::unmodelled(tc::fmt_str("writes NoC %u %s word %u (%s)", r.noc,
                                   r.offset >= tc::kStatusBase ? "NOC_STATUS" : "NOC_CFG",
                                   (r.offset % tc::kCfgBase) / 4, tc::hex(value).c_str()));
    if (r.offset == tc::kCmdCtrl) {
        if ((value & 1u) != 0) tc::issue(n, r.noc, r.buf);
        return;
    }
    if (r.offset == tc::kClearOutstanding) return;  // nothing is ever outstanding
    if (r.offset > tc::kAtData && r.offset != tc::kPacketTag)
        tc::unmodelled(tc::fmt_str("writes %s (NoC %u, command buffer %u)", tc::cmd_reg_name(r.offset), r.noc, r.buf));
    n.buf[r.buf].reg[r.offset / 4] = value;
}

std::uint32_t noc_register_read(std::uint32_t addr) {
    tc::write_back();
    if (!tc::is_niu(addr)) tc::unmodelled("reads NIU address " + tc::hex(addr) + ", outside the NoC registers");
    const tc::NiuReg r = tc::decode(addr);
    const int core = cur().core;
    tc::Niu& n = tc::niu(core, r.noc);
    if (r.offset >= tc::kStatusBase && r.offset < tc::kStatusBase + 4 * tc::kStatusWords) {
        const std::uint32_t counter = (r.offset - tc::kStatusBase) / 4;
        // a barrier polls these: the transfers it waits for are done, so the sanitizer's in-flight lists go
        tc::poll_at(reinterpret_cast<const void*>(std::uintptr_t(addr)),
                    tc::fmt_str("NoC %u's status counter %s (a NoC barrier)", r.noc,
                                tc::hex((r.offset - tc::kStatusBase) / 4).c_str()));
        switch (counter) {
            case tc::kAtomicResp: case tc::kWrAck: case tc::kRdResp: case tc::kRdReqSent:
            case tc::kNonpostedAtomicSent: case tc::kPostedAtomicSent: case tc::kNonpostedWrSent:
            case tc::kPostedWrSent:
                if (counter == tc::kRdResp) tc::noc_barrier(tc::Barrier::Reads, std::uint8_t(r.noc), cur().last_loc);
                if (counter == tc::kWrAck || counter == tc::kNonpostedWrSent || counter == tc::kPostedWrSent)
                    tc::noc_barrier(tc::Barrier::Writes, std::uint8_t(r.noc), cur().last_loc);
                return n.status[counter];
            default:
                if (counter >= 0x10 && counter < 0x30) return 0;  // per transaction id: nothing outstanding
                tc::unmodelled(tc::fmt_str("reads NoC %u status counter %s (NOC_STATUS)", r.noc,
                                           tc::hex(counter).c_str()));
        }
    }
    if (r.offset >= tc::kCfgBase) {
        const std::uint32_t word = (r.offset - tc::kCfgBase) / 4;
        if (word == tc::kNocIdLogical) return tc::node_id(core, r.noc);
        tc::unmodelled(tc::fmt_str("reads NoC %u NOC_CFG word %s", r.noc, tc::hex(word).c_str()));
    }
    switch (r.offset) {
        case tc::kCmdCtrl: return 0;  // NOC_CTRL_STATUS_READY: commands complete when issued
        case tc::kNodeId: return tc::node_id(core, r.noc);
        case tc::kTargLo: case tc::kTargMid: case tc::kRetLo: case tc::kRetMid: case tc::kPacketTag: case tc::kCtrl:
        case tc::kAtLenBe: case tc::kAtData:
            return n.buf[r.buf].reg[r.offset / 4];
        default:
            tc::unmodelled(tc::fmt_str("reads %s (NoC %u, command buffer %u)", tc::cmd_reg_name(r.offset), r.noc,
                                       r.buf));
    }
}

volatile void* dataflow_address(std::uintptr_t addr, std::size_t bytes) {
    tc::Device& d = *g_dev;
    tc::Fiber& f = cur();
    const auto window = reinterpret_cast<std::uintptr_t>(d.l1_window);
    if (addr >= window && addr + bytes <= window + d.l1_window_size) return reinterpret_cast<volatile void*>(addr);
    if (const std::uintptr_t reg = tc::mirrored_register(addr)) addr = reg;
    tc::write_back();
    if (addr + bytes <= d.arch.l1_size) return d.l1_host(f.core, std::uint32_t(addr));
    if (addr >= tc::kOverlayStart && addr < tc::kOverlayStart + 64 * tc::kStreamSpace && bytes <= 4 && addr % 4 == 0) {
        const std::uint32_t stream = std::uint32_t(addr - tc::kOverlayStart) / tc::kStreamSpace;
        const std::uint32_t reg = std::uint32_t(addr % tc::kStreamSpace) / 4;
        tc::Core& core = d.cores[f.core];
        if ((reg == tc::kAckedReg || reg == tc::kReceivedReg) && stream < core.cbs.size()) {
            // the CB counters other RISCs change: the RISC polls them (cb_wait_front, cb_reserve_back)
            tc::CircularBuffer& cb = core.cbs[stream];
            tc::poll_at(reinterpret_cast<const void*>(addr),
                        tc::fmt_str("CB %u's %s (%u pages pushed, %u popped)", stream,
                                    reg == tc::kReceivedReg ? "tiles_received" : "tiles_acked",
                                    unsigned(std::uint16_t(cb.received)), unsigned(std::uint16_t(cb.acked))));
            return tc::mirror(f.core, stream * 2 + (reg == tc::kReceivedReg), reg == tc::kReceivedReg ? &cb.received
                                                                                                   : &cb.acked, 0);
        }
        tc::unmodelled(tc::fmt_str("accesses stream %u register %u (%s)", stream, reg, tc::hex(addr).c_str()));
    }
    if (addr == tc::kWallClockLo || addr == tc::kWallClockHi) {
        tc::niu(f.core, 0);  // sizes the per-device tables
        std::uint64_t& clock = tc::g_file.clock[std::size_t(f.core)];
        if (addr == tc::kWallClockLo) ++clock;
        const bool lo = addr == tc::kWallClockLo;
        return tc::mirror(f.core, 128 + !lo, nullptr, std::uint32_t(lo ? clock : clock >> 32));
    }
    if (tc::is_niu(addr))
        tc::unmodelled("accesses NIU register " + tc::hex(addr) + " through a pointer (only noc_nonblocking_api.h's "
                       "register accessors are modelled)");
    tc::unmodelled(tc::fmt_str("accesses device address %s (%zu bytes), which is neither L1, a CB counter, the wall "
                               "clock nor a NoC register",
                               tc::hex(addr).c_str(), bytes));
}

void api_check(ApiCheck call, std::uint64_t a, std::uint32_t b, std::uint32_t c) {
    tc::write_back();  // the counters as the kernel left them
    tc::Fiber& f = cur();
    const tc::Loc loc = f.last_loc;  // the kernel's line: its outermost API call's SiteScope wrote it
    const auto cb = std::int32_t(a);
    switch (call) {
        case ApiCheck::CbReserve: tc::cb_reserve_checked(cb, b, loc); return;
        case ApiCheck::CbWait: tc::cb_wait_checked(cb, b, loc); return;
        case ApiCheck::CbPush: case ApiCheck::CbPop: {
            // the RISC's pointer is the kernel's own (it may move it itself): the emulator's record follows it
            const bool push = call == ApiCheck::CbPush;
            tc::CircularBuffer& buf = tc::cb_checked(cb, push ? "cb_push_back" : "cb_pop_front", loc);
            std::uint32_t offset = 0;
            if (g_dev->l1_offset(c, offset)) (push ? buf.wr_ptr : buf.rd_ptr)[f.slot] = offset;
            push ? tc::cb_push_checked(cb, b, loc) : tc::cb_pop_checked(cb, b, loc);
            return;
        }
        case ApiCheck::CbReservable: case ApiCheck::CbAvailable:
            tc::cb_poll_granted(tc::cb_checked(cb, call == ApiCheck::CbReservable ? "cb_pages_reservable_at_back"
                                                                                  : "cb_pages_available_at_front",
                                               loc),
                                b, call == ApiCheck::CbReservable);
            return;
        case ApiCheck::CbWritePtr: tc::cb_checked(cb, "get_write_ptr", loc); return;
        case ApiCheck::CbReadPtr: tc::cb_checked(cb, "get_read_ptr", loc); return;
        case ApiCheck::Arg: case ApiCheck::CommonArg:
            tc::arg_pointer(std::uint32_t(a), call == ApiCheck::CommonArg, loc);
            return;
        case ApiCheck::Semaphore: tc::semaphore_address(std::uint32_t(a), loc); return;
        case ApiCheck::WriteMulticast: case ApiCheck::WriteMulticastLoopback: case ApiCheck::SemaphoreSetMulticast:
        case ApiCheck::SemaphoreSetMulticastLoopback: case ApiCheck::SemaphoreIncMulticast: {
            struct Multicast {
                bool loopback;
                const char* call;
            };
            static constexpr Multicast kMulticasts[] = {  // in ApiCheck's order from WriteMulticast
                {false, "noc_async_write_multicast"}, {true, "noc_async_write_multicast_loopback_src"},
                {false, "noc_semaphore_set_multicast"}, {true, "noc_semaphore_set_multicast_loopback_src"},
                {false, "noc_semaphore_inc_multicast"}};
            const Multicast& m = kMulticasts[int(call) - int(ApiCheck::WriteMulticast)];
            tc::multicast_checked(a, b, m.loopback, c, m.call, loc);
            return;
        }
    }
}

void dataflow_poll() { tc::poll_at(__builtin_return_address(0), "L1 in a loop (invalidate_l1_cache: a semaphore wait)"); }

void dataflow_done() { tc::write_back(); }

extern "C" void tc_dataflow_launch(DataflowLaunch* launch) {
    tc::Device& d = *g_dev;
    tc::Fiber& f = cur();
    tc::Core& core = d.cores[f.core];
    const std::uint32_t args = d.arch.args_base + std::uint32_t(f.slot) * 0x2000;  // tc_add_fiber's layout
    launch->rta = reinterpret_cast<std::uint32_t*>(d.l1_host(f.core, args));
    launch->crta = reinterpret_cast<std::uint32_t*>(d.l1_host(f.core, args + 0x1000));
    launch->semaphores = reinterpret_cast<std::uint32_t*>(d.l1_host(f.core, d.arch.sem_base));
    launch->cb_mask = 0;
    for (std::size_t i = 0; i < core.cbs.size() && i < std::size_t(kDataflowCbs); ++i) {
        const tc::CircularBuffer& cb = core.cbs[i];
        if (!cb.configured) continue;
        launch->cb_mask |= std::uint64_t(1) << i;
        launch->cb_config[i][0] = d.l1_addr(f.core, cb.addr);
        launch->cb_config[i][1] = cb.size;
        launch->cb_config[i][2] = cb.num_pages;
        launch->cb_config[i][3] = cb.page_size;
    }
    launch->call_site = &f.last_loc;
    launch->logical_x = std::uint8_t(core.lx);
    launch->logical_y = std::uint8_t(core.ly);
    for (std::uint32_t noc = 0; noc < 2; ++noc) {
        for (std::uint32_t bank = 0; bank < tc::num_banks(true) && bank < std::uint32_t(kDataflowBanks); ++bank)
            launch->dram_xy[noc][bank] = std::uint16_t(tc::bank_xy(true, bank, std::uint8_t(noc)) << 4);
        for (std::uint32_t bank = 0; bank < tc::num_banks(false) && bank < std::uint32_t(kDataflowBanks); ++bank)
            launch->l1_xy[noc][bank] = std::uint16_t(tc::bank_xy(false, bank, std::uint8_t(noc)) << 4);
    }
    for (const tc::Core& c : d.cores) {
        if (c.lx < kDataflowGrid) launch->col_to_virtual[c.lx] = c.vx;
        if (c.ly < kDataflowGrid) launch->row_to_virtual[c.ly] = c.vy;
    }
}

}  // namespace tc_tensix
