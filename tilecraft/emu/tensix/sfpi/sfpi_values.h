// SFPI vector value types (vFloat, vInt, vUInt, vSMag and their narrow variants) and their
// operators, as host arrays of the 32 lanes computed with sfpu_ops.h (see sfpi_host.h for why).
//
// The overload sets follow the SFPI interface the kernels are written against (sfpi 7.x:
// tenstorrent/sfpi include/sfpi.h). Host difference: int32_t is `int` here (`long` on RISC-V), so
// the int32_t/int and uint32_t/unsigned pairs of overloads collapse into one.
//
// Semantics of each operator are those of the instructions the SFPI compiler lowers it to on
// Wormhole B0: float + - * are SFPADD/SFPMAD/SFPMUL (sfpu::mad: denormals flushed, one rounding);
// integer + - are SFPIADD (wrapping); shifts are SFPSHFT (logical); negation is SFPMOV COMPSIGN.
#pragma once

#include <cstdint>
#include <type_traits>

#include "sfpi_host.h"

namespace sfpi {

class vFloat;
class vProduct;
class vInt;
class vUInt;
class vSMag;
class vBool;

// How dst_reg[] reads/writes Dst (dst_reg[i].mode<DataLayout::...>()).
enum class DataLayout { Default = 0, FSrcB, F32, F16a, F16b, I32, U32, U16, SM32, SM16, M32, LO16, HI16 };

// Scalars that initialise a vector through SFPLOADI (a 16-bit immediate, not a float value).
class sFloat16a {
    uint16_t bits_;

public:
    explicit sFloat16a(float) = delete;  // an fp16a bit pattern must be given explicitly
    explicit sFloat16a(int v) : bits_(uint16_t(v)) {}
    explicit sFloat16a(unsigned v) : bits_(uint16_t(v)) {}
    uint32_t get() const { return bits_; }
};
class sFloat16b {
    uint16_t bits_;

public:
    explicit sFloat16b(float f) : bits_(uint16_t(tc_tensix::sfpu::bits_of(f) >> 16)) {}  // truncates
    explicit sFloat16b(double f) : sFloat16b(float(f)) {}
    explicit sFloat16b(int v) : bits_(uint16_t(v)) {}
    explicit sFloat16b(unsigned v) : bits_(uint16_t(v)) {}
    uint32_t get() const { return bits_; }
};
// Deprecated spellings kernels still use.
class s2vFloat16a : public sFloat16a {
public:
    using sFloat16a::sFloat16a;
};
class s2vFloat16b : public sFloat16b {
public:
    using sFloat16b::sFloat16b;
};

namespace impl_ {

using sfpu_t = tc_tensix::sfpi_host::Vec;
namespace ops = tc_tensix::sfpu;
using tc_tensix::sfpi_host::lanewise;
using tc_tensix::sfpi_host::splat;

// For static_assert(tc_false<T>, "..."): fails only when the template using it is instantiated.
template <typename... T>
inline constexpr bool tc_false = false;

// A vector value. Copy construction copies every lane; assignment writes only the enabled lanes,
// as the SFPI compiler's predicated register assignment does inside v_if.
//
// A value may be computed on first use instead (`pending_`): a product (vProduct) that an addition
// consumes directly becomes one SFPMAD and its own rounded SFPMUL value is never needed, so it is
// only computed when something reads it. The lane functions are pure, so when they run does not
// change a bit.
class vVal;
// How a value computed on first use is computed: fills the value through vVal::settle.
struct Pending {
    void (*fill)(const vVal&);
};

class vVal {
    mutable sfpu_t v_{};
    mutable void (*pending_)(const vVal&) = nullptr;  // fills v_ (through settle) on first use

protected:
    explicit vVal(Pending pending) : pending_(pending.fill) {}
    void settle(const sfpu_t& v) const {
        v_ = v;
        pending_ = nullptr;
    }

public:
    vVal() = default;
    vVal(const vVal& other) : v_(other.get()) {}
    vVal(const sfpu_t& v) : v_(v) {}
    vVal& operator=(const vVal& other) {
        tc_tensix::sfpi_host::assign_enabled(get(), other.get());
        return *this;
    }
    const sfpu_t& get() const {
        if (pending_) pending_(*this);
        return v_;
    }
    sfpu_t& get() {
        if (pending_) pending_(*this);
        return v_;
    }
};

// A narrower value kept in a wider container (vFloat16b in a vFloat, vUInt16 in a vUInt, ...).
template <typename Vector, typename Scalar>
class vNarrow : public Vector {
public:
    vNarrow() = default;
    vNarrow(const vNarrow&) = default;
    vNarrow& operator=(const vNarrow&) = default;
    explicit vNarrow(const sfpu_t& v) : Vector(v) {}
    // From the wider type (a value known to fit), or from a scalar of the narrow type (any integer
    // for the integer narrows).
    explicit vNarrow(const Vector& v) : Vector(v) {}
    template <typename T, std::enable_if_t<std::is_same_v<Scalar, T>>* = nullptr>
    explicit vNarrow(T v) : Vector(v) {}
    template <typename T, std::enable_if_t<!std::is_same_v<Scalar, T> && std::is_integral_v<Scalar> &&
                                           std::is_integral_v<T>>* = nullptr>
    explicit vNarrow(T v) : Vector(impl_::splat(uint32_t(v))) {}
};

// --- lane arithmetic shared by the operators ---
constexpr uint32_t kNegOne = 0xbf800000u;
// SFPADD (a * 1.0 + b), SFPMUL (a * b + 0), SFPMAD: the machine's vectorised lanes of sfpu::mad.
inline sfpu_t fmad(const sfpu_t& a, const sfpu_t& b, const sfpu_t& c) { return tc_tensix::sfpi_host::mad(a, b, c); }
inline sfpu_t fadd(const sfpu_t& a, const sfpu_t& b) { return fmad(a, splat(ops::kFp32One), b); }
inline sfpu_t fmul(const sfpu_t& a, const sfpu_t& b) { return fmad(a, b, splat(0u)); }
inline sfpu_t fneg(const sfpu_t& a) { return lanewise(a, [](uint32_t x) { return x ^ ops::kSignBit; }); }
inline sfpu_t fsub(const sfpu_t& a, const sfpu_t& b) { return fadd(a, fneg(b)); }
inline sfpu_t iadd(const sfpu_t& a, const sfpu_t& b) { return lanewise(a, b, [](uint32_t x, uint32_t y) { return x + y; }); }
inline sfpu_t isub(const sfpu_t& a, const sfpu_t& b) { return lanewise(a, b, [](uint32_t x, uint32_t y) { return x - y; }); }
inline sfpu_t band(const sfpu_t& a, const sfpu_t& b) { return lanewise(a, b, [](uint32_t x, uint32_t y) { return x & y; }); }
inline sfpu_t bor(const sfpu_t& a, const sfpu_t& b) { return lanewise(a, b, [](uint32_t x, uint32_t y) { return x | y; }); }
inline sfpu_t bxor(const sfpu_t& a, const sfpu_t& b) { return lanewise(a, b, [](uint32_t x, uint32_t y) { return x ^ y; }); }
inline sfpu_t bnot(const sfpu_t& a) { return lanewise(a, [](uint32_t x) { return ~x; }); }
// SFPSHFT: left by the amount when >= 0, logical right by its negation otherwise.
inline sfpu_t shl(const sfpu_t& a, const sfpu_t& by) {
    return lanewise(a, by, [](uint32_t x, uint32_t n) { return ops::shift(x, int32_t(n)); });
}
inline sfpu_t shl(const sfpu_t& a, int by) { return lanewise(a, [by](uint32_t x) { return ops::shift(x, by); }); }
inline sfpu_t shr(const sfpu_t& a, const sfpu_t& by) {
    return lanewise(a, by, [](uint32_t x, uint32_t n) { return ops::shift(x, -int32_t(n)); });
}
inline sfpu_t shr(const sfpu_t& a, int by) { return shl(a, -by); }

}  // namespace impl_

// ------------------------------------------------------------------------------------------------
class vFloat : public impl_::vVal {
public:
    vFloat() = default;
    vFloat(const vFloat&) = default;
    vFloat& operator=(const vFloat&) = default;
    vFloat(const impl_::sfpu_t& v) : vVal(v) {}
    explicit vFloat(impl_::Pending pending) : vVal(pending) {}  // computed on first use (vProduct)
    vFloat(sFloat16a v);                                            // SFPLOADI FLOATA
    vFloat(sFloat16b v) : vVal(impl_::splat(v.get() << 16)) {}      // SFPLOADI FLOATB
    vFloat(float f) : vVal(impl_::splat(tc_tensix::sfpu::bits_of(f))) {}  // exact (LOADI pair)

