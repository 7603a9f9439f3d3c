// The device registers a data-movement kernel reaches when it runs on the real 0.81.1 dataflow API
// (tilecraft/emu/tensix_dataflow.py builds it, docs/emulator.md section 12).
//
// Tenstorrent's dataflow_api.h / noc_nonblocking_api.h program the NoC through each core's NIU:
// per NoC four command buffers of registers (noc_parameters.h: NOC_TARG_ADDR_LO/MID,
// NOC_RET_ADDR_LO/MID, NOC_PACKET_TAG, NOC_CTRL, NOC_AT_LEN_BE, NOC_AT_DATA, NOC_CMD_CTRL ...),
// status counters (NOC_STATUS: NIU_MST_RD_RESP_RECEIVED, NIU_MST_WR_ACK_RECEIVED, ...) and
// configuration words (NOC_CFG: NOC_ID_LOGICAL). Where they lie differs between Wormhole B0 and
// Blackhole: the kernel's firmware stand-in hands over its headers' layout at launch (NiuLayout,
// tc_dataflow_launch.h), and every register is decoded by it. The machine include tree (tensix_tree.py) turns
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
// They also record the profiling trace (trace.h) as the emulator's own API records it: one barrier
// event per barrier call (the status counters a barrier's loop reads only end the sanitizer's
// in-flight windows), a semaphore wait's event with the write that released it (set when the wait
// passes: poll_at), the semaphore writes the API issues as plain NoC writes carried out as the
// emulator's semaphore writes (CallSemWrite), polls of the kernel's own loops.
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

// noc_parameters.h: NOC_CTRL's fields, the atomic instruction and the NOC_STATUS counters are the same
// on Wormhole B0 and Blackhole; where the registers lie is not (tc_tensix::NiuLayout, the kernel's own)
constexpr std::uint32_t kCmdAt = 1u << 0, kCmdWr = 1u << 1, kCmdWrInline = 1u << 3, kCmdRespMarked = 1u << 4,
                        kCmdBrcst = 1u << 5, kCmdLinked = 1u << 6, kCmdSrcInclude = 1u << 17;
constexpr std::uint32_t kAtInsIncrGet = 0x1;
// NOC_STATUS counters the model keeps
constexpr std::uint32_t kAtomicResp = 0x0, kWrAck = 0x1, kRdResp = 0x2, kRdReqSent = 0x5, kNonpostedAtomicSent = 0x6,
                        kPostedAtomicSent = 0x7, kNonpostedWrSent = 0xA, kPostedWrSent = 0xB;
constexpr std::uint32_t kStatusWords = 0x40;
constexpr std::uint32_t kNocs = 2, kCmdBufs = 4, kCmdBufWords = 0x100 / 4;  // a buffer's registers below NOC_CFG

struct CmdBuf {
    std::uint32_t reg[kCmdBufWords] = {};
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
    tc_tensix::NiuLayout layout;       // the device's architecture's (its kernels report it at launch)
    std::vector<Niu> nius;             // core * 2 + noc
    std::vector<std::uint64_t> clock;  // per core: the wall clock, one tick per read
    std::uint32_t* mirrors = nullptr;  // core * kMirrorsPerCore words, mapped below 4 GiB
    std::size_t mirror_bytes = 0;
    std::vector<Mirror> handed_out;
};
NiuFile g_file;

// A wait the kernel's API call is in: what the emulator's own API would block on (cb_reserve_back,
// cb_wait_front, noc_semaphore_wait[_min]), recorded by the call's entry check. It stands while the
// kernel's outermost call is the one it was recorded in (its name and line).
struct CallWait {
    WaitKind kind = WaitKind::None;
    const char* call = nullptr;
    Loc loc{};
    std::int32_t cb = 0;
    std::uint32_t value = 0;
    volatile std::uint32_t* sem = nullptr;
};

