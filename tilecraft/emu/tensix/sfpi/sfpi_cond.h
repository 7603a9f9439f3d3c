// Vector conditions (vBool, comparisons) and predicated execution (v_if / v_elseif / v_else /
// v_endif, v_block / v_and / v_endblock) over the SFPU's lane predication state.
//
// A vBool is the set of lanes where a comparison holds, evaluated as the instructions the SFPI
// compiler emits for it would: against a literal zero, SFPSETCC on the raw bits (so -0.0 < 0 and
// -NaN < 0 hold, as on the device); otherwise the sign/zero test of a difference, computed by
// SFPMAD for floats (a - b, rounded, denormals flushed) and by SFPIADD for integers (wrapping).
// Conditionals drive MachineState::sfpu.cc: the outermost one enables lane flags (SFPENCC with
// both immediates set, as the compiler does), each level pushes (SFPPUSHC), a condition narrows
// the enabled lanes' flags (SFPSETCC), else/elseif complement within the enclosing level
// (SFPCOMPC), and leaving the construct pops every level it pushed (SFPPOPC).
#pragma once

#include <exception>

#include "sfpi_values.h"

namespace sfpi {

class vBool {
    uint32_t lanes_;

public:
    explicit vBool(uint32_t lanes) : lanes_(lanes) {}
    vBool(const vInt& v);
    vBool(const vUInt& v);
    vBool(const vSMag& v);
    uint32_t lanes() const { return lanes_; }
};

inline vBool operator&&(const vBool& a, const vBool& b) { return vBool(a.lanes() & b.lanes()); }
inline vBool operator||(const vBool& a, const vBool& b) { return vBool(a.lanes() | b.lanes()); }
inline vBool operator!(const vBool& a) { return vBool(~a.lanes()); }
// A placement hint for the compiler's condition scheduling; the condition itself is unchanged.
inline vBool nearby(const vBool& b) { return b; }

namespace impl_ {

enum class Cmp { EQ, NE, LT, GE, GT, LE };

// The comparison outcome from the value the hardware tests (a difference, or the operand itself
// when comparing with zero), read as a two's-complement word the way SFPSETCC reads it.
inline vBool test_sign_zero(Cmp c, const sfpu_t& d) {
    return vBool(tc_tensix::sfpi_host::lanes_where(d, [c](uint32_t x) {
        const bool neg = int32_t(x) < 0, zero = x == 0;
        switch (c) {
        case Cmp::EQ: return zero;
        case Cmp::NE: return !zero;
        case Cmp::LT: return neg;
        case Cmp::GE: return !neg;
        case Cmp::GT: return !neg && !zero;
        default: return neg || zero;  // LE
        }
    }));
}
// Wormhole: the sign (and zero) of a - b, an SFPMAD. Blackhole orders floats with SFPGT / SFPLE,
// sign-magnitude integers in total order (-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN): its
// SFPMAD turns every NaN into +NaN, so a difference could not order them; the LLK's GELU' relies
// on -NaN >= 3.17 being false and +NaN >= 3.17 true (ckernel_sfpu_gelu.h, bfloat16 arm).
inline vBool order_float(Cmp c, const sfpu_t& a, const sfpu_t& b) {
    return vBool(tc_tensix::sfpi_host::lanes_where(a, b, [c](uint32_t x, uint32_t y) {
        const int32_t p = ops::sign_magnitude_order(x), q = ops::sign_magnitude_order(y);
        switch (c) {
        case Cmp::LT: return p < q;
        case Cmp::GE: return p >= q;
        case Cmp::GT: return p > q;
        default: return p <= q;  // LE
        }
    }));
}
inline vBool compare_float(Cmp c, const sfpu_t& a, const sfpu_t& b) {
#ifdef TC_SFPI_BLACKHOLE
    if (c != Cmp::EQ && c != Cmp::NE) return order_float(c, a, b);
#endif
    return test_sign_zero(c, fmad(splat(kNegOne), b, a));
}
inline vBool compare_float(Cmp c, const sfpu_t& a, float b) {
    const uint32_t bits = ops::bits_of(b);
    return bits == 0 ? test_sign_zero(c, a) : compare_float(c, a, splat(bits));
}
inline vBool compare_int(Cmp c, const sfpu_t& a, const sfpu_t& b) { return test_sign_zero(c, isub(a, b)); }

}  // namespace impl_

inline vBool::vBool(const vInt& v) : vBool(impl_::compare_int(impl_::Cmp::NE, v.get(), impl_::splat(0))) {}
inline vBool::vBool(const vUInt& v) : vBool(impl_::compare_int(impl_::Cmp::NE, v.get(), impl_::splat(0))) {}
inline vBool::vBool(const vSMag& v) : vBool(impl_::compare_int(impl_::Cmp::NE, v.get(), impl_::splat(0))) {}

#define TC_SFPI_COMPARISONS(OP, CMP)                                                                                    \
    inline vBool operator OP(const vFloat& a, const vFloat& b) { return impl_::compare_float(CMP, a.get(), b.get()); }  \
    inline vBool operator OP(const vFloat& a, float b) { return impl_::compare_float(CMP, a.get(), b); }              \
    inline vBool operator OP(const vInt& a, const vInt& b) { return impl_::compare_int(CMP, a.get(), b.get()); }      \
    inline vBool operator OP(const vInt& a, int b) { return impl_::compare_int(CMP, a.get(), impl_::splat(uint32_t(b))); } \
    inline vBool operator OP(const vInt& a, unsigned b) { return impl_::compare_int(CMP, a.get(), impl_::splat(b)); } \
    inline vBool operator OP(const vInt& a, const vMag& b) { return impl_::compare_int(CMP, a.get(), b.get()); }      \
    inline vBool operator OP(const vInt& a, const vUInt& b) { return impl_::compare_int(CMP, a.get(), b.get()); }     \
    inline vBool operator OP(const vUInt& a, const vUInt& b) { return impl_::compare_int(CMP, a.get(), b.get()); }    \
    inline vBool operator OP(const vUInt& a, unsigned b) { return impl_::compare_int(CMP, a.get(), impl_::splat(b)); } \
    inline vBool operator OP(const vUInt& a, int b) { return impl_::compare_int(CMP, a.get(), impl_::splat(uint32_t(b))); }
TC_SFPI_COMPARISONS(==, impl_::Cmp::EQ)
TC_SFPI_COMPARISONS(!=, impl_::Cmp::NE)
TC_SFPI_COMPARISONS(<, impl_::Cmp::LT)
TC_SFPI_COMPARISONS(>=, impl_::Cmp::GE)
TC_SFPI_COMPARISONS(>, impl_::Cmp::GT)
TC_SFPI_COMPARISONS(<=, impl_::Cmp::LE)
#undef TC_SFPI_COMPARISONS

// A scalar on the left: the mirrored comparison.
inline vBool operator==(float a, const vFloat& b) { return b == a; }
inline vBool operator!=(float a, const vFloat& b) { return b != a; }
inline vBool operator<(float a, const vFloat& b) { return b > a; }
inline vBool operator>(float a, const vFloat& b) { return b < a; }
inline vBool operator<=(float a, const vFloat& b) { return b >= a; }
inline vBool operator>=(float a, const vFloat& b) { return b <= a; }

// Sign-magnitude values compare for (in)equality only.
inline vBool operator==(const vSMag& a, const vSMag& b) { return impl_::compare_int(impl_::Cmp::EQ, a.get(), b.get()); }
inline vBool operator!=(const vSMag& a, const vSMag& b) { return impl_::compare_int(impl_::Cmp::NE, a.get(), b.get()); }
inline vBool operator==(const vSMag& a, int b) {
    const uint32_t smag = b < 0 ? (0x80000000u | uint32_t(-int64_t(b))) : uint32_t(b);
    return impl_::compare_int(impl_::Cmp::EQ, a.get(), impl_::splat(smag));
}
inline vBool operator!=(const vSMag& a, int b) { return !(a == b); }
inline vBool operator==(const vSMag& a, unsigned b) { return impl_::compare_int(impl_::Cmp::EQ, a.get(), impl_::splat(b)); }
inline vBool operator!=(const vSMag& a, unsigned b) { return !(a == b); }

namespace impl_ {

// One v_if / v_block construct: the predication levels it pushed, popped when it closes.
class CondScope {
    int pushed_ = 0;

public:
    CondScope() = default;
    CondScope(const CondScope&) = delete;
    CondScope& operator=(const CondScope&) = delete;
    ~CondScope() noexcept(false);  // a stack underflow is a machine error

