// The SFPU: element-wise functions on DST tiles.
//
// Stores into a 16-bit DST truncate to bfloat16, as SFPSTORE does (the 0.81.1 headers' default
// DstRoundingMode), except for the functions whose 0.81.1 LLK rounds first with SFP_STOCH_RND
// (`convert<vFloat16b>(.., RoundMode::Nearest)`: to nearest, ties away from zero, per the ISA
// documentation's SFPSTOCHRND model and ttsim). gelu_tile's default (fast_and_approx) is the LLK's
// 6-entry piecewise-linear table (SFPLUTFP32), not a formula.
//
// The device evaluates most of these with polynomial or table approximations; the emulator
// evaluates each in fp32 with the C++ standard library, following the definitions of
// docs/numerics.md section 6 (the same formulas the language-level simulator evaluates with torch).
// Results therefore match the language level to within the last bit of fp32 (libm and torch may
// round a transcendental differently), i.e. exactly after rounding to bfloat16 in almost every
// element; docs/emulator.md states the tolerance the tests use.
#include <cmath>
#include <cstring>

#include "compute.h"
#include "formats.h"
#include "tc_emu/sfpu_ops.h"

namespace tc {

namespace {

float p(std::uint32_t bits) { return as_float(bits); }

float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

float softplus(float x, float beta, float beta_recip, float threshold) {
    float scaled = x * beta;
    return scaled > threshold ? x : beta_recip * std::log1p(std::exp(scaled));
}

float flag(bool b) { return b ? 1.0f : 0.0f; }

// log_with_base_tile<.., base_is_two = true>: the exponent is added unscaled and only the log of
// the mantissa (taken in [0.75, 1.5), as ckernel_sfpu_log.h does) is scaled, so log2(2^k) == k.
float log_base_two(float x, float scale) {
    if (!(x > 0.0f) || !std::isfinite(x)) return std::log(x) * scale;  // 0 -> -inf, < 0 -> NaN, inf, NaN
    int e = 0;
    float m = std::frexp(x, &e);  // x = m * 2^e, m in [0.5, 1)
    if (m < 0.75f) {
        m *= 2.0f;
        e -= 1;
    }
    return static_cast<float>(e) + std::log(m) * scale;
}

// A float table constant as SFPI stores it for SFPLUTFP32 (vLut16ss/vLut16ii, sLut<FP16>::convert):
// the mantissa rounded to 10 bits half away from zero, the exponent rebased by 112; below that range
// (0.0 included) the table's zero, exponent 31; above it the largest entry.
std::uint32_t lut16_entry(float entry) {
    const std::uint32_t bits = as_bits(entry), sign = bits >> 31;
    int exp = int((bits >> 23) & 0xFFu);
    std::uint32_t man = (bits & 0x7FFFFFu) + (1u << 12);
    if (man >> 23) {
        ++exp;
        man = 0;
    }
    exp -= 112;
    return (sign << 15) | (exp < 0 ? 0x7C00u : exp >= 31 ? 0x7BFFu : (std::uint32_t(exp) << 10) | (man >> 13));
}

// SFPLUTFP32's reading of a 16-bit table entry: an IEEE half for exponents 1-30, but exponent 0 is
// 2^-15 scaled (no zero, no denormals) and 31 reads as zero (tt-isa-documentation SFPLUTFP32.md)
float lut16(float entry) {
    const std::uint32_t h = lut16_entry(entry);
    const std::uint32_t sign = h >> 15, exp = (h >> 10) & 0x1Fu, man = h & 0x3FFu;
    return as_float((sign << 31) | ((exp == 0x1F ? 0u : 112u + exp) << 23) | (man << 13));
}

// gelu_tile<true> (the default): 0.5 x + (a |x| + c), with (a, c) from the 0.81.1 LLK's table
// (ckernel_sfpu_gelu.h gelu_init<true>) for |x| in [0, .5), [.5, 1), [1, 1.5), [1.5, 2), [2, 3),
// [3, inf) (SFPLUTFP32 FP16_6ENTRY_TABLE1, sign not copied), each step an SFPMAD.
float gelu_table(float x) {
    static const float slope[6] = {0.1928f, 0.4939f, 0.6188f, 0.6099f, 0.5402f, 0.5f};
    static const float intercept[6] = {-0.00010443f, -0.1604f, -0.2796f, -0.2635f, -0.1194f, 0.0f};
    const float b = std::fabs(x);
    const int i = b < 0.5f ? 0 : b < 1.0f ? 1 : b < 1.5f ? 2 : b < 2.0f ? 3 : b < 3.0f ? 4 : 5;
    const float d = std::fma(lut16(slope[i]), b, lut16(intercept[i]));
    return std::fma(x, 0.5f, d);
}

float unary(SfpuUnary op, float x, std::uint32_t p0, std::uint32_t p1, std::uint32_t p2) {
    switch (op) {
        case SfpuUnary::Exp: return std::exp(x);
        case SfpuUnary::Exp2: return std::exp2(x);
        case SfpuUnary::Expm1: return std::expm1(x);
        case SfpuUnary::Log: return std::log(x);
        case SfpuUnary::LogWithBase: return p1 ? log_base_two(x, p(p0)) : std::log(x) * p(p0);  // 1 / ln(base)
        case SfpuUnary::Log1p: return std::log1p(x);
        case SfpuUnary::Sqrt: return std::sqrt(x);
        case SfpuUnary::Rsqrt: return 1.0f / std::sqrt(x);
        case SfpuUnary::Recip: return 1.0f / x;
        case SfpuUnary::Sigmoid: return sigmoid(x);
        case SfpuUnary::Tanh: return std::tanh(x);
        case SfpuUnary::Silu: return x * sigmoid(x);
        case SfpuUnary::Gelu: {
            if (p0) return gelu_table(x);
            // the tanh form of numerics.md, 0.5 x (1 + tanh z) with z = sqrt(2 / pi) (x + 0.044715 x^3),
            // as x / (1 + exp(-2z)) (1 + tanh z cancels for negative x) in double, rounded once:
            // exp's condition number |2z| reaches ~100 on the tail, far beyond fp32 evaluation
            const double d = x, z = 0.7978845608028654 * (d + 0.044715 * d * d * d);
            return float(d / (1.0 + std::exp(-2.0 * z)));
        }
        case SfpuUnary::Relu: return x > 0.0f ? x : 0.0f;
        case SfpuUnary::ReluMax: return std::fmin(x > 0.0f ? x : 0.0f, p(p0));
        case SfpuUnary::ReluMin: {
            float y = std::fmax(x, p(p0));
            return y > 0.0f ? y : 0.0f;
        }
        case SfpuUnary::LeakyRelu: return x > 0.0f ? x : p(p0) * x;
        case SfpuUnary::Elu: return x > 0.0f ? x : p(p0) * std::expm1(x);
        case SfpuUnary::Celu: return x > 0.0f ? x : p(p0) * std::expm1(x * p(p1));
        case SfpuUnary::Abs: return std::fabs(x);
        case SfpuUnary::Neg: return -x;
        case SfpuUnary::Sign: return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : 0.0f;
        case SfpuUnary::Signbit: return flag(std::signbit(x));
        case SfpuUnary::Square: return x * x;
        case SfpuUnary::Power: return std::pow(x, p(p0));  // 0.81.1: the exponent as fp32 bits
        case SfpuUnary::PowerIterative: {  // square-and-multiply, each product an fp32 multiply
            if (p0 == 0) return 1.0f;
            float result = x;
            for (std::uint32_t e = p0 - 1; e > 0; e >>= 1) {
                if (e & 1u) result *= x;
                x *= x;
            }
            return result;
        }
        case SfpuUnary::Sin: return std::sin(x);
        case SfpuUnary::Cos: return std::cos(x);
        case SfpuUnary::Tan: return std::tan(x);
        case SfpuUnary::Asin: return std::asin(x);
        case SfpuUnary::Acos: return std::acos(x);
        case SfpuUnary::Atan: return std::atan(x);
        case SfpuUnary::Asinh: return std::asinh(x);
        case SfpuUnary::Acosh: return std::acosh(x);
        case SfpuUnary::Atanh: return std::atanh(x);
        case SfpuUnary::Sinh: return std::sinh(x);
        case SfpuUnary::Cosh: return std::cosh(x);
        case SfpuUnary::Rdiv: {  // value / x, then RoundingMode p1: None, Trunc, Floor
            const float q = p(p0) / x;
            return p1 == 1 ? std::trunc(q) : p1 == 2 ? std::floor(q) : q;
        }
        case SfpuUnary::Erf: return std::erf(x);
        case SfpuUnary::Erfc: return std::erfc(x);
        case SfpuUnary::Selu: return p(p0) * (x > 0.0f ? x : p(p1) * std::expm1(x));
        case SfpuUnary::Mish: return x * std::tanh(softplus(x, 1.0f, 1.0f, 20.0f));
        case SfpuUnary::Softsign: return x / (1.0f + std::fabs(x));
        case SfpuUnary::Hardsigmoid: return std::fmin(std::fmax(x + 3.0f, 0.0f), 6.0f) / 6.0f;
        case SfpuUnary::Hardtanh: case SfpuUnary::Clamp: return std::fmin(std::fmax(x, p(p0)), p(p1));
        case SfpuUnary::Softplus: return softplus(x, p(p0), p(p1), p(p2));
        case SfpuUnary::LogicalNot: return flag(x == 0.0f);
        case SfpuUnary::Floor: return std::floor(x);
        case SfpuUnary::Ceil: return std::ceil(x);
        case SfpuUnary::Trunc: return std::trunc(x);
        case SfpuUnary::Frac: return x - std::trunc(x);
        case SfpuUnary::Round: {
            float scale = std::pow(10.0f, float(std::int32_t(p0)));
            return std::nearbyint(x * scale) / scale;
        }
        case SfpuUnary::Fill: case SfpuUnary::FillBits: return p(p0);
        case SfpuUnary::AddScalar: return x + p(p0);
        case SfpuUnary::SubScalar: return x - p(p0);
        case SfpuUnary::MulScalar: return x * p(p0);
        case SfpuUnary::DivScalar: return x * p(p0);  // 0.81.1 multiplies: the caller passes the reciprocal
        case SfpuUnary::RsubScalar: return p(p0) - x;
        case SfpuUnary::Isinf: return flag(std::isinf(x));
        case SfpuUnary::Isnan: return flag(std::isnan(x));
        case SfpuUnary::Isfinite: return flag(std::isfinite(x));
        case SfpuUnary::Isposinf: return flag(std::isinf(x) && x > 0);
        case SfpuUnary::Isneginf: return flag(std::isinf(x) && x < 0);
        case SfpuUnary::Threshold: return x <= p(p0) ? p(p1) : x;
        case SfpuUnary::Heaviside: return x < 0.0f ? 0.0f : x == 0.0f ? p(p0) : 1.0f;
        case SfpuUnary::Gtz: return flag(x > 0.0f);
        case SfpuUnary::Ltz: return flag(x < 0.0f);
        case SfpuUnary::Gez: return flag(x >= 0.0f);
        case SfpuUnary::Lez: return flag(x <= 0.0f);
        case SfpuUnary::Eqz: return flag(x == 0.0f);
        case SfpuUnary::Nez: return flag(x != 0.0f);
        case SfpuUnary::UnaryEq: return flag(x == p(p0));
        case SfpuUnary::UnaryNe: return flag(x != p(p0));
        case SfpuUnary::UnaryGt: return flag(x > p(p0));
        case SfpuUnary::UnaryGe: return flag(x >= p(p0));
        case SfpuUnary::UnaryLt: return flag(x < p(p0));
        case SfpuUnary::UnaryLe: return flag(x <= p(p0));
        case SfpuUnary::UnaryMax: return std::fmax(x, p(p0));
        case SfpuUnary::UnaryMin: return std::fmin(x, p(p0));
        case SfpuUnary::Identity: return x;
        case SfpuUnary::Cbrt: return std::cbrt(x);
        case SfpuUnary::Rpow: return std::pow(p(p0), x);
        case SfpuUnary::Hardshrink: return std::fabs(x) > p(p0) ? x : 0.0f;
        case SfpuUnary::Softshrink: return x > p(p0) ? x - p(p0) : x < -p(p0) ? x + p(p0) : 0.0f;
        case SfpuUnary::Tanhshrink: return x - std::tanh(x);
        case SfpuUnary::Count: break;
    }
    return x;
}

float nan_max(float a, float b) { return std::isnan(a) || std::isnan(b) ? NAN : std::fmax(a, b); }
float nan_min(float a, float b) { return std::isnan(a) || std::isnan(b) ? NAN : std::fmin(a, b); }

float binary(SfpuBinary op, float a, float b) {
    switch (op) {
        case SfpuBinary::Add: return a + b;
        case SfpuBinary::Sub: return a - b;
        case SfpuBinary::Rsub: return b - a;
        case SfpuBinary::Mul: return a * b;
        case SfpuBinary::Div: return a / b;
        case SfpuBinary::Pow: return std::pow(a, b);
        case SfpuBinary::Max: return nan_max(a, b);
        case SfpuBinary::Min: return nan_min(a, b);
        case SfpuBinary::Eq: return flag(a == b);
        case SfpuBinary::Ne: return flag(a != b);
        case SfpuBinary::Lt: return flag(a < b);
        case SfpuBinary::Gt: return flag(a > b);
        case SfpuBinary::Le: return flag(a <= b);
        case SfpuBinary::Ge: return flag(a >= b);
        case SfpuBinary::Atan2: return std::atan2(a, b);
        case SfpuBinary::Fmod: return std::fmod(a, b);
        case SfpuBinary::Remainder: {
            float r = std::fmod(a, b);
            return (r != 0.0f && ((r < 0.0f) != (b < 0.0f))) ? r + b : r;
        }
        case SfpuBinary::Xlogy: return a == 0.0f && !std::isnan(b) ? 0.0f : a * std::log(b);
        // mask_tile: b is the mask tile; a mask of +0.0 clears a. The LLK's `mask == 0.0F` is SFPSETCC's
        // compare with zero, which tests all 32 bits (SFPSETCC.md: software must flush -0.0 itself),
        // so -0.0 and denormals do not mask
        case SfpuBinary::Mask: return as_bits(b) == 0u ? 0.0f : a;
        case SfpuBinary::MaskPosinf: return as_bits(b) == 0u ? INFINITY : a;
        case SfpuBinary::Count: break;
    }
    return a;
}

// SFP_STOCH_RND fp32 -> bfloat16, deterministic: nearest with ties away from zero, a zero or
// denormal input becomes +0, NaN becomes inf
float stochrnd_bf16(float v) {
    std::uint32_t b = as_bits(v);
    const std::uint32_t e = (b >> 23) & 0xFFu;
    if (e == 0) return 0.0f;
    if (e == 0xFF) return as_float(b & 0xFF800000u);
    return as_float(((b & 0xFFFFu) >= 0x8000u ? b + 0x10000u : b) & 0xFFFF0000u);
}

// the unary functions whose LLK rounds to bfloat16 with SFP_STOCH_RND before storing into a 16-bit
// DST (0.81.1 ckernel_sfpu_{exp,exp2,expm1,elu,celu,cbrt,gelu}.h); gelu only in its accurate form
bool rounds_before_store(SfpuUnary op, std::uint32_t p0) {
    switch (op) {
        case SfpuUnary::Exp: case SfpuUnary::Exp2: case SfpuUnary::Expm1: case SfpuUnary::Elu:
        case SfpuUnary::Celu: case SfpuUnary::Cbrt: return true;
        case SfpuUnary::Gelu: return p0 == 0;
        default: return false;
    }
}

enum class Store : std::uint8_t { Truncate, NearestEven, NearestAway };

// SFPSTORE into a 16-bit DST truncates fp32 to bfloat16 (DstRoundingMode::Default); ops that take
// DstRoundingMode::NearestEven round in software first, some functions with SFP_STOCH_RND
std::uint32_t sfpu_store(float v, Store mode = Store::Truncate) {
    if (comp().fp32) return as_bits(v);
    switch (mode) {
        case Store::NearestEven: return as_bits(bf16_round(v));
        case Store::NearestAway: return as_bits(stochrnd_bf16(v));
        case Store::Truncate: break;
    }
    return as_bits(bf16_trunc(v));
}

const char* dst_format_name() { return comp().fp32 ? "DataFormat::Float32" : "DataFormat::Float16_b"; }

// what a wrong-width load of DST yields: only the high half of each fp32 word survives
float misread(float v, std::uint32_t f) {
    return f != kNoFormat && f == fmt::Float16_b && comp().fp32 ? bf16_trunc(v) : v;
}

const char* unary_call(SfpuUnary op) {
    static const char* names[] = {
#define TC_NAME(name) #name,
        TC_SFPU_UNARY(TC_NAME)
#undef TC_NAME
    };
    return names[std::uint32_t(op)];
}

}  // namespace

// an SFPU op with a DataFormat template argument must name the format DST holds
void require_dst_format(std::uint32_t f, const char* call, Loc loc) {
    if (f == kNoFormat) return;
    std::uint8_t want = comp().fp32 ? fmt::Float32 : fmt::Float16_b;
    if (f == want || f == fmt::Int32 || f == fmt::UInt32 || f == fmt::UInt16) return;
    report(true, "E5413", loc,
           fmt_str("%s<DataFormat::%s> while DST holds %s data: the SFPU loads and stores DST in the wrong width", call,
                   format_name(std::uint8_t(f)), comp().fp32 ? "fp32 (fp32_dest_acc_en)" : "Float16_b"),
           fmt_str("instantiate it with %s (the DST format of this kernel)", dst_format_name()));
}

// a float SFPU call must not read a DST tile holding integers
void require_float_dst(int tile, const char* call, Loc loc) {
    if (!comp().dst_int[tile]) return;
    report(true, "E5414", loc,
           fmt_str("%s reads DST tile %d, which holds integers (an Int32/UInt32 copy or an integer call's result): "
                   "the SFPU computes on their bit patterns as floats", call, tile),
           "call the integer form (add_int_tile<DataFormat::Int32>, binary_max_int32_tile, lt_int_tile<...>, "
           "abs_tile_int32, ...), or typecast_tile the tile to a float format first");
}

bool unary_reads_floats(std::uint32_t op) {
    const SfpuUnary u = SfpuUnary(op);
    return op < std::uint32_t(SfpuUnary::Count) && u != SfpuUnary::Fill && u != SfpuUnary::FillBits &&
           u != SfpuUnary::Identity;
}

void sfpu_init(std::uint32_t op, Loc loc) {
    TC_TRACE(Ev::SfpuInit, op, 0, 0, 0, loc);
    (void)op;
    cur().last_loc = loc;
}

void sfpu_unary(std::uint32_t op, std::uint32_t dst, std::uint32_t p0, std::uint32_t p1, std::uint32_t p2,
                std::uint32_t fmt, Loc loc) {
    TC_TRACE(Ev::SfpuUnary, op, 0, 0, 0, loc);
    cur().last_loc = loc;
    SfpuUnary u = SfpuUnary(op);
    const char* call = unary_call(u);
    int t = math_dst(dst, call, loc);
    require_dst_format(fmt, call, loc);
    Compute& c = comp();
    bool fill = u == SfpuUnary::Fill || u == SfpuUnary::FillBits;
    if (unary_reads_floats(op) && !is_integer_format(std::uint8_t(fmt))) require_float_dst(t, call, loc);
    for (int i = 0; i < Compute::kElems; ++i) {
        float x = fill ? 0.0f : misread(dst_value(t, std::uint32_t(i)), fmt);
        c.dst[t][i] = sfpu_store(unary(u, x, p0, p1, p2), rounds_before_store(u, p0) ? Store::NearestAway : Store::Truncate);
    }
    c.dst_int[t] = false;
    c.dst_cleared[t] = false;
    c.dst_reduce[t] = 0;
}

void sfpu_binary(std::uint32_t op, std::uint32_t a, std::uint32_t b, std::uint32_t out, std::uint32_t fmt, Loc loc) {
    TC_TRACE(Ev::SfpuBinary, op, 0, 0, 0, loc);
    cur().last_loc = loc;
    int ta = math_dst(a, "binary SFPU op", loc), tb = math_dst(b, "binary SFPU op", loc);
    int to = math_dst(out, "binary SFPU op", loc);
    bool nearest = (fmt >> 8) == 1;
    fmt &= 0xFF;
    require_dst_format(fmt, "binary SFPU op", loc);
    if (!is_integer_format(std::uint8_t(fmt)))
        for (int t : {ta, tb}) require_float_dst(t, "binary SFPU op", loc);
    Compute& c = comp();
    static float result[Compute::kElems];
    // mul_binary_tile into a 16-bit DST rounds to nearest even in software and makes 0 * x exactly
    // +0, as the FPU's multiply does (0.81.1 ckernel_sfpu_binary.h, calculate_sfpu_binary_mul)
    bool mul16 = SfpuBinary(op) == SfpuBinary::Mul && !c.fp32;
    for (int i = 0; i < Compute::kElems; ++i) {
        float x = misread(dst_value(ta, i), fmt), y = misread(dst_value(tb, i), fmt);
        result[i] = mul16 && (x == 0.0f || y == 0.0f) ? 0.0f : binary(SfpuBinary(op), x, y);
    }
    for (int i = 0; i < Compute::kElems; ++i)
        c.dst[to][i] = sfpu_store(result[i], nearest || mul16 ? Store::NearestEven : Store::Truncate);
    c.dst_int[to] = false;
    c.dst_cleared[to] = false;
    c.dst_reduce[to] = 0;
}

void sfpu_ternary(std::uint32_t op, std::uint32_t a, std::uint32_t b, std::uint32_t cc, std::uint32_t out,
                  std::uint32_t fmt, Loc loc) {
    TC_TRACE(Ev::SfpuTernary, op, 0, 0, 0, loc);
    cur().last_loc = loc;
    const char* call = SfpuTernary(op) == SfpuTernary::Where ? "where_tile" : "lerp_tile";
    int ta = math_dst(a, call, loc), tb = math_dst(b, call, loc), tc_ = math_dst(cc, call, loc);
    int to = math_dst(out, call, loc);
    require_dst_format(fmt, call, loc);
    if (!is_integer_format(std::uint8_t(fmt)))
        for (int t : {ta, tb, tc_}) require_float_dst(t, call, loc);
    Compute& c = comp();
    static float result[Compute::kElems];
    for (int i = 0; i < Compute::kElems; ++i) {
        float x = misread(dst_value(ta, i), fmt), y = misread(dst_value(tb, i), fmt), z = misread(dst_value(tc_, i), fmt);
        result[i] = SfpuTernary(op) == SfpuTernary::Where ? (x != 0.0f ? y : z) : x + z * (y - x);
    }
    for (int i = 0; i < Compute::kElems; ++i) c.dst[to][i] = sfpu_store(result[i]);
    c.dst_int[to] = false;
    c.dst_cleared[to] = false;
    c.dst_reduce[to] = 0;
}

// typecast<IN, OUT>: float formats round to the output format's precision; to an integer format
// the value truncates toward zero and saturates (numerics.md section 3)
void sfpu_typecast(std::uint32_t in_fmt, std::uint32_t out_fmt, std::uint32_t dst, Loc loc) {
    TC_TRACE(Ev::Typecast, in_fmt, out_fmt, 0, 0, loc);
    cur().last_loc = loc;
    int t = math_dst(dst, "typecast_tile", loc);
    Compute& c = comp();
    bool to_int = is_integer_format(std::uint8_t(out_fmt));
    bool from_int = c.dst_int[t] || is_integer_format(std::uint8_t(in_fmt));
    for (int i = 0; i < Compute::kElems; ++i) {
        std::uint32_t w = c.dst_cleared[t] ? 0 : c.dst[t][i];
        double v = from_int ? (in_fmt == fmt::UInt32 ? double(w) : double(std::int32_t(w))) : double(as_float(w));
        if (to_int) {
            double lo = out_fmt == fmt::Int32 ? -2147483648.0 : 0.0;
            double hi = out_fmt == fmt::Int32 ? 2147483647.0 : out_fmt == fmt::UInt16 ? 65535.0
                        : out_fmt == fmt::UInt8 ? 255.0 : 4294967295.0;
            double r = std::isnan(v) ? 0.0 : std::fmin(std::fmax(std::trunc(v), lo), hi);
            c.dst[t][i] = out_fmt == fmt::Int32 ? std::uint32_t(std::int32_t(r)) : std::uint32_t(r);
        } else {
            float f = float(v);
            if (out_fmt == fmt::Float16_b || out_fmt == fmt::Bfp8_b || out_fmt == fmt::Bfp4_b) f = bf16_round(f);
            c.dst[t][i] = sfpu_store(f);
        }
    }
    c.dst_int[t] = to_int;
    c.dst_cleared[t] = false;
}

}  // namespace tc
