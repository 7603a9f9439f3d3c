// The compute side of one core as the sanitizer follows it (compute.cpp): DST ownership, the
// unpacker and packer configurations, what the unpacker and math were last initialised for, and
// the checks on a compute kernel's API calls, which the Tensix machine reports (machine_calls.cpp).
#pragma once

#include <cstdint>

#include "device.h"
#include "formats.h"

namespace tc {

struct Compute {
    static constexpr int kTiles = 16;
    bool dst_int[kTiles] = {};  // the tile holds integers (an integer copy or an integer call's result)
    std::int8_t dst_reduce[kTiles] = {};  // 1 + RDim when the tile holds a reduce result beyond row/col 0
    // DST sections: one (full sync) or two (half sync) of `capacity()` tiles
    // Both: tile_regs_wait() came before math's tile_regs_commit() (the ACQ()/REL() idiom of ttnn
    // kernels: acquire and wait, math, pack, commit and release); on the device the packer's wait
    // returns at that commit, so its packs see the math before it
    enum class Sec : std::uint8_t { Free, Math, Committed, Pack, Both };
    Sec sec[2] = {Sec::Free, Sec::Free};
    int math_sec = 0, pack_sec = 0;

    bool fp32 = false, full_sync = false;
    const std::uint8_t* unpack_to_dest = nullptr;

    bool started = false;
    std::uint8_t src_fmt[2] = {255, 255};  // SrcA, SrcB: the L1 formats the unpackers decode
    int src_cb[2] = {-1, -1};
    std::uint8_t pack_fmt = 255;
    int pack_cb = -1;

    Mode mode = Mode::None;
    std::uint32_t mode_a = 0, mode_b = 0, mode_param = 0;
    Loc mode_loc{};
    int reduce_mask = -1;  // RDim the packer's edge mask keeps, -1: no mask
    std::uint32_t pack_untilize = 0;  // the packer's untilize block, (full_ct << 16) | block_ct; 0: tiles

