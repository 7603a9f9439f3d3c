// The emulated device: cores with their L1, circular buffers, semaphores and compute engine,
// DRAM banks, the NoC's coordinate maps, the fibers that run the kernels, and the findings.
//
// Addresses. Each core's L1 lives in one host mapping below 2 GiB (MAP_32BIT), one fixed-size
// slot per core, so the 32-bit addresses the API hands a kernel (get_write_ptr, get_semaphore)
// are real host pointers the kernel may cast and dereference, as on the device. The NoC needs
// only the offset inside a core's L1: any L1 address a kernel passes to a NoC call is reduced to
// its offset (an offset given directly, e.g. a buffer address from the host, is taken as is), and
// the destination core comes from the NoC coordinates, as on hardware.
#pragma once

#include <ucontext.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tc_emu/runtime.h"
#include "trace.h"

namespace tc {

// tt-metal DataFormat enumerators (tensix_types.h values)
namespace fmt {
constexpr std::uint8_t Float32 = 0, Float16 = 1, Bfp8 = 2, Bfp4 = 3, Tf32 = 4, Float16_b = 5, Bfp8_b = 6,
                       Bfp4_b = 7, Int32 = 8, UInt16 = 9, Int8 = 14, UInt32 = 24, UInt8 = 30, Invalid = 255;
}
const char* format_name(std::uint8_t f);
std::uint32_t format_tile_bytes(std::uint8_t f, std::uint32_t rows, std::uint32_t cols);

constexpr int kSlots = 3;  // RISC slots that run kernels: BRISC, NCRISC, compute (TRISC0-2 together)
enum Slot : int { BRISC = 0, NCRISC = 1, TRISC = 2 };
const char* slot_name(int slot);

struct TileShape {
    std::uint32_t rows = 32, cols = 32;
    std::uint32_t face_rows() const { return rows < 16 ? rows : 16; }
    std::uint32_t faces_r() const { return rows / face_rows(); }
    std::uint32_t faces_c() const { return cols / 16; }
    std::uint32_t elems() const { return rows * cols; }
    // index of logical element (r, c) in the face-ordered storage of a tile
    std::uint32_t at(std::uint32_t r, std::uint32_t c) const {
        if (rows == 32 && cols == 32) return ((((r >> 4) << 1) | (c >> 4)) << 8) | ((r & 15u) << 4) | (c & 15u);
        std::uint32_t fr = face_rows();
        return ((r / fr) * faces_c() + c / 16) * fr * 16 + (r % fr) * 16 + c % 16;
    }
};

struct CircularBuffer {
    bool configured = false;
    std::uint32_t addr = 0, size = 0, page_size = 0, num_pages = 0;  // addr: L1 offset
    std::uint8_t format = fmt::Invalid;
    TileShape tile;
    std::uint32_t received = 0, acked = 0;  // pages pushed / popped since the start
    std::uint32_t wr_ptr[kSlots] = {}, rd_ptr[kSlots] = {};  // L1 offsets, one pair per RISC
    std::uint32_t reserved[kSlots] = {}, waited[kSlots] = {};  // pages the RISC may write / read
    std::uint32_t pack_tile_ptr = 0;  // packer's in-order page within the reserved pages
    std::uint32_t limit() const { return addr + size; }
    // 16-bit, as the stream registers holding the counts in hardware: the Tensix machine's TRISCs
    // write them back as 16-bit values (tensix/bridge/compute_bridge.cpp)
    std::uint32_t occupied() const { return std::uint16_t(received - acked); }
};

// An L1 or DRAM region the host placed (a tensor's pages in one bank): bounds for the sanitizer.
struct Region {
    std::uint64_t start, end;
    std::string what;
    bool written = false;  // a NoC write landed in it (DRAM: the host reads back only those)
};

struct Kernel {
    void* lib = nullptr;  // dlopen handle
    void (*entry)() = nullptr;
    std::string name;
    std::uint8_t noc = 0;
    // a compute kernel's DST mode and UnpackToDestFp32 flags (ComputeConfigDescriptor), for the
    // sanitizer's DST and unpack checks (compute.cpp)
    bool fp32_dest_acc = false, dst_full_sync = false;
    std::uint8_t unpack_to_dest_fp32[64] = {};
    // A compute kernel on the Tensix machine: its UNPACK, MATH and PACK objects and their entry
    // points; `entry` is then the compute bridge's (tensix/bridge/).
    void* trisc_libs[3] = {};
    void* trisc_mains[3] = {};
};

enum class WaitKind : std::uint8_t { None, CbReserve, CbWait, SemEq, SemGe, Poll };

struct Fiber {
    ucontext_t ctx{};
    void* stack = nullptr;
    std::size_t stack_size = 0;
    int core = 0, slot = 0;
    Kernel* kernel = nullptr;
    bool done = false, started = false;
    WaitKind wait = WaitKind::None;
    std::int32_t wait_cb = 0;
    std::uint32_t wait_value = 0;
    volatile std::uint32_t* wait_sem = nullptr;
    const char* wait_call = "";
    Loc wait_loc{};
    Loc last_loc{};  // the last API call (for crash reports)
    std::function<std::string()> describe_poll;  // set while a Poll wait has more to say (deadlock report)
    std::vector<std::uint32_t> args, common_args;
    // The real dataflow API's kernel calls so far (its outermost API scopes count them; 0 on the
    // emulator's own API), and the trace's last NoC transfer event of this RISC: a transfer the same
    // call issues next, from where that one ended, is its next packet (dataflow.cpp).
    std::uint64_t api_call = 0;
    struct OpenTransfer {
        std::int64_t event = -1;
        std::uint64_t call = 0, remote = 0;
        std::uint32_t local = 0;
    } open_transfer;
};

// A NoC transfer issued and not yet covered by a barrier: [start, end) of local L1.
struct InFlight {
    std::uint32_t start, end;
    Loc loc;
};

struct Compute;  // compute.cpp

struct Core {
    int index = 0, lx = 0, ly = 0;  // logical coordinates
    std::uint8_t nx = 0, ny = 0;    // physical NOC 0 coordinates (the NoC routes in these)
    std::uint8_t vx = 0, vy = 0;    // the coordinates kernels see: 0.81.1 virtual coordinates (both NoCs)
    std::uint8_t my_x[2] = {}, my_y[2] = {};
    std::uint8_t* l1 = nullptr;
    std::vector<CircularBuffer> cbs;
    Fiber* fibers[kSlots] = {};
    std::vector<InFlight> reads[kSlots], writes[kSlots];
    std::vector<Region> l1_regions;
    Compute* compute = nullptr;
    bool semaphore_used[16] = {};
    std::vector<CbInterface> cb_views[kSlots];  // get_local_cb_interface, per RISC (allocated on first use)
};

struct DramBank {
    std::uint8_t nx = 0, ny = 0;
    std::uint8_t* mem = nullptr;
    std::uint64_t size = 0;
    std::vector<Region> regions;
};

struct NoteRec {
    std::string message;
    Loc loc;
    int core, slot;
};

struct Finding {
    bool error = true;
    std::string code, message, hint;
    Loc loc;
    int core = -1, slot = -1;
    std::vector<NoteRec> notes;
};

struct Arch {
    std::uint32_t l1_size = 0, l1_reserved = 0, num_cbs = 32;
    std::uint32_t sem_base = 0, args_base = 0;
    std::uint32_t noc_size_x = 0, noc_size_y = 0;
    std::uint32_t dram_alignment = 32, l1_alignment = 16;
};

struct Device {
    Arch arch;
    std::uint8_t* l1_window = nullptr;
    std::size_t l1_stride = 0, l1_window_size = 0;
    std::vector<Core> cores;
    std::vector<int> xy_core;  // noc_size_x * noc_size_y -> core index or -1
    int virt_px[64], virt_py[64];  // virtual worker column/row -> physical, -1 where none
    std::vector<int> xy_dram;  // -> DRAM bank or -1
    std::vector<DramBank> dram;
    std::vector<int> l1_banks;  // L1 bank -> core index
    std::vector<Kernel*> kernels;
    std::vector<Fiber*> fibers;
    std::vector<Finding> findings;
    std::string dprint_buffer, dprint_log;
    bool sanitize_fatal = true;  // a sanitizer error stops the run (else: recorded, the run goes on)
    bool aborted = false;
    std::uint64_t switches = 0;
    std::uint64_t serial = 0;  // distinct for every device made in this process (keys per-run caches)
    std::string findings_json;
    Trace trace;  // the profiling trace (trace.h), off unless the host enables it
    ucontext_t scheduler_ctx{};
    Fiber* current = nullptr;

