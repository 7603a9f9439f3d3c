// The LLK's shared enumerations (0.81.1 tt-llk llk_lib/llk_defs.h), usable from data-movement and
// compute kernels alike: ttnn's kernel_lib includes it on both sides (reduce pool types and
// dimensions in a reader's scaler helper, a compute kernel's reduce).
#pragma once

#include <cstdint>

#include "tc_emu/base.h"
#include "tc_emu/llk_defs.h"  // ReluType, ReluConfig

namespace ckernel {

enum class VectorMode : std::uint8_t { None = 0, R = 1, C = 2, RC = 4, RC_custom = 6, Invalid = 0xFF };
enum class ReduceDim : std::uint8_t { REDUCE_ROW, REDUCE_COL, REDUCE_SCALAR };
enum class PoolType : std::uint8_t { SUM, AVG, MAX, MIN };
enum class DataCopyType : std::uint8_t { A2D, B2D };
enum class EltwiseBinaryType : std::uint8_t { ELWMUL, ELWDIV, ELWADD, ELWSUB, ELWLESS };
enum class EltwiseBinaryReuseDestType { NONE = 0, DEST_TO_SRCA = 1, DEST_TO_SRCB = 2 };
enum class DstSync : std::uint8_t { SyncHalf = 0, SyncFull = 1 };
enum class BroadcastType : std::uint8_t { NONE = 0x0, COL = 0x1, ROW = 0x2, SCALAR = 0x3 };
enum class Transpose : std::uint8_t { None = 0, IntraFace = 1, InterFace = 2, Both = 3 };
enum class MathFidelity : std::uint8_t { LoFi = 0, HiFi2 = 2, HiFi3 = 3, HiFi4 = 4 };
enum class StochRndType : std::uint8_t { None = 0, Fpu = 1, Pack = 2, All = 0xf };
enum class DstRoundingMode : std::uint8_t { Default = 0, NearestEven = 1 };
enum class RoundingMode : std::uint8_t { None = 0, Trunc = 1, Floor = 2 };

constexpr bool UnpackToDestEn = true;
constexpr bool UnpackToDestDis = false;

}  // namespace ckernel
