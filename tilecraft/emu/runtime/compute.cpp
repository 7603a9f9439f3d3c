// The compute engine: DST ownership, the unpacker/packer format state machines and the FPU.
//
// One fiber runs a core's whole compute kernel; the UNPACK, MATH and PACK parts of each API call
// run in program order. What the three threads share on the device is modelled as state:
//  * DST: 16 tiles of 16-bit data (8 with fp32_dest_acc_en), in two halves unless
//    dst_full_sync_en; math owns a half from tile_regs_acquire to tile_regs_commit, the packer
//    from tile_regs_wait to tile_regs_release, which zeroes it. Without fp32_dest_acc_en every value
//    written into DST is rounded to bfloat16 (DST holds Float16_b).
//  * the unpackers' SrcA/SrcB formats and the packer's output format: set by
//    compute_kernel_hw_startup and changed only by the reconfig calls (the *_init calls do not
//    touch them in 0.81.1). An unpack decodes L1 with the configured format, a pack encodes with
//    it; when that is not the CB's format the sanitizer reports it (and, if told to go on, the
//    bytes are misread or overrun as on the device).
//  * what math and unpack were initialised for (copy, add, matmul, reduce, ...).
// Register precision: fp32 data unpacks into SrcA/SrcB as TF32 (13 mantissa bits dropped) when
// DST is fp32, as bfloat16 otherwise; copy_tile reaches DST in full fp32 only for CBs in
// UnpackToDestFp32 mode. FPU results follow the device's arithmetic (fpu.h): multiplies in the
// kernel's math-fidelity phases, products summed with the matrix unit's precision, DST rounded
// after every instruction; the packer rounds as the device's does.
#include "compute.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "formats.h"
#include "fpu.h"

