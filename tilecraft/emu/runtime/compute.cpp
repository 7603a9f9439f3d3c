// The compute side's bookkeeping and checks on one core: what the sanitizer follows of a compute
// kernel's API calls (which DST half math and the packer own, what the unpackers and the packer are
// configured for, what math is initialised for, which DST tiles hold integers or a reduce result)
// and the checks it makes on them. The Tensix machine computes; its MATH TRISC reports each compute
// API call in the kernel's order (machine_calls.cpp), which runs these.
//  * DST: 16 tiles of 16-bit data (8 with fp32_dest_acc_en), in two halves unless
//    dst_full_sync_en; math owns a half from tile_regs_acquire to tile_regs_commit, the packer
//    from tile_regs_wait to tile_regs_release.
//  * the unpackers' SrcA/SrcB formats and the packer's output format: set by
//    compute_kernel_hw_startup and changed only by the reconfig calls (the *_init calls do not
//    touch them in 0.81.1); an unpack or pack with another format than its CB's is a finding.
//  * what math and unpack were initialised for (copy, add, matmul, reduce, ...).
#include "compute.h"

#include "formats.h"
#include "tc_emu/sfpu_ops.h"

namespace tc {

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

std::uint32_t pack_section_tile(std::uint32_t index) {
    Compute& c = comp();
    return std::uint32_t(c.pack_sec) * c.capacity() + index;
}

const char* dst_format_name() { return comp().fp32 ? "DataFormat::Float32" : "DataFormat::Float16_b"; }

// E5401: a packer write of `call` into CB `out_cb` in another format than the packer is set up for.
void require_pack_format(const CircularBuffer& out, std::uint32_t out_cb, const char* call, Loc loc) {
    const Compute& c = comp();
    if (out.format == c.pack_fmt) return;
    report(true, "E5401", loc,
           fmt_str("%s packs into CB %u (%s) while the packer is configured for %s", call, out_cb,
                   format_name(out.format), format_name(c.pack_fmt)),
           fmt_str("pack_reconfig_data_format(%u) first", out_cb));
}

// E5208: the row-major block `tiles` tiles wide a packer writes at the reserved back of `out_cb`
// is larger than the pages reserved.
void require_reserved_rows(const CircularBuffer& out, std::uint32_t out_cb, std::uint32_t tiles, const char* call,
                           Loc loc) {
    const std::uint32_t bytes = tiles * format_tile_bytes(out.format, out.tile.rows, out.tile.cols);
    const std::uint32_t pages = out.page_size ? (bytes + out.page_size - 1) / out.page_size : 0;
    if (pages <= out.reserved[TRISC]) return;
    report(true, "E5208", loc,
           fmt_str("%s writes %u pages' worth of rows into CB %u, but only %u pages are reserved (cb_reserve_back)",
                   call, pages, out_cb, out.reserved[TRISC]),
           "reserve the whole row-major block (full_ct_dim pages) before packing into it");
}

// E5409: the packer is not set up for this untilize block, (full_ct << 16) | block_ct
// (pack_untilize_init / pack_untilize_dest_init).
void require_pack_untilize(std::uint32_t block, const char* call, Loc loc) {
    const std::uint32_t have = comp().pack_untilize, block_ct = block & 0xFFFFu, full_ct = block >> 16;
    if (have == block) return;
    report(true, "E5409", loc,
           have ? fmt_str("%s<%u, %u> while the packer is set up for pack_untilize<%u, %u>", call, block_ct, full_ct,
                          have & 0xFFFFu, have >> 16)
                : fmt_str("%s<%u, %u> while the packer is set up for tiles", call, block_ct, full_ct),
           fmt_str("call pack_untilize_dest_init<%u, %u>(ocb) (or pack_untilize_init) first", block_ct, full_ct));
}

}  // namespace

Compute* new_compute() { return new Compute(); }
void delete_compute(Compute* c) { delete c; }

