// One K step of ``acc + a @ b`` over many output blocks, fused: the value engine's compiled kernel.
//
// tilecraft/sim/dataflow/fused_chain.py builds this file with the host C++ compiler and calls it
// through ctypes; chains.py documents the arithmetic. Per output element the language defines
// s_0 = acc, s_t = fl32(s_{t-1} + P*_t) (P*_t: the exact sum of tile t's 32 products rounded once to
// fp32), and the store rounds s_T to the block's format. This kernel keeps a few rows by 16 columns
// of those sums in registers across the K tiles of the store and does, per element:
//
// * checked mode (bfloat16 / float16 stores): P^f_t, 32 fp32 multiply-adds, in place of P*_t, and a
//   bound E of |s^f - s*| carried along (below); where the store's rounding of fl32(s - E) and of
//   fl32(s + E) agree, that is the exact value's rounding (both roundings are monotone and s* is an
//   fp32 number in [s - E, s + E]); elsewhere, and where E is not finite, the element is recomputed
//   the exact way (fp64 tile sums rounded to fp32, fp32 additions in K order);
// * exact mode (any store, float32 in practice): every tile product in fp64, rounded to fp32.
//
// The bound, per tile t (u = 2^-24, S_t = sum over the tile of |a_k b_k|):
//   |P^f_t - P*_t| <= (gamma_8 + 2u (1 + gamma_8) + u + 31 * 2^-53) S_t + 2^-144
//                  <= 12 u |a row_t| |b column_t| + 2^-140 = d_t
// (tile_product's four chains of eight fp32 multiply-adds, FMA or not, added pairwise; the exact
// mode's fp64 sum and its rounding; the absolute term covers the 32 roundings in the subnormal
// range; Cauchy-Schwarz for S_t). Both sequences
// round each addition x to fp32 (off by at most u|x| + 2^-150), so with |x^f| <= |s^f_t| (1 + 2u):
//   E_t = (E_{t-1} + d_t)(1 + u) + 2u (1 + 2u) |s^f_t| + 2^-148
// which the kernel evaluates in fp32 as fma(E + d, 1 + 2^-20, |s| 2^-22): the factors' slack covers
// the rounding of those three operations and the absolute term is inside d_t. The row norms (times
// 34u) and column norms are computed in fp64 and rounded up to fp32 once per call. FTZ/DAZ are
// cleared for the call (the bound assumes IEEE subnormals) and the caller's MXCSR restored.

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace {

typedef float v8f __attribute__((vector_size(32)));
typedef float v4f __attribute__((vector_size(16)));
typedef double v4d __attribute__((vector_size(32)));
typedef uint32_t v8u __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));
typedef uint16_t v8h __attribute__((vector_size(16)));

enum Kind : int { NONE = 0, BF16 = 1, F16 = 2, F32 = 3 };

constexpr int TILE_K = 32;
constexpr int PANEL = 16;      // fp32 columns per packed panel (two v8f)
constexpr int PANEL64 = 8;     // fp64 columns per packed panel (two v4d)
constexpr int ROWS = 4;        // rows of one register tile (8 fp32 sums by 2 vectors: 8 registers)
constexpr double PRODUCT_ERROR = 12.0 / 16777216.0;  // 12 u per unit of |a row| |b column|
constexpr float ABSOLUTE = 0x1p-140f;
constexpr float GROW = 1.0f + 0x1p-20f;
constexpr float SUM_ERROR = 0x1p-22f;