    Core& core_at_xy(int x, int y);
    int core_index_at(std::uint32_t x, std::uint32_t y) const;
    // virtual worker coordinates -> physical ones (anything else is returned unchanged)
    void to_physical(std::uint32_t& x, std::uint32_t& y) const;
    int dram_bank_at(std::uint32_t x, std::uint32_t y) const;
    std::uint8_t* l1_host(int core, std::uint32_t offset) { return l1_window + core * l1_stride + offset; }
    std::uint32_t l1_addr(int core, std::uint32_t offset) {
        return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(l1_host(core, offset)));
    }
    // L1 offset of an address a kernel holds (a host address in any core's slot, or an offset)
    bool l1_offset(std::uint64_t addr, std::uint32_t& offset, int* owner = nullptr) const;
};

extern Device* g_dev;

inline Fiber& cur() { return *g_dev->current; }
inline Core& cur_core() { return g_dev->cores[g_dev->current->core]; }

// ---------------------------------------------------------------- findings
// Records a finding at the current fiber; a fatal error stops the run (the fiber never resumes).
void report(bool error, const char* code, Loc loc, const std::string& message, const std::string& hint = "");
void report_at(bool error, const char* code, Loc loc, int core, int slot, const std::string& message,
               const std::string& hint, std::vector<NoteRec> notes = {});