void compute_configure(Device* d, int core, const Kernel* k) {
    Compute& c = *d->cores[core].compute;
    c.fp32 = k->fp32_dest_acc;
    c.full_sync = k->dst_full_sync;
    c.unpack_to_dest = k->unpack_to_dest_fp32;
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



void require_mode(Mode want, std::uint32_t param, const char* call, const char* init, Loc loc) {
    Compute& c = comp();
    if (c.mode == want && c.mode_param == param) return;
    std::string last = c.mode_loc.line() ? fmt_str(" (last init at %s:%u)", c.mode_loc.file_name(), c.mode_loc.line()) : "";
    report(true, "E5409", loc,
           fmt_str("%s while the unpacker and math are initialised for %s%s", call, mode_name(c.mode), last.c_str()),
           fmt_str("call %s before %s: each init programs the unpacker and math for its operation", init, call));
}


void dst_fresh(int tile, bool integer) {
    Compute& c = comp();
    c.dst_int[tile] = integer;
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
    const Compute& c = comp();
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

void set_mode(Mode mode, std::uint32_t cb_a, std::uint32_t cb_b, std::uint32_t param, Loc loc) {
    Compute& c = comp();
    cur().last_loc = loc;
    c.mode = mode;
    c.mode_a = cb_a;
    c.mode_b = cb_b;
    c.mode_param = param;
    c.mode_loc = loc;
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
        c.dst_int[t] = false;
        c.dst_reduce[t] = 0;
    }
    s = Compute::Sec::Free;
    c.pack_sec = (c.pack_sec + 1) % c.sections();
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

int unary_bcast_source(const CircularBuffer& b, std::uint32_t cb) {
    // 32-bit data goes through DST directly (SrcB is only 19 bits wide); the rest through SrcB
    return b.format == fmt::Float32 && direct_to_dest(cb) ? 0 : 1;
}

void reduce_configure(std::uint32_t param, std::uint32_t cb, std::uint32_t scaler_cb, Loc loc) {
    set_mode(Mode::Reduce, cb, scaler_cb, param, loc);
    comp().reduce_mask = int(param & 0xFu);
}

bool reduce_swaps(std::uint32_t param) { return RDim(param & 0xFu) == RDim::Row && Pool(param >> 4) != Pool::Max; }

void reduce_unconfigure(Loc loc) {
    Compute& c = comp();
    cur().last_loc = loc;
    c.reduce_mask = -1;
    if (c.mode == Mode::Reduce) c.mode = Mode::None;
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

// ---------------------------------------------------------------- tilize / untilize
void tilize_checked(std::uint32_t in_cb, std::uint32_t tiles, std::uint32_t out_cb, const char* call, Loc loc) {
    require_mode(Mode::Tilize, 0, call, "tilize_init(icb, block, ocb)", loc);
    unpack_format(0, in_cb, 0, call, loc);
    CircularBuffer& out = cur_core().cbs[out_cb];
    require_pack_format(out, out_cb, call, loc);
    out.pack_tile_ptr += tiles;  // the packer writes the block's tiles in order, as pack_tile does
}

void untilize_checked(std::uint32_t in_cb, std::uint32_t tiles, std::uint32_t out_cb, const char* call, Loc loc) {
    require_mode(Mode::Untilize, 0, call, "untilize_init(icb)", loc);
    for (std::uint32_t t = 0; t < tiles; ++t) unpack_format(0, in_cb, t, call, loc, /*to_dest=*/true);
    CircularBuffer& out = cur_core().cbs[out_cb];
    require_pack_format(out, out_cb, call, loc);
    out.pack_tile_ptr += tiles;
}

void pack_untilize_checked(std::uint32_t in_cb, std::uint32_t block_rt, std::uint32_t out_cb, std::uint32_t block,
                           const char* call, Loc loc) {
    const std::uint32_t block_ct = block & 0xFFFFu, full_ct = block >> 16;
    require_mode(Mode::PackUntilize, block, call,
                 fmt_str("pack_untilize_init<%u, %u>(icb, ocb)", block_ct, full_ct).c_str(), loc);
    require_pack_untilize(block, call, loc);
    const Compute& c = comp();
    if (block_ct > c.capacity()) {
        report(true, "E5404", loc,
               fmt_str("%s<%u, %u> holds %u tiles in DST, but DST holds %u tiles here (%s)", call, block_ct, full_ct,
                       block_ct, c.capacity(), c.fp32 ? "fp32_dest_acc_en" : "16-bit"),
               "split the row into blocks of at most that many tiles (block_ct_dim), full_ct_dim a multiple of it");
        return;
    }
    for (std::uint32_t t = 0; t < block_rt * block_ct; ++t) unpack_format(0, in_cb, t, call, loc, /*to_dest=*/true);
    const CircularBuffer& out = cur_core().cbs[out_cb];
    require_pack_format(out, out_cb, call, loc);
    require_reserved_rows(out, out_cb, full_ct * block_rt, call, loc);
}

// ---------------------------------------------------------------- SFPU

// an SFPU op with a DataFormat template argument must name the format DST holds
void require_dst_format(std::uint32_t f, const char* call, Loc loc) {
    if (f == kNoFormat) return;
    std::uint8_t want = comp().fp32 ? fmt::Float32 : fmt::Float16_b;
    if (f == want || f == fmt::Int32 || f == fmt::UInt32 || f == fmt::UInt16) return;
    report(true, "E5413", loc,
           fmt_str("%s<DataFormat::%s> while DST holds %s data: the SFPU loads and stores DST in the wrong width", call,
                   format_name(std::uint8_t(f)), comp().fp32 ? "fp32 (fp32_dest_acc_en)" : "Float16_b"),
           fmt_str("instantiate it with %s (the DST format of this kernel)", dst_format_name()));
}

// a float SFPU call must not read a DST tile holding integers
void require_float_dst(int tile, const char* call, Loc loc) {
    if (!comp().dst_int[tile]) return;
    report(true, "E5414", loc,
           fmt_str("%s reads DST tile %d, which holds integers (an Int32/UInt32 copy or an integer call's result): "
                   "the SFPU computes on their bit patterns as floats", call, tile),
           "call the integer form (add_int_tile<DataFormat::Int32>, binary_max_int32_tile, lt_int_tile<...>, "
           "abs_tile_int32, ...), or typecast_tile the tile to a float format first");
}

bool unary_reads_floats(std::uint32_t op) {
    const SfpuUnary u = SfpuUnary(op);
    return op < std::uint32_t(SfpuUnary::Count) && u != SfpuUnary::Fill && u != SfpuUnary::FillBits &&
           u != SfpuUnary::Identity;
}

}  // namespace tc