    vFloat& operator+=(const vFloat& a) { return *this = vFloat(impl_::fadd(get(), a.get())); }
    vFloat& operator+=(const vProduct& p);
    // Wormhole: SFPMAD(-1.0, a, this).
    vFloat& operator-=(const vFloat& a) { return *this = vFloat(impl_::fmad(impl_::splat(impl_::kNegOne), a.get(), get())); }
    vFloat& operator*=(const vFloat& a) { return *this = vFloat(impl_::fmul(get(), a.get())); }
    vFloat operator++(int) { vFloat old = *this; *this += 1.0f; return old; }
    vFloat operator++() { *this += 1.0f; return *this; }
    vFloat operator--(int) { vFloat old = *this; *this -= 1.0f; return old; }
    vFloat operator--() { *this -= 1.0f; return *this; }
};

// A product as the SFPI compiler sees it: the SFPMUL result (rounded) for any use, but an addition
// or subtraction that consumes it directly is fused into one SFPMAD (a * b + c, one rounding), as
// the compiler combines a multiply feeding an add. Fusion follows the expression's shape
// (`a * b + c`, `c - a * b`, also through `auto p = a * b;`); a product stored in a vFloat first is
// rounded, which is where the compiler, fusing across statements, can differ.
class vProduct : public vFloat {
    impl_::sfpu_t a_, b_;
    bool fusable_ = false;

