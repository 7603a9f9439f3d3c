// The bridge between our sfpi.h and the Tensix machine: SFPI vector values as host arrays of the
// 32 SFPU lanes, and the few places where SFPI code touches machine state.
//
// Design (docs/emulator.md, "SFPI on the host"): on the device, the SFPI compiler keeps vFloat /
// vInt / vUInt variables in LRegs it allocates itself, so kernels can never rely on which LReg a
// variable lives in. Here such values are host arrays (`Vec`) computed with the lane functions of
// sfpu_ops.h, the same functions the TTI_SFP* handlers use. Everything a kernel *can* observe from
// raw instructions is machine state and is read/written there:
//   * lane predication: v_if/v_elseif/v_else/v_endif drive MachineState::sfpu.cc with the
//     SFPENCC/SFPPUSHC/SFPCOMPC/SFPPOPC semantics; assignments write only enabled lanes;
//   * l_reg[LRegN] and the constant registers (vConst*) are MachineState::lreg itself;
//   * dst_reg[i] loads/stores and dst_reg++ are *issued* as SFPLOAD/SFPSTORE/INCRWC instructions,
//     so Dst addressing (RWC, DEST_TARGET offset, address modifiers) and format conversion are the
//     SFPU/FPU units' own, bit for bit; writes to vConst*Prgm* issue SFPCONFIG.
// Issued instructions go through a scratch LReg that is saved and restored around them, so kernel
// values held in LRegs by interleaved TTI_ code are never disturbed.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "../sfpu_ops.h"  // the lane functions (kernels get no other machine header from SFPI)

// Kernels may be built as shared objects that resolve these functions in the runner executable.
#define TC_SFPI_EXPORT __attribute__((visibility("default")))

namespace tc_tensix::sfpi_host {

// One SFPI vector value: the raw 32 bits of each lane (lane = row * 8 + column).
using Vec = std::array<uint32_t, sfpu::kLanes>;

inline Vec splat(uint32_t v) {
    Vec r;
    r.fill(v);
    return r;
}
template <class F>
inline Vec lanewise(const Vec& a, F f) {
    Vec r;
    for (int i = 0; i < sfpu::kLanes; ++i) r[i] = f(a[i]);
    return r;
}
template <class F>
inline Vec lanewise(const Vec& a, const Vec& b, F f) {
    Vec r;
    for (int i = 0; i < sfpu::kLanes; ++i) r[i] = f(a[i], b[i]);
    return r;
}
template <class F>
inline Vec lanewise(const Vec& a, const Vec& b, const Vec& c, F f) {
    Vec r;
    for (int i = 0; i < sfpu::kLanes; ++i) r[i] = f(a[i], b[i], c[i]);
    return r;
}
// The set of lanes (bit i = lane i) where `pred(a[i])` holds.
template <class F>
inline uint32_t lanes_where(const Vec& a, F pred) {
    uint32_t m = 0;
    for (int i = 0; i < sfpu::kLanes; ++i)
        if (pred(a[i])) m |= 1u << i;
    return m;
}
template <class F>
inline uint32_t lanes_where(const Vec& a, const Vec& b, F pred) {
    uint32_t m = 0;
    for (int i = 0; i < sfpu::kLanes; ++i)
        if (pred(a[i], b[i])) m |= 1u << i;
    return m;
}

// The SFPU's multiply-add (sfpu::mad) of every lane, vectorised (sfpu_lanes.cpp): what SFPMAD,
// SFPADD (b = 1.0) and SFPMUL (c = +0) compute, and most of an SFPU kernel's time.
TC_SFPI_EXPORT Vec mad(const Vec& a, const Vec& b, const Vec& c);

// --- machine state SFPI code reads and writes (current machine and thread) ---
// Each of these first checks that no REPLAY buffer is recording: host-side SFPI work could not be
// replayed, so that mix is a hard error rather than a wrong result.

// Lanes the next SFPU instruction writes (predication and row masks).
TC_SFPI_EXPORT uint32_t enabled_lanes();
// dst = src in the enabled lanes (the SFPI compiler's predicated register assignment).
TC_SFPI_EXPORT void assign_enabled(Vec& dst, const Vec& src);

// SFPLOAD / SFPSTORE of dst_reg address `addr` with format `mod0` and address modifier `addr_mod`.
TC_SFPI_EXPORT Vec dst_load(unsigned mod0, unsigned addr, unsigned addr_mod);
TC_SFPI_EXPORT void dst_store(const Vec& v, unsigned mod0, unsigned addr, unsigned addr_mod);
// INCRWC of the Dst counter by `rows` (dst_reg++ / dst_reg += n).
TC_SFPI_EXPORT void advance_dst(unsigned rows);
// LReg `idx` as the SFPU reads it (constants included); a write of the enabled lanes of LReg 0..7.
TC_SFPI_EXPORT Vec read_lreg(unsigned idx);
TC_SFPI_EXPORT void write_lreg(unsigned idx, const Vec& v);
// The cross-lane shuffles run as the machine's own instructions on the values, the kernel's
// LRegs saved and restored around them; a lane that is not enabled keeps its old value, as the
// compiler's predicated assignment of the result would.
// SFPTRANSP of a..d placed in LReg[0..3] (subvec_transp): lane 8 * j + c of value i and lane
// 8 * i + c of value j trade places.
TC_SFPI_EXPORT void transpose_subvecs(Vec& a, Vec& b, Vec& c, Vec& d);
// SFPSHFT2 with the subvector shuffle `mod1` (SUBVEC_SHFLROR1 / SUBVEC_SHFLSHR1) of `v`: each row of
// eight lanes rotated or shifted right by one lane (what SHFLSHR1 fills lane 0 with is the SFPU's).
TC_SFPI_EXPORT Vec shuffle_subvec(const Vec& v, unsigned mod1);
// SFPCONFIG of the programmable constant LReg `idx` (11..14) from lanes 0..7 of `v`.
TC_SFPI_EXPORT void write_config_lreg(unsigned idx, const Vec& v);
// The next PRNG value of each enabled lane (stochastic rounding; SFPSTOCHRND/SFPCAST advance the
// PRNG only in the lanes they write, and follow the PRNG_SEED register).
TC_SFPI_EXPORT Vec prng_values();
// A hard error of the machine for SFPI use tilecraft does not model (never a wrong result).
[[noreturn]] TC_SFPI_EXPORT void unsupported(const std::string& what);

// Predicated execution (sfpi_cond.h): open a level (SFPENCC first when none is open, then
// SFPPUSHC), narrow the enabled lanes' flags to `lanes` (SFPSETCC), complement within the
// enclosing level (SFPCOMPC), close `levels` levels (SFPPOPC each).
TC_SFPI_EXPORT void cc_open();
TC_SFPI_EXPORT void cc_narrow(uint32_t lanes);
TC_SFPI_EXPORT void cc_otherwise();
TC_SFPI_EXPORT void cc_close(int levels);

}  // namespace tc_tensix::sfpi_host
