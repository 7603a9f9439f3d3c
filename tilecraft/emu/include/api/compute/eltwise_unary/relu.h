// ReLU family (0.81.1 api/compute/eltwise_unary/relu.h); parameters are fp32 bit patterns
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

ALWI void relu_tile_init(TC_LOC) {
    TC_SFPU_INIT(Relu);
}

ALWI void relu_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Relu), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void relu_min_tile(uint32_t idst, uint32_t param0, TC_LOC) {
    ::tc::sfpu_unary(TC_U(ReluMin), idst, param0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void relu_min_tile_init(TC_LOC) {
    TC_SFPU_INIT(ReluMin);
}

ALWI void relu_max_tile(uint32_t idst, uint32_t param0, TC_LOC) {
    ::tc::sfpu_unary(TC_U(ReluMax), idst, param0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void relu_max_tile_init(TC_LOC) {
    TC_SFPU_INIT(ReluMax);
}

ALWI void leaky_relu_tile(uint32_t idst, uint32_t slope = 0, TC_LOC) {
    ::tc::sfpu_unary(TC_U(LeakyRelu), idst, slope, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void leaky_relu_tile_init(TC_LOC) {
    TC_SFPU_INIT(LeakyRelu);
}

}  // namespace ckernel
