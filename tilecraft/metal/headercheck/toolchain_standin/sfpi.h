// tilecraft header-check STAND-IN for the SFPI layer.  PARSE-ONLY.  NOT SFPI.
//
// Written for tilecraft (tilecraft/metal/headercheck.py); it is not part of, and
// not derived from, Tenstorrent's SFPI.  The ttnn 0.81.1 wheel ships the LLK
// headers that build on SFPI (ckernel_sfpu_*.h) but not SFPI itself (sfpi.h
// comes with the RISC-V cross compiler).  To let host g++ -fsyntax-only parse a
// compute kernel through those headers, this file declares the names the LLK
// uses -- vector types, dst_reg / l_reg, constant registers, the v_if family,
// the free functions and the instruction-modifier constants -- with shapes that
// are deliberately LENIENT: every vector type converts to every other, the
// operators accept any mix of vectors and scalars, and functions take loose
// argument lists.  Nothing here computes anything and nothing here is checked
// strictly: the purpose is only that the SFPU layer parses, so that the check
// can judge the *kernel's* use of the compute API (names, argument counts and
// types), which comes from the real 0.81.1 headers.  Errors inside the SFPU
// implementations themselves are out of scope of this stand-in.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#define sfpi_inline inline __attribute__((always_inline))

// Instruction-modifier constants.  Names are what the LLK headers use; the
// values are placeholder small integers and mean nothing.  They live in the
// global namespace (some LLK code names them unqualified) and are re-exported
// into namespace sfpi (most code writes sfpi::NAME).
#define TILECRAFT_SFPI_CONSTANTS(X)                                                      \
    X(SFPABS_MOD1_FLOAT, 1) X(SFPABS_MOD1_INT, 0)                                        \
    X(SFPAND_MOD1_USE_VB, 1)                                                              \
    X(SFPARECIP_MOD1_RECIP, 0) X(SFPARECIP_MOD1_EXP, 2)                                   \
    X(SFPCAST_MOD1_INT32_TO_FP32_RNE, 0) X(SFPCAST_MOD1_SM32_TO_FP32_RNE, 1)              \
    X(SFPCAST_MOD1_INT32_TO_FP32_RNS, 2)                                                  \
    X(SFPENCC_IMM12_BOTH, 3) X(SFPENCC_IMM12_NEITHER, 0)                                  \
    X(SFPENCC_MOD1_EI_RI, 0) X(SFPENCC_MOD1_EU_R1, 8) X(SFPENCC_MOD1_EC_RI, 2)            \
    X(SFPEXEXP_MOD1_DEBIAS, 0) X(SFPEXEXP_MOD1_NODEBIAS, 1)                               \
    X(SFPEXEXP_MOD1_SET_CC_SGN_EXP, 2) X(SFPEXEXP_MOD1_SET_CC_COMP_EXP, 8)                \
    X(SFPEXMAN_MOD1_PAD8, 0) X(SFPEXMAN_MOD1_PAD9, 1)                                     \
    X(SFPGT_MOD1_SET_ALL_ONES, 4) X(SFPGT_MOD1_SET_CC, 1) X(SFPGT_MOD1_SET_VD, 2)         \
    X(SFPLE_MOD1_SET_CC, 1) X(SFPLE_MOD1_SET_VD, 2)                                       \
    X(SFPIADD_MOD1_ARG_LREG_DST, 0) X(SFPIADD_MOD1_ARG_IMM, 1)                            \
    X(SFPIADD_MOD1_ARG_2SCOMP_LREG_DST, 2) X(SFPIADD_MOD1_CC_LT0, 0)                      \
    X(SFPIADD_MOD1_CC_NONE, 4) X(SFPIADD_MOD1_CC_GTE0, 8)                                 \
    X(SFPLOADI_MOD0_FLOATB, 0) X(SFPLOADI_MOD0_FLOATA, 1) X(SFPLOADI_MOD0_USHORT, 2)      \
    X(SFPLOADI_MOD0_SHORT, 4) X(SFPLOADI_MOD0_UPPER, 8) X(SFPLOADI_MOD0_LOWER, 10)        \
    X(SFPLOAD_MOD0_FMT_SRCB, 0) X(SFPLOAD_MOD0_FMT_FP16A, 1) X(SFPLOAD_MOD0_FMT_FP16B, 2) \
    X(SFPLOAD_MOD0_FMT_FP32, 3) X(SFPLOAD_MOD0_FMT_INT32, 4)                              \
    X(SFPLZ_MOD1_CC_NE0, 2) X(SFPLZ_MOD1_CC_EQ0, 6)                                       \
    X(SFPMAD_MOD1_OFFSET_NONE, 0) X(SFPMAD_MOD1_NEGATE_VA, 1) X(SFPMAD_MOD1_NEGATE_VC, 2) \
    X(SFPMAD_MOD1_INDIRECT_VA, 4) X(SFPMAD_MOD1_INDIRECT_VD, 8)                           \
    X(SFPMOV_MOD1_NEGATE, 1) X(SFPMOV_MOD1_CONFIG, 8)                                     \
    X(SFPMUL24_MOD1_LOWER, 0) X(SFPMUL24_MOD1_UPPER, 1)                                   \
    X(SFPSETCC_MOD1_LREG_LT0, 0) X(SFPSETCC_MOD1_IMM_BIT0, 1) X(SFPSETCC_MOD1_LREG_NE0, 2)\
    X(SFPSETCC_MOD1_LREG_GTE0, 4) X(SFPSETCC_MOD1_LREG_EQ0, 6) X(SFPSETCC_MOD1_COMP, 8)   \
    X(SFPSETEXP_MOD1_ARG_IMM, 1) X(SFPSETEXP_MOD1_ARG_EXPONENT, 2)                        \
    X(SFPSETMAN_MOD1_ARG_IMM, 1) X(SFPSETSGN_MOD1_ARG_IMM, 1)                             \
    X(SFPSHFT2_MOD1_COPY4, 0) X(SFPSHFT2_MOD1_SUBVEC_CHAINED_COPY4, 1)                    \
    X(SFPSHFT2_MOD1_SUBVEC_SHFLROR1, 2) X(SFPSHFT2_MOD1_SUBVEC_SHFLSHR1, 3)               \
    X(SFPSHFT2_MOD1_SHFT_LREG, 4) X(SFPSHFT2_MOD1_SHFT_IMM, 5)                            \
    X(SFPSHFT_MOD1_ARG_IMM, 1) X(SFPSHFT_MOD1_ARG_IMM_USE_VC, 3) X(SFPSHFT_MOD1_SHIFT_IMM, 5)\
    X(SFPSTOCHRND_RND_EVEN, 0) X(SFPSTOCHRND_RND_STOCH, 1)                                \
    X(SFPSTOCHRND_MOD1_FP32_TO_FP16A, 0) X(SFPSTOCHRND_MOD1_FP32_TO_FP16B, 1)             \
    X(SFPSTOCHRND_MOD1_FP32_TO_UINT8, 2) X(SFPSTOCHRND_MOD1_FP32_TO_INT8, 3)              \
    X(SFPSTOCHRND_MOD1_FP32_TO_UINT16, 6) X(SFPSTOCHRND_MOD1_FP32_TO_INT16, 7)            \
    X(SFPSTORE_MOD0_FMT_SRCB, 0) X(SFPSTORE_MOD0_FMT_FP16A, 1)                            \
    X(SFPSTORE_MOD0_FMT_FP16B, 2) X(SFPSTORE_MOD0_FMT_FP32, 3)                            \
    X(SFPSTORE_MOD0_FMT_INT32, 4) X(SFPSTORE_MOD0_FMT_LO16, 6)                            \
    X(SFPSWAP_MOD1_SWAP, 0) X(SFPSWAP_MOD1_VEC_MIN_MAX, 1)                                \
    X(SFP_DESTREG_STRIDE, 2)