    std::uint32_t capacity() const { return std::uint32_t((full_sync ? 16 : 8) / (fp32 ? 2 : 1)); }
    int sections() const { return full_sync ? 1 : 2; }
};

inline Compute& comp() { return *cur_core().compute; }

// DST access for math, with the ownership checks; returns a tile index into Compute's per-tile state.
int math_dst(std::uint32_t index, const char* call, Loc loc);

// The sanitizer's checks, which machine_calls.cpp runs on the kernel's calls while its TRISCs compute:
// E5410: a compute call before compute_kernel_hw_startup.
void require_started(const char* call, Loc loc);
// E5207: an unpack of tile `tile` of CB `cb` beyond the pages waited for.
void require_waited(const CircularBuffer& b, std::uint32_t cb, std::uint32_t tile, const char* call, Loc loc);
// E5410, E5405, E5404: math writes DST tile `index` of its half; returns the index within DST's
// capacity.
std::uint32_t dst_written(std::uint32_t index, const char* call, Loc loc);
// E5410, E5403, E5404, E5412, E5208/E5210: pack_tile from DST tile `dst` into CB `cb`; returns
// the page written (in-order packing moves on to the next).
std::uint32_t pack_page(CircularBuffer& b, std::uint32_t dst, std::uint32_t cb, std::uint32_t out_tile,
                        bool out_of_order, Loc loc);
// DST tile `tile` freshly written by math: integer data or not, no reduce result.
void dst_fresh(int tile, bool integer);
// DST tile `tile` now holds a reduce result over `dim` (the packer's reduce mask applies to it).
void dst_reduced(int tile, RDim dim);

// The DST hand-over between math and the packer (tile_regs_acquire/commit/wait/release), each with
// its trace event and its checks (E5405, E5403, E5410).
void regs_acquire(Loc loc);
void regs_commit(Loc loc);
void regs_wait(Loc loc);
void regs_release(Loc loc);

// The configuration the init and reconfig calls set, with compute_kernel_hw_startup's trace event:
// the unpackers' formats (reconfig_data_format_srca/srcb: `which` 0/1; the (old, new) form
// reprograms only when the two CBs' formats differ), the packer's format, what the unpacker and
// math are initialised for, and reduce_uninit (the packer's reduce mask off).
void hw_startup(std::uint32_t src_a_cb, std::uint32_t src_b_cb, std::uint32_t out_cb, Loc loc);
void configure_src(int which, std::uint32_t old_cb, std::uint32_t new_cb, bool has_old, Loc loc);
void configure_pack(std::uint32_t old_cb, std::uint32_t new_cb, bool has_old, Loc loc);
void set_mode(Mode mode, std::uint32_t cb_a, std::uint32_t cb_b, std::uint32_t param, Loc loc);
// reduce_init<PoolType, ReduceDim>: `param` is (Pool << 4) | RDim.
void reduce_configure(std::uint32_t param, std::uint32_t cb, std::uint32_t scaler_cb, Loc loc);
void reduce_unconfigure(Loc loc);

// Which source register an operand goes through:
// a copy of CB `cb` into DST bypasses SrcA (a Float32 CB in UnpackToDestFp32 mode, fp32 DST);
bool direct_to_dest(std::uint32_t cb);
// unary_bcast: SrcB, or SrcA's path straight into DST for 32-bit data that bypasses SrcA (0);
int unary_bcast_source(const CircularBuffer& b, std::uint32_t cb);
// REDUCE_ROW sums swap the operands: the scaler goes to SrcA, the data to SrcB.
bool reduce_swaps(std::uint32_t param);

// The checks of that configuration:
// E5409: the operation `want` (with `param`: the op, broadcast, reduce type...) without its init
// `init` since the last other init.
void require_mode(Mode want, std::uint32_t param, const char* call, const char* init, Loc loc);
// E5409 for an FPU binary (`op`, broadcast of srcB); returns whether the init set DST accumulation.
bool binary_mode(Fpu op, Bcast bcast, const char* call, Loc loc);
// E5410, E5402, E5207, E5411: an unpack of tile `tile` of CB `cb` through SrcA (`src` 0) or SrcB
// (1), `to_dest` for a copy into DST (Float32 CBs in UnpackToDestFp32 mode bypass SrcA), `matmul`
// for matmul's operand order in the hint; returns the format the unpacker decodes with.
std::uint8_t unpack_format(int src, std::uint32_t cb, std::uint32_t tile, const char* call, Loc loc,
                           bool to_dest = false, bool matmul = false);
// E5401, E5406: pack_tile of DST tile `dst` into CB `cb` (of buffer `b`) with the packer's format
// and reduce mask; returns the tile's index in Compute's per-tile state.
int pack_configured(const CircularBuffer& b, std::uint32_t dst, std::uint32_t cb, Loc loc);
// tilize_block of `tiles` tiles from CB `in_cb` into `out_cb` (E5409, E5402, E5207, E5410, E5401),
// then the packer's next page moves on past them.
void tilize_checked(std::uint32_t in_cb, std::uint32_t tiles, std::uint32_t out_cb, const char* call, Loc loc);
// untilize_block of `tiles` tiles (E5409, E5402, E5207, E5411, E5401), the packer moving on likewise.
void untilize_checked(std::uint32_t in_cb, std::uint32_t tiles, std::uint32_t out_cb, const char* call, Loc loc);
// pack_untilize_block of `block_rt` rows of the untilize block `block`, (full_ct << 16) | block_ct
// (E5409 for the init and the packer's set-up, E5404, E5402, E5207, E5411, E5401, E5208 for the row
// block beyond the pages reserved).
void pack_untilize_checked(std::uint32_t in_cb, std::uint32_t block_rt, std::uint32_t out_cb, std::uint32_t block,
                           const char* call, Loc loc);
// E5413: an SFPU call (`call`) told DST holds data format `format` (kNoFormat: not told).
void require_dst_format(std::uint32_t format, const char* call, Loc loc);
// E5414: a float SFPU call (`call`) reads DST tile `tile` while it holds integers (Compute::dst_int).
void require_float_dst(int tile, const char* call, Loc loc);
// Whether the SFPU unary operation `op` (an SfpuUnary code) reads its DST tile as floats: not a
// fill (which only writes), nor identity (which copies the bits), nor a code past the table.
bool unary_reads_floats(std::uint32_t op);

// A compute API call of a kernel on the Tensix machine, from its MATH TRISC in the kernel's order
// (tilecraft/emu/tensix_call_events.py lists them and the layout of `values`): its trace event and
// the checks above.
void machine_api_call(Ev kind, const char* call, const std::uint32_t* values, Loc loc);

}  // namespace tc
