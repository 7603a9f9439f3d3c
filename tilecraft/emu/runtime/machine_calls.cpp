// The compute API calls of a kernel running on the Tensix machine, as the kernel emulator's trace
// and sanitizer see them.
//
// On the machine the compute API is Tenstorrent's: its calls issue the LLK's instructions, and the
// machine computes what the device would, mistakes included (a pack without tile_regs_wait packs
// whatever DST holds). The sanitizer's findings are about the API's protocol, so they are made
// here on the calls themselves: the machine tree makes each call report itself from the MATH
// TRISC, in the kernel's order, with its caller's line (tilecraft/emu/tensix_call_events.py), and
// each report runs the checks of compute.cpp (the CB counts, the tile indices read against the
// pages waited for and written against the pages reserved, the DST hand-over and capacity) on the
// core's CB and DST bookkeeping. The TRISCs themselves wait on and move the shared CB counters
// (tensix/bridge/compute_bridge.cpp).
//
// The configuration those checks read (the unpackers' and packer's formats, what the unpacker and
// math are initialised for, the packer's reduce mask and untilize block) is followed here from the
// init and reconfig calls the machine reports; so are the format, init and reduce-mask findings
// (E5401, E5402, E5406, E5409, E5411), the SFPU's DST format (E5413) and the untilizes' row block
// (E5208). A configuration change
// the API makes outside the reported calls (the LLK called directly) is not followed.
#include <algorithm>
#include <string>

#include "compute.h"
#include "tc_emu/sfpu_ops.h"

