// the SFPU functions of 0.81.1 api/compute/compute_kernel_api.h (sigmoid, tanh, log, abs, power, ...)
// Written by tilecraft from the documented 0.81.1 API; numerics in tilecraft/emu/runtime/sfpu.cpp.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

namespace ckernel {

template <bool fast_and_approx = false>
ALWI void sigmoid_tile_init(TC_LOC) {
    TC_SFPU_INIT(Sigmoid);
}

template <VectorMode vec_mode = VectorMode::RC, bool fast_and_approx = false, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sigmoid_tile(uint32_t idst, TC_LOC) {
    TC_NOT_MODELLED_IF(vec_mode != VectorMode::RC, "sigmoid_tile with a VectorMode other than VectorMode::RC");
    ::tc::sfpu_unary(TC_U(Sigmoid), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void silu_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Silu), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void silu_tile_init(TC_LOC) {
    TC_SFPU_INIT(Silu);
}

template <bool fast_and_approx = false, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void tanh_tile_init(TC_LOC) {
    TC_SFPU_INIT(Tanh);
}

template <bool fast_and_approx = false, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void tanh_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Tanh), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void square_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Square), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void square_tile_init(TC_LOC) {
    TC_SFPU_INIT(Square);
}

template <bool fast_and_approx = false, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void log_tile_init(TC_LOC) {
    TC_SFPU_INIT(Log);
}

template <bool fast_and_approx = false, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void log_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Log), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

template <bool fast_and_approx = false, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void log_with_base_tile_init(TC_LOC) {
    TC_SFPU_INIT(LogWithBase);
}

template <bool fast_and_approx = false, bool base_is_two = false, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void log_with_base_tile(uint32_t idst, uint32_t base_scale, TC_LOC) {
    ::tc::sfpu_unary(TC_U(LogWithBase), idst, base_scale, base_is_two ? 1u : 0u, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void signbit_tile_init(TC_LOC) {
    TC_SFPU_INIT(Signbit);
}

ALWI void signbit_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Signbit), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void abs_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Abs), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void abs_tile_init(TC_LOC) {
    TC_SFPU_INIT(Abs);
}

ALWI void sign_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Sign), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void sign_tile_init(TC_LOC) {
    TC_SFPU_INIT(Sign);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void power_tile(uint32_t idst, uint32_t param0, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Power), idst, param0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void power_tile_init(TC_LOC) {
    TC_SFPU_INIT(Power);
}

// x^n for an integer n by square-and-multiply in fp32 (ckernel_sfpu_unary_power.h), unlike power_tile
ALWI void power_iterative_tile(uint32_t idst, uint32_t param0, TC_LOC) {
    ::tc::sfpu_unary(TC_U(PowerIterative), idst, param0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void power_iterative_tile_init(TC_LOC) {
    TC_SFPU_INIT(PowerIterative);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void exp2_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Exp2), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void exp2_tile_init(TC_LOC) {
    TC_SFPU_INIT(Exp2);
}

ALWI void heaviside_tile(uint32_t idst, uint32_t param0, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Heaviside), idst, param0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void heaviside_tile_init(TC_LOC) {
    TC_SFPU_INIT(Heaviside);
}

template <bool approx = false, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void expm1_tile(uint32_t idst, TC_LOC) {
    ::tc::sfpu_unary(TC_U(Expm1), idst, 0, 0, 0, ::tc::kNoFormat, tc_loc);
}

template <bool approx = false, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void expm1_tile_init(TC_LOC) {
    TC_SFPU_INIT(Expm1);
}

ALWI void unary_max_tile(uint32_t idst, uint32_t param0, TC_LOC) {
    ::tc::sfpu_unary(TC_U(UnaryMax), idst, param0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void unary_max_tile_init(TC_LOC) {
    TC_SFPU_INIT(UnaryMax);
}

ALWI void unary_min_tile(uint32_t idst, uint32_t param0, TC_LOC) {
    ::tc::sfpu_unary(TC_U(UnaryMin), idst, param0, 0, 0, ::tc::kNoFormat, tc_loc);
}

ALWI void unary_min_tile_init(TC_LOC) {
    TC_SFPU_INIT(UnaryMin);
}

// The SFPU reduce (kernel_lib's path for Int32, bf16 MIN and accurate fp32): not modelled; a call
// stops at compile time naming it (E5002).
template <PoolType pool_type, DataFormat format, ReduceDim reduce_dim = ReduceDim::REDUCE_COL,
          bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sfpu_reduce(uint32_t idst, uint32_t ct_dim = 1, uint32_t rt_dim = 1) {
    static_assert(pool_type != pool_type, "not modelled by the tilecraft emulator: sfpu_reduce");
}

template <PoolType pool_type, DataFormat format, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void sfpu_reduce_init() {
    static_assert(pool_type != pool_type, "not modelled by the tilecraft emulator: sfpu_reduce_init");
}

}  // namespace ckernel
