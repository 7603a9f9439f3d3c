// The LLK's FPU binary init (0.81.1 hw/ckernels llk_api/llk_math_binary_api.h), which kernel_lib's
// eltwise chain calls directly for a broadcast BinaryFpu. It configures what the API's
// binary_tiles_init / bcast_init configure, so it sets the same emulated state: the op, the
// broadcast of srcB and DST accumulation. The fidelity argument is honoured as the FPU does
// (add and sub take no fidelity phases); a multiply at a fidelity other than the kernel's
// configured one, and a DST-reuse binary, are not modelled.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"

template <ckernel::EltwiseBinaryType eltwise_binary_type, ckernel::BroadcastType src_b_bcast_type,
          ckernel::MathFidelity math_fidelity,
          ckernel::EltwiseBinaryReuseDestType binary_reuse_dest = ckernel::EltwiseBinaryReuseDestType::NONE>
inline void llk_math_eltwise_binary_init(const std::uint32_t operand_A, const std::uint32_t operand_B,
                                         const std::uint32_t acc_to_dest = 0, TC_LOC) {
    TC_NOT_MODELLED_IF(binary_reuse_dest != ckernel::EltwiseBinaryReuseDestType::NONE,
                       "llk_math_eltwise_binary_init with DST reuse");
    TC_NOT_MODELLED_IF(eltwise_binary_type == ckernel::EltwiseBinaryType::ELWMUL &&
                           math_fidelity != ckernel::MATH_FIDELITY,
                       "llk_math_eltwise_binary_init multiplying at a fidelity other than the compute config's");
    constexpr ::tc::Bcast bcast = ::tc::tc_bcast_of(src_b_bcast_type);
    ::tc::init_mode(bcast == ::tc::Bcast::None ? ::tc::Mode::Binary : ::tc::Mode::BinaryBcast, operand_A, operand_B,
                    ::tc::tc_binary_param(::tc::tc_fpu_of(eltwise_binary_type), bcast, acc_to_dest != 0), tc_loc);
}