// A semaphore write the kernel's API call in progress issues as a plain NoC write
// (noc_semaphore_set_remote, noc_semaphore_set_multicast[_loopback_src]), recorded by the call's
// entry check: the write it issues is carried out as the emulator's semaphore write (the trace's
// SemRemote/SemMcast, which release semaphore waits in the kernel-level cost model).
struct CallSemWrite {
    const char* call = nullptr;
    Loc loc{};
};

// Per data-movement fiber on this path.
struct RealFiber {
    const char* call = nullptr;      // the kernel's outermost API call in progress (its SiteScope writes it)
    std::set<const void*> polled;    // where it polled since its last NoC command
    CallWait wait;
    std::int64_t sem_event = -1;     // the trace's SemWait event of the wait in progress (its release pending)
    CallSemWrite sem_write;
};
std::map<const Fiber*, RealFiber> g_fibers;

void reset_file() {
    Device& d = *g_dev;
    g_file.serial = d.serial;
    g_file.nius.assign(d.cores.size() * 2, Niu{});
    g_file.clock.assign(d.cores.size(), 0);
    g_file.handed_out.clear();
    g_fibers.clear();
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
    const tc_tensix::NiuLayout& l = g_file.layout;
    if (index >= 128) return index == 128 ? l.wall_clock_lo : l.wall_clock_hi;
    return l.overlay_start + (index / 2) * l.stream_space + 4 * ((index % 2) != 0 ? l.tiles_received_reg
                                                                                  : l.tiles_acked_reg);
}

std::string hex(std::uint64_t v) { return fmt_str("0x%llx", (unsigned long long)v); }

// The name of the command-buffer register at `reg`, for a message.
const char* cmd_reg_name(std::uint32_t reg) {
    const tc_tensix::NiuLayout& l = g_file.layout;
    const std::pair<std::uint32_t, const char*> names[] = {
        {l.targ_lo, "NOC_TARG_ADDR_LO"}, {l.targ_mid, "NOC_TARG_ADDR_MID"}, {l.ret_lo, "NOC_RET_ADDR_LO"},
        {l.ret_mid, "NOC_RET_ADDR_MID"}, {l.packet_tag, "NOC_PACKET_TAG"}, {l.ctrl, "NOC_CTRL"},
        {l.at_len_be, "NOC_AT_LEN_BE"}, {l.at_data, "NOC_AT_DATA"}, {l.cmd_ctrl, "NOC_CMD_CTRL"},
        {l.node_id, "NOC_NODE_ID"}, {l.endpoint_id, "NOC_ENDPOINT_ID"},
        {l.clear_outstanding, "NOC_CLEAR_OUTSTANDING_REQ_CNT"}};
    for (const auto& [offset, name] : names)
        if (offset == reg) return name;
    if (reg == l.targ_coordinate) return "NOC_TARG_ADDR_HI";  // Blackhole's coordinates (Wormhole's are in MID)
    if (reg == l.ret_coordinate) return "NOC_RET_ADDR_HI";
    return "an unnamed command-buffer register";
}

// A hard error of the data-movement layer: the run stops, naming what the kernel did.
[[noreturn]] void unmodelled(const std::string& what) {
    Fiber& f = cur();
    stop_here("E5861",
              f.last_loc,
              fmt_str("%s (kernel %s on the real dataflow API) %s, which tilecraft's NoC/NIU model does not "
                      "model",
                      where(f.core, f.slot).c_str(), f.kernel->name.c_str(), what.c_str()),
              "docs/emulator.md section 12 lists the NIU registers and commands that are modelled");
    __builtin_unreachable();
}

std::uint32_t node_id(int core, std::uint32_t noc) {
    const Core& c = g_dev->cores[core];
    return std::uint32_t(c.my_x[noc]) | (std::uint32_t(c.my_y[noc]) << 6);
}

