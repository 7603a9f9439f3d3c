// Single-head flash attention, compute.  Hand-written tilecraft reference kernel, tt-metal 0.81.1.
//
// Per query block (one tile row of Q), the online softmax over the key/value blocks, as ttnn's SDPA
// kernel arranges it:
//   s = (q @ k^T) * scale           matmul_block with the transpose flag (the reader laid K out for
//                                   it), the scale applied in DST before the one pack
//   m = max(m_prev, rowmax(s))      reduce_tile<MAX, ROW> with a scaler tile of 1.0, then the SFPU max
//   alpha = exp(m_prev - m)         on the FPU (sub_tiles), exp in DST
//   p = exp(s - bcast_cols(m))      sub_tiles_bcast_cols, exp in DST
//   l = alpha * l + rowsum(p)       reduce_tile<SUM, ROW>, then the SFPU multiply-add in DST
//   acc = acc * bcast_cols(alpha) + p @ v
//                                   mul_tiles_bcast_cols into DST, matmul_block accumulating on top
// and at the end out = acc * bcast_cols(1 / l). The first key/value block skips the rescales (there
// is nothing to rescale). The running m, l and acc live in fp32 CBs of two blocks each: the new
// value is packed behind the old one, which is then popped; m, read at both its old and new value,
// alternates between two one-tile CBs instead (ttnn's swap), since a read past the end of a CB does
// not wrap. Everything but Q, K, V and the output
// is fp32, as the TT-Lang program keeps them (fp32_dest_acc_en).
//
// Compile-time args: D, BK.
// Runtime args:      q_blocks, kv_blocks, scale (fp32 bits).
#include <cstdint>
#include <utility>

#include "api/compute/bcast.h"
#include "api/compute/binary_max_min.h"
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/eltwise_binary.h"
#include "api/compute/eltwise_binary_sfpu.h"
#include "api/compute/eltwise_unary/binop_with_scalar.h"
#include "api/compute/eltwise_unary/exp.h"
#include "api/compute/eltwise_unary/fill.h"
#include "api/compute/eltwise_unary/recip.h"
#include "api/compute/matmul.h"
#include "api/compute/pack.h"
#include "api/compute/reconfig_data_format.h"
#include "api/compute/reduce.h"
#include "api/compute/reg_api.h"
#include "api/compute/tile_move_copy.h"

constexpr uint32_t cb_q = tt::CBIndex::c_0;
constexpr uint32_t cb_k = tt::CBIndex::c_1;
constexpr uint32_t cb_v = tt::CBIndex::c_2;
constexpr uint32_t cb_scaler = tt::CBIndex::c_3;
constexpr uint32_t cb_s = tt::CBIndex::c_4;
constexpr uint32_t cb_p = tt::CBIndex::c_5;
constexpr uint32_t cb_max_a = tt::CBIndex::c_6;
constexpr uint32_t cb_max_b = tt::CBIndex::c_11;
constexpr uint32_t cb_alpha = tt::CBIndex::c_7;
constexpr uint32_t cb_sum = tt::CBIndex::c_8;
constexpr uint32_t cb_acc = tt::CBIndex::c_9;
constexpr uint32_t cb_recip = tt::CBIndex::c_10;
constexpr uint32_t cb_out = tt::CBIndex::c_16;

// Pack DST tiles [0, n) into cb, reserving and pushing them.
inline void pack_block(uint32_t cb, uint32_t n) {
    cb_reserve_back(cb, n);
    tile_regs_commit();
    tile_regs_wait();
    pack_reconfig_data_format(cb);
    for (uint32_t i = 0; i < n; ++i) {
        pack_tile(i, cb);
    }
    tile_regs_release();
    cb_push_back(cb, n);
}