    // The SFPMUL value, computed when the product is read as a value (vVal::pending_).
    static void multiply(const vVal& self) {
        const vProduct& p = static_cast<const vProduct&>(self);
        p.settle(impl_::fmul(p.a_, p.b_));
    }

public:
    explicit vProduct(const impl_::sfpu_t& v) : vFloat(v) {}  // a plain value (e.g. a deduced template result)
    vProduct(const vFloat& a, const vFloat& b) : vFloat(impl_::Pending{&multiply}), a_(a.get()), b_(b.get()), fusable_(true) {}
    // a * b + c with one rounding (the plain sum when this is not a fresh product).
    vFloat plus(const impl_::sfpu_t& c) const { return fusable_ ? impl_::fmad(a_, b_, c) : impl_::fadd(get(), c); }
    // c - a * b with one rounding: SFPMAD(-a, b, c).
    vFloat subtracted_from(const impl_::sfpu_t& c) const {
        return fusable_ ? impl_::fmad(impl_::fneg(a_), b_, c) : impl_::fsub(c, get());
    }
};

inline vFloat operator+(const vFloat& a) { return a; }
inline vFloat operator-(const vFloat& a) { return impl_::fneg(a.get()); }
inline vFloat operator+(const vFloat& a, const vFloat& b) { return impl_::fadd(a.get(), b.get()); }
inline vFloat operator-(const vFloat& a, const vFloat& b) { return impl_::fsub(a.get(), b.get()); }
inline vProduct operator*(const vFloat& a, const vFloat& b) { return vProduct(a, b); }
inline vFloat operator+(float a, const vFloat& b) { return b + vFloat(a); }
inline vFloat operator+(const vFloat& a, float b) { return a + vFloat(b); }
inline vFloat operator-(const vFloat& a, float b) { return a - vFloat(b); }
inline vFloat operator-(float a, const vFloat& b) { return vFloat(a) - b; }
inline vProduct operator*(float a, const vFloat& b) { return vProduct(vFloat(a), b); }
inline vProduct operator*(const vFloat& a, float b) { return vProduct(a, vFloat(b)); }
// Fused forms (SFPMAD).
inline vFloat operator+(const vProduct& p, const vFloat& c) { return p.plus(c.get()); }
inline vFloat operator+(const vFloat& c, const vProduct& p) { return p.plus(c.get()); }
inline vFloat operator+(const vProduct& p, const vProduct& q) { return p.plus(q.get()); }
inline vFloat operator+(const vProduct& p, float c) { return p.plus(vFloat(c).get()); }
inline vFloat operator+(float c, const vProduct& p) { return p.plus(vFloat(c).get()); }
inline vFloat operator-(const vProduct& p, const vFloat& c) { return p.plus(impl_::fneg(c.get())); }
inline vFloat operator-(const vProduct& p, const vProduct& q) { return p.plus(impl_::fneg(q.get())); }
inline vFloat operator-(const vProduct& p, float c) { return p.plus(impl_::fneg(vFloat(c).get())); }
inline vFloat operator-(const vFloat& c, const vProduct& p) { return p.subtracted_from(c.get()); }
inline vFloat operator-(float c, const vProduct& p) { return p.subtracted_from(vFloat(c).get()); }

inline vFloat& vFloat::operator+=(const vProduct& p) { return *this = p + *this; }

using vFloat16a = impl_::vNarrow<vFloat, sFloat16a>;
using vFloat16b = impl_::vNarrow<vFloat, sFloat16b>;

// ------------------------------------------------------------------------------------------------
class vInt : public impl_::vVal {
public:
    vInt() = default;
    vInt(const vInt&) = default;
    vInt& operator=(const vInt&) = default;
    vInt(const impl_::sfpu_t& v) : vVal(v) {}
    explicit vInt(const vUInt& v);
    vInt(int v) : vVal(impl_::splat(uint32_t(v))) {}
    vInt(unsigned v) : vVal(impl_::splat(v)) {}
    vInt(long v) : vInt(int(v)) {}
    vInt(unsigned long v) : vInt(unsigned(v)) {}
    operator vUInt() const;  // deprecated in SFPI, still used

