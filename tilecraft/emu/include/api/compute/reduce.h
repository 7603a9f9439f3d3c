// Tile reductions (0.81.1 api/compute/reduce.h). reduce_init also sets the packer's edge mask that
// zeroes everything but the result row/column; reduce_uninit clears it, so it belongs after the
// packs of the reduce result. REDUCE_ROW sums read the scaler through SrcA and the data through
// SrcB (the caller reconfigures the unpacker accordingly).
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"
#include "api/compute/common.h"

namespace ckernel {

namespace detail {
constexpr ::tc::Pool tc_pool_of(PoolType p) {
    return p == PoolType::MAX ? ::tc::Pool::Max : p == PoolType::AVG ? ::tc::Pool::Avg : ::tc::Pool::Sum;
}
constexpr ::tc::RDim tc_dim_of(ReduceDim d) {
    return d == ReduceDim::REDUCE_ROW ? ::tc::RDim::Row : d == ReduceDim::REDUCE_COL ? ::tc::RDim::Col
                                                                                   : ::tc::RDim::Scalar;
}
}  // namespace detail

template <PoolType reduce_type, ReduceDim reduce_dim, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void reduce_init(std::uint32_t icb, std::uint32_t icb_scaler, std::uint32_t ocb,
                      std::uint32_t call_line = __builtin_LINE(), TC_LOC) {
    (void)call_line;
    ::tc::reduce_init(detail::tc_pool_of(reduce_type), detail::tc_dim_of(reduce_dim), icb, icb_scaler, ocb, tc_loc);
}

ALWI void reduce_uninit(std::uint32_t icb = 0, TC_LOC) {
    (void)icb;
    ::tc::reduce_uninit(tc_loc);
}

template <PoolType reduce_type, ReduceDim reduce_dim, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void reduce_tile(std::uint32_t icb, std::uint32_t icb_scaler, std::uint32_t itile, std::uint32_t itile_scaler,
                      std::uint32_t idst, TC_LOC) {
    ::tc::reduce_tile(detail::tc_pool_of(reduce_type), detail::tc_dim_of(reduce_dim), icb, icb_scaler, itile, itile_scaler,
                      idst, tc_loc);
}

template <PoolType reduce_type, ReduceDim reduce_dim, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void reduce_block(std::uint32_t icb, std::uint32_t icb_scaler, std::uint32_t start_itile,
                       std::uint32_t itile_scaler, std::uint32_t start_idst, std::uint32_t ntiles, TC_LOC) {
    for (std::uint32_t i = 0; i < ntiles; ++i)
        ::tc::reduce_tile(detail::tc_pool_of(reduce_type), detail::tc_dim_of(reduce_dim), icb, icb_scaler, start_itile + i,
                          itile_scaler, start_idst + i, tc_loc);
}

}  // namespace ckernel