// The 64-bit NoC address a buffer's LO/MID/coordinate registers hold: the local address's low 32 bits
// in LO, its high bits in MID, the coordinates shifted by NOC_ADDR_COORD_SHIFT from the coordinate
// register (Wormhole's is MID itself, shifted by 32; Blackhole's HI, shifted by 36).
std::uint64_t noc_address(const CmdBuf& b, std::uint32_t lo, std::uint32_t mid, std::uint32_t coordinate) {
    return (std::uint64_t(b.reg[coordinate / 4]) << g_file.layout.coordinate_shift) |
           (std::uint64_t(b.reg[mid / 4]) << 32) | b.reg[lo / 4];
}

std::uint64_t target_address(const CmdBuf& b) {
    const tc_tensix::NiuLayout& l = g_file.layout;
    return noc_address(b, l.targ_lo, l.targ_mid, l.targ_coordinate);
}

std::uint64_t return_address(const CmdBuf& b) {
    const tc_tensix::NiuLayout& l = g_file.layout;
    return noc_address(b, l.ret_lo, l.ret_mid, l.ret_coordinate);
}

bool same_place(const Loc& a, const Loc& b) {
    return a.line() == b.line() && a.column() == b.column() && std::strcmp(a.file_name(), b.file_name()) == 0;
}

// Whether the write being issued is the semaphore write the kernel's call in progress announced
// (CallSemWrite; the announcement is used up).
bool semaphore_write() {
    Fiber& f = cur();
    RealFiber& r = g_fibers[&f];
    CallSemWrite& w = r.sem_write;
    const bool ours = w.call != nullptr && w.call == r.call && same_place(w.loc, f.last_loc);
    w = {};
    return ours;
}