    vInt& operator+=(const vInt& a) { return *this = vInt(impl_::iadd(get(), a.get())); }
    vInt& operator-=(const vInt& a) { return *this = vInt(impl_::isub(get(), a.get())); }
    vInt& operator<<=(unsigned n) { return *this = vInt(impl_::shl(get(), int(n))); }
    vInt& operator<<=(const vUInt& n);
    vInt& operator&=(const vInt& a) { return *this = vInt(impl_::band(get(), a.get())); }
    vInt& operator|=(const vInt& a) { return *this = vInt(impl_::bor(get(), a.get())); }
    vInt& operator^=(const vInt& a) { return *this = vInt(impl_::bxor(get(), a.get())); }
    vInt operator++() { *this += 1; return *this; }
    vInt operator++(int) { vInt old = *this; *this += 1; return old; }
    vInt operator--() { *this -= 1; return *this; }
    vInt operator--(int) { vInt old = *this; *this -= 1; return old; }
};

// ------------------------------------------------------------------------------------------------
class vUInt : public impl_::vVal {
public:
    vUInt() = default;
    vUInt(const vUInt&) = default;
    vUInt& operator=(const vUInt&) = default;
    vUInt(const impl_::sfpu_t& v) : vVal(v) {}
    explicit vUInt(const vInt& v) : vVal(v.get()) {}
    vUInt(int v) : vVal(impl_::splat(uint32_t(v))) {}
    vUInt(unsigned v) : vVal(impl_::splat(v)) {}
    vUInt(long v) : vUInt(int(v)) {}
    vUInt(unsigned long v) : vUInt(unsigned(v)) {}
    operator vInt() const { return vInt(get()); }  // deprecated in SFPI, still used