inline uint32_t bits_of(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float float_of(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
inline v8f splat(float x) { return v8f{x, x, x, x, x, x, x, x}; }
inline v4d splat64(double x) { return v4d{x, x, x, x}; }
inline v8f load8(const float* p) { v8f v; std::memcpy(&v, p, sizeof v); return v; }
inline v4d load4d(const double* p) { v4d v; std::memcpy(&v, p, sizeof v); return v; }
inline v8f fabs8(v8f x) { return (v8f)((v8u)x & 0x7fffffffu); }

inline float half_to_float(uint16_t h) {
    uint32_t sign = uint32_t(h & 0x8000) << 16, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
    if (exponent == 0x1f) return float_of(sign | 0x7f800000u | (mantissa << 13));
    if (exponent == 0) return float_of(sign | bits_of(float(mantissa) * 0x1p-24f));  // (exact)
    return float_of(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

// Round to nearest even, as torch's conversions do (a NaN becomes the quiet NaN of the format).
inline uint16_t float_to_bf16(float f) {
    uint32_t x = bits_of(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return 0x7fc0;
    return uint16_t((x + 0x7fffu + ((x >> 16) & 1)) >> 16);
}

inline uint16_t float_to_half(float f) {
    uint32_t x = bits_of(f), sign = (x >> 16) & 0x8000, magnitude = x & 0x7fffffffu;
    if (magnitude > 0x7f800000u) return uint16_t(sign | 0x7e00);
    if (magnitude >= 0x477ff000u) return uint16_t(sign | 0x7c00);  // from 65520 up: infinity
    if (magnitude < 0x38800000u)  // below 2^-14: a multiple of 2^-24, rounded to nearest even
        return uint16_t(sign | uint32_t(std::nearbyint(float_of(magnitude) * 16777216.0f)));
    return uint16_t(sign | ((magnitude - (112u << 23) + 0xfffu + ((magnitude >> 13) & 1)) >> 13));
}

// Eight values rounded to a 16-bit format (bfloat16 in integer arithmetic, float16 by F16C).
inline v8h round16(v8f v, int kind) {
    if (kind == BF16) {
        v8u x = (v8u)v;
        return __builtin_convertvector((x + 0x7fffu + ((x >> 16) & 1u)) >> 16, v8h);
    }
#if defined(__F16C__)
    __m128i h = _mm256_cvtps_ph((__m256)v, _MM_FROUND_TO_NEAREST_INT);
    v8h out;
    std::memcpy(&out, &h, sizeof out);
    return out;
#else
    v8h out;
    for (int i = 0; i < 8; ++i) out[i] = float_to_half(v[i]);
    return out;
#endif
}

inline v8f load_any8(const void* base, int kind, int64_t i) {
    if (kind == F32) return load8(static_cast<const float*>(base) + i);
    v8h h;
    std::memcpy(&h, static_cast<const uint16_t*>(base) + i, sizeof h);
#if defined(__AVX2__)
    if (kind == BF16) return (v8f)_mm256_slli_epi32(_mm256_cvtepu16_epi32((__m128i)h), 16);
#else
    if (kind == BF16) return (v8f)(__builtin_convertvector(h, v8u) << 16);
#endif
    v8f out;
    for (int k = 0; k < 8; ++k) out[k] = half_to_float(h[k]);
    return out;
}

inline float load_any1(const void* base, int kind, int64_t i) {
    if (kind == F32) return static_cast<const float*>(base)[i];
    const uint16_t h = static_cast<const uint16_t*>(base)[i];
    return kind == BF16 ? float_of(uint32_t(h) << 16) : half_to_float(h);
}

inline void store_any8(void* base, int kind, int64_t i, v8f v) {
    if (kind == F32) {
        std::memcpy(static_cast<float*>(base) + i, &v, sizeof v);
        return;
    }
    v8h rounded = round16(v, kind);
    std::memcpy(static_cast<uint16_t*>(base) + i, &rounded, sizeof rounded);
}

inline float round_up(double x) {  // the fp32 number at or above x (x >= 0)
    float f = float(x);
    return double(f) < x ? std::nextafter(f, INFINITY) : f;
}

struct Call {
    const float* a; int64_t kd; int tiles;
    const void* acc; int acc_kind;
    void* out; int out_kind;
    const int64_t* blk_row; const int64_t* blk_m; const int64_t* blk_n;
    int64_t h, w;
    std::vector<float> panels;     // checked: b as [N / 16][kd][16]
    std::vector<double> panels64;  // exact: b as [N / 8][kd][8] in fp64
    std::vector<double> a64;       // exact: a in fp64
    std::vector<float> row_bound;  // checked: per row of a and tile, 34u |a row_t| (rounded up)
    std::vector<float> col_norm;   // checked: per tile and column of b, |b column_t| (rounded up): [tiles][N]
    int64_t ncols;
};

// An element whose rounded ends disagree, kept for its exact recomputation after the block: where it
// goes in out, its row of a and column of b, and its accumulator (read before the store over it).
struct Undecided {
    int64_t at;
    const float* arow;
    int64_t col;
    float start;
};

// The exact mode's values of four undecided elements, written to out: per element and K tile the fp64
// sum of its 32 products, the even and the odd k summed apart in K order and then added (the order
// does not matter where the fp64 sum is exact, the exact mode's own premise; this one is fixed so the
// bits never depend on how the kernel is vectorised), rounded to fp32 and added in K order in fp32.
// Four at a time: eight independent fp64 chains instead of two (an FMA's latency, not its rate, is
// what one element's chains wait on).
template <int OK>
void repair4(const Call& c, const Undecided* u, bool has_acc) {
    const float* column[4];
    float s[4];
    for (int e = 0; e < 4; ++e) {
        column[e] = c.panels.data() + (u[e].col / PANEL) * c.kd * PANEL + u[e].col % PANEL;
        s[e] = u[e].start;
    }
    for (int t = 0; t < c.tiles; ++t) {
        double even[4] = {}, odd[4] = {};
        for (int k = t * TILE_K; k < (t + 1) * TILE_K; k += 2)
            for (int e = 0; e < 4; ++e) {
                even[e] += double(u[e].arow[k]) * double(column[e][k * PANEL]);
                odd[e] += double(u[e].arow[k + 1]) * double(column[e][(k + 1) * PANEL]);
            }
        for (int e = 0; e < 4; ++e) {
            const float part = float(even[e] + odd[e]);
            s[e] = (t == 0 && !has_acc) ? part : s[e] + part;
        }
    }
    for (int e = 0; e < 4; ++e)
        static_cast<uint16_t*>(c.out)[u[e].at] = OK == BF16 ? float_to_bf16(s[e]) : float_to_half(s[e]);
}

// The 32 products of one K tile for R rows by 16 columns in fp32: four chains of eight multiply-adds,
// added pairwise, ((Q1 + Q2) + (Q3 + Q4)): within (gamma_8 + 2u (1 + gamma_8)) S of the real sum, a
// third of what one chain of 32 allows, so a third as many elements need the exact recomputation.
template <int R>
__attribute__((always_inline)) inline void tile_product(const float* __restrict a, int64_t lda,
                                                        const float* __restrict b, v8f (&p)[R][2]) {
    v8f first[R][2] = {}, half[R][2] = {};
    for (int quarter = 0; quarter < 4; ++quarter) {
#pragma GCC unroll 6
        for (int i = 0; i < R; ++i) p[i][0] = p[i][1] = splat(0.0f);
#pragma GCC unroll 8
        for (int k = quarter * 8; k < quarter * 8 + 8; ++k) {
            const v8f b0 = load8(b + k * PANEL), b1 = load8(b + k * PANEL + 8);
#pragma GCC unroll 6
            for (int i = 0; i < R; ++i) {
                const v8f x = splat(a[i * lda + k]);
                p[i][0] += x * b0;
                p[i][1] += x * b1;
            }
        }
#pragma GCC unroll 6
        for (int i = 0; i < R; ++i)
            for (int q = 0; q < 2; ++q) {
                if (quarter == 0 || quarter == 2) {
                    first[i][q] = p[i][q];
                } else if (quarter == 1) {
                    half[i][q] = first[i][q] + p[i][q];
                } else {
                    p[i][q] = half[i][q] + (first[i][q] + p[i][q]);
                }
            }
    }
}

// The bfloat16 rounding of every fp32 number in [s - e, s + e], where one rounding covers them all
// (``agree`` set), as 16-bit patterns in 32-bit lanes. As bit patterns (unsigned) the end nearer zero
// is the smaller one whatever the sign, and the rounding to nearest even changes only at the
// midpoints between bfloat16 numbers (low 16 bits 0x8000); there is none in [lo, hi] exactly when
// lo rounded with ties down equals hi rounded with ties up, and then that is every number's rounding.
// Ends of opposite signs differ in the sign bit: undecided. A NaN or infinite bound: undecided.
inline v8u bf16_decided(v8f s, v8f e, v8i& agree) {
    const v8u a = (v8u)(s - e), b = (v8u)(s + e);
#if defined(__AVX2__)
    const v8u lo = (v8u)_mm256_min_epu32((__m256i)a, (__m256i)b), hi = (v8u)_mm256_max_epu32((__m256i)a, (__m256i)b);
#else
    const v8u lo = a < b ? a : b, hi = a < b ? b : a;
#endif
    const v8u down = (lo + 0x7fffu) >> 16;
    agree = (v8i)(down == (hi + 0x8000u) >> 16) & (e <= splat(FLT_MAX));
    return down;
}

// Sixteen bfloat16 patterns in 32-bit lanes (two vectors of eight, in order) stored as 16-bit patterns.
inline void store_bf16x16(uint16_t* out, v8u lo, v8u hi) {
#if defined(__AVX2__)
    const __m256i packed = _mm256_packus_epi32((__m256i)lo, (__m256i)hi);  // (each lane is below 2^16)
    const __m256i ordered = _mm256_permute4x64_epi64(packed, 0xd8);
    std::memcpy(out, &ordered, 32);
#else
    const v8h a = __builtin_convertvector(lo, v8h), b = __builtin_convertvector(hi, v8h);
    std::memcpy(out, &a, 16);
    std::memcpy(out + 8, &b, 16);
#endif
}

// The lanes of two masks (16: the first's eight, then the second's) that are not set, as bits.
inline unsigned disagree(const v8i (&agree)[2]) {
#if defined(__AVX2__)
    return ~unsigned(_mm256_movemask_ps((__m256)agree[0]) | _mm256_movemask_ps((__m256)agree[1]) << 8) & 0xffffu;
#else
    unsigned bits = 0;
    for (int lane = 0; lane < PANEL; ++lane) bits |= unsigned(agree[lane / 8][lane % 8] == 0) << lane;
    return bits;
#endif
}

// The undecided elements of one row of 16 (elements at.., row arow of a, columns col..; bit l of
// ``undecided``: column col + l) appended at ``pending``, with their accumulators (read here, before
// the store over them). Scalar code only, inlined: a call would spill every vector register.
template <int AK>
inline Undecided* defer(const Call& c, int64_t at, const float* arow, int64_t col, unsigned undecided,
                        Undecided* pending) {
    for (; undecided; undecided &= undecided - 1) {
        const int lane = __builtin_ctz(undecided);
        *pending++ = {at + lane, arow, col + lane, AK == NONE ? 0.0f : load_any1(c.acc, AK, at + lane)};
    }
    return pending;
}

// One row of 16 sums ``s`` with their bounds ``e`` (elements at.., row arow of a, columns col..)
// rounded to the store's format and stored; the undecided elements are kept in ``pending``.
template <int AK, int OK>
__attribute__((always_inline)) inline Undecided* finish_row(const Call& c, const v8f (&s)[2], const v8f (&e)[2],
                                                           int64_t at, const float* arow, int64_t col,
                                                           Undecided* pending) {
    uint16_t* out = static_cast<uint16_t*>(c.out) + at;
    v8i agree[2];
    if constexpr (OK == BF16) {  // the usual case: decided in 32-bit lanes, stored as one row of 16
        v8u low[2];
        for (int q = 0; q < 2; ++q) low[q] = bf16_decided(s[q], e[q], agree[q]);
        if (const unsigned undecided = disagree(agree)) [[unlikely]]
            pending = defer<AK>(c, at, arow, col, undecided, pending);
        store_bf16x16(out, low[0], low[1]);
    } else {
        v8h low[2];
        for (int q = 0; q < 2; ++q) {
            low[q] = round16(s[q] - e[q], OK);
            agree[q] = __builtin_convertvector(low[q] == round16(s[q] + e[q], OK), v8i) & (e[q] <= splat(FLT_MAX));
        }
        if (const unsigned undecided = disagree(agree)) [[unlikely]]
            pending = defer<AK>(c, at, arow, col, undecided, pending);
        std::memcpy(out, low, sizeof low);
    }
    return pending;
}

// R rows by 16 columns of one block (rows i0.., columns j..), accumulator and store formats fixed at
// compile time (AK: NONE or a kind; OK: BF16 or F16), and ONE: a store of one K tile (step 1's), whose
// sums then stay in registers from the product to the store instead of living on the stack across
// a loop over the tiles. Each row is finished as soon as its last tile is added (nothing but that
// row's sums live across its rounding).
template <int R, int AK, int OK, bool ONE>
Undecided* checked_rows(const Call& c, int64_t r, int64_t i0, int64_t j, Undecided* pending) {
    const int tiles = ONE ? 1 : c.tiles;
    const int64_t row0 = c.blk_m[r] + i0, col = c.blk_n[r] + j;
    const float* a = c.a + row0 * c.kd;
    const float* panel = c.panels.data() + (col / PANEL) * c.kd * PANEL;
    const int64_t at = c.blk_row[r] * c.h * c.w + i0 * c.w + j;  // the first element in acc and out
    constexpr bool has_acc = AK != NONE;
    v8f s[R][2], e[R][2];  // (set by the first tile: nothing but the product is live during it)
    for (int t = 0; t < tiles; ++t) {
        v8f p[R][2];
        tile_product<R>(a + t * TILE_K, c.kd, panel + t * TILE_K * PANEL, p);
        const float* norm = c.col_norm.data() + t * c.ncols + col;
        v8f n0 = load8(norm), n1 = load8(norm + 8);
        for (int i = 0; i < R; ++i) {
            v8f rb = splat(c.row_bound[(row0 + i) * tiles + t]);
            for (int q = 0; q < 2; ++q) {
                v8f d = rb * (q ? n1 : n0) + ABSOLUTE;
                v8f x = t ? s[i][q] + p[i][q] : has_acc ? load_any8(c.acc, AK, at + i * c.w + 8 * q) + p[i][q] : p[i][q];
                e[i][q] = (t ? e[i][q] + d : d) * GROW + fabs8(x) * SUM_ERROR;
                s[i][q] = x;
            }
            if (t == tiles - 1) pending = finish_row<AK, OK>(c, s[i], e[i], at + i * c.w, a + i * c.kd, col, pending);
        }
    }
    return pending;
}

template <int R>
void exact_rows(const Call& c, int64_t r, int64_t i0, int64_t j) {
    const int64_t row0 = c.blk_m[r] + i0, col = c.blk_n[r] + j;
    const double* a = c.a64.data() + row0 * c.kd;
    const double* panel = c.panels64.data() + (col / PANEL64) * c.kd * PANEL64;
    const int64_t at = c.blk_row[r] * c.h * c.w + i0 * c.w + j;
    const bool has_acc = c.acc_kind != NONE;
    v8f s[R];
    for (int i = 0; i < R; ++i) s[i] = has_acc ? load_any8(c.acc, c.acc_kind, at + i * c.w) : splat(0.0f);
    for (int t = 0; t < c.tiles; ++t) {
        v4d p[R][2];
        for (int i = 0; i < R; ++i) p[i][0] = p[i][1] = splat64(0.0);
        const double* b = panel + t * TILE_K * PANEL64;
        const double* at_a = a + t * TILE_K;
#pragma GCC unroll 8
        for (int k = 0; k < TILE_K; ++k) {
            v4d b0 = load4d(b + k * PANEL64), b1 = load4d(b + k * PANEL64 + 4);
            for (int i = 0; i < R; ++i) {
                v4d x = splat64(at_a[i * c.kd + k]);
                p[i][0] += x * b0;
                p[i][1] += x * b1;
            }
        }
        for (int i = 0; i < R; ++i) {
            v4f lo = __builtin_convertvector(p[i][0], v4f), hi = __builtin_convertvector(p[i][1], v4f);
            v8f part = __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7);
            s[i] = (t == 0 && !has_acc) ? part : s[i] + part;
        }
    }
    for (int i = 0; i < R; ++i) store_any8(c.out, c.out_kind, at + i * c.w, s[i]);
}

// Blocks first.. last - 1; each block's undecided elements are recomputed the exact mode's way right
// after it (its rows of a and columns of b still in the cache), out of the register tiles' loop.
template <int AK, int OK, bool ONE>
int64_t checked_blocks(const Call& c, int64_t first, int64_t last) {
    int64_t repaired = 0;
    std::vector<Undecided> pending(size_t(c.h * c.w + 3));  // (room for a block's every element, and three more)
    for (int64_t r = first; r < last; ++r) {
        Undecided* end = pending.data();
        for (int64_t i0 = 0; i0 < c.h; i0 += ROWS)
            for (int64_t j = 0; j < c.w; j += PANEL) end = checked_rows<ROWS, AK, OK, ONE>(c, r, i0, j, end);
        const int64_t count = end - pending.data();
        for (int64_t k = count; k % 4; ++k) pending[size_t(k)] = pending[0];  // (the first again: the same store)
        for (int64_t k = 0; k < count; k += 4) repair4<OK>(c, &pending[size_t(k)], AK != NONE);
        repaired += count;
    }
    return repaired;
}

template <int AK, int OK>
int64_t checked_blocks_of(const Call& c, int64_t first, int64_t last) {
    return c.tiles == 1 ? checked_blocks<AK, OK, true>(c, first, last) : checked_blocks<AK, OK, false>(c, first, last);
}

template <int OK>
int64_t checked_blocks_from(const Call& c, int64_t first, int64_t last) {
    switch (c.acc_kind) {
        case NONE: return checked_blocks_of<NONE, OK>(c, first, last);
        case BF16: return checked_blocks_of<BF16, OK>(c, first, last);
        case F16: return checked_blocks_of<F16, OK>(c, first, last);
        default: return checked_blocks_of<F32, OK>(c, first, last);
    }
}

int64_t run_blocks(const Call& c, bool exact, int64_t first, int64_t last) {
    if (!exact) return c.out_kind == BF16 ? checked_blocks_from<BF16>(c, first, last)
                                          : checked_blocks_from<F16>(c, first, last);
    for (int64_t r = first; r < last; ++r)
        for (int64_t i0 = 0; i0 < c.h; i0 += ROWS)
            for (int64_t j = 0; j < c.w; j += PANEL64) exact_rows<ROWS>(c, r, i0, j);
    return 0;
}

void prepare(Call& c, const float* b, int64_t a_rows, bool exact) {
    const int64_t kd = c.kd, n = c.ncols;
    c.panels.resize(size_t(kd * n));
    for (int64_t j0 = 0; j0 < n; j0 += PANEL)
        for (int64_t k = 0; k < kd; ++k)
            std::memcpy(&c.panels[size_t((j0 / PANEL) * kd * PANEL + k * PANEL)], b + k * n + j0, PANEL * sizeof(float));
    if (exact) {
        c.panels64.resize(size_t(kd * n));
        for (int64_t j0 = 0; j0 < n; j0 += PANEL64)
            for (int64_t k = 0; k < kd; ++k)
                for (int q = 0; q < PANEL64; ++q)
                    c.panels64[size_t((j0 / PANEL64) * kd * PANEL64 + k * PANEL64 + q)] = b[k * n + j0 + q];
        c.a64.assign(c.a, c.a + a_rows * kd);
        return;
    }
    c.col_norm.assign(size_t(c.tiles * n), 0.0f);
    std::vector<double> squares(static_cast<size_t>(n));
    for (int t = 0; t < c.tiles; ++t) {
        std::fill(squares.begin(), squares.end(), 0.0);
        for (int64_t k = t * TILE_K; k < (t + 1) * TILE_K; ++k)
            for (int64_t j = 0; j < n; ++j) squares[j] += double(b[k * n + j]) * double(b[k * n + j]);
        for (int64_t j = 0; j < n; ++j) c.col_norm[size_t(t * n + j)] = round_up(std::sqrt(squares[j]) * (1 + 0x1p-50));
    }
    c.row_bound.resize(size_t(a_rows * c.tiles));
    for (int64_t i = 0; i < a_rows; ++i)
        for (int t = 0; t < c.tiles; ++t) {
            double sq = 0;
            for (int64_t k = t * TILE_K; k < (t + 1) * TILE_K; ++k) sq += double(c.a[i * kd + k]) * double(c.a[i * kd + k]);
            c.row_bound[size_t(i * c.tiles + t)] = round_up(std::sqrt(sq) * (1 + 0x1p-50) * PRODUCT_ERROR);
        }
}

}  // namespace

extern "C" {

// acc + a @ b for ``blocks`` output blocks of h x w; block r is rows blk_m[r].. of a (``a_rows`` x kd,
// row-major fp32) times columns blk_n[r].. of b (kd x ncols, row-major fp32), and is block blk_row[r]
// of acc and of out ([*, h, w], contiguous; acc may be out itself). Kinds: 0 none (acc only), 1
// bfloat16, 2 float16, 3 float32. exact: fp64 tile products (required for a float32 out). Returns the
// number of elements recomputed exactly, or -1 when the arguments do not fit the kernel.
int64_t tc_fused_update(const float* a, int64_t a_rows, int64_t kd, const float* b, int64_t ncols,
                        const void* acc, int acc_kind, void* out, int out_kind,
                        int64_t blocks, const int64_t* blk_row, const int64_t* blk_m, const int64_t* blk_n,
                        int64_t h, int64_t w, int exact, int threads) {
    if (kd % TILE_K || ncols % PANEL || w % PANEL || h % ROWS || h <= 0 || out_kind < BF16 || out_kind > F32)
        return -1;
    if (!exact && out_kind == F32) return -1;
    for (int64_t r = 0; r < blocks; ++r)  // every block inside a and b, on a panel's first column
        if (blk_m[r] < 0 || blk_m[r] + h > a_rows || blk_n[r] < 0 || blk_n[r] + w > ncols || blk_n[r] % PANEL)
            return -1;
#if defined(__x86_64__)
    const unsigned int mxcsr = _mm_getcsr();
    _mm_setcsr(mxcsr & ~(0x8040u | 0x6000u));  // IEEE subnormals (no FTZ, DAZ), round to nearest
#endif
    Call c{a, kd, int(kd / TILE_K), acc, acc_kind, out, out_kind, blk_row, blk_m, blk_n, h, w, {}, {}, {}, {}, {}, ncols};
    prepare(c, b, a_rows, exact != 0);
    int64_t repaired = 0;
    threads = int(std::max<int64_t>(1, std::min<int64_t>(threads, blocks)));
    if (threads == 1) {
        repaired = run_blocks(c, exact != 0, 0, blocks);
    } else {
        std::vector<int64_t> counts(size_t(threads), 0);
        std::vector<std::thread> pool;
        for (int k = 0; k < threads; ++k)
            pool.emplace_back([&, k] {
#if defined(__x86_64__)
                _mm_setcsr(mxcsr & ~(0x8040u | 0x6000u));
#endif
                counts[size_t(k)] = run_blocks(c, exact != 0, blocks * k / threads, blocks * (k + 1) / threads);
            });
        for (auto& thread : pool) thread.join();
        for (int64_t count : counts) repaired += count;
    }
#if defined(__x86_64__)
    _mm_setcsr(mxcsr);
#endif
    return repaired;
}

}  // extern "C"
