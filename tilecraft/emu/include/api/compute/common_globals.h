// Compute-kernel basics (0.81.1 api/compute/common_globals.h and the constants the JIT generates),
// emulated. The compute kernel of a core runs as one program: UNPACK(...), MATH(...) and PACK(...)
// sections all expand to their argument.
#pragma once

#include <cstdint>

#include "api/compile_time_args.h"
#include "llk_defs.h"
#include "tc_emu/args.h"
#include "tc_emu/base.h"
#include "tc_emu/sfpu_ops.h"
#include "ckernel_defs.h"

#define MATH(...) __VA_ARGS__
#define PACK(...) __VA_ARGS__
#define UNPACK(...) __VA_ARGS__

#ifndef TC_DST_ACCUM_MODE
#define TC_DST_ACCUM_MODE false
#endif
#ifndef TC_MATH_FIDELITY
#define TC_MATH_FIDELITY 4
#endif
#ifndef TC_APPROX
#define TC_APPROX false
#endif
#ifndef TC_DST_SYNC_FULL
#define TC_DST_SYNC_FULL false
#endif

namespace ckernel {

namespace p_sfpu {
constexpr std::uint16_t kCONST_1_FP16B = 0x3F80;
}

constexpr bool DST_ACCUM_MODE = TC_DST_ACCUM_MODE;
constexpr MathFidelity MATH_FIDELITY = static_cast<MathFidelity>(TC_MATH_FIDELITY);
constexpr bool APPROX = TC_APPROX;
#define DST_SYNC_MODE (TC_DST_SYNC_FULL ? ::ckernel::DstSync::SyncFull : ::ckernel::DstSync::SyncHalf)

}  // namespace ckernel

namespace tc {
constexpr Fpu tc_fpu_of(ckernel::EltwiseBinaryType t) {
    return t == ckernel::EltwiseBinaryType::ELWADD ? Fpu::Add : t == ckernel::EltwiseBinaryType::ELWSUB ? Fpu::Sub
                                                                                                        : Fpu::Mul;
}
constexpr Bcast tc_bcast_of(ckernel::BroadcastType b) {
    return b == ckernel::BroadcastType::ROW ? Bcast::Row
           : b == ckernel::BroadcastType::COL ? Bcast::Col
           : b == ckernel::BroadcastType::SCALAR ? Bcast::Scalar
                                                 : Bcast::None;
}
constexpr std::uint32_t tc_binary_param(Fpu op, Bcast b, bool acc) {
    return (std::uint32_t(acc) << 8) | (std::uint32_t(op) << 4) | std::uint32_t(b);
}
}  // namespace tc

#define TC_U(op) static_cast<std::uint32_t>(::tc::SfpuUnary::op)
#define TC_B(op) static_cast<std::uint32_t>(::tc::SfpuBinary::op)
#define TC_SFPU_INIT(op) ::tc::sfpu_init(TC_U(op), tc_loc)
// stop at this call (E5009) when an argument asks for what the emulator does not model
#define TC_NOT_MODELLED_IF(condition, what) \
    do {                                     \
        if (condition) ::tc::not_modelled(what, tc_loc); \
    } while (0)
#define TC_SFPU(op, idst, p0, p1, p2) ::tc::sfpu_unary(TC_U(op), idst, p0, p1, p2, ::tc::kNoFormat, tc_loc)
#define TC_SFPU_BIN(op, a, b, out) ::tc::sfpu_binary(TC_B(op), a, b, out, ::tc::kNoFormat, tc_loc)