// An error that ends the run whatever the sanitizer setting: the kernel cannot go on past it.
[[noreturn]] void stop_here(const char* code, Loc loc, const std::string& message, const std::string& hint);
std::string core_name(int core);
std::string where(int core, int slot);
std::string fmt_str(const char* format, ...) __attribute__((format(printf, 1, 2)));

// ---------------------------------------------------------------- scheduling (scheduler.cpp)
// Park the current fiber until its wait is satisfied (or the run stops).
void block(WaitKind kind, const char* call, Loc loc);
void yield_now(const char* call = "a polling loop", Loc loc = Loc());  // give the other fibers a turn
// Marks a change other fibers can observe (ends a polling-only livelock count).
void note_progress();
bool wait_satisfied(const Fiber& f);
void run_all();
// What a fiber blocked in cb_reserve_back (CbReserve) or cb_wait_front (CbWait) of `pages` pages of
// CB `cb` waits for, as the deadlock report words it (also for the Tensix machine's TRISCs).
std::string cb_wait_state(WaitKind kind, int core, std::int32_t cb, std::uint32_t pages);

// ---------------------------------------------------------------- circular buffers (dataflow.cpp)
CircularBuffer& cb_checked(std::int32_t cb, const char* call, Loc loc);
// The CB, or nullptr after reporting E5209 (not configured on this core) without stopping the fiber.
CircularBuffer* cb_found(std::int32_t cb, const char* call, Loc loc);
// A CB call of a compute kernel on the Tensix machine, in the kernel's order: the checks the call
// makes here and the compute RISC's view of the CB (pages reserved or waited for, its pointers),
// the same checks as cb_reserve_checked and the others below; the TRISCs move the shared counters
// (received, acked) themselves.
void cb_call_on_machine(Ev kind, std::int32_t cb, std::uint32_t pages, Loc loc);
// The checks of a CB call and the calling RISC's own record of it (reserved and waited-for pages,
// its read and write pointers), without moving the CB's counters (dataflow.cpp): the emulator's
// API moves them itself; on the real dataflow API Tenstorrent's code does (noc_niu.cpp's api_check).
CircularBuffer& cb_reserve_checked(std::int32_t cb, std::uint32_t pages, Loc loc);
CircularBuffer& cb_wait_checked(std::int32_t cb, std::uint32_t pages, Loc loc);
CircularBuffer& cb_push_checked(std::int32_t cb, std::uint32_t pages, Loc loc);
CircularBuffer& cb_pop_checked(std::int32_t cb, std::uint32_t pages, Loc loc);
// cb_push_checked (`kind` CbPush) or cb_pop_checked (CbPop) of a RISC that moves its own pointer
// into the CB (the real dataflow API's, at the L1 address `ptr` before the call): the emulator's
// record of the pointer follows the kernel's before the checks.
void cb_moved_checked(Ev kind, std::int32_t cb, std::uint32_t pages, std::uint32_t ptr, Loc loc);
// cb_pages_reservable_at_back (`reserve`) or cb_pages_available_at_front found `pages` pages: the
// RISC may now write (read) them as after cb_reserve_back (cb_wait_front).
void cb_poll_granted(CircularBuffer& b, std::uint32_t pages, bool reserve);
// How many cores a multicast to the rectangle of NoC address `addr` reaches (the sender only with
// `loopback`): the acknowledgements the NIU counts (runtime/noc_niu.cpp).
std::uint32_t multicast_destinations(std::uint64_t addr, bool loopback, std::uint8_t noc);
// The checks of a multicast's rectangle and destination count (E5305, E5306) before it is issued
// (the real dataflow API's multicasts: noc_niu.cpp's api_check).
void multicast_checked(std::uint64_t addr, std::uint32_t num_dests, bool loopback, std::uint32_t noc, const char* call,
                       Loc loc);
// The transfers of the current RISC a barrier of `kind` waits for are complete: the sanitizer's
// in-flight lists drop them (noc_barrier without the trace event: the real dataflow API's status
// counter reads, which its barrier calls loop over).
void noc_transfers_done(Barrier kind);
// `sem` if it is a 4-byte aligned L1 word of the current core, else E5302 naming `call` (a semaphore
// call of either dataflow API).
volatile std::uint32_t* checked_sem(volatile std::uint32_t* sem, const char* call, Loc loc);
// The trace's semaphore events of either dataflow API (when a trace is recorded): a wait on the
// local word `sem` (its event; -1 when none is recorded), released by the word's last writer so far;
// the same wait released by the word's last writer now (the real API's wait ends in its own
// polling loop); a local set of the word.
std::int64_t trace_sem_wait(volatile std::uint32_t* sem, std::uint32_t value, bool at_least, Loc loc);
void trace_sem_released(std::int64_t event, volatile std::uint32_t* sem);
void trace_sem_set(volatile std::uint32_t* sem, std::uint32_t value, Loc loc);

// ---------------------------------------------------------------- compute (compute.cpp)
Compute* new_compute();
void compute_configure(Device* d, int core, const Kernel* k);
void delete_compute(Compute* c);

}  // namespace tc
