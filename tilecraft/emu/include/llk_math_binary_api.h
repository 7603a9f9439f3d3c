// The math half of an FPU binary init (0.81.1 hw/ckernels/<arch>/metal/llk_api/llk_math_binary_api.h),
// which ttnn's kernel_lib calls below the compute API for its broadcast inits. The emulator's
// binary mode (tc::init_mode) stands for the whole init; the unpack half (llk_unpack_AB_api.h) has
// nothing further to set. Fidelity is the kernel's (ComputeConfigDescriptor.math_fidelity): an
// FPU add or sub runs at LoFi on the device whatever is asked (get_effective_math_fidelity), a
// multiply at another fidelity than the kernel's is not modelled (E5009).
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

template <ckernel::EltwiseBinaryType eltwise_binary_type, ckernel::BroadcastType src_b_bcast_type,
          ckernel::MathFidelity math_fidelity,
          ckernel::EltwiseBinaryReuseDestType binary_reuse_dest = ckernel::EltwiseBinaryReuseDestType::NONE>
inline void llk_math_eltwise_binary_init(const std::uint32_t operand_A, const std::uint32_t operand_B,
                                         const std::uint32_t acc_to_dest = 0, TC_LOC) {
    static_assert(binary_reuse_dest == ckernel::EltwiseBinaryReuseDestType::NONE,
                  "not modelled by the tilecraft emulator: llk_math_eltwise_binary_init reusing DST");
    TC_NOT_MODELLED_IF(eltwise_binary_type == ckernel::EltwiseBinaryType::ELWMUL &&
                           math_fidelity != ckernel::MATH_FIDELITY,
                       "llk_math_eltwise_binary_init: a multiply at another fidelity than the kernel's");
    constexpr auto mode =
        src_b_bcast_type == ckernel::BroadcastType::NONE ? ::tc::Mode::Binary : ::tc::Mode::BinaryBcast;
    ::tc::init_mode(mode, operand_A, operand_B,
                    ::tc::tc_binary_param(::tc::tc_fpu_of(eltwise_binary_type), ::tc::tc_bcast_of(src_b_bcast_type),
                                          acc_to_dest != 0),
                    tc_loc);
}