namespace tc {

namespace {

// An SFPU event's absent DST operand (tensix_call_events.py: NO_DST).
constexpr std::uint32_t kNoDst = 0xFFFFFFFFu;

// The trace event of a call: values[0..3], a CB index as the bytes of one of its pages.
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

// A reconfig event's untilize operand that leaves the packer's untilize block as it is
// (tensix_call_events.py: KEEP_UNTILIZE).
constexpr std::uint32_t kKeepUntilize = 0xFFFFFFFFu;

// What an init event does (tensix_call_events.py: the Init values[5]).
enum class InitKind : std::uint32_t { Mode = 0, Reduce = 1, ReduceUninit = 2 };

// A configuration call: (mode, cb a, cb b, -, param, InitKind) or (cb, register, -, -, source,
// old cb, has old, untilize block) with register 0 an unpacker's, 1 the packer's.
void configure(Ev kind, const std::uint32_t* v, Loc loc) {
    if (kind == Ev::Init) {
        switch (InitKind(v[5])) {
            case InitKind::Mode: set_mode(Mode(v[0]), v[1], v[2], v[4], loc); break;
            case InitKind::Reduce: reduce_configure(v[4], v[1], v[2], loc); break;
            case InitKind::ReduceUninit: reduce_unconfigure(loc); break;
        }
        return;
    }
    if (v[1] == 0) {
        configure_src(int(v[4]), v[5], v[0], v[6] != 0, loc);
    } else if (v[1] == 1) {
        configure_pack(v[5], v[0], v[6] != 0, loc);
        if (v[7] != kKeepUntilize) comp().pack_untilize = v[7];
    }
}

// Math writes DST tile `index` (E5410, E5405, E5404) with a fresh result (of integers or not).
int written(std::uint32_t index, const char* call, Loc loc, bool integer = false) {
    const int t = math_dst(index, call, loc);
    dst_fresh(t, integer);
    return t;
}

// Whether an SFPU call is one of the API's integer forms, by its name: a word `int`, `int32`,
// `uint32` or `uint16` (add_int_tile, binary_max_int32_tile, fill_tile_int, abs_tile_int32, ...).
bool integer_call(const char* call) {
    const std::string name = std::string("_") + call + "_";
    for (const char* word : {"_int_", "_int32_", "_uint32_", "_uint16_"})
        if (name.find(word) != std::string::npos) return true;
    return false;
}

}  // namespace

void machine_api_call(Ev kind, const char* call, const std::uint32_t* v, Loc loc) {
    cur().last_loc = loc;
    switch (kind) {  // compute.cpp's and dataflow.cpp's functions, which record their trace events
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
        case Ev::Init: case Ev::Reconfig:
            if (kind == Ev::Init || configured({v[0]}, call, loc)) configure(kind, v, loc);
            break;
        case Ev::Copy: case Ev::Transpose:  // (cb, -, -, -, tile, dst)
            if (!configured({v[0]}, call, loc)) return;
            if (kind == Ev::Copy) require_mode(Mode::Copy, 0, call, "copy_init(cb)", loc);
            else require_mode(Mode::Transpose, 0, call, "transpose_init(icb)", loc);
            written(v[5], call, loc, is_integer_format(unpack_format(0, v[0], v[4], call, loc, /*to_dest=*/true)));
            break;
        case Ev::UnaryBcast: {  // (cb, -, -, -, tile, dst, Bcast)
            if (!configured({v[0]}, call, loc)) return;
            require_mode(Mode::UnaryBcast, v[6], call, "unary_bcast_init<BroadcastType>(icb)", loc);
            const int src = unary_bcast_source(cur_core().cbs[v[0]], v[0]);
            unpack_format(src, v[0], v[4], call, loc, src == 0);
            written(v[5], call, loc);
            break;
        }
        case Ev::Binary:  // (cb a, cb b, Fpu, Bcast, tile a, tile b, dst)
            if (!configured({v[0], v[1]}, call, loc)) return;
            binary_mode(Fpu(v[2]), Bcast(v[3]), call, loc);
            unpack_format(0, v[0], v[4], call, loc);
            unpack_format(1, v[1], v[5], call, loc);
            written(v[6], call, loc);
            break;
        case Ev::Reduce: {  // (cb, scaler cb, -, -, tile, scaler tile, dst, (Pool << 4) | RDim)
            if (!configured({v[0], v[1]}, call, loc)) return;
            require_mode(Mode::Reduce, v[7], call, "reduce_init<PoolType, ReduceDim>(icb, icb_scaler, ocb)", loc);
            const bool swap = reduce_swaps(v[7]);
            unpack_format(swap ? 1 : 0, v[0], v[4], call, loc);
            unpack_format(swap ? 0 : 1, v[1], v[5], call, loc);
            dst_reduced(math_dst(v[6], call, loc), RDim(v[7] & 0xFu));
            break;
        }
        case Ev::Matmul: {  // (in0, in1, ct, rt, in0 tile, in1 tile, dst, kt): in0 row r, in1 column c
            if (!configured({v[0], v[1]}, call, loc)) return;
            require_mode(Mode::Matmul, 0, call, "matmul_init(in0, in1) / matmul_block_init", loc);
            for (std::uint32_t r = 0; r < v[3]; ++r) {
                for (std::uint32_t c = 0; c < v[2]; ++c) {  // in0 through SrcB, in1 through SrcA
                    unpack_format(1, v[0], v[4] + r * v[7], call, loc, false, /*matmul=*/true);
                    unpack_format(0, v[1], v[5] + c, call, loc, false, /*matmul=*/true);
                    written(v[6] + r * v[2] + c, call, loc);
                }
            }
            break;
        }
        case Ev::Tilize:  // (in cb, tiles, out cb)
            if (configured({v[0], v[2]}, call, loc)) tilize_checked(v[0], v[1], v[2], call, loc);
            break;
        case Ev::Untilize:  // (in cb, tiles or block rows, out cb, pack_untilize, untilize block)
            if (!configured({v[0], v[2]}, call, loc)) return;
            if (v[3] == 0) untilize_checked(v[0], v[1], v[2], call, loc);
            else pack_untilize_checked(v[0], v[1], v[2], v[4], call, loc);
            break;
        case Ev::Pack: {  // (cb, -, -, -, dst, output tile index, out of order)
            if (!configured({v[0]}, call, loc)) return;
            CircularBuffer& b = cur_core().cbs[v[0]];
            pack_page(b, v[4], v[0], v[5], v[6] != 0, loc);
            pack_configured(b, v[4], v[0], loc);
            break;
        }
        case Ev::SfpuUnary: case Ev::SfpuBinary: case Ev::SfpuTernary: {  // (op, -, -, -, dst, dst, dst, format)
            int last = -1, tiles[3] = {-1, -1, -1};
            for (int i = 4; i < 7; ++i)
                if (v[i] != kNoDst) last = tiles[i - 4] = math_dst(v[i], call, loc);
            require_dst_format(v[7], call, loc);
            // a float call of a known operation code (tc_emu/sfpu_ops.h) reads its operands (a unary
            // its tile, a binary idst0/idst1, a ternary all three) as floats: E5414. Calls of no
            // known code (bitwise, shifts, copy_dest_values) are not judged.
            const bool integers = integer_call(call), told_integers = is_integer_format(std::uint8_t(v[7]));
            const bool as_floats = kind == Ev::SfpuUnary ? unary_reads_floats(v[0])
                                   : kind == Ev::SfpuBinary ? v[0] < std::uint32_t(tc::SfpuBinary::Count)
                                                            : v[0] < std::uint32_t(tc::SfpuTernary::Count);
            const int reads = kind == Ev::SfpuUnary ? 1 : kind == Ev::SfpuBinary ? 2 : 3;
            if (as_floats && !integers && !told_integers)
                for (int i = 0; i < reads; ++i)
                    if (tiles[i] >= 0) require_float_dst(tiles[i], call, loc);
            // the result goes to the last DST operand (unary: its tile, binary: odst); a ternary's
            // output is a fourth, not reported. It holds integers after an integer call, one told
            // DST holds integers (where_tile<DataFormat::Int32>; not a typecast's output), or a call
            // not judged on integers (bitwise_and_tile keeps them)
            const bool integer_result = integers || (told_integers && std::string(call).find("typecast") == std::string::npos) ||
                                        (!as_floats && tiles[0] >= 0 && comp().dst_int[tiles[0]]);
            if (last >= 0 && kind != Ev::SfpuTernary) dst_fresh(last, integer_result);
            break;
        }
        default: break;
    }
}

}  // namespace tc