#define TILECRAFT_SFPI_DECLARE(name, value) constexpr unsigned name = value;
TILECRAFT_SFPI_CONSTANTS(TILECRAFT_SFPI_DECLARE)
#undef TILECRAFT_SFPI_DECLARE

namespace sfpi {

#define TILECRAFT_SFPI_EXPORT(name, value) using ::name;
TILECRAFT_SFPI_CONSTANTS(TILECRAFT_SFPI_EXPORT)
#undef TILECRAFT_SFPI_EXPORT

// Stand-in for the compiler's vector register type (what .get() returns and
// the __builtin_rvtt_* intrinsics take).
struct __rvtt_vec_t {
    int lane = 0;
};

enum class DataLayout { Default, None, F32, F16a, F16b, FSrcB, I32, U32, M32, SM32, U16, SM16, U8, SM8 };
enum class RoundMode { Nearest, NearestEven, NearestAway, NearestStochastic, Stochastic, Zero };
enum class ExponentMode { Debiased, Biased };
enum class MantissaMode { NoImplicitOne, ImplicitOne };
enum class ShiftMode { Logical, Arithmetic };
enum class LutSign { Update, Retain };
enum class LRegs { LReg0, LReg1, LReg2, LReg3, LReg4, LReg5, LReg6, LReg7, LRegCount };

template <class T>
struct __is_vec;

// Condition produced by vector comparisons; what v_if / v_elseif / v_and take.
struct __vCond {
    constexpr __vCond() = default;
    __vCond operator&&(const __vCond&) const { return {}; }
    __vCond operator||(const __vCond&) const { return {}; }
    __vCond operator!() const { return {}; }
};
using vBool = __vCond;

// One class template stands in for every SFPI vector type.  Each converts to
// and from every other, and from any arithmetic scalar, so the LLK's typed
// plumbing (as<>, convert<>, mixed-type arithmetic) parses without modelling
// SFPI's actual type rules.
template <class Tag>
class __vec {
public:
    __vec() = default;
    __vec(__rvtt_vec_t) {}
    template <class S, class = std::enable_if_t<std::is_arithmetic_v<S> || std::is_enum_v<S>>>
    __vec(S) {}
    template <class Other>
    __vec(const __vec<Other>&) {}
    // Look-up-table vectors are built from several packed scalars.
    template <class S1, class S2, class... Rest>
    __vec(S1, S2, Rest...) {}

