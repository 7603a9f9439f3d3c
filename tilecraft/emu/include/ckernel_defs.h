// The part of the LLK's ckernel_defs.h (0.81.1 tt-llk/tt_llk_*/common/inc/ckernel_defs.h) that
// ttnn's data-movement kernels name: the thread ids of the core's mailboxes (BRISC and the three
// TRISCs), which the sparse matmul's readers use to tell the compute kernel whether a batch is valid;
// the tile and face geometry, which compute API defaults and kernel_lib name.
#pragma once

#include <cstdint>

namespace ckernel {

// tile and face geometry
constexpr std::uint32_t FACE_HEIGHT = 16;
constexpr std::uint32_t FACE_WIDTH = 16;
constexpr std::uint32_t TILE_HEIGHT = 32;
constexpr std::uint32_t TILE_WIDTH = 32;
constexpr std::uint32_t FACE_R_DIM = FACE_HEIGHT;
constexpr std::uint32_t FACE_C_DIM = FACE_WIDTH;
constexpr std::uint32_t TILE_R_DIM = TILE_HEIGHT;
constexpr std::uint32_t TILE_C_DIM = TILE_WIDTH;
constexpr std::uint32_t TILE_NUM_FACES = (TILE_R_DIM * TILE_C_DIM) / (FACE_R_DIM * FACE_C_DIM);

enum ThreadId {
    BriscThreadId = 0,
    UnpackThreadId = 1,
    MathThreadId = 2,
    PackThreadId = 3
};

}  // namespace ckernel