// The command buffer's command, as the NIU carries it out when NOC_CMD_CTRL is written.
void issue(Niu& n, std::uint32_t noc, std::uint32_t buf) {
    CmdBuf& b = n.buf[buf];
    const tc_tensix::NiuLayout& l = g_file.layout;
    const std::uint32_t ctrl = b.reg[l.ctrl / 4], len = b.reg[l.at_len_be / 4];
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
        const std::uint64_t target = target_address(b);
        const std::uint32_t incr = b.reg[l.at_data / 4];
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
            // noc_fast_write_dw_inline: the byte enables are shifted to the target's byte in the NoC word (a
            // 32-bit shift: by the byte in Wormhole's 32-byte word, modulo 32 in Blackhole's 64-byte word)
            const std::uint64_t target = target_address(b);
            const std::uint32_t be = (len >> ((target & 31u) & ~3u)) & 0xFu;
            if (brcst) {
                if (be != 0xF)
                    unmodelled(fmt_str("issues an inline multicast write of part of a word (byte enables %s)",
                                       hex(be).c_str()));
                dests = multicast_destinations(target, false, noc8);
                inline_dw_write(target & ~std::uint64_t(3), b.reg[l.at_data / 4], 0xF, true, dests, noc8,
                                cur().last_loc);
            } else {
                inline_dw_write(target & ~std::uint64_t(3), b.reg[l.at_data / 4], std::uint8_t(be), false, 1, noc8,
                                cur().last_loc);
            }
        } else {
            const std::uint32_t src = b.reg[l.targ_lo / 4];
            const std::uint64_t dst = return_address(b);
            const bool semaphore = semaphore_write();
            const Loc loc = cur().last_loc;
            if (brcst) {
                const bool loopback = (ctrl & kCmdSrcInclude) != 0;
                dests = multicast_destinations(dst, loopback, noc8);
                if (semaphore)
                    sem_set_multicast(src, dst, dests, loopback, noc8, loc);
                else
                    noc_write_multicast(src, dst, len, dests, (ctrl & kCmdLinked) != 0, loopback, noc8, loc);
            } else if (semaphore) {
                sem_set_remote(src, dst, noc8, loc);
            } else {
                noc_write(src, dst, len, noc8, loc);
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
    noc_read(target_address(b), b.reg[l.ret_lo / 4], len, noc8, cur().last_loc);
    ++n.status[kRdReqSent];
    ++n.status[kRdResp];
}

// A NIU register: a NoC's NOC_CFG or NOC_STATUS word (`offset` is the word's index), or a command
// buffer's register (`offset` from the buffer's base).
struct NiuReg {
    enum Kind { Command, Cfg, Status } kind;
    std::uint32_t noc, buf, offset;
};

NiuReg decode(std::uint32_t addr) {
    const tc_tensix::NiuLayout& l = g_file.layout;
    const std::uint32_t rel = addr - l.regs_start, noc = rel >> l.instance_bits;
    const std::uint32_t in_noc = rel & ((1u << l.instance_bits) - 1);
    if (in_noc >= l.status_base && in_noc < l.status_base + 4 * kStatusWords)
        return {NiuReg::Status, noc, 0, (in_noc - l.status_base) / 4};
    if (in_noc >= l.cfg_base && in_noc < l.status_base) return {NiuReg::Cfg, noc, 0, (in_noc - l.cfg_base) / 4};
    return {NiuReg::Command, noc, in_noc >> l.cmd_buf_bits, in_noc & ((1u << l.cmd_buf_bits) - 1)};
}

bool is_niu(std::uintptr_t addr) {
    const tc_tensix::NiuLayout& l = g_file.layout;
    return addr >= l.regs_start && addr < l.regs_start + (std::uintptr_t(kNocs) << l.instance_bits);
}

// A command-buffer register the model keeps: the words a command is described by, up to NOC_AT_DATA
// (on Blackhole NOC_AT_LEN_BE_1 too, which the API never writes and the model never reads).
bool kept(const NiuReg& r) {
    return r.kind == NiuReg::Command && r.buf < kCmdBufs && r.offset <= g_file.layout.at_data;
}

// Whether the fiber's API call in progress recorded a wait (and is still in progress).
bool call_waits(const Fiber& f, const RealFiber& r) {
    const CallWait& w = r.wait;
    return w.kind != WaitKind::None && w.call == r.call && same_place(w.loc, f.last_loc);
}

// The wait the fiber's API call in progress recorded, if that call is still in progress and the wait
// not yet satisfied (the fiber's wait fields then describe it).
bool unsatisfied_wait(Fiber& f, const RealFiber& r) {
    if (!call_waits(f, r)) return false;
    const CallWait& w = r.wait;
    f.wait = w.kind;
    f.wait_cb = w.cb;
    f.wait_value = w.value;
    f.wait_sem = w.sem;
    const bool satisfied = wait_satisfied(f);
    f.wait = WaitKind::None;
    return !satisfied;
}

// A polling loop's turn for the other fibers. Inside an API call that waits (cb_reserve_back,
// cb_wait_front, noc_semaphore_wait[_min]: the call's check recorded what for) the fiber blocks as
// on the emulator's own API, until the emulator's state satisfies the wait, and a deadlock report
// names the call, at the kernel's line, and what it waits for in the same words. Any other poll only
// yields: a fiber that polls again a place it polled since its last NoC command (the same register
// or loop) only polls; a new place was progress the others may see (the scheduler's livelock count,
// scheduler.cpp). Its deadlock note names the API call in progress, else the polling loop;
// `what` names the poll (a CB counter's only outside an API call, whose name and CB say it).
void poll_at(const void* site, std::string what, bool cb_counter = false) {
    write_back();
    Fiber& f = cur();
    niu(f.core, 0);  // a new device starts with no poll sites
    RealFiber& r = g_fibers[&f];
    if (unsatisfied_wait(f, r)) {
        block(r.wait.kind, r.wait.call, f.last_loc);
    } else {
        if (r.polled.insert(site).second) note_progress();
        if (r.call == nullptr || !cb_counter)
            f.describe_poll = [what = std::move(what)] { return "it polls " + what; };
        yield_now(r.call != nullptr ? r.call : "a polling loop (real dataflow API)", f.last_loc);
        f.describe_poll = nullptr;
    }
    // the kernel reads the semaphore next: if the wait passes, the word's last writer released it
    if (r.sem_event >= 0 && call_waits(f, r) && r.wait.sem != nullptr) trace_sem_released(r.sem_event, r.wait.sem);
}

void mark_activity() { g_fibers[&cur()].polled.clear(); }

// The kernel's API call in progress issues a semaphore write next (CallSemWrite).
void announce_semaphore_write() {
    Fiber& f = cur();
    RealFiber& r = g_fibers[&f];
    r.sem_write = {r.call, f.last_loc};
}

// Records the wait of the kernel's API call in progress (its entry check: api_check).
void record_wait(WaitKind kind, std::int32_t cb, std::uint32_t value, volatile std::uint32_t* sem) {
    Fiber& f = cur();
    RealFiber& r = g_fibers[&f];
    r.wait = {kind, r.call, f.last_loc, cb, value, sem};
}

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
    const NiuLayout& l = tc::g_file.layout;
    tc::Niu& n = tc::niu(cur().core, r.noc);
    if (r.kind != tc::NiuReg::Command)
        tc::unmodelled(tc::fmt_str("writes NoC %u %s word %u (%s)", r.noc,
                                   r.kind == tc::NiuReg::Status ? "NOC_STATUS" : "NOC_CFG", r.offset,
                                   tc::hex(value).c_str()));
    if (r.buf < tc::kCmdBufs && r.offset == l.cmd_ctrl) {
        if ((value & 1u) != 0) tc::issue(n, r.noc, r.buf);
        return;
    }
    if (r.buf == 0 && r.offset == l.clear_outstanding) return;  // nothing is ever outstanding
    if (!tc::kept(r))
        tc::unmodelled(tc::fmt_str("writes %s (NoC %u, command buffer %u)", tc::cmd_reg_name(r.offset), r.noc, r.buf));
    n.buf[r.buf].reg[r.offset / 4] = value;
}

