// The sfpi:: library functions SFPU kernels call (field access, conversions, LUTs, min/max, ...),
// each computed lanewise with the sfpu_ops.h function of the instruction SFPI lowers it to.
// Functions of the SFPI interface that tilecraft does not model are declared as templates whose
// instantiation fails with "tilecraft sfpi: ... is not implemented" (never a wrong result).
#pragma once

#include <utility>

#include "sfpi_cond.h"
#include "sfpi_constants.h"

namespace sfpi {

namespace impl_ {
// Lanewise application of an sfpu_ops function to one/two/three vectors.
template <typename F>
inline sfpu_t map1(const vVal& a, F f) {
    return lanewise(a.get(), f);
}
template <typename F>
inline sfpu_t map2(const vVal& a, const vVal& b, F f) {
    return lanewise(a.get(), b.get(), f);
}
// Rounding threshold per lane for SFPSTOCHRND / SFPCAST: nearest, or the lane's PRNG value.
inline sfpu_t round_thresholds(bool stochastic) {
    return stochastic ? lanewise(tc_tensix::sfpi_host::prng_values(), [](uint32_t r) { return ops::stochrnd_threshold(true, r); })
                      : splat(ops::stochrnd_threshold(false, 0));
}
}  // namespace impl_

// Rounding of conversions. Wormhole rounds "nearest" with ties away from zero.
class RoundMode {
public:
    enum Values { NearestAway, Nearest = NearestAway, NearestStochastic };
    static constexpr Values NearestEven = NearestAway;  // deprecated spelling
    static constexpr Values Stochastic = NearestStochastic;
    constexpr RoundMode(Values v) : v_(v) {}
    constexpr RoundMode(int v) : v_(Values(v)) {}  // kernels still pass 0/1
    constexpr operator Values() const { return v_; }

private:
    Values v_;
};

class ExponentMode {
public:
    enum Values { Unbiased, Biased };
    static constexpr Values Debias = Unbiased;
    static constexpr Values NoDebias = Biased;
    constexpr ExponentMode(Values v) : v_(v) {}
    constexpr operator Values() const { return v_; }

private:
    Values v_;
};
enum class MantissaMode { FractionOnly, WithUnitBit, ImplicitOne = WithUnitBit };
enum class LZMode { All, IgnoreSign };
#if defined(TC_SFPI_BLACKHOLE)
enum class ShiftMode { Logical, Arithmetic };  // Blackhole adds arithmetic shifts
#else
enum class ShiftMode { Logical };
#endif
enum class LdexpMode { Correct, Fast };
enum class LutSign { Retain, Update };

// --- reinterpretation ---
template <typename T, std::enable_if_t<std::is_base_of_v<impl_::vVal, T>>* = nullptr>
inline T as(const impl_::vVal& v) {
    return T(v.get());
}
template <typename T, std::enable_if_t<std::is_base_of_v<impl_::vVal, T>>* = nullptr>
inline T reinterpret(const impl_::vVal& v) {
    return T(v.get());
}

// --- exponent / mantissa / sign fields (SFPEXEXP, SFPEXMAN, SFPSETEXP, SFPSETMAN, SFPSETSGN, SFPDIVP2) ---
inline vInt exexp(const vFloat& v, ExponentMode mode = ExponentMode::Unbiased) {
    const bool debias = mode == ExponentMode::Unbiased;
    return impl_::map1(v, [debias](uint32_t x) { return impl_::ops::exexp(x, debias); });
}
inline vInt exexp_nodebias(const vFloat& v) { return exexp(v, ExponentMode::Biased); }
inline vMag exman(const vFloat& v, MantissaMode mode = MantissaMode::FractionOnly) {
    const bool pad9 = mode == MantissaMode::FractionOnly;
    return vMag(impl_::map1(v, [pad9](uint32_t x) { return impl_::ops::exman(x, pad9); }));
}
inline vInt exman8(const vFloat& v) { return vInt(exman(v, MantissaMode::WithUnitBit).get()); }
inline vInt exman9(const vFloat& v) { return vInt(exman(v, MantissaMode::FractionOnly).get()); }
template <typename T, std::enable_if_t<std::is_same_v<T, vFloat> || std::is_base_of_v<vInt, T> || std::is_base_of_v<vSMag, T>>* = nullptr>
inline vUInt exsgn(const T& v) {
    return as<vUInt>(v) >> 31;
}
// SFPSETEXP: immediate exponent, or the low 8 bits of `exp` (sign/mantissa of v kept).
inline vFloat setexp(const vFloat& v, int exp) {
    return impl_::map1(v, [exp](uint32_t x) { return impl_::ops::setexp(x, uint32_t(exp)); });
}
inline vFloat setexp(const vFloat& v, const vInt& exp) {
    return impl_::map2(v, exp, [](uint32_t x, uint32_t e) { return impl_::ops::setexp(x, e); });
}
inline vFloat setexp(const vFloat& v, const vUInt& exp) { return setexp(v, vInt(exp.get())); }
inline vFloat copyexp(const vFloat& v, const vFloat& exp) {
    return impl_::map2(v, exp, [](uint32_t x, uint32_t e) { return impl_::ops::setexp(x, impl_::ops::exp_field(e)); });
}
inline vFloat addexp(const vFloat& v, int exp) {
    return impl_::map1(v, [exp](uint32_t x) { return impl_::ops::divp2(x, uint32_t(exp), true); });
}
// SFPSETMAN: immediate (12 bits, placed at the top of the mantissa) or the low 23 bits of `man`.
inline vFloat setman(const vFloat& v, unsigned man) {
    return impl_::map1(v, [man](uint32_t x) { return impl_::ops::setman(x, (man & 0xfffu) << 11); });
}
template <typename T, std::enable_if_t<std::is_base_of_v<vUInt, T> || std::is_base_of_v<vSMag, T> || std::is_same_v<T, vInt>>* = nullptr>
inline vFloat setman(const vFloat& v, const T& man) {
    return impl_::map2(v, man, [](uint32_t x, uint32_t m) { return impl_::ops::setman(x, m); });
}
inline vFloat setman(const vFloat& v, const vFloat& man) {
    return impl_::map2(v, man, [](uint32_t x, uint32_t m) { return impl_::ops::setman(x, m); });
}
inline vFloat copyman(const vFloat& v, const vFloat& man) { return setman(v, man); }
// SFPSETSGN: immediate sign bit, or the sign bit of `sgn`.
template <typename T, std::enable_if_t<std::is_base_of_v<vFloat, T> || std::is_base_of_v<vSMag, T> || std::is_same_v<T, vInt>>* = nullptr>
inline T setsgn(const T& v, int sgn) {
    return T(impl_::map1(v, [sgn](uint32_t x) { return impl_::ops::setsgn(x, uint32_t(sgn)); }));
}
inline vSMag setsgn(const vUInt& v, int sgn) {
    return vSMag(impl_::map1(v, [sgn](uint32_t x) { return impl_::ops::setsgn(x, uint32_t(sgn)); }));
}
template <typename A, typename B,
          std::enable_if_t<std::is_base_of_v<impl_::vVal, A> && std::is_base_of_v<impl_::vVal, B>>* = nullptr>
inline A copysgn(const A& v, const B& sgn) {
    return A(impl_::map2(v, sgn, [](uint32_t x, uint32_t s) { return impl_::ops::setsgn(x, s >> 31); }));
}
template <typename A, typename B,
          std::enable_if_t<std::is_base_of_v<impl_::vVal, A> && std::is_base_of_v<impl_::vVal, B>>* = nullptr>
inline A setsgn(const A& v, const B& sgn) {
    return copysgn(v, sgn);
}
// Sign bit from bit 0 of `sgn`.
template <typename A, typename B,
          std::enable_if_t<std::is_base_of_v<impl_::vVal, A> && std::is_base_of_v<impl_::vVal, B>>* = nullptr>
inline A setsgn2(const A& v, const B& sgn) {
    return A(impl_::map2(v, sgn, [](uint32_t x, uint32_t s) { return impl_::ops::setsgn(x, s & 1u); }));
}

inline vFloat ldexp(const vFloat& in, int scale, LdexpMode = LdexpMode::Correct) { return addexp(in, scale); }
inline vFloat ldexp(const vFloat& in, const vInt& scale, LdexpMode mode = LdexpMode::Correct) {
    if (mode == LdexpMode::Fast) return setexp(in, exexp(in, ExponentMode::Biased) + scale);
    return in * setexp(vFloat(0.0f), scale + 127);
}

// --- magnitude / bit counting (SFPABS, SFPLZ) ---
inline vFloat abs(const vFloat& v) { return impl_::map1(v, [](uint32_t x) { return impl_::ops::abs_float(x); }); }
inline vMag abs(const vInt& v) { return vMag(impl_::map1(v, [](uint32_t x) { return impl_::ops::abs_int(x); })); }
inline vMag abs(const vSMag& v) { return vMag(setsgn(v, 0).get()); }
template <typename T, std::enable_if_t<std::is_base_of_v<vInt, T> || std::is_base_of_v<vUInt, T> || std::is_base_of_v<vSMag, T>>* = nullptr>
inline vMag lz(const T& v, LZMode mode = LZMode::All) {
    const bool ignore_sign = mode == LZMode::IgnoreSign;
    return vMag(impl_::map1(v, [ignore_sign](uint32_t x) { return impl_::ops::lz(x, ignore_sign); }));
}
inline vMag lz(const vFloat& v, LZMode mode = LZMode::All) { return lz(as<vUInt>(v), mode); }
template <typename T, std::enable_if_t<std::is_base_of_v<impl_::vVal, T>>* = nullptr>
inline vInt lz_nosgn(const T& v) {
    return vInt(lz(as<vUInt>(v), LZMode::IgnoreSign).get());
}

// --- shifts (SFPSHFT; Wormhole has logical shifts only, Blackhole also arithmetic, its vInt default) ---
namespace impl_ {
inline sfpu_t shift_by(const sfpu_t& v, const sfpu_t& amt, ShiftMode mode) {
    return mode == ShiftMode::Logical ? shl(v, amt) : lanewise(v, amt, [](uint32_t x, uint32_t n) { return ops::shift_arithmetic(x, int32_t(n)); });
}
inline sfpu_t shift_by(const sfpu_t& v, int amt, ShiftMode mode) { return shift_by(v, splat(uint32_t(amt)), mode); }
#if defined(TC_SFPI_BLACKHOLE)
constexpr ShiftMode kIntShift = ShiftMode::Arithmetic;
#else
constexpr ShiftMode kIntShift = ShiftMode::Logical;
#endif
}  // namespace impl_
inline vUInt shft(const vUInt& v, const vInt& amt, ShiftMode mode = ShiftMode::Logical) { return impl_::shift_by(v.get(), amt.get(), mode); }
inline vUInt shft(const vUInt& v, int amt, ShiftMode mode = ShiftMode::Logical) { return impl_::shift_by(v.get(), amt, mode); }
inline vInt shft(const vInt& v, const vInt& amt, ShiftMode mode = impl_::kIntShift) { return impl_::shift_by(v.get(), amt.get(), mode); }
inline vInt shft(const vInt& v, int amt, ShiftMode mode = impl_::kIntShift) { return impl_::shift_by(v.get(), amt, mode); }

// --- classification ---
inline vBool is_nan(const vFloat& v) { return exexp(v, ExponentMode::Biased) >= 255 && exman(v) != 0u; }
inline vBool is_finite(const vFloat& v) { return exexp(v, ExponentMode::Biased) < 255; }
inline vBool is_inf(const vFloat& v) { return exexp(v, ExponentMode::Biased) >= 255 && exman(v) == 0u; }
inline vBool is_normal(const vFloat& v) {
    const vInt e = exexp(v, ExponentMode::Biased);
    return e < 255 && e != 0;
}
inline vBool is_subnormal(const vFloat& v) { return exexp(v, ExponentMode::Biased) == 0 && exman(v) != 0u; }
inline vBool is_zero(const vFloat& v) { return (as<vUInt>(v) << 1) == 0u; }
inline vBool is_pos(const vFloat& v) { return lz(as<vUInt>(v)) != 0u; }
inline vBool is_neg(const vFloat& v) { return lz(as<vUInt>(v)) == 0u; }

// --- min / max (SFPSWAP VEC_MIN_MAX: sign-magnitude order) ---
namespace impl_ {
inline std::pair<sfpu_t, sfpu_t> signmag_min_max(const sfpu_t& a, const sfpu_t& b) {
    return {lanewise(a, b, [](uint32_t x, uint32_t y) { return ops::signmag_less(y, x) ? y : x; }),
            lanewise(a, b, [](uint32_t x, uint32_t y) { return ops::signmag_less(y, x) ? x : y; })};
}
}  // namespace impl_
// (min, max) for mask 0; (max, min) for mask 0xf / 0xffffffff. Per-subvector masks are not modelled.
template <typename T, std::enable_if_t<std::is_base_of_v<vFloat, T> || std::is_base_of_v<vSMag, T>>* = nullptr>
inline std::pair<T, T> min_max(const T& a, const T& b, uint32_t mask = 0) {
    const auto [lo, hi] = impl_::signmag_min_max(a.get(), b.get());
    if (mask == 0) return {T(lo), T(hi)};
    if (mask == 0xfu || mask == 0xffffffffu) return {T(hi), T(lo)};
    tc_tensix::sfpi_host::unsupported("min_max with a per-subvector mask");
}
template <typename T, std::enable_if_t<std::is_base_of_v<vFloat, T> || std::is_base_of_v<vSMag, T>>* = nullptr>
inline T min(const T& a, const T& b) {
    return min_max(a, b).first;
}
template <typename T, std::enable_if_t<std::is_base_of_v<vFloat, T> || std::is_base_of_v<vSMag, T>>* = nullptr>
inline T max(const T& a, const T& b) {
    return min_max(a, b, 0xf).first;
}
inline vFloat min(const vFloat& a, float b) { return min(a, vFloat(b)); }
inline vFloat max(const vFloat& a, float b) { return max(a, vFloat(b)); }
// Unsigned min/max against a constant (SFPI builds them from sign-magnitude swaps; same result).
inline vUInt min(const vUInt& x, unsigned c) { return impl_::map1(x, [c](uint32_t v) { return v < c ? v : c; }); }
inline vUInt max(const vUInt& x, unsigned c) { return impl_::map1(x, [c](uint32_t v) { return v > c ? v : c; }); }
inline vUInt clamp(const vUInt& x, unsigned lower, unsigned upper) { return min(max(x, lower), upper); }
template <typename T, std::enable_if_t<std::is_base_of_v<vFloat, T> || std::is_base_of_v<vSMag, T>>* = nullptr>
inline T clamp(const T& v, const T& lower, const T& upper) {
    return min(max(v, lower), upper);
}
inline vFloat clamp(const vFloat& v, float lower, float upper) { return clamp(v, vFloat(lower), vFloat(upper)); }
inline vFloat symmetric_clamp(const vFloat& v, float bound) { return copysgn(min(abs(v), bound), v); }

// Unconditional swap (SFPSWAP SWAP), predicated like any assignment.
template <typename T, std::enable_if_t<std::is_base_of_v<impl_::vVal, T>>* = nullptr>
inline void swap(T& a, T& b) {
    const T old_a = a;
    a = b;
    b = old_a;
}
inline void vec_swap(vFloat& a, vFloat& b) { swap(a, b); }
inline void vec_swap(vInt& a, vInt& b) { swap(a, b); }
inline void vec_swap(vUInt& a, vUInt& b) { swap(a, b); }
inline void vec_min_max(vFloat& a, vFloat& b) {
    const auto r = impl_::signmag_min_max(a.get(), b.get());
    a = vFloat(r.first);
    b = vFloat(r.second);
}
inline void vec_min_max(vInt& a, vInt& b) {
    const auto r = impl_::signmag_min_max(a.get(), b.get());
    a = vInt(r.first);
    b = vInt(r.second);
}

// Round to nearest integer by adding and subtracting 1.5 * 2^23: (value, integer).
namespace impl_ {
class FloatInt : public std::pair<vFloat, vInt> {
public:
    using pair::pair;
    operator vFloat() const { return first; }
    operator vInt() const { return second; }
};
}  // namespace impl_
inline impl_::FloatInt round(const vFloat& x) {
    const vFloat magic = 0x1.8p23f, f = x + magic;
    return {f - magic, as<vInt>(f) - as<vInt>(magic)};
}

// --- conversions (SFPSTOCHRND, SFPCAST) ---
namespace impl_ {
inline vSMag int_to_smag(const vInt& v) { return vSMag(map1(v, [](uint32_t x) { return ops::twos_to_signmag(x); })); }
inline vInt smag_to_int(const vSMag& v) { return vInt(map1(v, [](uint32_t x) { return ops::signmag_to_twos(x); })); }
// SFPSTOCHRND from FP32 with conversion `mode` (sfpu::StochRndMode).
inline sfpu_t stochrnd_from_float(const sfpu_t& v, uint32_t mode, RoundMode round) {
    const sfpu_t thr = round_thresholds(round == RoundMode::NearestStochastic);
    return lanewise(v, thr, [mode](uint32_t x, uint32_t t) {
        if (mode == ops::kRndFp32ToFp16a || mode == ops::kRndFp32ToFp16b)
            return ops::stochrnd_fp_to_fp(x, mode == ops::kRndFp32ToFp16b, t);
        return ops::stochrnd_fp_to_int(x, mode, t);
    });
}
// SFPCAST: sign-magnitude integer to FP32.
inline sfpu_t cast_to_float(const sfpu_t& v, RoundMode round) {
    const bool stochastic = round == RoundMode::NearestStochastic;
    const sfpu_t rnd = stochastic ? tc_tensix::sfpi_host::prng_values() : splat(0);
    return lanewise(v, rnd, [stochastic](uint32_t x, uint32_t r) { return ops::cast_signmag_to_fp32(x, stochastic, r); });
}
template <typename T>
constexpr uint32_t stochrnd_mode_to() {
    if constexpr (std::is_same_v<T, vFloat16a>) return ops::kRndFp32ToFp16a;
    else if constexpr (std::is_same_v<T, vFloat16b>) return ops::kRndFp32ToFp16b;
    else if constexpr (std::is_same_v<T, vSMag16>) return ops::kRndFp32ToInt16;
    else if constexpr (std::is_same_v<T, vUInt16>) return ops::kRndFp32ToUint16;
    else if constexpr (std::is_same_v<T, vSMag8>) return ops::kRndFp32ToInt8;
    else if constexpr (std::is_same_v<T, vUInt8>) return ops::kRndFp32ToUint8;
    else static_assert(tc_false<T>, "sfpi::convert: a vFloat converts to vFloat16a/b, vSMag16/8 or vUInt16/8");
    return 0;
}
}  // namespace impl_

template <typename To, typename From,
          std::enable_if_t<std::is_base_of_v<impl_::vVal, To> && std::is_base_of_v<impl_::vVal, From>>* = nullptr>
inline To convert(const From& val, RoundMode round = RoundMode::NearestStochastic) {
    if constexpr (std::is_same_v<From, To>) {
        return val;
    } else if constexpr (std::is_base_of_v<vFloat, From>) {
        return To(impl_::stochrnd_from_float(val.get(), impl_::stochrnd_mode_to<To>(), round));
    } else if constexpr (std::is_base_of_v<vSMag, From>) {
        if constexpr (std::is_base_of_v<vFloat, To>) return convert<To>(vFloat(impl_::cast_to_float(val.get(), round)), round);
        else if constexpr (std::is_same_v<To, vInt>) return impl_::smag_to_int(val);
        else static_assert(impl_::tc_false<To>, "sfpi::convert: a vSMag converts to a float type or vInt");
    } else if constexpr (std::is_base_of_v<vInt, From>) {
        if constexpr (std::is_same_v<To, vSMag>) return impl_::int_to_smag(val);
        else if constexpr (std::is_base_of_v<vFloat, To>) return convert<To>(impl_::int_to_smag(val), round);
        else static_assert(impl_::tc_false<To>, "sfpi::convert: a vInt converts to vSMag or a float type");
    } else if constexpr (std::is_same_v<From, vMag>) {
        if constexpr (std::is_same_v<To, vInt>) return as<vInt>(val);
        else return convert<To>(as<vSMag>(val), round);
    } else if constexpr (std::is_same_v<From, vUInt16>) {
        return convert<To>(as<vSMag>(val), round);
    } else {
        static_assert(impl_::tc_false<From>, "sfpi::convert: no conversion from this type");
    }
}

inline vFloat int32_to_float(const vInt& in, RoundMode r = RoundMode::NearestStochastic) { return impl_::cast_to_float(in.get(), r); }
inline vFloat int32_to_float(const vSMag& in, RoundMode r = RoundMode::NearestStochastic) { return impl_::cast_to_float(in.get(), r); }
inline vFloat float_to_fp16a(const vFloat& in, RoundMode r = RoundMode::NearestStochastic) {
    return impl_::stochrnd_from_float(in.get(), impl_::ops::kRndFp32ToFp16a, r);
}
inline vFloat float_to_fp16b(const vFloat& in, RoundMode r = RoundMode::NearestStochastic) {
    return impl_::stochrnd_from_float(in.get(), impl_::ops::kRndFp32ToFp16b, r);
}
inline vUInt float_to_uint16(const vFloat& in, RoundMode r = RoundMode::NearestStochastic) {
    return impl_::stochrnd_from_float(in.get(), impl_::ops::kRndFp32ToUint16, r);
}
inline vInt float_to_int16(const vFloat& in, RoundMode r = RoundMode::NearestStochastic) {
    return impl_::stochrnd_from_float(in.get(), impl_::ops::kRndFp32ToInt16, r);
}
inline vUInt float_to_uint8(const vFloat& in, RoundMode r = RoundMode::NearestStochastic) {
    return impl_::stochrnd_from_float(in.get(), impl_::ops::kRndFp32ToUint8, r);
}
inline vInt float_to_int8(const vFloat& in, RoundMode r = RoundMode::NearestStochastic) {
    return impl_::stochrnd_from_float(in.get(), impl_::ops::kRndFp32ToInt8, r);
}
// SFPSTOCHRND integer modes: sign-magnitude >> descale, rounded, clamped to 8 bits.
namespace impl_ {
inline sfpu_t stochrnd_int(const sfpu_t& in, const sfpu_t& descale, bool to_uint8, RoundMode r) {
    const sfpu_t thr = round_thresholds(r == RoundMode::NearestStochastic);
    sfpu_t out;
    for (int i = 0; i < ops::kLanes; ++i) out[i] = ops::stochrnd_int_to_int(in[i], descale[i], to_uint8, thr[i]);
    return out;
}
}  // namespace impl_
inline vUInt int32_to_uint8(const vInt& in, const vUInt& descale, RoundMode r = RoundMode::NearestStochastic) {
    return impl_::stochrnd_int(in.get(), descale.get(), true, r);
}
inline vUInt int32_to_uint8(const vInt& in, unsigned descale, RoundMode r = RoundMode::NearestStochastic) {
    return impl_::stochrnd_int(in.get(), impl_::splat(descale), true, r);
}
inline vInt int32_to_int8(const vInt& in, const vUInt& descale, RoundMode r = RoundMode::NearestStochastic) {
    return impl_::stochrnd_int(in.get(), descale.get(), false, r);
}
inline vInt int32_to_int8(const vInt& in, unsigned descale, RoundMode r = RoundMode::NearestStochastic) {
    return impl_::stochrnd_int(in.get(), impl_::splat(descale), false, r);
}

// Horner evaluation c0 + x*(c1 + x*(...)), one SFPMAD per coefficient.
inline vFloat polynomial(const vFloat&) { return 0.0f; }
template <typename C0, std::enable_if_t<std::is_base_of_v<vFloat, C0> || std::is_same_v<C0, float>>* = nullptr>
inline vFloat polynomial(const vFloat&, C0 c0) {
    return vFloat(c0);
}
template <typename C0, typename... Cs, std::enable_if_t<std::is_base_of_v<vFloat, C0> || std::is_same_v<C0, float>>* = nullptr>
inline vFloat polynomial(const vFloat& x, C0 c0, Cs... cs) {
    return vFloat(c0) + x * polynomial(x, cs...);
}

// --- look-up tables (SFPLUT, SFPLUTFP32): LReg0..2 (and 4..6) hold the table, LReg3 the input ---
namespace impl_ {
inline sfpu_t lut8(const vFloat& v, const vUInt& l0, const vUInt& l1, const vUInt& l2, uint32_t mod0) {
    sfpu_t out;
    for (int i = 0; i < ops::kLanes; ++i) {
        const uint32_t table[3] = {l0.get()[i], l1.get()[i], l2.get()[i]};
        out[i] = ops::lut(table, v.get()[i], mod0);
    }
    return out;
}
inline sfpu_t lutfp32(const vFloat& v, const vVal (&a)[3], const vVal* b, uint32_t mod1) {
    sfpu_t out;
    for (int i = 0; i < ops::kLanes; ++i) {
        uint32_t l[7] = {a[0].get()[i], a[1].get()[i], a[2].get()[i], v.get()[i], 0, 0, 0};
        if (b != nullptr)
            for (int k = 0; k < 3; ++k) l[4 + k] = b[k].get()[i];
        out[i] = ops::lutfp32(l, mod1);
    }
    return out;
}
}  // namespace impl_
inline vFloat lut(const vFloat& v, const vUInt& l0, const vUInt& l1, const vUInt& l2) {
    return impl_::lut8(v, l0, l1, l2, SFPLUT_MOD0_SGN_RETAIN);
}
inline vFloat lut_sign(const vFloat& v, const vUInt& l0, const vUInt& l1, const vUInt& l2) {
    return impl_::lut8(v, l0, l1, l2, SFPLUT_MOD0_SGN_UPDATE);
}
inline vFloat lut(const vFloat& v, const vUInt& l0, const vUInt& l1, const vUInt& l2, int bias) {
    // Older interface: the bias argument selects nothing on Wormhole beyond sign handling.
    return bias ? lut_sign(v, l0, l1, l2) : lut(v, l0, l1, l2);
}
inline vFloat lut2(const vFloat& v, const vUInt& l0, const vUInt& l1, const vUInt& l2) {
    const impl_::vVal a[3] = {l0, l1, l2};
    return impl_::lutfp32(v, a, nullptr, SFPLUTFP32_MOD0_FP16_3ENTRY_TABLE | SFPLUTFP32_MOD0_SGN_RETAIN);
}
inline vFloat lut2_sign(const vFloat& v, const vUInt& l0, const vUInt& l1, const vUInt& l2) {
    const impl_::vVal a[3] = {l0, l1, l2};
    return impl_::lutfp32(v, a, nullptr, SFPLUTFP32_MOD0_FP16_3ENTRY_TABLE | SFPLUTFP32_MOD0_SGN_UPDATE);
}
inline vFloat lut2(const vFloat& v, const vFloat& a0, const vFloat& a1, const vFloat& a2, const vFloat& b0,
                   const vFloat& b1, const vFloat& b2) {
    const impl_::vVal a[3] = {a0, a1, a2}, b[3] = {b0, b1, b2};
    return impl_::lutfp32(v, a, b, SFPLUTFP32_MOD0_FP32_3ENTRY_TABLE | SFPLUTFP32_MOD0_SGN_RETAIN);
}
inline vFloat lut2_sign(const vFloat& v, const vFloat& a0, const vFloat& a1, const vFloat& a2, const vFloat& b0,
                        const vFloat& b1, const vFloat& b2) {
    const impl_::vVal a[3] = {a0, a1, a2}, b[3] = {b0, b1, b2};
    return impl_::lutfp32(v, a, b, SFPLUTFP32_MOD0_FP32_3ENTRY_TABLE | SFPLUTFP32_MOD0_SGN_UPDATE);
}
inline vFloat lut2(const vFloat& v, const vUInt& a01, const vUInt& a23, const vUInt& a45, const vUInt& b01,
                   const vUInt& b23, const vUInt& b45, int mode = 1) {
    const impl_::vVal a[3] = {a01, a23, a45}, b[3] = {b01, b23, b45};
    const uint32_t table = mode == 1 ? SFPLUTFP32_MOD0_FP16_6ENTRY_TABLE1 : SFPLUTFP32_MOD0_FP16_6ENTRY_TABLE2;
    return impl_::lutfp32(v, a, b, table | SFPLUTFP32_MOD0_SGN_RETAIN);
}
inline vFloat lut2_sign(const vFloat& v, const vUInt& a01, const vUInt& a23, const vUInt& a45, const vUInt& b01,
                        const vUInt& b23, const vUInt& b45, int mode = 1) {
    const impl_::vVal a[3] = {a01, a23, a45}, b[3] = {b01, b23, b45};
    const uint32_t table = mode == 1 ? SFPLUTFP32_MOD0_FP16_6ENTRY_TABLE1 : SFPLUTFP32_MOD0_FP16_6ENTRY_TABLE2;
    return impl_::lutfp32(v, a, b, table | SFPLUTFP32_MOD0_SGN_UPDATE);
}

// --- packed LUT coefficients (newer SFPI): values the LUT instructions decode from an LReg ---
namespace impl_ {
// A float as an SFPLUT 8-bit entry: sign, 3-bit negative exponent (|x| in [2^-7, 2)), 4-bit
// mantissa rounded to nearest; zero (and anything below 2^-7) is the zero pattern 0xff.
inline uint32_t lut8_entry(float f) {
    const uint32_t bits = ops::bits_of(f);
    const int32_t e = int32_t(ops::exp_field(bits)) - 127;
    if (f == 0.0f || e < -7) return 0xffu;
    uint32_t man = (ops::man_field(bits) + (1u << 18)) >> 19;  // 4 bits, nearest
    int32_t neg_exp = -e;
    if (man == 16u) man = 0, --neg_exp;                        // rounding carried into the exponent
    if (neg_exp < 0) neg_exp = 0, man = 15u;                   // saturate below 2
    return ((bits >> 31) << 7) | (uint32_t(neg_exp) << 4) | man;
}
// A float as an SFPLUTFP32 16-bit entry: FP16 layout rounded to nearest even, where exponent 31
// encodes zero (so zero and values below the FP16 range are 0x7c00, signed).
inline uint32_t lut16_entry(float f) {
    const uint32_t bits = ops::bits_of(f);
    const uint32_t sign = (bits >> 31) << 15;
    const int32_t e = int32_t(ops::exp_field(bits)) - 112;
    if (f == 0.0f || e < 0) return sign | 0x7c00u;
    uint32_t half = (uint32_t(e) << 10) | (ops::man_field(bits) >> 13);
    const uint32_t rest = ops::man_field(bits) & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;
    if (half >= 0x7c00u) half = 0x7bffu;  // saturate below the zero encoding
    return sign | half;
}
}  // namespace impl_

// Two 8-bit SFPLUT entries (slope in bits 15:8, intercept in bits 7:0).
class vLut8si : public vUInt {
public:
    vLut8si() = default;
    vLut8si(const impl_::sfpu_t& v) : vUInt(v) {}
    vLut8si(float slope, float intercept) : vUInt((impl_::lut8_entry(slope) << 8) | impl_::lut8_entry(intercept)) {}
};
// Two 16-bit SFPLUTFP32 entries for adjacent half-segments (first in the low half, second high):
// slopes (vLut16ss) or intercepts (vLut16ii).
class vLut16ss : public vUInt {
public:
    vLut16ss() = default;
    vLut16ss(const impl_::sfpu_t& v) : vUInt(v) {}
    vLut16ss(float lo, float hi) : vUInt(impl_::lut16_entry(lo) | (impl_::lut16_entry(hi) << 16)) {}
};
class vLut16ii : public vUInt {
public:
    vLut16ii() = default;
    vLut16ii(const impl_::sfpu_t& v) : vUInt(v) {}
    vLut16ii(float lo, float hi) : vUInt(impl_::lut16_entry(lo) | (impl_::lut16_entry(hi) << 16)) {}
};
// SFPLUT over three 8-bit entry pairs.
inline vFloat lut(const vFloat& v, const vLut8si& l0, const vLut8si& l1, const vLut8si& l2, LutSign sign = LutSign::Retain) {
    return impl_::lut8(v, l0, l1, l2, sign == LutSign::Retain ? SFPLUT_MOD0_SGN_RETAIN : SFPLUT_MOD0_SGN_UPDATE);
}
// SFPLUTFP32 6-entry FP16 table (segments [0,.5) [.5,1) [1,1.5) [1.5,2) [2,3) [3,inf)).
inline vFloat lut(const vFloat& v, const vLut16ss& s01, const vLut16ii& i01, const vLut16ss& s23, const vLut16ii& i23,
                  const vLut16ss& s45, const vLut16ii& i45, LutSign sign = LutSign::Retain) {
    return sign == LutSign::Retain ? lut2(v, s01, s23, s45, i01, i23, i45, 1) : lut2_sign(v, s01, s23, s45, i01, i23, i45, 1);
}

// --- cross-lane shuffles: SFPTRANSP / SFPSHFT2 on the machine (sfpi_host.h) ---
// The four values stacked as a 16x8 grid of lanes, each column's 4x4 block transposed: lane
// 8 * j + c of the i-th value and lane 8 * i + c of the j-th trade places (i, j < 4, column c < 8).
inline void subvec_transp(vFloat& a, vFloat& b, vFloat& c, vFloat& d) {
    tc_tensix::sfpi_host::transpose_subvecs(a.get(), b.get(), c.get(), d.get());
}
inline void subvec_transp(vInt& a, vInt& b, vInt& c, vInt& d) {
    tc_tensix::sfpi_host::transpose_subvecs(a.get(), b.get(), c.get(), d.get());
}
inline void subvec_transp(vUInt& a, vUInt& b, vUInt& c, vUInt& d) {
    tc_tensix::sfpi_host::transpose_subvecs(a.get(), b.get(), c.get(), d.get());
}
// Each row of eight lanes rotated right by one lane (lane 0 gets lane 7).
inline impl_::sfpu_t subvec_shflror1(const impl_::vVal& v) {
    return tc_tensix::sfpi_host::shuffle_subvec(v.get(), SFPSHFT2_MOD1_SUBVEC_SHFLROR1);
}
// Each row of eight lanes shifted right by one lane; lane 0 as SFPSHFT2 SUBVEC_SHFLSHR1 fills it.
inline impl_::sfpu_t subvec_shflshr1(const impl_::vVal& v) {
    return tc_tensix::sfpi_host::shuffle_subvec(v.get(), SFPSHFT2_MOD1_SUBVEC_SHFLSHR1);
}

// Register-pressure hint of newer SFPI: no effect on the host.
struct lreg_pressure {};

#if defined(TC_SFPI_BLACKHOLE)
// --- Blackhole (SFPARECIP): the approximate reciprocal of sfpu_ops.h, as SFPARECIP Mod1 0 computes
// it; the conditional and exponential modes are not modelled and stop the run by name. ---
enum class RecipMode { All, IfNegative };
inline vFloat approx_recip(const vFloat& v, RecipMode mode = RecipMode::All) {
    if (mode != RecipMode::All) tc_tensix::sfpi_host::unsupported("sfpi::approx_recip(IfNegative) (SFPARECIP COND_RECIP)");
    return vFloat(impl_::map1(v, [](uint32_t x) { return impl_::ops::approx_recip(x); }));
}
template <bool uncond>
inline vFloat approx_recip(const vFloat& v) {
    return approx_recip(v, uncond ? RecipMode::All : RecipMode::IfNegative);
}
// Blackhole's arithmetic right shift of vInt (SFPSHFT Mod1 ARITHMETIC).
inline vInt operator>>(const vInt& a, unsigned n) {
    return vInt(impl_::shift_by(a.get(), -int(n & 31u), ShiftMode::Arithmetic));
}
inline vInt operator>>(const vInt& a, const vUInt& n) {
    return vInt(impl_::map2(a, n, [](uint32_t x, uint32_t k) { return impl_::ops::shift_arithmetic(x, -int32_t(k & 31u)); }));
}
// SFPMUL24 through SFPI: the low or high half of a 23x23-bit mantissa product.
enum class FractionalHalf { Low, High };
template <typename A, typename B>
inline vMag fractional_mul(const A& a, const B& b, FractionalHalf half = FractionalHalf::Low) {
    const bool upper = half == FractionalHalf::High;
    return vMag(impl_::map2(a, b, [upper](uint32_t x, uint32_t y) { return impl_::ops::mul24(x, y, upper); }));
}
inline vFloat approx_exp(const vFloat&) {
    tc_tensix::sfpi_host::unsupported("sfpi::approx_exp (SFPARECIP EXP)");
}
#endif

}  // namespace sfpi
