// inf/NaN tests (0.81.1 api/compute/eltwise_unary/isinf_isnan.h): 1 where true, else 0
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

ALWI void isinf_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Isinf), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void isinf_tile_init(TC_LOC) {
    TC_SFPU_INIT(Isinf);
}

ALWI void isposinf_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Isposinf), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void isposinf_tile_init(TC_LOC) {
    TC_SFPU_INIT(Isposinf);
}

ALWI void isneginf_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Isneginf), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void isneginf_tile_init(TC_LOC) {
    TC_SFPU_INIT(Isneginf);
}

ALWI void isnan_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Isnan), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void isnan_tile_init(TC_LOC) {
    TC_SFPU_INIT(Isnan);
}

ALWI void isfinite_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Isfinite), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void isfinite_tile_init(TC_LOC) {
    TC_SFPU_INIT(Isfinite);
}

}  // namespace ckernel