std::uint32_t noc_register_read(std::uint32_t addr) {
    tc::write_back();
    if (!tc::is_niu(addr)) tc::unmodelled("reads NIU address " + tc::hex(addr) + ", outside the NoC registers");
    const tc::NiuReg r = tc::decode(addr);
    const NiuLayout& l = tc::g_file.layout;
    const int core = cur().core;
    tc::Niu& n = tc::niu(core, r.noc);
    if (r.kind == tc::NiuReg::Status) {
        const std::uint32_t counter = r.offset;
        // a barrier polls these: the transfers it waits for are done, so the sanitizer's in-flight lists go
        // (the barrier call itself is the trace's event: api_check)
        tc::poll_at(reinterpret_cast<const void*>(std::uintptr_t(addr)),
                    tc::fmt_str("NoC %u's status counter %s (a NoC barrier)", r.noc, tc::hex(counter).c_str()));
        switch (counter) {
            case tc::kAtomicResp: case tc::kWrAck: case tc::kRdResp: case tc::kRdReqSent:
            case tc::kNonpostedAtomicSent: case tc::kPostedAtomicSent: case tc::kNonpostedWrSent:
            case tc::kPostedWrSent:
                if (counter == tc::kRdResp) tc::noc_transfers_done(tc::Barrier::Reads);
                if (counter == tc::kWrAck || counter == tc::kNonpostedWrSent || counter == tc::kPostedWrSent)
                    tc::noc_transfers_done(tc::Barrier::Writes);
                return n.status[counter];
            default:
                if (counter >= 0x10 && counter < 0x30) return 0;  // per transaction id: nothing outstanding
                tc::unmodelled(tc::fmt_str("reads NoC %u status counter %s (NOC_STATUS)", r.noc,
                                           tc::hex(counter).c_str()));
        }
    }
    if (r.kind == tc::NiuReg::Cfg) {
        if (r.offset == l.noc_id_logical) return tc::node_id(core, r.noc);
        tc::unmodelled(tc::fmt_str("reads NoC %u NOC_CFG word %s", r.noc, tc::hex(r.offset).c_str()));
    }
    if (r.buf < tc::kCmdBufs && r.offset == l.cmd_ctrl) return 0;  // NOC_CTRL_STATUS_READY: done when issued
    if (r.buf < tc::kCmdBufs && r.offset == l.node_id) return tc::node_id(core, r.noc);
    if (!tc::kept(r))
        tc::unmodelled(tc::fmt_str("reads %s (NoC %u, command buffer %u)", tc::cmd_reg_name(r.offset), r.noc, r.buf));
    return n.buf[r.buf].reg[r.offset / 4];
}

