// comparisons with a scalar or with zero (0.81.1 api/compute/eltwise_unary/comp.h): 1 where true, else 0
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

ALWI void unary_ne_tile(uint32_t idst, uint32_t param0, TC_LOC) {
    ::tc::sfpu_unary(TC_U(UnaryNe), idst, param0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void unary_ne_tile_init(TC_LOC) {
    TC_SFPU_INIT(UnaryNe);
}

ALWI void unary_eq_tile(uint32_t idst, uint32_t param0, TC_LOC) {
    ::tc::sfpu_unary(TC_U(UnaryEq), idst, param0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void unary_eq_tile_init(TC_LOC) {
    TC_SFPU_INIT(UnaryEq);
}

ALWI void unary_gt_tile(uint32_t idst, uint32_t param0, TC_LOC) {
    ::tc::sfpu_unary(TC_U(UnaryGt), idst, param0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void unary_gt_tile_init(TC_LOC) {
    TC_SFPU_INIT(UnaryGt);
}

ALWI void unary_ge_tile(uint32_t idst, uint32_t param0, TC_LOC) {
    ::tc::sfpu_unary(TC_U(UnaryGe), idst, param0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void unary_ge_tile_init(TC_LOC) {
    TC_SFPU_INIT(UnaryGe);
}

ALWI void unary_lt_tile(uint32_t idst, uint32_t param0, TC_LOC) {
    ::tc::sfpu_unary(TC_U(UnaryLt), idst, param0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void unary_lt_tile_init(TC_LOC) {
    TC_SFPU_INIT(UnaryLt);
}

ALWI void unary_le_tile(uint32_t idst, uint32_t param0, TC_LOC) {
    ::tc::sfpu_unary(TC_U(UnaryLe), idst, param0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void unary_le_tile_init(TC_LOC) {
    TC_SFPU_INIT(UnaryLe);
}

ALWI void gtz_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Gtz), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void gtz_tile_init(TC_LOC) {
    TC_SFPU_INIT(Gtz);
}

ALWI void nez_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Nez), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void nez_tile_init(TC_LOC) {
    TC_SFPU_INIT(Nez);
}

ALWI void gez_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Gez), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void gez_tile_init(TC_LOC) {
    TC_SFPU_INIT(Gez);
}

ALWI void ltz_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Ltz), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void ltz_tile_init(TC_LOC) {
    TC_SFPU_INIT(Ltz);
}

ALWI void eqz_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Eqz), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void eqz_tile_init(TC_LOC) {
    TC_SFPU_INIT(Eqz);
}

ALWI void lez_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Lez), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void lez_tile_init(TC_LOC) {
    TC_SFPU_INIT(Lez);
}

}  // namespace ckernel
