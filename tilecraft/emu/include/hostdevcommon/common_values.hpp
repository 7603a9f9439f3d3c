// Values host and device code share (0.81.1 hostdevcommon/common_values.hpp): the VALID/INVALID
// words kernels use as semaphore flags.
#pragma once

#include <cstddef>
#include <cstdint>

constexpr static std::uint32_t INVALID = 0;
constexpr static std::uint32_t VALID = 1;