volatile void* dataflow_address(std::uintptr_t addr, std::size_t bytes) {
    tc::Device& d = *g_dev;
    tc::Fiber& f = cur();
    const auto window = reinterpret_cast<std::uintptr_t>(d.l1_window);
    if (addr >= window && addr + bytes <= window + d.l1_window_size) return reinterpret_cast<volatile void*>(addr);
    if (const std::uintptr_t reg = tc::mirrored_register(addr)) addr = reg;
    tc::write_back();
    if (addr + bytes <= d.arch.l1_size) return d.l1_host(f.core, std::uint32_t(addr));
    const NiuLayout& l = tc::g_file.layout;
    if (addr >= l.overlay_start && addr < l.overlay_start + 64 * l.stream_space && bytes <= 4 && addr % 4 == 0) {
        const std::uint32_t stream = std::uint32_t(addr - l.overlay_start) / l.stream_space;
        const std::uint32_t reg = std::uint32_t(addr % l.stream_space) / 4;
        tc::Core& core = d.cores[f.core];
        if ((reg == l.tiles_acked_reg || reg == l.tiles_received_reg) && stream < core.cbs.size()) {
            // the CB counters other RISCs change: the RISC polls them (cb_wait_front, cb_reserve_back)
            tc::CircularBuffer& cb = core.cbs[stream];
            tc::poll_at(reinterpret_cast<const void*>(addr),
                        tc::fmt_str("CB %u's %s (%u pages pushed, %u popped)", stream,
                                    reg == l.tiles_received_reg ? "tiles_received" : "tiles_acked",
                                    unsigned(std::uint16_t(cb.received)), unsigned(std::uint16_t(cb.acked))),
                        true);
            return tc::mirror(f.core, stream * 2 + (reg == l.tiles_received_reg), reg == l.tiles_received_reg ? &cb.received
                                                                                                   : &cb.acked, 0);
        }
        tc::unmodelled(tc::fmt_str("accesses stream %u register %u (%s)", stream, reg, tc::hex(addr).c_str()));
    }
    if (addr == l.wall_clock_lo || addr == l.wall_clock_hi) {
        tc::niu(f.core, 0);  // sizes the per-device tables
        std::uint64_t& clock = tc::g_file.clock[std::size_t(f.core)];
        const bool lo = addr == l.wall_clock_lo;
        if (lo) ++clock;
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
        case ApiCheck::CbReserve:
            tc::cb_reserve_checked(cb, b, loc);
            tc::record_wait(tc::WaitKind::CbReserve, cb, b, nullptr);
            return;
        case ApiCheck::CbWait:
            tc::cb_wait_checked(cb, b, loc);
            tc::record_wait(tc::WaitKind::CbWait, cb, b, nullptr);
            return;
        case ApiCheck::SemaphoreWait: case ApiCheck::SemaphoreWaitMin: {
            const bool at_least = call == ApiCheck::SemaphoreWaitMin;
            auto* sem = reinterpret_cast<volatile std::uint32_t*>(std::uintptr_t(a));
            tc::checked_sem(sem, at_least ? "noc_semaphore_wait_min" : "noc_semaphore_wait", loc);
            tc::record_wait(at_least ? tc::WaitKind::SemGe : tc::WaitKind::SemEq, 0, b, sem);
            // the wait's event in the kernel's order; its release is known when the wait passes (poll_at)
            tc::g_fibers[&f].sem_event = tc::trace_sem_wait(sem, b, at_least, loc);
            return;
        }
        case ApiCheck::SemaphoreSet: {
            auto* sem = reinterpret_cast<volatile std::uint32_t*>(std::uintptr_t(a));
            tc::trace_sem_set(tc::checked_sem(sem, "noc_semaphore_set", loc), b, loc);
            return;
        }
        case ApiCheck::SemaphoreSetRemote:
            tc::announce_semaphore_write();
            return;
        case ApiCheck::ReadBarrier: case ApiCheck::WriteBarrier: case ApiCheck::WritesFlushed:
        case ApiCheck::PostedWritesFlushed: case ApiCheck::AtomicBarrier: case ApiCheck::FullBarrier:
            tc::noc_barrier(tc::Barrier(int(call) - int(ApiCheck::ReadBarrier)), std::uint8_t(a), loc);
            return;
        case ApiCheck::CbPush: case ApiCheck::CbPop:
            // the RISC's pointer is the kernel's own (it may move it itself): the emulator's record follows it
            tc::cb_moved_checked(call == ApiCheck::CbPush ? tc::Ev::CbPush : tc::Ev::CbPop, cb, b, c, loc);
            return;
        case ApiCheck::CbReservable: case ApiCheck::CbAvailable: {
            tc::CircularBuffer& buf = tc::cb_checked(
                cb, call == ApiCheck::CbReservable ? "cb_pages_reservable_at_back" : "cb_pages_available_at_front", loc);
            TC_TRACE(tc::Ev::Poll, 0, 0, 0, 0, loc);
            if (c != 0) tc::cb_poll_granted(buf, b, call == ApiCheck::CbReservable);
            return;
        }
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
            if (call == ApiCheck::SemaphoreSetMulticast || call == ApiCheck::SemaphoreSetMulticastLoopback)
                tc::announce_semaphore_write();
            return;
        }
    }
}

