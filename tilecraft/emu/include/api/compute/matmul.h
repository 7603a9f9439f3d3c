// Matrix multiplication (0.81.1 api/compute/matmul.h): in0 is read through SrcB and in1 through
// SrcA, so the unpacker formats must be configured in that order (SrcOrder::Reverse) when in0 and
// in1 differ in format. Each call accumulates into DST.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"
#include "api/compute/common.h"

namespace ckernel {

ALWI void matmul_init(std::uint32_t in0_cb_id, std::uint32_t in1_cb_id, const std::uint32_t transpose = 0,
                      std::uint32_t call_line = __builtin_LINE(), TC_LOC) {
    (void)call_line;
    ::tc::init_mode(::tc::Mode::Matmul, in0_cb_id, in1_cb_id, 0, tc_loc);
    // matmul_tiles takes the transpose of in1 from this init (0.81.1 configures the unpacker here)
    TC_NOT_MODELLED_IF(transpose != 0, "matmul_init with transpose (matmul_tiles of a transposed in1)");
}

ALWI void mm_uninit(std::uint32_t in0_cb_id, std::uint32_t in1_cb_id, TC_LOC) {
    (void)in0_cb_id;
    (void)in1_cb_id;
    (void)tc_loc;
}

ALWI void matmul_tiles(std::uint32_t in0_cb_id, std::uint32_t in1_cb_id, std::uint32_t in0_tile_index,
                       std::uint32_t in1_tile_index, std::uint32_t idst, TC_LOC) {
    ::tc::matmul_tiles(in0_cb_id, in1_cb_id, in0_tile_index, in1_tile_index, idst, false, 1, 1, 1, tc_loc);
}

ALWI void matmul_block_init(std::uint32_t in0_cb_id, std::uint32_t in1_cb_id, const std::uint32_t transpose = 0,
                            std::uint32_t ct_dim = 1, std::uint32_t rt_dim = 1, std::uint32_t kt_dim = 1,
                            std::uint32_t call_line = __builtin_LINE(), TC_LOC) {
    (void)call_line;
    (void)transpose;
    (void)ct_dim;
    (void)rt_dim;
    (void)kt_dim;
    ::tc::init_mode(::tc::Mode::Matmul, in0_cb_id, in1_cb_id, 0, tc_loc);
}

// rt_dim x ct_dim output tiles at idst + r * ct_dim + c: in0 tile in0_tile_index + r * kt_dim times
// in1 tile in1_tile_index + c
ALWI void matmul_block(std::uint32_t in0_cb_id, std::uint32_t in1_cb_id, std::uint32_t in0_tile_index,
                       std::uint32_t in1_tile_index, std::uint32_t idst, const std::uint32_t transpose,
                       std::uint32_t ct_dim, std::uint32_t rt_dim, std::uint32_t kt_dim,
                       std::uint32_t call_line = __builtin_LINE(), TC_LOC) {
    (void)call_line;
    ::tc::matmul_tiles(in0_cb_id, in1_cb_id, in0_tile_index, in1_tile_index, idst, transpose != 0, ct_dim, rt_dim,
                       kt_dim, tc_loc);
}

}  // namespace ckernel
