// The SFPU operations the emulator models: one code per function, shared by the API headers
// (which pass the code) and the runtime (whose table gives each its numerics).
#pragma once

#include <cstdint>

namespace tc {

// unary: f(x [, params]) on every element of one DST tile
#define TC_SFPU_UNARY(X)                                                                                             \
    X(Exp) X(Exp2) X(Expm1) X(Log) X(LogWithBase) X(Log1p) X(Sqrt) X(Rsqrt) X(Recip) X(Sigmoid) X(Tanh) X(Silu)      \
    X(Gelu) X(Relu) X(ReluMax) X(ReluMin) X(LeakyRelu) X(Elu) X(Celu) X(Abs) X(Neg) X(Sign) X(Signbit) X(Square)     \
    X(Power) X(Sin) X(Cos) X(Tan) X(Asin) X(Acos) X(Atan) X(Asinh) X(Acosh) X(Atanh) X(Sinh) X(Cosh) X(Erf)          \
    X(Erfc) X(Selu) X(Mish) X(Softsign) X(Hardsigmoid) X(Hardtanh) X(Softplus) X(LogicalNot) X(Floor) X(Ceil)        \
    X(Trunc) X(Frac) X(Round) X(Fill) X(FillBits) X(AddScalar) X(SubScalar) X(MulScalar) X(DivScalar)                \
    X(RsubScalar) X(Isinf) X(Isnan) X(Isfinite) X(Isposinf) X(Isneginf) X(Clamp) X(Threshold) X(Heaviside) X(Gtz)    \
    X(Ltz) X(Gez) X(Lez) X(Eqz) X(Nez) X(UnaryEq) X(UnaryNe) X(UnaryGt) X(UnaryGe) X(UnaryLt) X(UnaryLe)             \
    X(UnaryMax) X(UnaryMin) X(Identity) X(Cbrt) X(Rpow) X(Hardshrink) X(Softshrink) X(Tanhshrink)    \
    X(Rdiv) X(PowerIterative)

// binary: out = f(a, b) on two DST tiles
#define TC_SFPU_BINARY(X)                                                                                      \
    X(Add) X(Sub) X(Rsub) X(Mul) X(Div) X(Pow) X(Max) X(Min) X(Eq) X(Ne) X(Lt) X(Gt) X(Le) X(Ge) X(Atan2)      \
    X(Fmod) X(Remainder) X(Xlogy) X(Mask) X(MaskPosinf)

// ternary: out = f(a, b, c) on three DST tiles
#define TC_SFPU_TERNARY(X) X(Where) X(Lerp)

#define TC_ENUM_ITEM(name) name,
enum class SfpuUnary : std::uint32_t { TC_SFPU_UNARY(TC_ENUM_ITEM) Count };
enum class SfpuBinary : std::uint32_t { TC_SFPU_BINARY(TC_ENUM_ITEM) Count };
enum class SfpuTernary : std::uint32_t { TC_SFPU_TERNARY(TC_ENUM_ITEM) Count };
#undef TC_ENUM_ITEM

constexpr std::uint32_t kNoFormat = 255;

}  // namespace tc
