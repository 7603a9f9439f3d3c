// The part of the firmware's tensix_types.h (0.81.1 internal/tt-1xx/<arch>/..._defines/tensix_types.h)
// that kernels name: the L1 data formats (DataFormat, defined with the emulator's base types) and
// their predicates. The packer/mover register layouts it also declares are the LLK's, not kernels'.
#pragma once

#include "tc_emu/base.h"

constexpr bool is_uint32_format(DataFormat format) { return format == DataFormat::UInt32; }
constexpr bool is_bfp8_b_format(DataFormat format) { return format == DataFormat::Bfp8_b; }
constexpr bool is_bfp4_b_format(DataFormat format) { return format == DataFormat::Bfp4_b; }