void dataflow_poll() {
    // the kernel's own polling loop (not one inside an API call) is a call of the trace, as on the
    // emulator's API (it names the kernel's last API call's line: invalidate_l1_cache takes no call site)
    if (tc::g_fibers[&cur()].call == nullptr) TC_TRACE(tc::Ev::Poll, 0, 0, 0, 0, cur().last_loc);
    tc::poll_at(__builtin_return_address(0), "L1 in a loop (invalidate_l1_cache: a semaphore wait)");
}

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
    tc::niu(f.core, 0);  // a new device's file first: the layout is the device's
    tc::g_file.layout = launch->niu;
    launch->call_site = &f.last_loc;
    tc::RealFiber& real = tc::g_fibers[&f];
    real.call = nullptr;
    launch->call_name = &real.call;
    launch->call_serial = &f.api_call;
    launch->logical_x = std::uint8_t(core.lx);
    launch->logical_y = std::uint8_t(core.ly);
    for (std::uint32_t noc = 0; noc < 2; ++noc) {
        for (std::uint32_t bank = 0; bank < tc::num_banks(true) && bank < std::uint32_t(kDataflowBanks); ++bank)
            launch->dram_xy[noc][bank] = std::uint16_t(tc::bank_xy(true, bank, std::uint8_t(noc)));
        for (std::uint32_t bank = 0; bank < tc::num_banks(false) && bank < std::uint32_t(kDataflowBanks); ++bank)
            launch->l1_xy[noc][bank] = std::uint16_t(tc::bank_xy(false, bank, std::uint8_t(noc)));
    }
    for (const tc::Core& c : d.cores) {
        if (c.lx < kDataflowGrid) launch->col_to_virtual[c.lx] = c.vx;
        if (c.ly < kDataflowGrid) launch->row_to_virtual[c.ly] = c.vy;
    }
}

}  // namespace tc_tensix
