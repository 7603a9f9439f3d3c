// The part of the LLK's ckernel_defs.h (0.81.1 tt-llk/tt_llk_*/common/inc/ckernel_defs.h) that
// ttnn's data-movement kernels name: the thread ids of the core's mailboxes (BRISC and the three
// TRISCs), which the sparse matmul's readers use to tell the compute kernel whether a batch is valid;
// the tile's row and column counts, which compute API defaults name.
#pragma once

#include <cstdint>

namespace ckernel {

constexpr std::uint32_t TILE_R_DIM = 32;
constexpr std::uint32_t TILE_C_DIM = 32;

enum ThreadId {
    BriscThreadId = 0,
    UnpackThreadId = 1,
    MathThreadId = 2,
    PackThreadId = 3
};

}  // namespace ckernel
