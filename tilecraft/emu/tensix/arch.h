// The architecture the machine is built for, and the instruction-encoding facts that differ
// between Wormhole B0 and Blackhole.
//
// Why a build-time choice: every unit names its configuration registers through the wheel's
// cfg_defines.h, whose addresses differ per architecture (tt-1xx/wormhole/wormhole_b0_defines vs
// tt-1xx/blackhole), so the machine's sources are compiled once per architecture with
// -DTC_ARCH_WORMHOLE or -DTC_ARCH_BLACKHOLE (tensix_build.py, tests/emu/tensix/conftest.py). The
// units stay one file each: where an encoding differs they read the field through the traits
// below (one table row per architecture), and an instruction that exists on one architecture
// only is registered for it alone (TC_OPCODE_ON in machine.h).
//
// Facts: the wheel's ckernel_ops.h / assembly.yaml of tt_llk_wormhole_b0 and tt_llk_blackhole
// (field positions), cfg_defines.h of both, ttsim's instruction tables (data/{wh,bh}/tensix_isa.json).
#pragma once

#include <cstdint>

namespace tc_tensix {

enum class Arch { WormholeB0, Blackhole };

// Kernels include the SFPU's lane functions through SFPI with the suite's -DARCH_BLACKHOLE; they
// must see the same architecture as the machine under them.
#if defined(TC_ARCH_BLACKHOLE) || defined(ARCH_BLACKHOLE)
inline constexpr Arch kArch = Arch::Blackhole;
#else
inline constexpr Arch kArch = Arch::WormholeB0;
#endif

// The architecture's name in messages.
constexpr const char* arch_name(Arch a) { return a == Arch::Blackhole ? "Blackhole" : "Wormhole B0"; }

// Bit positions of fields whose place or width differs between the architectures.
struct Encoding {
    // AddrMode of the matrix unit's instructions (ELW*, MVMUL, DOTPV, MOV*, ZEROACC, SHIFTXB):
    // Wormhole 2 bits at 15 (ADDR_MOD_SET_Base supplies the third), Blackhole 3 bits at 14.
    int math_addr_mode_lo, math_addr_mode_bits;
    // AddrMode of GMPOOL / GAPOOL (pool_addr_mode): at 15 on both, Wormhole 2 bits, Blackhole 3.
    int pool_addr_mode_bits;
    // sfpu_addr_mode of SFPLOAD / SFPSTORE / SFPLOADMACRO: Wormhole 2 bits at 14, Blackhole 3 at 13.
    int sfpu_addr_mode_lo, sfpu_addr_mode_bits;
    // STALLWAIT's wait-resource mask: Wormhole 15 bits, Blackhole 12; the four Src hand-over
    // conditions (SRCA_CLR, SRCB_CLR, SRCA_VLD, SRCB_VLD: p_stall) are consecutive from this bit.
    int stallwait_wait_res_bits, stallwait_src_bit;
    // MOVB2D's instruction modifier (3 bits): Wormhole at 12, Blackhole at 11.
    int movb2d_mod_lo;
    // ADDR_MOD sets an AddrMode field names without ADDR_MOD_SET_Base / the extra bit (4 or 8).
    uint32_t addr_mod_sets_direct;
};

inline constexpr Encoding kEncodings[] = {
    /* WormholeB0 */ {15, 2, 2, 14, 2, 15, 8, 12, 4},
    /* Blackhole  */ {14, 3, 3, 13, 3, 12, 5, 11, 8},
};
inline constexpr const Encoding& kEnc = kEncodings[static_cast<int>(kArch)];

}  // namespace tc_tensix