void kernel_main() {
    const uint32_t q_blocks = get_arg_val<uint32_t>(0);
    const uint32_t kv_blocks = get_arg_val<uint32_t>(1);
    const uint32_t scale = get_arg_val<uint32_t>(2);
    constexpr uint32_t D = get_compile_time_arg_val(0);
    constexpr uint32_t BK = get_compile_time_arg_val(1);

    compute_kernel_hw_startup(cb_q, cb_k, cb_s);
    tile_regs_acquire();
    fill_tile_init();
    fill_tile(0, 1.0f);
    pack_block(cb_scaler, 1);
    cb_wait_front(cb_scaler, 1);

    uint32_t m_prev = cb_max_b, m = cb_max_a;
    for (uint32_t qb = 0; qb < q_blocks; ++qb) {
        cb_wait_front(cb_q, D);
        for (uint32_t kb = 0; kb < kv_blocks; ++kb) {
            const bool rescale = kb > 0;
            cb_wait_front(cb_k, BK * D);
            cb_wait_front(cb_v, BK * D);

            // s = (q @ k^T) * scale
            tile_regs_acquire();
            reconfig_data_format(cb_k, cb_q);
            matmul_block_init(cb_q, cb_k, 1, BK, 1, D);
            for (uint32_t d = 0; d < D; ++d) {
                matmul_block(cb_q, cb_k, d, d * BK, 0, 1, BK, 1, D);
            }
            binop_with_scalar_tile_init();
            for (uint32_t j = 0; j < BK; ++j) {
                mul_unary_tile(j, scale);
            }
            pack_block(cb_s, BK);
            cb_pop_front(cb_k, BK * D);
            cb_wait_front(cb_s, BK);

            // m = max(m_prev, rowmax(s))
            std::swap(m_prev, m);
            tile_regs_acquire();
            reconfig_data_format(cb_s, cb_scaler);
            reduce_init<PoolType::MAX, ReduceDim::REDUCE_ROW>(cb_s, cb_scaler, m);
            for (uint32_t j = 0; j < BK; ++j) {
                reduce_tile<PoolType::MAX, ReduceDim::REDUCE_ROW>(cb_s, cb_scaler, j, 0, 0);
            }
            if (rescale) {
                reconfig_data_format_srca(m_prev);
                copy_init(m_prev);
                copy_tile(m_prev, 0, 1);
                binary_max_tile_init();
                binary_max_tile(0, 1, 0);
            }
            pack_block(m, 1);
            reduce_uninit();
            cb_wait_front(m, 1);

            // alpha = exp(m_prev - m)
            if (rescale) {
                tile_regs_acquire();
                reconfig_data_format(m_prev, m);
                sub_init(m_prev, m);
                sub_tiles(m_prev, m, 0, 0, 0);
                exp_tile_init();
                exp_tile(0);
                pack_block(cb_alpha, 1);
            }

            // p = exp(s - bcast_cols(m))
            tile_regs_acquire();
            reconfig_data_format(cb_s, m);
            sub_bcast_cols_init(cb_s, m);
            for (uint32_t j = 0; j < BK; ++j) {
                sub_tiles_bcast_cols(cb_s, m, j, 0, j);
            }
            exp_tile_init();
            for (uint32_t j = 0; j < BK; ++j) {
                exp_tile(j);
            }
            pack_block(cb_p, BK);
            cb_pop_front(cb_s, BK);
            if (rescale) {
                cb_pop_front(m_prev, 1);
            }
            cb_wait_front(cb_p, BK);

            // l = alpha * l_prev + rowsum(p): behind l_prev in cb_sum
            tile_regs_acquire();
            reconfig_data_format(cb_scaler, cb_p);
            reduce_init<PoolType::SUM, ReduceDim::REDUCE_ROW>(cb_p, cb_scaler, cb_sum);
            for (uint32_t j = 0; j < BK; ++j) {
                reduce_tile<PoolType::SUM, ReduceDim::REDUCE_ROW>(cb_p, cb_scaler, j, 0, 0);
            }
            if (rescale) {
                cb_wait_front(cb_alpha, 1);
                cb_wait_front(cb_sum, 1);
                reconfig_data_format_srca(cb_sum);
                copy_init(cb_sum);
                copy_tile(cb_sum, 0, 1);
                copy_init(cb_alpha);
                copy_tile(cb_alpha, 0, 2);
                mul_binary_tile_init();
                mul_binary_tile(1, 2, 1);
                add_binary_tile_init();
                add_binary_tile(0, 1, 0);
            }
            pack_block(cb_sum, 1);
            reduce_uninit();
            if (rescale) {
                cb_pop_front(cb_sum, 1);
            }

            // acc = acc_prev * bcast_cols(alpha) + p @ v: behind acc_prev in cb_acc
            tile_regs_acquire();
            if (rescale) {
                cb_wait_front(cb_acc, D);
                reconfig_data_format(cb_acc, cb_alpha);
                mul_bcast_cols_init(cb_acc, cb_alpha);
                for (uint32_t d = 0; d < D; ++d) {
                    mul_tiles_bcast_cols(cb_acc, cb_alpha, d, 0, d);
                }
            }
            reconfig_data_format(cb_v, cb_p);
            matmul_block_init(cb_p, cb_v, 0, D, 1, BK);
            for (uint32_t j = 0; j < BK; ++j) {
                matmul_block(cb_p, cb_v, j, j * D, 0, 0, D, 1, BK);
            }
            pack_block(cb_acc, D);
            if (rescale) {
                cb_pop_front(cb_acc, D);
                cb_pop_front(cb_alpha, 1);
            }
            cb_pop_front(cb_p, BK);
            cb_pop_front(cb_v, BK * D);
        }

        // out = acc * bcast_cols(1 / l)
        cb_wait_front(cb_sum, 1);
        tile_regs_acquire();
        reconfig_data_format_srca(cb_sum);
        copy_init(cb_sum);
        copy_tile(cb_sum, 0, 0);
        recip_tile_init();
        recip_tile(0);
        pack_block(cb_recip, 1);
        cb_wait_front(cb_recip, 1);
        cb_wait_front(cb_acc, D);
        tile_regs_acquire();
        reconfig_data_format(cb_acc, cb_recip);
        mul_bcast_cols_init(cb_acc, cb_recip);
        for (uint32_t d = 0; d < D; ++d) {
            mul_tiles_bcast_cols(cb_acc, cb_recip, d, 0, d);
        }
        pack_block(cb_out, D);
        cb_pop_front(cb_recip, 1);
        cb_pop_front(cb_acc, D);
        cb_pop_front(cb_sum, 1);
        cb_pop_front(m, 1);
        cb_pop_front(cb_q, D);
    }
    cb_pop_front(cb_scaler, 1);
}