    __rvtt_vec_t get() const { return {}; }

    template <class R>
    __vec& operator=(const R&) { return *this; }
    __vec& operator=(const __vec&) = default;

#define TILECRAFT_SFPI_COMPOUND(op)                \
    template <class R>                             \
    __vec& operator op(const R&) { return *this; }
    TILECRAFT_SFPI_COMPOUND(+=)
    TILECRAFT_SFPI_COMPOUND(-=)
    TILECRAFT_SFPI_COMPOUND(*=)
    TILECRAFT_SFPI_COMPOUND(&=)
    TILECRAFT_SFPI_COMPOUND(|=)
    TILECRAFT_SFPI_COMPOUND(^=)
    TILECRAFT_SFPI_COMPOUND(<<=)
    TILECRAFT_SFPI_COMPOUND(>>=)
#undef TILECRAFT_SFPI_COMPOUND

    __vec operator-() const { return {}; }
    __vec operator~() const { return {}; }
    __vec operator++(int) { return {}; }
    __vec& operator++() { return *this; }
    __vec operator--(int) { return {}; }
    __vec& operator--() { return *this; }
};

template <class T>
struct __is_vec : std::false_type {};
template <class Tag>
struct __is_vec<__vec<Tag>> : std::true_type {};

template <class A, class B>
constexpr bool __vec_operands = (__is_vec<std::decay_t<A>>::value || __is_vec<std::decay_t<B>>::value);

template <class A, class B>
struct __vec_result {
    using type = std::conditional_t<__is_vec<std::decay_t<A>>::value, std::decay_t<A>, std::decay_t<B>>;
};

#define TILECRAFT_SFPI_BINARY(op)                                                        \
    template <class A, class B, class = std::enable_if_t<__vec_operands<A, B>>>          \
    typename __vec_result<A, B>::type operator op(const A&, const B&) { return {}; }
TILECRAFT_SFPI_BINARY(+)
TILECRAFT_SFPI_BINARY(-)
TILECRAFT_SFPI_BINARY(*)
TILECRAFT_SFPI_BINARY(&)
TILECRAFT_SFPI_BINARY(|)
TILECRAFT_SFPI_BINARY(^)
TILECRAFT_SFPI_BINARY(<<)
TILECRAFT_SFPI_BINARY(>>)
#undef TILECRAFT_SFPI_BINARY

#define TILECRAFT_SFPI_COMPARE(op)                                                       \
    template <class A, class B, class = std::enable_if_t<__vec_operands<A, B>>>          \
    __vCond operator op(const A&, const B&) { return {}; }
TILECRAFT_SFPI_COMPARE(<)
TILECRAFT_SFPI_COMPARE(<=)
TILECRAFT_SFPI_COMPARE(>)
TILECRAFT_SFPI_COMPARE(>=)
TILECRAFT_SFPI_COMPARE(==)
TILECRAFT_SFPI_COMPARE(!=)
#undef TILECRAFT_SFPI_COMPARE

struct __tag_float {};
struct __tag_float16a {};
struct __tag_float16b {};
struct __tag_int {};
struct __tag_uint {};
struct __tag_uint8 {};
struct __tag_uint16 {};
struct __tag_mag {};
struct __tag_smag {};
struct __tag_smag8 {};
struct __tag_smag16 {};
struct __tag_lut16ss {};
struct __tag_lut16ii {};
struct __tag_lut8si {};

using vFloat = __vec<__tag_float>;
using vFloat16a = __vec<__tag_float16a>;
using vFloat16b = __vec<__tag_float16b>;
using vInt = __vec<__tag_int>;
using vUInt = __vec<__tag_uint>;
using vUInt8 = __vec<__tag_uint8>;
using vUInt16 = __vec<__tag_uint16>;
using vMag = __vec<__tag_mag>;
using vSMag = __vec<__tag_smag>;
using vSMag8 = __vec<__tag_smag8>;
using vSMag16 = __vec<__tag_smag16>;
using vLut16ss = __vec<__tag_lut16ss>;
using vLut16ii = __vec<__tag_lut16ii>;
using vLut8si = __vec<__tag_lut8si>;

// Scalar immediates in 16-bit float formats, e.g. sFloat16b(0.5f).
struct sFloat16a {
    constexpr sFloat16a(float) {}
    constexpr sFloat16a(int) {}
    constexpr sFloat16a(unsigned) {}
    constexpr sFloat16a(double) {}
    operator vFloat() const { return {}; }
};
struct sFloat16b {
    constexpr sFloat16b(float) {}
    constexpr sFloat16b(int) {}
    constexpr sFloat16b(unsigned) {}
    constexpr sFloat16b(double) {}
    operator vFloat() const { return {}; }
};

// A slot of the destination register file as seen through dst_reg[i]:
// readable as any vector type, writable from any value, re-typable with mode<>.
class __dst_slot {
public:
    template <class Tag>
    operator __vec<Tag>() const { return {}; }
    template <class R>
    __dst_slot& operator=(const R&) { return *this; }
    template <DataLayout L = DataLayout::Default>
    __dst_slot& mode() { return *this; }
    template <class M>
    __dst_slot& mode(const M&) { return *this; }
};

class __dst_file {
public:
    __dst_slot operator[](int) const { return {}; }
    __dst_file& operator++() { return *this; }
    __dst_file& operator++(int) { return *this; }
    __dst_file& operator+=(int) { return *this; }
    __dst_file& operator-=(int) { return *this; }
};
inline __dst_file dst_reg;

class __lreg_slot {
public:
    template <class Tag>
    operator __vec<Tag>() const { return {}; }
    template <class R>
    __lreg_slot& operator=(const R&) { return *this; }
    bool in_use() const { return false; }
};
class __lreg_file {
public:
    __lreg_slot operator[](LRegs) const { return {}; }
    __lreg_slot operator[](int) const { return {}; }
};
inline __lreg_file l_reg;

// Constant registers: fixed ones are readable, programmable ones assignable.
inline vFloat vConst0;
inline vFloat vConst1;
inline vFloat vConstNeg1;
inline vFloat vConst0p8373;
inline vFloat vConstFloatPrgm0;
inline vFloat vConstFloatPrgm1;
inline vFloat vConstFloatPrgm2;
inline vInt vConstIntPrgm0;
inline vInt vConstIntPrgm1;
inline vInt vConstIntPrgm2;
inline vInt vConstTileId;

// Register-pressure hint object (declared as a local in some LLK loops).
struct lreg_pressure {};

// Control-flow scope behind v_if & co.  All branches share one C++ scope, as
// the macros below open a single block at v_if / v_block and close it at
// v_endif / v_endblock.
class __cc_scope {
public:
    template <class C>
    void cc_if(const C&) {}
    template <class C>
    void cc_elseif(const C&) {}
    void cc_else() {}
    template <class C>
    void cc_and(const C&) {}
};

template <class To, class From>
inline To as(const From&) { return {}; }
template <class To, class From>
inline To reinterpret(const From&) { return {}; }
template <class To, class From, class... Rest>
inline To convert(const From&, Rest&&...) { return {}; }

// Free functions: loose argument lists, result of the first argument's kind
// (or a fixed kind where the LLK relies on it).
#define TILECRAFT_SFPI_SAME_KIND(name)                                               \
    template <class V, class... Rest>                                                \
    inline std::conditional_t<__is_vec<std::decay_t<V>>::value, std::decay_t<V>, vFloat> name(const V&, Rest&&...) { \
        return {};                                                                   \
    }
TILECRAFT_SFPI_SAME_KIND(abs)
TILECRAFT_SFPI_SAME_KIND(setexp)
TILECRAFT_SFPI_SAME_KIND(setsgn)
TILECRAFT_SFPI_SAME_KIND(setsgn2)
TILECRAFT_SFPI_SAME_KIND(setman)
TILECRAFT_SFPI_SAME_KIND(addexp)
TILECRAFT_SFPI_SAME_KIND(copysgn)
TILECRAFT_SFPI_SAME_KIND(copyman)
TILECRAFT_SFPI_SAME_KIND(min)
TILECRAFT_SFPI_SAME_KIND(max)
TILECRAFT_SFPI_SAME_KIND(clamp)
TILECRAFT_SFPI_SAME_KIND(symmetric_clamp)
TILECRAFT_SFPI_SAME_KIND(shft)
TILECRAFT_SFPI_SAME_KIND(lut)
TILECRAFT_SFPI_SAME_KIND(lut2)
TILECRAFT_SFPI_SAME_KIND(lut2_sign)
TILECRAFT_SFPI_SAME_KIND(approx_recip)
TILECRAFT_SFPI_SAME_KIND(fractional_mul)
TILECRAFT_SFPI_SAME_KIND(subvec_transp)
TILECRAFT_SFPI_SAME_KIND(subvec_shflror1)
TILECRAFT_SFPI_SAME_KIND(subvec_shflshr1)
#undef TILECRAFT_SFPI_SAME_KIND

template <class V, class... Rest>
inline vInt exexp(const V&, Rest&&...) { return {}; }
template <class V, class... Rest>
inline vInt exexp_nodebias(const V&, Rest&&...) { return {}; }
template <class V, class... Rest>
inline vInt exman(const V&, Rest&&...) { return {}; }
template <class V, class... Rest>
inline vInt exman8(const V&, Rest&&...) { return {}; }
template <class V, class... Rest>
inline vInt exman9(const V&, Rest&&...) { return {}; }
template <class V, class... Rest>
inline vInt lz(const V&, Rest&&...) { return {}; }
template <class V, class... Rest>
inline vFloat int32_to_float(const V&, Rest&&...) { return {}; }
template <class V, class... Rest>
inline vUInt float_to_fp16a(const V&, Rest&&...) { return {}; }
template <class V, class... Rest>
inline vUInt float_to_fp16b(const V&, Rest&&...) { return {}; }
template <class V, class... Rest>
inline vUInt float_to_uint8(const V&, Rest&&...) { return {}; }
template <class V, class... Rest>
inline vInt float_to_int8(const V&, Rest&&...) { return {}; }
template <class V, class... Rest>
inline vUInt float_to_uint16(const V&, Rest&&...) { return {}; }
template <class V, class... Rest>
inline vInt float_to_int16(const V&, Rest&&...) { return {}; }

template <class C>
inline __vCond nearby(const C&) { return {}; }
template <class V>
inline __vCond is_inf(const V&) { return {}; }
template <class V>
inline __vCond is_nan(const V&) { return {}; }
template <class V>
inline __vCond is_finite(const V&) { return {}; }
template <class V>
inline __vCond is_pos(const V&) { return {}; }
template <class V>
inline __vCond is_neg(const V&) { return {}; }

template <class V>
struct __min_max_result {
    V min;
    V max;
};
template <class A, class B>
inline __min_max_result<std::decay_t<A>> min_max(const A&, const B&) { return {}; }

template <class A, class B>
inline void vec_swap(A&, B&) {}
template <class A, class B>
inline void vec_min_max(A&, B&) {}

}  // namespace sfpi