    vUInt operator++() { *this += 1; return *this; }
    vUInt operator--() { *this -= 1; return *this; }
    vUInt operator++(int) { vUInt old = *this; *this += 1; return old; }
    vUInt operator--(int) { vUInt old = *this; *this -= 1; return old; }
    vUInt& operator+=(const vUInt& a) { return *this = vUInt(impl_::iadd(get(), a.get())); }
    vUInt& operator-=(const vUInt& a) { return *this = vUInt(impl_::isub(get(), a.get())); }
    vUInt& operator<<=(const vUInt& n) { return *this = vUInt(impl_::shl(get(), n.get())); }
    vUInt& operator>>=(const vUInt& n) { return *this = vUInt(impl_::shr(get(), n.get())); }
    vUInt& operator&=(const vUInt& a) { return *this = vUInt(impl_::band(get(), a.get())); }
    vUInt& operator|=(const vUInt& a) { return *this = vUInt(impl_::bor(get(), a.get())); }
    vUInt& operator^=(const vUInt& a) { return *this = vUInt(impl_::bxor(get(), a.get())); }
    vUInt& operator<<=(unsigned n) { return *this = vUInt(impl_::shl(get(), int(n))); }
    vUInt& operator>>=(unsigned n) { return *this = vUInt(impl_::shr(get(), int(n))); }
};

inline vInt::vInt(const vUInt& v) : vVal(v.get()) {}
inline vInt::operator vUInt() const { return vUInt(get()); }
inline vInt& vInt::operator<<=(const vUInt& n) { return *this = vInt(impl_::shl(get(), n.get())); }

using vMag = impl_::vNarrow<vUInt, uint32_t>;
using vUInt16 = impl_::vNarrow<vMag, uint16_t>;
using vUInt8 = impl_::vNarrow<vUInt16, uint8_t>;

// ------------------------------------------------------------------------------------------------
// Sign-magnitude integers: a container (SFPCAST / SFPSTOCHRND read this layout).
class vSMag : public impl_::vVal {
public:
    vSMag() = default;
    vSMag(const vSMag&) = default;
    vSMag& operator=(const vSMag&) = default;
    explicit vSMag(const impl_::sfpu_t& v) : vVal(v) {}
    explicit vSMag(unsigned v) : vVal(impl_::splat(v)) {}
};
using vSMag16 = impl_::vNarrow<vSMag, void>;
using vSMag8 = impl_::vNarrow<vSMag16, void>;

// --- vInt operators ---
inline vInt operator+(const vInt& a) { return a; }
inline vInt operator-(const vInt& a) { return impl_::isub(impl_::splat(0), a.get()); }
inline vInt operator~(const vInt& a) { return impl_::bnot(a.get()); }
inline vInt operator+(const vInt& a, const vInt& b) { return impl_::iadd(a.get(), b.get()); }
inline vInt operator-(const vInt& a, const vInt& b) { return impl_::isub(a.get(), b.get()); }
inline vInt operator<<(const vInt& a, const vUInt& n) { return impl_::shl(a.get(), n.get()); }
inline vInt operator<<(const vInt& a, unsigned n) { return impl_::shl(a.get(), int(n)); }
inline vInt operator<<(const vInt& a, int n) { return impl_::shl(a.get(), n); }
inline vInt operator&(const vInt& a, const vInt& b) { return impl_::band(a.get(), b.get()); }
inline vInt operator|(const vInt& a, const vInt& b) { return impl_::bor(a.get(), b.get()); }
inline vInt operator^(const vInt& a, const vInt& b) { return impl_::bxor(a.get(), b.get()); }
inline vInt operator+(const vInt& a, int b) { return a + vInt(b); }
inline vInt operator-(const vInt& a, int b) { return a - vInt(b); }
inline vInt operator&(const vInt& a, int b) { return a & vInt(b); }
inline vInt operator|(const vInt& a, int b) { return a | vInt(b); }
inline vInt operator^(const vInt& a, int b) { return a ^ vInt(b); }
inline vInt operator&(const vInt& a, unsigned b) { return a & vInt(b); }
inline vInt operator|(const vInt& a, unsigned b) { return a | vInt(b); }
inline vInt operator^(const vInt& a, unsigned b) { return a ^ vInt(b); }
inline vInt operator+(int a, const vInt& b) { return b + a; }
inline vInt operator-(int a, const vInt& b) { return vInt(a) - b; }
inline vInt operator&(int a, const vInt& b) { return b & a; }
inline vInt operator|(int a, const vInt& b) { return b | a; }
inline vInt operator^(int a, const vInt& b) { return b ^ a; }

// --- vUInt operators ---
inline vUInt operator+(const vUInt& a) { return a; }
inline vUInt operator-(const vUInt& a) { return impl_::isub(impl_::splat(0), a.get()); }
inline vUInt operator~(const vUInt& a) { return impl_::bnot(a.get()); }
inline vUInt operator+(const vUInt& a, const vUInt& b) { return impl_::iadd(a.get(), b.get()); }
inline vUInt operator-(const vUInt& a, const vUInt& b) { return impl_::isub(a.get(), b.get()); }
inline vUInt operator<<(const vUInt& a, const vUInt& n) { return impl_::shl(a.get(), n.get()); }
inline vUInt operator>>(const vUInt& a, const vUInt& n) { return impl_::shr(a.get(), n.get()); }
inline vUInt operator&(const vUInt& a, const vUInt& b) { return impl_::band(a.get(), b.get()); }
inline vUInt operator|(const vUInt& a, const vUInt& b) { return impl_::bor(a.get(), b.get()); }
inline vUInt operator^(const vUInt& a, const vUInt& b) { return impl_::bxor(a.get(), b.get()); }
inline vUInt operator<<(const vUInt& a, unsigned n) { return impl_::shl(a.get(), int(n)); }
inline vUInt operator>>(const vUInt& a, unsigned n) { return impl_::shr(a.get(), int(n)); }
inline vUInt operator<<(const vUInt& a, int n) { return impl_::shl(a.get(), n); }
inline vUInt operator>>(const vUInt& a, int n) { return impl_::shr(a.get(), n); }
inline vUInt operator+(const vUInt& a, int b) { return a + vUInt(b); }
inline vUInt operator-(const vUInt& a, int b) { return a - vUInt(b); }
inline vUInt operator+(const vUInt& a, unsigned b) { return a + vUInt(b); }
inline vUInt operator-(const vUInt& a, unsigned b) { return a - vUInt(b); }
inline vUInt operator&(const vUInt& a, unsigned b) { return a & vUInt(b); }
inline vUInt operator|(const vUInt& a, unsigned b) { return a | vUInt(b); }
inline vUInt operator^(const vUInt& a, unsigned b) { return a ^ vUInt(b); }
inline vUInt operator&(const vUInt& a, int b) { return a & vUInt(b); }
inline vUInt operator|(const vUInt& a, int b) { return a | vUInt(b); }
inline vUInt operator^(const vUInt& a, int b) { return a ^ vUInt(b); }
inline vUInt operator-(const vUInt& a, const vInt& b) { return a - vUInt(b); }
inline vUInt operator&(const vUInt& a, const vInt& b) { return a & vUInt(b); }
inline vUInt operator|(const vUInt& a, const vInt& b) { return a | vUInt(b); }
inline vUInt operator^(const vUInt& a, const vInt& b) { return a ^ vUInt(b); }
inline vUInt operator&(const vInt& a, const vUInt& b) { return vUInt(a) & b; }
inline vUInt operator|(const vInt& a, const vUInt& b) { return vUInt(a) | b; }
inline vUInt operator^(const vInt& a, const vUInt& b) { return vUInt(a) ^ b; }
inline vUInt operator+(int a, const vUInt& b) { return b + a; }
inline vUInt operator-(int a, const vUInt& b) { return vUInt(a) - b; }
inline vUInt operator&(int a, const vUInt& b) { return b & unsigned(a); }
inline vUInt operator|(int a, const vUInt& b) { return b | unsigned(a); }
inline vUInt operator^(int a, const vUInt& b) { return b ^ unsigned(a); }

// --- vMag (magnitudes) ---
inline vMag operator>>(const vMag& a, unsigned n) { return vMag(impl_::shr(a.get(), int(n))); }
inline vMag operator>>(const vMag& a, int n) { return vMag(impl_::shr(a.get(), n)); }
inline vMag operator>>(const vMag& a, const vUInt& n) { return vMag(impl_::shr(a.get(), n.get())); }
inline vMag operator&(const vMag& a, unsigned b) { return vMag(impl_::band(a.get(), impl_::splat(b))); }
inline vMag operator&(const vMag& a, int b) { return a & unsigned(b); }
inline vMag operator&(const vMag& a, const vMag& b) { return vMag(impl_::band(a.get(), b.get())); }
inline vInt operator+(const vInt& a, const vMag& b) { return impl_::iadd(a.get(), b.get()); }
inline vInt operator+(const vMag& a, const vInt& b) { return impl_::iadd(a.get(), b.get()); }
inline vInt operator-(const vInt& a, const vMag& b) { return impl_::isub(a.get(), b.get()); }
inline vInt operator-(const vMag& a, const vInt& b) { return impl_::isub(a.get(), b.get()); }
inline vUInt operator+(const vUInt& a, const vMag& b) { return impl_::iadd(a.get(), b.get()); }
inline vUInt operator+(const vMag& a, const vUInt& b) { return impl_::iadd(a.get(), b.get()); }
inline vUInt operator-(const vUInt& a, const vMag& b) { return impl_::isub(a.get(), b.get()); }
inline vUInt operator-(const vMag& a, const vUInt& b) { return impl_::isub(a.get(), b.get()); }

// --- vSMag ---
inline vUInt operator&(const vSMag& a, unsigned b) { return impl_::band(a.get(), impl_::splat(b)); }

}  // namespace sfpi

namespace sfpi {
inline vFloat::vFloat(sFloat16a v)
    : vVal(impl_::lanewise(impl_::splat(0), [imm = v.get()](uint32_t old) {
          uint32_t out = 0;
          impl_::ops::loadi_value(impl_::ops::kImmFloatA, imm, old, out);
          return out;
      })) {}
}  // namespace sfpi
