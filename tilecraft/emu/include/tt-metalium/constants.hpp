// Tile and face dimensions (0.81.1 tt-metalium/constants.hpp, on the JIT build's include path for
// kernels too).
#pragma once

#include <cstdint>

namespace tt::constants {
using std::uint32_t;
constexpr uint32_t TILE_HEIGHT = 32;
constexpr uint32_t TILE_WIDTH = 32;
constexpr uint32_t TILE_HW = TILE_WIDTH * TILE_HEIGHT;
constexpr uint32_t FACE_HEIGHT = 16;
constexpr uint32_t FACE_WIDTH = 16;
constexpr uint32_t FACE_HW = FACE_WIDTH * FACE_HEIGHT;
}  // namespace tt::constants
