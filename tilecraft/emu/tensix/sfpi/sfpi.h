// tilecraft's host implementation of SFPI, the C++ interface Tenstorrent's SFPU kernels
// (ckernel_sfpu_*.h) are written against. On the device it comes from the SFPI toolchain
// (GCC builtins __builtin_rvtt_*), which the ttnn wheel does not ship; this directory is first on
// the include path of kernels compiled for tilecraft's Tensix machine.
//
//   sfpi_host.h       vectors as host arrays of 32 lanes; the machine state SFPI touches
//   sfpi_constants.h  instruction-modifier values (SFPLOADI_MOD0_*, SFPSETCC_MOD1_*, ...)
//   sfpi_values.h     vFloat / vInt / vUInt / vSMag (+ narrow types) and operators
//   sfpi_cond.h       vBool, comparisons, v_if / v_elseif / v_else / v_endif, v_block / v_and
//   sfpi_regs.h       dst_reg, l_reg, vConst*
//   sfpi_library.h    sfpi:: functions (exexp, setexp, lut, convert, min/max, ...)
//   sfpi_builtins.h   the __builtin_rvtt_* intrinsics kernels call directly
// Semantics: docs/emulator.md, "SFPI on the host".
#pragma once

#if defined(ARCH_QUASAR)
#error "tilecraft sfpi: Quasar's SFPI is not modelled (Wormhole B0 and Blackhole are)"
#endif
// Blackhole kernels (-DARCH_BLACKHOLE, as the SFPI toolchain's __riscv_xtttensixbh) see Blackhole's
// constants (sfpi_constants.h); the machine under them is built for the same architecture (arch.h).
#if defined(ARCH_BLACKHOLE) || defined(TC_ARCH_BLACKHOLE)
#define TC_SFPI_BLACKHOLE 1
#endif

// SFPI marks its inline functions with this; kernels use it for their own helpers too.
#ifndef sfpi_inline
#define sfpi_inline inline
#endif

#include "sfpi_constants.h"
#include "sfpi_host.h"
#include "sfpi_values.h"
#include "sfpi_cond.h"
#include "sfpi_regs.h"
#include "sfpi_library.h"
#include "sfpi_builtins.h"