// SFPI control flow.  One scope from v_if to v_endif (and v_block to
// v_endblock); the user writes the braces of each branch.
#define v_if(cond)                \
    {                             \
        ::sfpi::__cc_scope __tc_cc; \
        __tc_cc.cc_if(cond);
#define v_elseif(cond) __tc_cc.cc_elseif(cond);
#define v_else __tc_cc.cc_else();
#define v_endif }
#define v_block                   \
    {                             \
        ::sfpi::__cc_scope __tc_cc;
#define v_and(cond) __tc_cc.cc_and(cond)
#define v_endblock }

// Intrinsics some LLK code calls directly; routed to a sink that accepts
// anything and returns a raw vector.
namespace sfpi {
template <class... A>
inline __rvtt_vec_t __builtin_sink(A&&...) { return {}; }
}  // namespace sfpi
#define __builtin_rvtt_sfpmad(...) ::sfpi::__builtin_sink(__VA_ARGS__)
#define __builtin_rvtt_sfpxiadd_i(...) ::sfpi::__builtin_sink(__VA_ARGS__)
#define __builtin_rvtt_sfpgt(...) ::sfpi::__builtin_sink(__VA_ARGS__)
#define __builtin_rvtt_ttreplay(...) ((void)::sfpi::__builtin_sink(__VA_ARGS__))