    // Opens a level (the outermost level of a kernel first enables lane flags).
    CondScope& open();
    // Narrows the enabled lanes to those where `cond` holds.
    void narrow(const vBool& cond);
    // Switches to the lanes of the enclosing level where the previous condition(s) failed.
    CondScope& otherwise();
};

}  // namespace impl_
}  // namespace sfpi

// Each macro opens or closes C++ blocks so that v_if ... v_endif nests like if/else.
#define v_if(cond)                       \
    {                                    \
        ::sfpi::impl_::CondScope tc_cc_; \
        tc_cc_.open().narrow(cond);      \
        {
#define v_elseif(cond)                   \
    }                                    \
    tc_cc_.otherwise().open().narrow(cond); \
    {
#define v_else             \
    }                      \
    tc_cc_.otherwise();    \
    {
#define v_endif \
    }           \
    }
#define v_block                          \
    {                                    \
        ::sfpi::impl_::CondScope tc_cc_; \
        tc_cc_.open();
#define v_and(cond) tc_cc_.narrow(cond)
#define v_endblock }

namespace sfpi::impl_ {
inline CondScope::~CondScope() noexcept(false) {
    if (std::uncaught_exceptions() == 0) tc_tensix::sfpi_host::cc_close(pushed_);  // not while unwinding
}
inline CondScope& CondScope::open() {
    tc_tensix::sfpi_host::cc_open();
    ++pushed_;
    return *this;
}
inline void CondScope::narrow(const vBool& cond) { tc_tensix::sfpi_host::cc_narrow(cond.lanes()); }
inline CondScope& CondScope::otherwise() {
    tc_tensix::sfpi_host::cc_otherwise();
    return *this;
}
}  // namespace sfpi::impl_
