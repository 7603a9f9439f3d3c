// Names of the LLK API layer (0.81.1 hw/ckernels/<arch>/metal/llk_api/*.h, tt-llk's llk_defs and
// ckernel_defs) that ttnn's kernel_lib calls directly, below the compute API: the SFPU reduce's pack
// mask, the accumulator reload's reduce re-init. The emulator's compute API does not run on the
// LLK, so these are declared only, for kernels that name them on paths their arguments never take
// (kernel_lib's reduce instantiates them behind `if constexpr`); a path that does call one stops at
// compile time naming it (E5002).
#pragma once

#include <cstdint>

#include "llk_defs.h"

template <auto...>
inline constexpr bool tc_not_modelled = false;

#define TC_LLK_NOT_MODELLED(name, key) \
    static_assert(tc_not_modelled<key>, "not modelled by the tilecraft emulator: " name " (an LLK API call)")

namespace ckernel {
enum class PackMode : std::uint8_t { Default = 0, Untilize = 1, Tilize = 2 };
}  // namespace ckernel

// how an unpacker reconfiguration treats the tile's dims and strides (llk_unpack_common.h)
enum class p_dim_stride_target { IGNORE, FACE_ROW_MAJOR };

template <bool is_fp32_dest_acc_en, p_dim_stride_target dim_stride_target, bool skip_int8 = false>
inline void llk_unpack_reconfig_data_format_srca(std::uint32_t, std::uint32_t) {
    TC_LLK_NOT_MODELLED("llk_unpack_reconfig_data_format_srca", dim_stride_target);
}

template <bool is_fp32_dest_acc_en, bool skip_int8 = false>
inline void llk_math_reconfig_data_format_srca(std::uint32_t, std::uint32_t) {
    TC_LLK_NOT_MODELLED("llk_math_reconfig_data_format_srca", is_fp32_dest_acc_en);
}

template <ckernel::PoolType type, ckernel::ReduceDim dim>
inline void llk_unpack_AB_reduce_init(std::uint32_t, std::uint32_t) {
    TC_LLK_NOT_MODELLED("llk_unpack_AB_reduce_init", type);
}

template <ckernel::PoolType type, ckernel::ReduceDim dim, bool is_fp32_dest_acc_en, ckernel::MathFidelity fidelity>
inline void llk_math_reduce_init(std::uint32_t, std::uint32_t) {
    TC_LLK_NOT_MODELLED("llk_math_reduce_init", type);
}

template <ckernel::ReduceDim dim, ckernel::PackMode pack_mode = ckernel::PackMode::Default>
inline void llk_pack_reduce_mask_config(std::uint32_t) {
    TC_LLK_NOT_MODELLED("llk_pack_reduce_mask_config", dim);
}

template <bool tc_called = true>
inline void llk_pack_reduce_mask_clear() {
    TC_LLK_NOT_MODELLED("llk_pack_reduce_mask_clear", tc_called);
}