namespace tc {

Compute* new_compute() { return new Compute(); }
void delete_compute(Compute* c) { delete c; }

void compute_configure(Device* d, int core, const Kernel* k) {
    Compute& c = *d->cores[core].compute;
    c.fp32 = k->fp32_dest_acc;
    c.full_sync = k->dst_full_sync;
    c.approx = k->approx;
    c.fidelity_phases = fpu::phases(k->math_fidelity);
    c.pack_precise = k->bfp8_pack_precise;
    c.unpack_to_dest = k->unpack_to_dest_fp32;
    for (int t = 0; t < Compute::kTiles; ++t) c.dst_cleared[t] = true;
}

void require_started(const char* call, Loc loc) {
    if (!comp().started) {
        report(true, "E5410", loc,
               fmt_str("%s before compute_kernel_hw_startup: the unpacker and packer formats are not configured",
                       call),
               "call compute_kernel_hw_startup(icb0, icb1, ocb) once at the start of the compute kernel");
    }
}

void require_waited(const CircularBuffer& b, std::uint32_t cb, std::uint32_t tile, const char* call, Loc loc) {
    if (tile >= b.waited[TRISC]) {
        report(true, "E5207", loc,
               fmt_str("%s reads tile %u of CB %u, but only %u pages were waited for with cb_wait_front", call, tile,
                       cb, b.waited[TRISC]),
               "call cb_wait_front(cb, n) with n covering the tiles read");
    }
}

bool direct_to_dest(std::uint32_t cb) {
    const Compute& c = comp();
    return c.fp32 && c.unpack_to_dest && c.unpack_to_dest[cb];
}

std::uint8_t unpack_format(int src, std::uint32_t cb, std::uint32_t tile, const char* call, Loc loc, bool to_dest,
                           bool matmul) {
    Compute& c = comp();
    require_started(call, loc);
    CircularBuffer& b = cb_checked(std::int32_t(cb), call, loc);
    std::uint8_t f = c.src_fmt[src];
    const char* reg = src == 0 ? "SrcA" : "SrcB";
    if (f != b.format) {
        std::string hint =
            matmul && c.src_fmt[1 - src] == b.format
                ? "matmul reads in0 through SrcB and in1 through SrcA: start up with "
                  "compute_kernel_hw_startup<SrcOrder::Reverse>(in0, in1, out), or reconfigure with "
                  "reconfig_data_format<SrcOrder::Reverse>(in0, in1)"
                : fmt_str("reconfigure the unpacker for CB %u before this call: reconfig_data_format%s(%u)", cb,
                          src == 0 ? "_srca" : "_srcb", cb);
        report(true, "E5402", loc,
               fmt_str("%s unpacks CB %u (%s) through %s, which is configured for %s (CB %d)", call, cb,
                       format_name(b.format), reg, format_name(f), c.src_cb[src]),
               hint);
        if (f == 255) f = b.format;  // nothing configured at all: read as the CB's format
    }
    require_waited(b, cb, tile, call, loc);
    if (f == fmt::Float32 && to_dest && c.fp32 && !direct_to_dest(cb)) {
        report(false, "E5411", loc,
               fmt_str("%s unpacks Float32 CB %u through SrcA as TF32: the low 13 mantissa bits of every value are "
                       "dropped",
                       call, cb),
               fmt_str("to keep fp32, set unpack_to_dest_mode[%u] = UnpackToDestFp32 in the ComputeConfigDescriptor "
                       "(copies then go straight to DST)",
                       cb));
    }
    return f;
}

namespace {

const char* mode_name(Mode m) {
    switch (m) {
        case Mode::None: return "nothing (no init call yet)";
        case Mode::Copy: return "copy (copy_init)";
        case Mode::Binary: return "an eltwise binary op (add_init/sub_init/mul_init)";
        case Mode::BinaryBcast: return "a broadcast binary op (*_bcast_*_init)";
        case Mode::UnaryBcast: return "a unary broadcast (unary_bcast_init)";
        case Mode::Matmul: return "matmul (matmul_init)";
        case Mode::Reduce: return "reduce (reduce_init)";
        case Mode::Transpose: return "transpose (transpose_init)";
        case Mode::Tilize: return "tilize (tilize_init)";
        case Mode::Untilize: return "untilize (untilize_init)";
        case Mode::ReuseDest: return "a dest-reuse binary op (*_reuse_dest_init)";
        case Mode::PackUntilize: return "pack_untilize (pack_untilize_init)";
    }
    return "?";
}

const char* fpu_name(Fpu op) { return op == Fpu::Add ? "add" : op == Fpu::Sub ? "sub" : "mul"; }

}  // namespace

void require_mode(Mode want, std::uint32_t param, const char* call, const char* init, Loc loc) {
    Compute& c = comp();
    if (c.mode == want && c.mode_param == param) return;
    std::string last = c.mode_loc.line() ? fmt_str(" (last init at %s:%u)", c.mode_loc.file_name(), c.mode_loc.line()) : "";
    report(true, "E5409", loc,
           fmt_str("%s while the unpacker and math are initialised for %s%s", call, mode_name(c.mode), last.c_str()),
           fmt_str("call %s before %s: each init programs the unpacker and math for its operation", init, call));
}

namespace {

std::uint32_t pack_section_tile(std::uint32_t index) {
    Compute& c = comp();
    return std::uint32_t(c.pack_sec) * c.capacity() + index;
}

struct Operand {
    std::uint32_t words[Compute::kElems];
    bool integer = false;
    TileShape shape;
};

// Reads tile `tile` of CB `cb` through source register `src` (0: SrcA, 1: SrcB); `to_dest`: a
// copy into DST, which bypasses SrcA for fp32 CBs in UnpackToDestFp32 mode.
void unpack(int src, std::uint32_t cb, std::uint32_t tile, Operand& out, const char* call, Loc loc,
            bool to_dest = false, bool matmul = false, bool decode = true) {
    Compute& c = comp();
    const std::uint8_t f = unpack_format(src, cb, tile, call, loc, to_dest, matmul);
    CircularBuffer& b = cur_core().cbs[cb];
    out.shape = b.tile;
    if (!decode) return;  // the checks only: the caller holds the decoded tile
    std::uint32_t addr = b.rd_ptr[TRISC] + tile * b.page_size;
    std::uint32_t bytes = format_tile_bytes(f, b.tile.rows, b.tile.cols);
    if (addr + bytes > g_dev->arch.l1_size) {
        report(true, "E5302", loc, fmt_str("%s: tile %u of CB %u lies past the end of L1", call, tile, cb));
        std::memset(out.words, 0, sizeof out.words);
        return;
    }
    decode_tile(f, g_dev->l1_host(cur().core, addr), b.tile, out.words);
    out.integer = is_integer_format(f);
    if (f != fmt::Float32) return;  // every other float format is exact in TF32 and in bfloat16
    if (to_dest && direct_to_dest(cb)) return;  // straight to DST
    for (std::uint32_t i = 0; i < out.shape.elems(); ++i)
        out.words[i] = as_bits(c.fp32 ? tf32_trunc(as_float(out.words[i])) : bf16_trunc(as_float(out.words[i])));
}

float value(const Operand& o, std::uint32_t i) {
    return o.integer ? float(std::int32_t(o.words[i])) : as_float(o.words[i]);
}

// an operand as the FPU's source registers hold it (fp32 bits of a bfloat16 or TF32 value)
std::uint32_t src_bits(const Operand& o, std::uint32_t i) {
    return o.integer ? as_bits(float(std::int32_t(o.words[i]))) : o.words[i];
}

// integer operands: the INT8/INT32 math of the matrix unit is not modelled, fp32 arithmetic instead
float fpu_int(Fpu op, float a, float b) {
    switch (op) {
        case Fpu::Add: return a + b;
        case Fpu::Sub: return a - b;
        case Fpu::Mul: return a * b;
    }
    return 0.0f;
}

// the DST word an FPU instruction accumulates onto
std::uint32_t dst_bits(int tile, std::uint32_t i) { return as_bits(dst_value(tile, i)); }

// One eltwise FPU instruction sequence for one element, as the LLK issues it: ELWADD/ELWSUB once
// (onto DST only when `acc`), ELWMUL once per fidelity phase, always accumulating onto DST.
std::uint32_t fpu_eltwise(Fpu op, std::uint32_t a, std::uint32_t b, std::uint32_t dst, bool acc) {
    Compute& c = comp();
    if (op == Fpu::Mul) {
        for (int phase = 0; phase < c.fidelity_phases; ++phase) dst = fpu::mul(a, b, dst, phase, c.fp32);
        return dst;
    }
    return fpu::add(a, op == Fpu::Sub ? b ^ 0x80000000u : b, dst, acc, c.fp32);
}

void write_float(int tile, std::uint32_t i, float v) {
    Compute& c = comp();
    c.dst[tile][i] = to_dst(v);
}


// src register view of a DST tile moved back into SrcA/SrcB (dest reuse): 19 bits
float to_src_register(float v) { return comp().fp32 ? tf32_trunc(v) : v; }

}  // namespace

void dst_fresh(int tile, bool integer) {
    Compute& c = comp();
    c.dst_int[tile] = integer;
    c.dst_cleared[tile] = false;
    c.dst_reduce[tile] = 0;
}

void dst_reduced(int tile, RDim dim) {
    dst_fresh(tile, false);
    comp().dst_reduce[tile] = std::int8_t(1 + int(dim));
}

std::uint32_t dst_written(std::uint32_t index, const char* call, Loc loc) {
    Compute& c = comp();
    require_started(call, loc);
    Compute::Sec s = c.sec[c.math_sec];
    if (s != Compute::Sec::Math && s != Compute::Sec::Both) {
        report(true, "E5405", loc,
               fmt_str("%s writes DST without owning it: call tile_regs_acquire() first", call),
               "math owns DST from tile_regs_acquire() to tile_regs_commit()");
    }
    if (index >= c.capacity()) {
        report(true, "E5404", loc,
               fmt_str("%s uses DST tile %u, but DST holds %u tiles here (%s, %s)", call, index, c.capacity(),
                       c.fp32 ? "fp32_dest_acc_en: 32-bit tiles" : "16-bit tiles",
                       c.full_sync ? "dst_full_sync_en" : "half sync: math owns one half"),
               "split the work into chunks of at most that many tiles per tile_regs_acquire");
        index %= c.capacity();
    }
    return index;
}

int math_dst(std::uint32_t index, const char* call, Loc loc) {
    Compute& c = comp();
    if (c.sec[c.math_sec] == Compute::Sec::Both && index < 32 && (c.packed_before_commit >> index & 1u)) {
        // on the device the earlier pack of this tile runs after the commit, so it would see this write
        not_modelled(fmt_str("%s into DST tile %u after a pack_tile of it between tile_regs_wait() and "
                             "tile_regs_commit() (that pack runs at the commit on the device)", call, index).c_str(),
                     loc);
    }
    return int(std::uint32_t(c.math_sec) * c.capacity() + dst_written(index, call, loc));
}

// ---------------------------------------------------------------- configuration
void hw_startup(std::uint32_t src_a_cb, std::uint32_t src_b_cb, std::uint32_t out_cb, Loc loc) {
    TC_TRACE(Ev::HwStartup, src_a_cb, src_b_cb, out_cb, 0, loc);
    Compute& c = comp();
    cur().last_loc = loc;
    CircularBuffer& a = cb_checked(std::int32_t(src_a_cb), "compute_kernel_hw_startup", loc);
    CircularBuffer& b = cb_checked(std::int32_t(src_b_cb), "compute_kernel_hw_startup", loc);
    CircularBuffer& o = cb_checked(std::int32_t(out_cb), "compute_kernel_hw_startup", loc);
    c.src_fmt[0] = a.format;
    c.src_cb[0] = int(src_a_cb);
    c.src_fmt[1] = b.format;
    c.src_cb[1] = int(src_b_cb);
    c.pack_fmt = o.format;
    c.pack_cb = int(out_cb);
    c.started = true;
}

void reconfig_src(int which, std::uint32_t old_cb, std::uint32_t new_cb, bool has_old, Loc loc) {
    TC_TRACE(Ev::Reconfig, new_cb, 0, 0, 0, loc);
    configure_src(which, old_cb, new_cb, has_old, loc);
}

void configure_src(int which, std::uint32_t old_cb, std::uint32_t new_cb, bool has_old, Loc loc) {
    Compute& c = comp();
    cur().last_loc = loc;
    const char* call = which == 0 ? "reconfig_data_format_srca" : "reconfig_data_format_srcb";
    CircularBuffer& n = cb_checked(std::int32_t(new_cb), call, loc);
    if (has_old) {
        // the (old, new) form reprograms only when the two CBs' formats differ
        CircularBuffer& o = cb_checked(std::int32_t(old_cb), call, loc);
        if (o.format == n.format) return;
    }
    c.src_fmt[which] = n.format;
    c.src_cb[which] = int(new_cb);
}

void reconfig_pack(std::uint32_t old_cb, std::uint32_t new_cb, bool has_old, Loc loc) {
    TC_TRACE(Ev::Reconfig, new_cb, 1, 0, 0, loc);
    configure_pack(old_cb, new_cb, has_old, loc);
}

void configure_pack(std::uint32_t old_cb, std::uint32_t new_cb, bool has_old, Loc loc) {
    Compute& c = comp();
    cur().last_loc = loc;
    CircularBuffer& n = cb_checked(std::int32_t(new_cb), "pack_reconfig_data_format", loc);
    if (has_old) {
        CircularBuffer& o = cb_checked(std::int32_t(old_cb), "pack_reconfig_data_format", loc);
        if (o.format == n.format) return;
    }
    c.pack_fmt = n.format;
    c.pack_cb = int(new_cb);
}

void set_fp32_dest_acc(bool enable, Loc loc) {
    TC_TRACE(Ev::Reconfig, enable, 2, 0, 0, loc);
    cur().last_loc = loc;
    comp().fp32 = enable;
}

void init_mode(Mode mode, std::uint32_t cb_a, std::uint32_t cb_b, std::uint32_t param, Loc loc) {
    TC_TRACE(Ev::Init, std::uint32_t(mode), cb_a, cb_b, 0, loc);
    set_mode(mode, cb_a, cb_b, param, loc);
}

void set_mode(Mode mode, std::uint32_t cb_a, std::uint32_t cb_b, std::uint32_t param, Loc loc) {
    Compute& c = comp();
    cur().last_loc = loc;
    c.mode = mode;
    c.mode_a = cb_a;
    c.mode_b = cb_b;
    c.mode_param = param;
    c.mode_loc = loc;
}

// the emulator keeps one configuration for a binary's unpackers and math (init_mode); an unpacker
// init that disagrees with it (other operands, another broadcast of srcB) is not modelled
void unpack_ab_init(Bcast bcast, std::uint32_t cb_a, std::uint32_t cb_b, Loc loc) {
    Compute& c = comp();
    cur().last_loc = loc;
    bool binary = c.mode == Mode::Binary || c.mode == Mode::BinaryBcast;
    if (!binary || c.mode_a != cb_a || c.mode_b != cb_b || (c.mode_param & 0xF) != std::uint32_t(bcast))
        not_modelled("llk_unpack_AB_init without a preceding llk_math_eltwise_binary_init of the same operands and "
                     "broadcast",
                     loc);
}

// ---------------------------------------------------------------- DST ownership
void regs_acquire(Loc loc) {
    TC_TRACE(Ev::Acquire, 0, 0, 0, 0, loc);
    Compute& c = comp();
    cur().last_loc = loc;
    // compute_kernel_hw_startup initialises the semaphore math waits on here: without it the device hangs
    require_started("tile_regs_acquire", loc);
    Compute::Sec& s = c.sec[c.math_sec];
    if (s == Compute::Sec::Math || s == Compute::Sec::Both) {
        report(true, "E5405", loc, "tile_regs_acquire() while math already holds DST (no tile_regs_commit() since)",
               "pair every tile_regs_acquire() with a tile_regs_commit()");
        return;
    }
    if (s != Compute::Sec::Free) {
        report(true, "E5405", loc,
               "tile_regs_acquire() waits for a DST half the packer has not released: in one compute kernel the "
               "release comes later, so the three compute threads deadlock",
               "release DST (tile_regs_wait, pack, tile_regs_release) before acquiring it again");
        return;
    }
    s = Compute::Sec::Math;
}

void regs_commit(Loc loc) {
    TC_TRACE(Ev::Commit, 0, 0, 0, 0, loc);
    Compute& c = comp();
    cur().last_loc = loc;
    Compute::Sec& s = c.sec[c.math_sec];
    if (s != Compute::Sec::Math && s != Compute::Sec::Both) {
        report(true, "E5405", loc, "tile_regs_commit() without tile_regs_acquire()",
               "math owns DST from tile_regs_acquire() to tile_regs_commit()");
        return;
    }
    s = s == Compute::Sec::Both ? Compute::Sec::Pack : Compute::Sec::Committed;  // Both: the packer waits already
    c.math_sec = (c.math_sec + 1) % c.sections();
}

void regs_wait(Loc loc) {
    TC_TRACE(Ev::RegsWait, 0, 0, 0, 0, loc);
    Compute& c = comp();
    cur().last_loc = loc;
    Compute::Sec& s = c.sec[c.pack_sec];
    if (s == Compute::Sec::Math) {  // the packer's wait returns at the commit math issues next
        s = Compute::Sec::Both;
        c.packed_before_commit = 0;
        return;
    }
    if (s != Compute::Sec::Committed) {
        report(true, "E5403", loc,
               s == Compute::Sec::Pack ? "tile_regs_wait() while the packer already holds DST"
                                       : "tile_regs_wait() before math committed DST: the packer would wait forever",
               "the order is tile_regs_acquire, math, tile_regs_commit, tile_regs_wait, pack, tile_regs_release");
        return;
    }
    s = Compute::Sec::Pack;
}

void regs_release(Loc loc) {
    TC_TRACE(Ev::Release, 0, 0, 0, 0, loc);
    Compute& c = comp();
    cur().last_loc = loc;
    Compute::Sec& s = c.sec[c.pack_sec];
    if (s != Compute::Sec::Pack) {
        report(true, "E5403", loc, "tile_regs_release() without tile_regs_wait()",
               "the packer owns DST from tile_regs_wait() to tile_regs_release()");
        return;
    }
    std::uint32_t cap = c.capacity();
    for (std::uint32_t i = 0; i < cap; ++i) {
        int t = int(std::uint32_t(c.pack_sec) * cap + i);
        std::memset(c.dst[t], 0, sizeof c.dst[t]);
        c.dst_cleared[t] = true;
        c.dst_int[t] = false;
        c.dst_reduce[t] = 0;
    }
    s = Compute::Sec::Free;
    c.pack_sec = (c.pack_sec + 1) % c.sections();
}

// ---------------------------------------------------------------- FPU operations
void copy_tile(std::uint32_t cb, std::uint32_t tile, std::uint32_t dst, Loc loc) {
    TC_TRACE(Ev::Copy, trace_page_bytes(cb), 0, 0, 0, loc);
    cur().last_loc = loc;
    require_mode(Mode::Copy, 0, "copy_tile", "copy_init(cb)", loc);
    static Operand a;
    unpack(0, cb, tile, a, "copy_tile", loc, /*to_dest=*/true);
    int t = math_dst(dst, "copy_tile", loc);
    Compute& c = comp();
    dst_fresh(t, a.integer);
    for (std::uint32_t i = 0; i < a.shape.elems(); ++i)
        c.dst[t][i] = a.integer ? a.words[i] : to_dst(as_float(a.words[i]));
}

static std::uint32_t bcast_index(Bcast bcast, const TileShape& s, std::uint32_t i, std::uint32_t row_idx) {
    // face-ordered index i -> (r, c)
    std::uint32_t fr = s.face_rows(), face = i / (fr * 16), within = i % (fr * 16);
    std::uint32_t r = (face / s.faces_c()) * fr + within / 16, c = (face % s.faces_c()) * 16 + within % 16;
    switch (bcast) {
        case Bcast::Row: return s.at(row_idx, c);
        case Bcast::Col: return s.at(r, 0);
        case Bcast::Scalar: return s.at(0, 0);
        default: return i;
    }
}

bool binary_mode(Fpu op, Bcast bcast, const char* call, Loc loc) {
    const Compute& c = comp();
    const std::uint32_t param = (std::uint32_t(op) << 4) | std::uint32_t(bcast);
    const Mode want = bcast == Bcast::None ? Mode::Binary : Mode::BinaryBcast;
    if (c.mode == want && (c.mode_param & 0xFF) == param) return (c.mode_param >> 8) & 1;
    require_mode(want, param, call,
                 bcast == Bcast::None ? fmt_str("%s_init(icb0, icb1)", fpu_name(op)).c_str()
                                      : fmt_str("%s_bcast_*_init(icb0, icb1)", fpu_name(op)).c_str(),
                 loc);
    return false;
}

void binary_tiles(Fpu op, Bcast bcast, std::uint32_t cb_a, std::uint32_t cb_b, std::uint32_t tile_a,
                  std::uint32_t tile_b, std::uint32_t dst, Loc loc) {
    TC_TRACE(Ev::Binary, trace_page_bytes(cb_a), trace_page_bytes(cb_b), std::uint32_t(op), std::uint32_t(bcast), loc);
    cur().last_loc = loc;
    const char* call = bcast == Bcast::None ? (op == Fpu::Add ? "add_tiles" : op == Fpu::Sub ? "sub_tiles" : "mul_tiles")
                                            : "*_tiles_bcast";
    Compute& c = comp();
    const bool acc = binary_mode(op, bcast, call, loc);
    static Operand a, b;
    unpack(0, cb_a, tile_a, a, call, loc);
    unpack(1, cb_b, tile_b, b, call, loc);
    int t = math_dst(dst, call, loc);
    const bool was_cleared = c.dst_cleared[t], integer = a.integer || b.integer;
    for (std::uint32_t i = 0; i < a.shape.elems(); ++i) {
        const std::uint32_t j = bcast_index(bcast, b.shape, i, 0);
        if (integer) {
            float r = fpu_int(op, value(a, i), value(b, j));
            if (acc && op != Fpu::Mul && !was_cleared) r += dst_value(t, i);
            write_float(t, i, r);
        } else {
            c.dst[t][i] = fpu_eltwise(op, src_bits(a, i), src_bits(b, j), dst_bits(t, i), acc);
        }
    }
    dst_fresh(t, false);
}

int unary_bcast_source(const CircularBuffer& b, std::uint32_t cb) {
    // 32-bit data goes through DST directly (SrcB is only 19 bits wide); the rest through SrcB
    return b.format == fmt::Float32 && direct_to_dest(cb) ? 0 : 1;
}

void unary_bcast(Bcast bcast, std::uint32_t cb, std::uint32_t tile, std::uint32_t dst, Loc loc) {
    TC_TRACE(Ev::UnaryBcast, trace_page_bytes(cb), 0, 0, 0, loc);
    cur().last_loc = loc;
    require_mode(Mode::UnaryBcast, std::uint32_t(bcast), "unary_bcast", "unary_bcast_init<BroadcastType>(icb)", loc);
    static Operand a;
    CircularBuffer& b = cb_checked(std::int32_t(cb), "unary_bcast", loc);
    Compute& c = comp();
    const int src = unary_bcast_source(b, cb);
    unpack(src, cb, tile, a, "unary_bcast", loc, src == 0);
    int t = math_dst(dst, "unary_bcast", loc);
    dst_fresh(t, a.integer);
    for (std::uint32_t i = 0; i < a.shape.elems(); ++i) {
        std::uint32_t w = a.words[bcast_index(bcast, a.shape, i, 0)];
        c.dst[t][i] = a.integer ? w : to_dst(as_float(w));
    }
}

void reuse_dest_tiles(Fpu op, ReuseDest reuse, std::uint32_t cb, std::uint32_t tile, std::uint32_t dst, Loc loc) {
    TC_TRACE(Ev::ReuseDest, trace_page_bytes(cb), 0, std::uint32_t(op), 0, loc);
    cur().last_loc = loc;
    std::uint32_t param = (std::uint32_t(op) << 4) | std::uint32_t(reuse);
    require_mode(Mode::ReuseDest, param, "binary_reuse_dest_tiles",
                 fmt_str("%s_reuse_dest_init<EltwiseBinaryReuseDestType>(icb)", fpu_name(op)).c_str(), loc);
    static Operand in;
    // the DST operand moves into one source register; the CB tile unpacks into the other
    int src = reuse == ReuseDest::ToSrcA ? 1 : 0;
    unpack(src, cb, tile, in, "binary_reuse_dest_tiles", loc);
    int t = math_dst(dst, "binary_reuse_dest_tiles", loc);
    Compute& c = comp();
    for (std::uint32_t i = 0; i < in.shape.elems(); ++i) {
        const std::uint32_t d = as_bits(to_src_register(dst_value(t, i)));
        // the moved DST tile is the instruction's operand: DST itself starts from zero
        if (in.integer) {
            const float x = as_float(d), y = value(in, i);
            write_float(t, i, reuse == ReuseDest::ToSrcA ? fpu_int(op, x, y) : fpu_int(op, y, x));
        } else {
            c.dst[t][i] = reuse == ReuseDest::ToSrcA ? fpu_eltwise(op, d, src_bits(in, i), 0, false)
                                                     : fpu_eltwise(op, src_bits(in, i), d, 0, false);
        }
    }
    dst_fresh(t, false);
}

static void row_major(const Operand& o, float* out) {
    const TileShape& s = o.shape;
    for (std::uint32_t r = 0; r < s.rows; ++r)
        for (std::uint32_t c = 0; c < s.cols; ++c) out[r * s.cols + c] = value(o, s.at(r, c));
}

// The operand as the matrix unit pairs it, k contiguous: in0 (SrcB) row by row, out[i * K16 + k];
// in1 (SrcA) column by column, out[n * K16 + k]. K16 rounds K up to the 16-long chunks one MVMUL
// consumes; the padding is zero.
static void k_major(const Operand& o, std::uint32_t* out, bool columns) {
    const TileShape& s = o.shape;
    const std::uint32_t K = columns ? s.rows : s.cols, outer = columns ? s.cols : s.rows, K16 = (K + 15) / 16 * 16;
    std::memset(out, 0, sizeof(std::uint32_t) * outer * K16);
    for (std::uint32_t r = 0; r < s.rows; ++r)
        for (std::uint32_t c = 0; c < s.cols; ++c)
            out[columns ? c * K16 + r : r * K16 + c] = src_bits(o, s.at(r, c));
}

// Decoded matmul operands, reused while their page stays in the CB's front window: a tile of in0
// meets every tile of in1 it multiplies (and the other way round) without being decoded again. A
// page's content cannot change between cb_wait_front and cb_pop_front, so (core, CB, pages popped
// so far, tile) names it; the unpack checks still run on every call.
struct DecodedTile {
    bool valid = false;
    std::uint64_t device = 0;
    int core = -1;
    std::uint32_t cb = 0, popped = 0, tile = 0;
    std::uint8_t format = 0;
    bool fp32 = false, transposed = false;
    TileShape shape;
    std::uint32_t k16 = 0;  // the row stride of m: K rounded up to 16
    std::uint32_t m[1024];  // k_major(): SrcA/SrcB words
    fpu::Split split[2];    // m as the multipliers see it: the first and the second piece
    fpu::Split split_t[2];  // SrcA's split transposed, k-major across columns, for fpu::dot8
    std::uint32_t lines = 0;  // the vectors of m: SrcA's columns, SrcB's rows
};

static const DecodedTile& decoded_operand(DecodedTile* cache, std::size_t ways, int src, std::uint32_t cb,
                                          std::uint32_t tile, bool transpose, const char* call, Loc loc) {
    static Operand scratch;
    Compute& c = comp();
    CircularBuffer& b = cb_checked(std::int32_t(cb), call, loc);
    const int core = cur().core;
    DecodedTile& slot = cache[(tile * 31u + cb * 7u + b.acked) % ways];
    unpack(src, cb, tile, scratch, call, loc, false, true, false);  // the checks
    if (slot.valid && slot.device == g_dev->serial && slot.core == core && slot.cb == cb && slot.popped == b.acked && slot.tile == tile &&
        slot.format == c.src_fmt[src] && slot.fp32 == c.fp32 && slot.transposed == transpose)
        return slot;
    unpack(src, cb, tile, scratch, call, loc, false, true);
    // in1 (SrcA) pairs its columns with in0's rows; transposed, its rows
    const bool columns = src == 0 && !transpose;
    k_major(scratch, slot.m, columns);
    const std::uint32_t K = columns ? scratch.shape.rows : scratch.shape.cols;
    slot.k16 = (K + 15) / 16 * 16;
    const int n = int(slot.k16 * (columns ? scratch.shape.cols : scratch.shape.rows));
    slot.lines = columns ? scratch.shape.cols : scratch.shape.rows;
    for (int low = 0; low < 2; ++low) {
        fpu::split(slot.m, n, src == 0, low, slot.split[low]);
        if (src == 0) fpu::transpose(slot.split[low], int(slot.lines), int(slot.k16), slot.split_t[low]);
    }
    slot.valid = true;
    slot.device = g_dev->serial;
    slot.core = core;
    slot.cb = cb;
    slot.popped = b.acked;
    slot.tile = tile;
    slot.format = c.src_fmt[src];
    slot.fp32 = c.fp32;
    slot.transposed = transpose;
    slot.shape = scratch.shape;
    return slot;
}

void matmul_tiles(std::uint32_t cb_a, std::uint32_t cb_b, std::uint32_t tile_a, std::uint32_t tile_b,
                  std::uint32_t dst, bool transpose, std::uint32_t ct_dim, std::uint32_t rt_dim, std::uint32_t kt_dim,
                  Loc loc) {
    TC_TRACE(Ev::Matmul, trace_page_bytes(cb_a), trace_page_bytes(cb_b), ct_dim, rt_dim, loc);
    cur().last_loc = loc;
    const char* call = (ct_dim == 1 && rt_dim == 1) ? "matmul_tiles" : "matmul_block";
    require_mode(Mode::Matmul, 0, call, "matmul_init(in0, in1) / matmul_block_init", loc);
    Compute& c = comp();
    static DecodedTile cache_a[16], cache_b[16];
    for (std::uint32_t r = 0; r < rt_dim; ++r) {
        // in0 goes through SrcB, in1 through SrcA; transposed, in1's rows become the K index
        const DecodedTile& a = decoded_operand(cache_a, 16, 1, cb_a, tile_a + r * kt_dim, false, call, loc);
        for (std::uint32_t col = 0; col < ct_dim; ++col) {
            const DecodedTile& b = decoded_operand(cache_b, 16, 0, cb_b, tile_b + col, transpose, call, loc);
            const std::uint32_t M = a.shape.rows, N = transpose ? b.shape.rows : b.shape.cols, K16 = a.k16;
            int t = math_dst(dst + r * ct_dim + col, call, loc);
            const TileShape shape = b.shape;
            const fpu::Split* const in1[2] = {&b.split[0], &b.split[1]};
            const fpu::Split* const in1_t[2] = {&b.split_t[0], &b.split_t[1]};
            const fpu::Split* const in0[2] = {&a.split[0], &a.split[1]};
            // each element independently: the MVMULs of every fidelity phase over every 16-long chunk,
            // eight columns at a time where the tile's width allows (the same bits: fpu::dot8)
            const std::uint32_t wide = b.lines % 8 == 0 ? N : 0;
            for (std::uint32_t i = 0; i < M; ++i) {
                for (std::uint32_t j0 = 0; j0 < wide; j0 += 8) {
                    std::uint32_t lanes[8];
                    for (std::uint32_t j = 0; j < 8; ++j) lanes[j] = dst_bits(t, shape.at(i, j0 + j));
                    fpu::dot8(in1_t, int(j0), int(b.lines), in0, int(i * K16), int(K16), lanes, c.fidelity_phases,
                              c.fp32);
                    for (std::uint32_t j = 0; j < 8; ++j) c.dst[t][shape.at(i, j0 + j)] = lanes[j];
                }
                for (std::uint32_t j = wide; j < N; ++j) {
                    const std::uint32_t idx = shape.at(i, j);
                    c.dst[t][idx] = fpu::dot(in1, int(j * K16), in0, int(i * K16), int(K16), dst_bits(t, idx),
                                             c.fidelity_phases, c.fp32);
                }
            }
            dst_fresh(t, false);
        }
    }
}

// Sums use the FPU's matrix multiply with the scaler tile (weights S[0][k], as the scaler tiles
// tt-metal's kernels build); the positions outside row/column 0 then hold what that product
// leaves there, which the packer's reduce mask drops. Max writes zeros there.
// REDUCE_SCALAR sums as llk_math_reduce.h pools them: each face in order onto one scratch DST row
// (GAPOOL: the face's column sums weighted by row 0 of the scaler's face, each fidelity phase of a
// face before the next face), that row moved to SrcB (MOVD2B: a bfloat16 DST as it is, an fp32 one
// truncated by SrcA's format, MOVD2B.md: to TF32 when SrcA holds TF32, Float32 data, else to
// bfloat16), transposed into SrcA's column 0 and pooled again with the scaler still in
// SrcB onto [0][0]. The scaler applies twice, which is why ttnn's hosts pass its square root for HW.
std::uint32_t reduce_scalar_sum(const float* xm, const float* sm, std::uint32_t R, std::uint32_t C,
                                std::uint32_t acc, const Compute& c) {
    const std::uint32_t fr = std::min(R, 16u), fc = std::min(C, 16u);
    std::uint32_t partial[16] = {}, va[16], vb[16];
    for (std::uint32_t r0 = 0; r0 < R; r0 += fr) {
        for (std::uint32_t c0 = 0; c0 < C; c0 += fc) {
            for (std::uint32_t col = 0; col < fc; ++col) {
                std::fill(va, va + 16, 0u);
                std::fill(vb, vb + 16, 0u);
                for (std::uint32_t k = 0; k < fr; ++k) {
                    va[k] = as_bits(xm[(r0 + k) * C + c0 + col]);
                    vb[k] = as_bits(sm[r0 * C + c0 + k]);
                }
                partial[col] = fpu::dot(va, vb, 16, partial[col], c.fidelity_phases, c.fp32);
            }
        }
    }
    std::fill(va, va + 16, 0u);
    std::fill(vb, vb + 16, 0u);
    const std::uint32_t last = (R - fr) * C + (C - fc);  // the last face's row 0 stays in SrcB
    for (std::uint32_t k = 0; k < fc; ++k) {
        va[k] = c.fp32 ? partial[k] & (c.src_fmt[0] == fmt::Float32 ? ~0x1FFFu : ~0xFFFFu) : partial[k];
        vb[k] = as_bits(sm[last + k]);
    }
    return fpu::dot(va, vb, 16, acc, c.fidelity_phases, c.fp32);
}

void reduce_tile(Pool pool, RDim dim, std::uint32_t cb, std::uint32_t scaler_cb, std::uint32_t tile,
                 std::uint32_t scaler_tile, std::uint32_t dst, Loc loc) {
    TC_TRACE(Ev::Reduce, trace_page_bytes(cb), trace_page_bytes(scaler_cb), std::uint32_t(pool), 0, loc);
    cur().last_loc = loc;
    std::uint32_t param = (std::uint32_t(pool) << 4) | std::uint32_t(dim);
    require_mode(Mode::Reduce, param, "reduce_tile", "reduce_init<PoolType, ReduceDim>(icb, icb_scaler, ocb)", loc);
    bool swap = reduce_swaps(param);
    static Operand x, s;
    unpack(swap ? 1 : 0, cb, tile, x, "reduce_tile", loc);
    unpack(swap ? 0 : 1, scaler_cb, scaler_tile, s, "reduce_tile", loc);
    static float xm[1024], sm[1024];
    row_major(x, xm);
    row_major(s, sm);
    const std::uint32_t R = x.shape.rows, C = x.shape.cols;
    int t = math_dst(dst, "reduce_tile", loc);
    Compute& c = comp();
    bool cleared = c.dst_cleared[t];
    static float out[1024];
    if (pool == Pool::Max) {
        std::fill(out, out + R * C, 0.0f);
        auto old = [&](std::uint32_t r, std::uint32_t col) {
            return cleared ? -INFINITY : dst_value(t, x.shape.at(r, col));
        };
        if (dim == RDim::Row) {
            for (std::uint32_t r = 0; r < R; ++r) {
                float m = old(r, 0);
                for (std::uint32_t k = 0; k < C; ++k) m = std::max(m, xm[r * C + k] * sm[k]);
                out[r * C] = m;
            }
        } else if (dim == RDim::Col) {
            for (std::uint32_t col = 0; col < C; ++col) {
                float m = old(0, col);
                for (std::uint32_t k = 0; k < R; ++k) m = std::max(m, xm[k * C + col] * sm[k]);
                out[col] = m;
            }
        } else {
            float m = old(0, 0);
            for (std::uint32_t i = 0; i < R * C; ++i) m = std::max(m, xm[i] * sm[i % C]);
            out[0] = m;
        }
    } else {
        // out = X @ S^T (rows), S @ X (columns), or the two-stage full sum at [0][0] (scalar), each element
        // as the matrix unit computes it (fpu::dot over each 16-long face in k order)
        static std::uint32_t va[1024 + 16], vb[1024 + 16];
        const std::uint32_t n = dim == RDim::Row ? C : R, n16 = (n + 15) / 16 * 16;
        for (std::uint32_t r = 0; r < R; ++r) {
            for (std::uint32_t col = 0; col < C; ++col) {
                const std::uint32_t idx = x.shape.at(r, col);
                if (dim == RDim::Scalar) {
                    const std::uint32_t old = cleared ? 0 : dst_bits(t, idx);
                    c.dst[t][idx] = r == 0 && col == 0 ? reduce_scalar_sum(xm, sm, R, C, old, c) : old;
                    continue;
                }
                std::fill(va, va + n16, 0u);
                std::fill(vb, vb + n16, 0u);
                for (std::uint32_t k = 0; k < n; ++k) {
                    if (dim == RDim::Row) {  // the scaler in SrcA, the data in SrcB
                        va[k] = as_bits(sm[col * C + k]);
                        vb[k] = as_bits(xm[r * C + k]);
                    } else {
                        va[k] = as_bits(xm[k * C + col]);
                        vb[k] = as_bits(sm[r * C + k]);
                    }
                }
                // llk_math_reduce.h: REDUCE_ROW's MVMULs run inside the fidelity loop (phase-major over
                // both faces); REDUCE_COL is one GAPOOL per 16-long face, each face's fidelity phases
                // before the next face's, so a bfloat16 DST rounds between faces
                const std::uint32_t face = dim == RDim::Row ? n16 : 16;
                std::uint32_t sum = dst_bits(t, idx);
                for (std::uint32_t k0 = 0; k0 < n16; k0 += face)
                    sum = fpu::dot(va + k0, vb + k0, int(face), sum, c.fidelity_phases, c.fp32);
                c.dst[t][idx] = sum;
            }
        }
        dst_reduced(t, dim);
        return;
    }
    for (std::uint32_t r = 0; r < R; ++r)
        for (std::uint32_t col = 0; col < C; ++col) write_float(t, x.shape.at(r, col), out[r * C + col]);
    dst_reduced(t, dim);
}

void reduce_init(Pool pool, RDim dim, std::uint32_t cb, std::uint32_t scaler_cb, std::uint32_t out_cb, Loc loc) {
    // recorded twice: the API's reduce_init, then the init of its mode
    TC_TRACE(Ev::Init, std::uint32_t(Mode::Reduce), cb, scaler_cb, 0, loc);
    TC_TRACE(Ev::Init, std::uint32_t(Mode::Reduce), cb, scaler_cb, 0, loc);
    (void)out_cb;
    reduce_configure((std::uint32_t(pool) << 4) | std::uint32_t(dim), cb, scaler_cb, loc);
}

void reduce_configure(std::uint32_t param, std::uint32_t cb, std::uint32_t scaler_cb, Loc loc) {
    set_mode(Mode::Reduce, cb, scaler_cb, param, loc);
    comp().reduce_mask = int(param & 0xFu);
}

bool reduce_swaps(std::uint32_t param) { return RDim(param & 0xFu) == RDim::Row && Pool(param >> 4) != Pool::Max; }

void reduce_uninit(Loc loc) {
    TC_TRACE(Ev::Init, 0, 0, 0, 0, loc);
    reduce_unconfigure(loc);
}

void reduce_unconfigure(Loc loc) {
    Compute& c = comp();
    cur().last_loc = loc;
    c.reduce_mask = -1;
    if (c.mode == Mode::Reduce) c.mode = Mode::None;
}

void transpose_tile(std::uint32_t cb, std::uint32_t tile, std::uint32_t dst, Loc loc) {
    TC_TRACE(Ev::Transpose, trace_page_bytes(cb), 0, 0, 0, loc);
    cur().last_loc = loc;
    require_mode(Mode::Transpose, 0, "transpose_tile", "transpose_init(icb)", loc);
    static Operand a;
    // a Float32 CB in UnpackToDestFp32 mode goes straight to DST and is transposed there (0.81.1
    // transpose_tile: llk_math_transpose_dest), keeping fp32; otherwise through SrcA
    unpack(0, cb, tile, a, "transpose_tile", loc, /*to_dest=*/true);
    int t = math_dst(dst, "transpose_tile", loc);
    Compute& c = comp();
    const TileShape& s = a.shape;
    dst_fresh(t, a.integer);
    for (std::uint32_t r = 0; r < s.rows; ++r)
        for (std::uint32_t col = 0; col < s.cols; ++col) {
            std::uint32_t w = a.words[s.at(col % s.rows, r % s.cols)];
            c.dst[t][s.at(r, col)] = a.integer ? w : to_dst(as_float(w));
        }
}

void copy_dest_values(std::uint32_t from, std::uint32_t to, Loc loc) {
    TC_TRACE(Ev::CopyDest, 0, 0, 0, 0, loc);
    cur().last_loc = loc;
    int a = math_dst(from, "copy_dest_values", loc), b = math_dst(to, "copy_dest_values", loc);
    Compute& c = comp();
    std::memcpy(c.dst[b], c.dst[a], sizeof c.dst[a]);
    c.dst_int[b] = c.dst_int[a];
    c.dst_cleared[b] = c.dst_cleared[a];
}

// ---------------------------------------------------------------- packer
void pack_l1_acc(bool enable, Loc loc) {
    TC_TRACE(Ev::Reconfig, enable, 3, 0, 0, loc);
    cur().last_loc = loc;
    comp().l1_acc = enable;
}

void pack_relu(bool zero_negatives, Loc loc) {
    TC_TRACE(Ev::Reconfig, zero_negatives, 4, 0, 0, loc);
    cur().last_loc = loc;
    comp().relu = zero_negatives;
}

std::uint32_t pack_page(CircularBuffer& b, std::uint32_t dst, std::uint32_t cb, std::uint32_t out_tile,
                        bool out_of_order, Loc loc) {
    Compute& c = comp();
    require_started("pack_tile", loc);
    Compute::Sec s = c.sec[c.pack_sec];
    if (s != Compute::Sec::Pack && s != Compute::Sec::Both) {
        report(true, "E5403", loc,
               s == Compute::Sec::Math || s == Compute::Sec::Committed
                   ? "pack_tile without tile_regs_wait(): the packer does not own DST yet"
                   : "pack_tile without tile_regs_wait(): no DST half holds committed results",
               "call tile_regs_commit() after the math and tile_regs_wait() before packing");
    }
    if (dst >= c.capacity()) {
        report(true, "E5404", loc,
               fmt_str("pack_tile reads DST tile %u, but DST holds %u tiles here", dst, c.capacity()));
        dst %= c.capacity();
    }
    // in-order packing (the default) ignores output_tile_index: pages are written one after another;
    // an explicit index that disagrees with that order is a kernel expecting out-of-order packing
    std::uint32_t page = out_of_order ? out_tile : b.pack_tile_ptr;
    if (!out_of_order && out_tile != 0 && out_tile != b.pack_tile_ptr) {
        report(true, "E5412", loc,
               fmt_str("pack_tile(%u, %u, %u) asks for page %u, but in-order packing writes the next page, %u", dst, cb,
                       out_tile, out_tile, b.pack_tile_ptr),
               "pack tiles in page order, or use pack_tile<true>(...) to address pages out of order");
    }
    if (page >= b.reserved[TRISC] && page >= b.num_pages - b.occupied()) {
        report(true, "E5208", loc,
               fmt_str("pack_tile writes page %u of CB %u, but only %u pages are reserved (cb_reserve_back)", page, cb,
                       b.reserved[TRISC]),
               "reserve the output pages with cb_reserve_back(cb, n) before packing into them");
    } else if (page >= b.reserved[TRISC]) {
        // a reservation only waits for space on the device: a free page takes the tile intact
        report(false, "E5210", loc,
               fmt_str("pack_tile writes page %u of CB %u, but only %u pages are reserved (cb_reserve_back); the page "
                       "is free now, so the tile arrives", page, cb, b.reserved[TRISC]),
               "reserve the output pages with cb_reserve_back(cb, n) before packing into them");
    }
    if (!out_of_order) b.pack_tile_ptr += 1;
    return page;
}

int pack_configured(const CircularBuffer& b, std::uint32_t dst, std::uint32_t cb, Loc loc) {
    const Compute& c = comp();
    const int t = int(pack_section_tile(dst % c.capacity()));
    const std::uint8_t f = c.pack_fmt;
    if (f != b.format) {
        report(true, "E5401", loc,
               fmt_str("pack_tile into CB %u (%s, %u-byte pages) while the packer is configured for %s (CB %d): it "
                       "writes %u-byte %s tiles",
                       cb, format_name(b.format), b.page_size, format_name(f), c.pack_cb,
                       format_tile_bytes(f, b.tile.rows, b.tile.cols), format_name(f)),
               fmt_str("reconfigure the packer first: pack_reconfig_data_format(%u)", cb));
    }
    // a warning: the result row/column itself is packed intact, and kernels that read only it are
    // right on the device (ttnn's layernorm_large_tensor.cpp packs its running sums so)
    if (c.dst_reduce[t] && c.reduce_mask < 0) {
        report(false, "E5406", loc,
               "pack_tile packs a reduce result after reduce_uninit(): the packer no longer zeroes the rows/columns "
               "outside the result, so the tile carries partial sums there",
               "call reduce_uninit() after the packs of the reduce result, not before, unless only the result "
               "row/column is read");
    }
    return t;
}

void pack_tile(std::uint32_t dst, std::uint32_t cb, std::uint32_t out_tile, bool out_of_order, Loc loc) {
    TC_TRACE(Ev::Pack, trace_page_bytes(cb), 0, 0, 0, loc);
    Compute& c = comp();
    cur().last_loc = loc;
    CircularBuffer& b = cb_checked(std::int32_t(cb), "pack_tile", loc);
    if (c.sec[c.pack_sec] == Compute::Sec::Both && dst < 32) c.packed_before_commit |= 1u << dst;
    const std::uint32_t page = pack_page(b, dst, cb, out_tile, out_of_order, loc);
    const int t = pack_configured(b, dst, cb, loc);
    const std::uint8_t f = c.pack_fmt;
    std::uint32_t addr = b.wr_ptr[TRISC] + page * b.page_size;
    std::uint32_t bytes = format_tile_bytes(f, b.tile.rows, b.tile.cols);
    if (addr + bytes > g_dev->arch.l1_size) {
        report(true, "E5302", loc, fmt_str("pack_tile: page %u of CB %u lies past the end of L1", page, cb));
        return;
    }
    static std::uint32_t words[Compute::kElems];
    const TileShape& shape = b.tile;
    for (std::uint32_t i = 0; i < shape.elems(); ++i) words[i] = c.dst_cleared[t] ? 0 : c.dst[t][i];
    if (c.reduce_mask >= 0 && c.dst_reduce[t]) {
        for (std::uint32_t r = 0; r < shape.rows; ++r)
            for (std::uint32_t col = 0; col < shape.cols; ++col) {
                bool keep = c.reduce_mask == int(RDim::Row) ? col == 0
                            : c.reduce_mask == int(RDim::Col) ? r == 0
                                                              : (r == 0 && col == 0);
                if (!keep) words[shape.at(r, col)] = 0;
            }
    }
    std::uint8_t* out = g_dev->l1_host(cur().core, addr);
    bool integer = c.dst_int[t];
    if (c.relu && !integer) {
        // the ReLU stage (ISA: Packers/ReLU.md, ZERO_RELU): x <= 0 becomes +0, NaN passes
        for (std::uint32_t i = 0; i < shape.elems(); ++i)
            if (as_float(words[i]) <= 0.0f) words[i] = 0;
    }
    if (c.l1_acc && !integer) {
        // packer L1 accumulation: the tile is added to what the page holds
        static std::uint32_t held[Compute::kElems];
        decode_tile(f, out, shape, held);
        for (std::uint32_t i = 0; i < shape.elems(); ++i) words[i] = as_bits(as_float(words[i]) + as_float(held[i]));
    }
    pack_encode_tile(f, words, integer, shape, c.fp32, c.pack_precise, out);
}

// ---------------------------------------------------------------- tilize / untilize
// All three are datacopies through DST: the unpacker reads the input (32 row-major rows of a block
// for tilize, a tile for the untilizes) into SrcA, or straight into DST for a Float32 CB in
// UnpackToDestFp32 mode with an fp32 DST; math copies it into DST; the packer writes it out with
// its rounding (pack_encode_tile): as a tile for tilize, as row-major rows for the untilizes. So a
// bfloat16 move is exact, and a Float32 one is exact only on the UnpackToDestFp32 path (else TF32
// with an fp32 DST, bfloat16 without one) -- the fast tilize always goes through SrcA.
namespace {

// one element's value after the datacopy: the source register's precision, then DST's
std::uint32_t datacopy_word(std::uint8_t format, std::uint32_t word, bool direct) {
    if (is_integer_format(format)) return word;
    float v = as_float(word);
    if (format == fmt::Float32 && !direct) v = comp().fp32 ? tf32_trunc(v) : bf16_trunc(v);
    return to_dst(v);
}

void require_pack_format(const CircularBuffer& out, std::uint32_t out_cb, const char* call, Loc loc) {
    Compute& c = comp();
    if (out.format == c.pack_fmt) return;
    report(true, "E5401", loc,
           fmt_str("%s packs into CB %u (%s) while the packer is configured for %s", call, out_cb,
                   format_name(out.format), format_name(c.pack_fmt)),
           fmt_str("pack_reconfig_data_format(%u) first", out_cb));
}

// The packer's untilize: a tile's DST words as rows of a row-major block `row_elems` elements wide,
// from column `col` of the block whose first byte is `base`.
void pack_rows(std::uint8_t format, const std::uint32_t* words, bool integer, const TileShape& shape,
               std::uint32_t row_elems, std::uint32_t col, std::uint8_t* base) {
    static std::uint8_t packed[4 * Compute::kElems];
    Compute& c = comp();
    pack_encode_tile(format, words, integer, shape, c.fp32, c.pack_precise, packed);  // element-wise here
    const std::uint32_t esize = element_bytes(format);
    for (std::uint32_t r = 0; r < shape.rows; ++r)
        for (std::uint32_t k = 0; k < shape.cols; ++k)
            std::memcpy(base + (r * row_elems + col + k) * esize, packed + shape.at(r, k) * esize, esize);
}

// a format the packer can write as row-major rows (block floats share exponents per face row: no)
bool row_major_format(const CircularBuffer& out, const char* call, Loc loc) {
    if (!is_block_float(out.format) && element_bytes(out.format) != 0) return true;
    ::tc::not_modelled(
        fmt_str("%s into a %s CB (a row-major layout of a block-float format)", call, format_name(out.format)).c_str(),
        loc);
    return false;
}

// Tiles `first`.. of CB `in_cb` untilized into the row-major block at `base` of CB `out_cb`, whose
// rows are `row_elems` wide, from column `col`: unpack, datacopy, the packer's untilize.
void untilize_tiles(std::uint32_t in_cb, std::uint32_t first, std::uint32_t tiles, std::uint32_t out_cb,
                    std::uint32_t row_elems, std::uint32_t col, std::uint32_t base, const char* call, Loc loc) {
    CircularBuffer& out = cb_checked(std::int32_t(out_cb), call, loc);
    require_pack_format(out, out_cb, call, loc);
    if (!row_major_format(out, call, loc)) return;
    static Operand a;
    for (std::uint32_t t = 0; t < tiles; ++t) {
        unpack(0, in_cb, first + t, a, call, loc, /*to_dest=*/true);  // SrcA's precision, as copy_tile
        for (std::uint32_t i = 0; i < a.shape.elems(); ++i)
            if (!a.integer) a.words[i] = to_dst(as_float(a.words[i]));
        pack_rows(out.format, a.words, a.integer, a.shape, row_elems, col + t * a.shape.cols,
                  g_dev->l1_host(cur().core, base));
    }
}

// the row-major block of `tiles` tiles' width a packer writes at the reserved back of `out_cb`:
// reports a block larger than the pages reserved
void require_reserved_rows(const CircularBuffer& out, std::uint32_t out_cb, std::uint32_t tiles, const char* call,
                           Loc loc) {
    const std::uint32_t bytes = tiles * out.tile.elems() * element_bytes(out.format);
    const std::uint32_t pages = out.page_size ? (bytes + out.page_size - 1) / out.page_size : 0;
    if (pages <= out.reserved[TRISC]) return;
    report(true, "E5208", loc,
           fmt_str("%s writes %u pages' worth of rows into CB %u, but only %u pages are reserved (cb_reserve_back)",
                   call, pages, out_cb, out.reserved[TRISC]),
           "reserve the whole row-major block (full_ct_dim pages) before packing into it");
}

}  // namespace

// tilize_block: `tiles` tiles' worth of row-major rows (32 rows of tiles*32 values) in the input
// CB become `tiles` tiles in the output CB.
void tilize_block(std::uint32_t in_cb, std::uint32_t tiles, std::uint32_t out_cb, bool fast, Loc loc) {
    TC_TRACE(Ev::Tilize, trace_page_bytes(in_cb), tiles, trace_page_bytes(out_cb), 0, loc);
    cur().last_loc = loc;
    require_mode(Mode::Tilize, fast ? 1 : 0, fast ? "fast_tilize_block" : "tilize_block",
                 fast ? "fast_tilize_init(icb, block, ocb)" : "tilize_init(icb, block, ocb)", loc);
    Compute& c = comp();
    CircularBuffer& in = cb_checked(std::int32_t(in_cb), "tilize_block", loc);
    CircularBuffer& out = cb_checked(std::int32_t(out_cb), "tilize_block", loc);
    if (in.format != c.src_fmt[0]) {
        report(true, "E5402", loc,
               fmt_str("tilize_block unpacks CB %u (%s) through SrcA, which is configured for %s", in_cb,
                       format_name(in.format), format_name(c.src_fmt[0])),
               fmt_str("reconfig_data_format_srca(%u) first", in_cb));
    }
    require_pack_format(out, out_cb, "tilize_block", loc);
    const TileShape& shape = out.tile;
    const std::uint32_t width = tiles * shape.cols, esize = element_bytes(in.format);
    const std::uint8_t* src = g_dev->l1_host(cur().core, in.rd_ptr[TRISC]);
    const bool direct = !fast && direct_to_dest(in_cb);
    static std::uint32_t words[Compute::kElems];
    for (std::uint32_t t = 0; t < tiles; ++t) {
        for (std::uint32_t r = 0; r < shape.rows; ++r)
            for (std::uint32_t col = 0; col < shape.cols; ++col)
                words[shape.at(r, col)] = datacopy_word(
                    in.format, decode_element(in.format, src + (r * width + t * shape.cols + col) * esize), direct);
        std::uint32_t addr = out.wr_ptr[TRISC] + (out.pack_tile_ptr + t) * out.page_size;
        pack_encode_tile(out.format, words, is_integer_format(in.format), shape, c.fp32, c.pack_precise,
                         g_dev->l1_host(cur().core, addr));
    }
    out.pack_tile_ptr += tiles;
}

void untilize_block(std::uint32_t in_cb, std::uint32_t tiles, std::uint32_t out_cb, Loc loc) {
    TC_TRACE(Ev::Untilize, trace_page_bytes(in_cb), tiles, trace_page_bytes(out_cb), 0, loc);
    cur().last_loc = loc;
    require_mode(Mode::Untilize, 0, "untilize_block", "untilize_init(icb)", loc);
    CircularBuffer& out = cb_checked(std::int32_t(out_cb), "untilize_block", loc);
    const std::uint32_t cols = cb_checked(std::int32_t(in_cb), "untilize_block", loc).tile.cols;
    untilize_tiles(in_cb, 0, tiles, out_cb, tiles * cols, 0, out.wr_ptr[TRISC] + out.pack_tile_ptr * out.page_size,
                   "untilize_block", loc);
    out.pack_tile_ptr += tiles;
}

void pack_untilize_dest_init(std::uint32_t out_cb, std::uint32_t block_ct, std::uint32_t full_ct, Loc loc) {
    // the packer's part: its format for the output CB (llk_pack_reconfig_data_format) and the block
    reconfig_pack(0, out_cb, false, loc);
    comp().pack_untilize = (full_ct << 16) | block_ct;
}

void pack_untilize_init(std::uint32_t in_cb, std::uint32_t out_cb, std::uint32_t block_ct, std::uint32_t full_ct,
                        Loc loc) {
    pack_untilize_dest_init(out_cb, block_ct, full_ct, loc);
    init_mode(Mode::PackUntilize, in_cb, out_cb, (full_ct << 16) | block_ct, loc);  // unpack A, datacopy
}

// the packer must be set up for this untilize block (pack_untilize_init / pack_untilize_dest_init)
static void require_pack_untilize(std::uint32_t block_ct, std::uint32_t full_ct, const char* call, Loc loc) {
    const std::uint32_t want = (full_ct << 16) | block_ct, have = comp().pack_untilize;
    if (have == want) return;
    report(true, "E5409", loc,
           have ? fmt_str("%s<%u, %u> while the packer is set up for pack_untilize<%u, %u>", call, block_ct, full_ct,
                          have & 0xFFFFu, have >> 16)
                : fmt_str("%s<%u, %u> while the packer is set up for tiles", call, block_ct, full_ct),
           fmt_str("call pack_untilize_dest_init<%u, %u>(ocb) (or pack_untilize_init) first", block_ct, full_ct));
}

// pack_untilize_dest: DST tiles r * block_ct + c, which the kernel computed, packed as rows into
// columns [block_c * block_ct, (block_c + 1) * block_ct) tiles of row-major blocks full_ct tiles
// wide at the output CB's reserved back, block row r at the r-th block.
void pack_untilize_dest(std::uint32_t out_cb, std::uint32_t block_rt, std::uint32_t block_c, std::uint32_t block_ct,
                        std::uint32_t full_ct, Loc loc) {
    const char* call = "pack_untilize_dest";
    TC_TRACE(Ev::Untilize, 0, block_ct, trace_page_bytes(out_cb), 2, loc);
    cur().last_loc = loc;
    Compute& c = comp();
    require_started(call, loc);
    require_pack_untilize(block_ct, full_ct, call, loc);
    Compute::Sec s = c.sec[c.pack_sec];
    if (s != Compute::Sec::Pack && s != Compute::Sec::Both) {
        report(true, "E5403", loc, "pack_untilize_dest without tile_regs_wait(): the packer does not own DST",
               "call tile_regs_commit() after the math and tile_regs_wait() before packing");
    }
    if (block_rt * block_ct > c.capacity()) {
        report(true, "E5404", loc,
               fmt_str("pack_untilize_dest reads %u DST tiles, but DST holds %u tiles here", block_rt * block_ct,
                       c.capacity()),
               "pack at most DST's capacity per tile_regs_wait");
        return;
    }
    CircularBuffer& out = cb_checked(std::int32_t(out_cb), call, loc);
    require_pack_format(out, out_cb, call, loc);
    require_reserved_rows(out, out_cb, full_ct * block_rt, call, loc);
    if (!row_major_format(out, call, loc)) return;
    const TileShape& shape = out.tile;
    const std::uint32_t cols = shape.cols, block_bytes = full_ct * out.tile.elems() * element_bytes(out.format);
    static std::uint32_t words[Compute::kElems];
    for (std::uint32_t r = 0; r < block_rt; ++r)
        for (std::uint32_t k = 0; k < block_ct; ++k) {
            const int t = int(pack_section_tile(r * block_ct + k));
            for (std::uint32_t i = 0; i < shape.elems(); ++i) words[i] = c.dst_cleared[t] ? 0 : c.dst[t][i];
            pack_rows(out.format, words, c.dst_int[t], shape, full_ct * cols, (block_c * block_ct + k) * cols,
                      g_dev->l1_host(cur().core, out.wr_ptr[TRISC] + r * block_bytes));
        }
}

// pack_untilize_block: tiles 0..block_ct-1 of the input CB through DST, packed as rows into
// columns [block_c * block_ct, (block_c + 1) * block_ct) tiles of the row-major block (full_ct
// tiles wide) at the output CB's reserved back.
void pack_untilize_block(std::uint32_t in_cb, std::uint32_t block_rt, std::uint32_t out_cb, std::uint32_t block_c,
                         std::uint32_t block_ct, std::uint32_t full_ct, Loc loc) {
    const char* call = "pack_untilize_block";
    TC_TRACE(Ev::Untilize, trace_page_bytes(in_cb), block_ct, trace_page_bytes(out_cb), 1, loc);
    cur().last_loc = loc;
    require_mode(Mode::PackUntilize, (full_ct << 16) | block_ct, call,
                 fmt_str("pack_untilize_init<%u, %u>(icb, ocb)", block_ct, full_ct).c_str(), loc);
    require_pack_untilize(block_ct, full_ct, call, loc);
    Compute& c = comp();
    require_started(call, loc);
    if (block_ct > c.capacity()) {
        report(true, "E5404", loc,
               fmt_str("pack_untilize_block<%u, %u> holds %u tiles in DST, but DST holds %u tiles here (%s)", block_ct,
                       full_ct, block_ct, c.capacity(), c.fp32 ? "fp32_dest_acc_en" : "16-bit"),
               "split the row into blocks of at most that many tiles (block_ct_dim), full_ct_dim a multiple of it");
        return;
    }
    if (block_rt != 1) {
        ::tc::not_modelled("pack_untilize_block with block_rt_dim other than 1", loc);
        return;
    }
    CircularBuffer& out = cb_checked(std::int32_t(out_cb), call, loc);
    require_reserved_rows(out, out_cb, full_ct, call, loc);
    const std::uint32_t cols = out.tile.cols;
    untilize_tiles(in_cb, 0, block_ct, out_cb, full_ct * cols, block_c * block_ct * cols, out.wr_ptr[TRISC], call,
                   loc);
}

// the packer back to tiles (its format for the output CB); the unpacker and math stay as they were
void pack_untilize_uninit(std::uint32_t out_cb, Loc loc) {
    reconfig_pack(0, out_cb, false, loc);
    comp().pack_untilize = 0;
}

}  // namespace tc
