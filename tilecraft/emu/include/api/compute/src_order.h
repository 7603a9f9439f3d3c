// SrcOrder (0.81.1 api/compute/src_order.h): how two input CBs map onto SrcA/SrcB. Regular:
// icb0 -> SrcA, icb1 -> SrcB; Reverse: icb0 -> SrcB, icb1 -> SrcA (what matmul needs).
#pragma once

#include <cstdint>

namespace ckernel {
enum class SrcOrder : uint8_t {
    Regular = 0,
    Reverse = 1,
};
}  // namespace ckernel
