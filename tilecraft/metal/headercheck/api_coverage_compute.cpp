// Compute-API coverage kernel for the header check (tests/test_headercheck.py): one call of
// each compute operation the emitter's table may produce, so the check proves they all
// instantiate through the real 0.81.1 headers and the SFPI stand-in. Not a meaningful program.
// Written for tilecraft.
#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/eltwise_binary.h"
#include "api/compute/eltwise_binary_sfpu.h"
#include "api/compute/add_int_sfpu.h"
#include "api/compute/binary_max_min.h"
#include "api/compute/bcast.h"
#include "api/compute/reduce.h"
#include "api/compute/transpose.h"
#include "api/compute/matmul.h"
#include "api/compute/tilize.h"
#include "api/compute/pack_untilize.h"
#include "api/compute/reconfig_data_format.h"
#include "api/compute/tile_move_copy.h"
#include "api/compute/compute_kernel_api.h"
#include "api/compute/eltwise_unary/eltwise_unary.h"
#include "api/compute/eltwise_unary/exp.h"
#include "api/compute/eltwise_unary/relu.h"
#include "api/compute/eltwise_unary/sqrt.h"
#include "api/compute/eltwise_unary/rsqrt.h"
#include "api/compute/eltwise_unary/recip.h"
#include "api/compute/eltwise_unary/gelu.h"
#include "api/compute/eltwise_unary/negative.h"
#include "api/compute/eltwise_unary/trigonometry.h"
#include "api/compute/eltwise_unary/typecast.h"
#include "api/compute/eltwise_unary/fill.h"
#include "api/compute/eltwise_unary/clamp.h"
#include "api/compute/eltwise_unary/rounding.h"

void kernel_main() {
    constexpr uint32_t a = tt::CBIndex::c_0, b = tt::CBIndex::c_1, s = tt::CBIndex::c_2, o = tt::CBIndex::c_16;
    compute_kernel_hw_startup(a, b, o);
    add_init(a, b); add_tiles(a, b, 0, 0, 0);
    sub_init(a, b); sub_tiles(a, b, 0, 0, 1);
    mul_init(a, b); mul_tiles(a, b, 0, 0, 2);
    add_bcast_rows_init(a, b); add_tiles_bcast_rows(a, b, 0, 0, 0);
    mul_bcast_cols_init(a, b); mul_tiles_bcast_cols(a, b, 0, 0, 0);
    sub_bcast_scalar_init(a, b); sub_tiles_bcast_scalar(a, b, 0, 0, 0);
    reduce_init<PoolType::SUM, ReduceDim::REDUCE_ROW>(a, s, o);
    reduce_tile<PoolType::SUM, ReduceDim::REDUCE_ROW>(a, s, 0, 0, 0);
    reduce_uninit();
    reduce_init<PoolType::MAX, ReduceDim::REDUCE_SCALAR>(a, s, o);
    reduce_tile<PoolType::MAX, ReduceDim::REDUCE_SCALAR>(a, s, 0, 0, 0);
    reduce_uninit();
    transpose_init(a); transpose_tile(a, 0, 0);
    matmul_init(a, b); matmul_tiles(a, b, 0, 0, 0);
    reconfig_data_format(a, b); pack_reconfig_data_format(o);
    reconfig_data_format_srca(b);
    copy_init(a); copy_tile(a, 0, 0); copy_tile(a, 1, 1);
    add_binary_tile_init(); add_binary_tile(0, 1, 0);
    mul_binary_tile_init(); mul_binary_tile(0, 1, 0);
    div_binary_tile_init(); div_binary_tile(0, 1, 0);
    binary_max_tile_init(); binary_max_tile(0, 1, 0);
    add_int_tile_init(); add_int_tile<DataFormat::Int32>(0, 1, 0);
    exp_tile_init(); exp_tile(0);
    exp_tile_init<true>(); exp_tile<true>(0);
    log_tile_init(); log_tile(0);
    sqrt_tile_init(); sqrt_tile(0);
    rsqrt_tile_init(); rsqrt_tile(0);
    recip_tile_init(); recip_tile(0);
    sigmoid_tile_init(); sigmoid_tile(0);
    tanh_tile_init(); tanh_tile(0);
    gelu_tile_init(); gelu_tile(0);
    relu_tile_init(); relu_tile(0);
    leaky_relu_tile_init(); leaky_relu_tile(0, 0x3c00);
    abs_tile_init(); abs_tile(0);
    negative_tile_init(); negative_tile(0);
    sin_tile_init(); sin_tile(0);
    cos_tile_init(); cos_tile(0);
    square_tile_init(); square_tile(0);
    power_tile_init(); power_tile(0, 3);
    exp2_tile_init(); exp2_tile(0);
    silu_tile_init(); silu_tile(0);
    clamp_tile_init(); clamp_tile(0, 0, 0x3f800000);
    rounding_op_tile_init(); floor_tile(0);
    typecast_tile_init<(uint32_t)DataFormat::Float16_b, (uint32_t)DataFormat::Float32>();
    typecast_tile<(uint32_t)DataFormat::Float16_b, (uint32_t)DataFormat::Float32>(0);
    typecast_tile_init<(uint32_t)DataFormat::Float32, (uint32_t)DataFormat::Int32>();
    typecast_tile<(uint32_t)DataFormat::Float32, (uint32_t)DataFormat::Int32>(0);
    typecast_tile_init<(uint32_t)DataFormat::Int32, (uint32_t)DataFormat::Float16_b>();
    typecast_tile<(uint32_t)DataFormat::Int32, (uint32_t)DataFormat::Float16_b>(0);
    typecast_tile_init<(uint32_t)DataFormat::Float16_b, (uint32_t)DataFormat::UInt16>();
    typecast_tile<(uint32_t)DataFormat::Float16_b, (uint32_t)DataFormat::UInt16>(0);
    fill_tile_init(); fill_tile(0, 1.5f);
    tile_regs_acquire(); tile_regs_commit(); tile_regs_wait();
    pack_tile(0, o); pack_tile<true>(1, o, 1);
    tile_regs_release();
    tilize_init(a, 4, o); tilize_block(a, 4, o); tilize_uninit(a, o);
    pack_untilize_init(a, o); pack_untilize_uninit(o);
}
