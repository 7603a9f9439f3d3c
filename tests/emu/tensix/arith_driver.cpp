// The matrix unit's and the vector unit's arithmetic over many seeded random and edge-case inputs,
// reduced to one hash per case: test_arith_golden.py holds the machine to hashes that the
// instruction-level model produced before it was made fast (tests/emu/tensix/data/arith_golden.txt),
// so a speed-up that changes one bit of one result fails. benchmarks/tensix_speed.py uses the same
// program to time the instructions.
//
//   arith_driver hash          one line per case: "<case> <hash>"
//   arith_driver bench REPS    one line per timed instruction kind: "<name> <ns per instruction>"
//
// A case is an instruction (MVMUL, its row broadcast, GAPOOL, ELWMUL/ELWADD/ELWSUB with each
// broadcast and AddDst), a Src style (BF16, TF32, FP16, INT8 math), a Dst mode (16-bit or 32-bit),
// a fidelity phase and an input distribution; the whole of Dst is hashed after 24 instructions at
// seeded random Src/Dst rows. The SFPU's multiply-add (sfpu::mad, which the SFPMAD/SFPADD/SFPMUL
// handlers use) is hashed over every pair of an edge-case list and over random triples; the
// 32-lane form our SFPI uses (sfpi_host::mad) must give the same bits on every one of them.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <time.h>

#include "cfg_defines.h"
#include "ckernel_ops.h"
#include "datum_layout.h"
#include "machine.h"
#include "sfpi/sfpi_host.h"
#include "sfpu_ops.h"

using namespace tc_tensix;

namespace {

// xorshift64*: the inputs are a function of the case alone.
struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull) {}
    uint32_t next() {
        s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
        return uint32_t((s * 0x2545f4914f6cdd1dull) >> 32);
    }
    uint32_t below(uint32_t n) { return next() % n; }
};

// FNV-1a over bytes.
uint64_t fnv(uint64_t h, const void* data, size_t n) {
    const auto* p = static_cast<const uint8_t*>(data);
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}
constexpr uint64_t kFnvSeed = 0xcbf29ce484222325ull;

// CPU time of this thread in ns: the machine is shared, so wall time would measure the others too.
double cpu_ns() {
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e9 + double(t.tv_nsec);
}

enum Dist { kUniform, kClustered, kWide, kExtreme, kTies, kCancel, kNumDists };
const char* const kDistNames[kNumDists] = {"uniform", "clustered", "wide", "extreme", "ties", "cancel"};

// One value as (sign, biased exponent of `ebits` bits, 10-bit mantissa) drawn from `dist`.
void draw(Rng& r, Dist dist, int ebits, uint32_t& sign, uint32_t& exp, uint32_t& man) {
    const uint32_t emax = (1u << ebits) - 1, bias = emax / 2;
    sign = r.next() & 1u;
    man = r.next() & 0x3ffu;
    switch (dist) {
    case kUniform: exp = r.next() & emax; break;
    case kClustered: exp = bias - 3 + r.below(7); break;
    case kWide: exp = r.below(8) == 0 ? 0 : r.next() & emax; break;
    case kExtreme: {
        const uint32_t pick = r.below(8);
        exp = pick < 3 ? pick : pick < 6 ? emax - (pick - 3) : bias + r.below(3);
        break;
    }
    case kTies:  // few mantissa bits, exponents close: alignment shifts land on exact halves
        man &= 0x300u;
        exp = bias - 8 + r.below(17);
        break;
    default: {  // kCancel: a handful of magnitudes, so sums cancel exactly or to a unit
        static const uint32_t mans[4] = {0, 0x200, 0x100, 0x3ff};
        man = mans[r.below(4)];
        exp = bias + r.below(2);
        if (r.below(16) == 0) exp = 0;
        break;
    }
    }
}

enum Style { kBf16, kTf32, kFp16, kInt8, kNumStyles };
const char* const kStyleNames[kNumStyles] = {"bf16", "tf32", "fp16", "int8"};

uint32_t src_datum(Rng& r, Dist dist, Style style) {
    if (dist == kUniform) return r.next() & 0x7ffffu;  // every bit, including those a style ignores
    uint32_t sign, exp, man;
    draw(r, dist, style == kFp16 ? 5 : 8, sign, exp, man);
    if (style == kInt8) exp = (exp == 0) ? 0u : 16u;
    return (sign << 18) | (man << 8) | exp;
}

void fill(Machine& m, Rng& r, Dist dist, Style style, bool dst32) {
    for (int b = 0; b < kSrcBanks; ++b)
        for (int row = 0; row < kSrcRows; ++row)
            for (int c = 0; c < kSrcCols; ++c) {
                m.s.srca[b].row[row][c] = src_datum(r, dist, style);
                m.s.srcb[b].row[row][c] = src_datum(r, dist, style);
            }
    for (int row = 0; row < kDstRows16; ++row)
        for (int c = 0; c < kDstCols; ++c) {
            if (dist == kUniform || dst32) {
                m.s.dst[row][c] = uint16_t(r.next());
                continue;
            }
            uint32_t sign, exp, man;
            draw(r, dist, style == kFp16 ? 5 : 8, sign, exp, man);
            m.s.dst[row][c] = style == kFp16 ? uint16_t((sign << 15) | (man << 5) | exp)
                                             : uint16_t((sign << 15) | ((man >> 3) << 8) | exp);
        }
    if (dst32 && dist != kUniform)
        for (uint32_t row = 0; row < 512; ++row)
            for (uint32_t c = 0; c < kDstCols; ++c) {
                uint32_t sign, exp, man;
                draw(r, dist, 8, sign, exp, man);
                m.dst32_write(row, c, dst32_from_fp32((sign << 31) | (exp << 23) | (man << 13) | (r.next() & 0x1fffu)));
            }
    for (int b = 0; b < kSrcBanks; ++b) m.s.srca[b].dvalid = m.s.srcb[b].dvalid = true;
}

void set_cfg(Machine& m, uint32_t addr32, uint32_t shamt, uint32_t mask, uint32_t value) {
    uint32_t& w = m.cfg_word(kMath, addr32);
    w = (w & ~mask) | ((value << shamt) & mask);
}
#define SET_CFG(m, NAME, v) set_cfg(m, NAME##_ADDR32, NAME##_SHAMT, NAME##_MASK, (v))

void configure(Machine& m, Style style, bool dst32) {
    static const uint32_t fmt[kNumStyles] = {5, 4, 1, 14};  // Float16_b, Tf32, Float16, Int8
    SET_CFG(m, ALU_FORMAT_SPEC_REG0_SrcA, fmt[style]);
    SET_CFG(m, ALU_FORMAT_SPEC_REG1_SrcB, fmt[style]);
    SET_CFG(m, ALU_ACC_CTRL_INT8_math_enabled, style == kInt8);
    SET_CFG(m, ALU_ACC_CTRL_Fp32_enabled, dst32);
}

struct Op {
    const char* name;
    uint32_t word;
    bool any_phase;  // ELWADD/ELWSUB run in phase 0 only
};

std::vector<Op> ops() {
    std::vector<Op> v = {{"mvmul", TT_OP_MVMUL(0, 0, 0, 0), true},
                         {"mvmul_bcast", TT_OP_MVMUL(0, 1, 0, 0), true},
                         {"gapool", TT_OP_GAPOOL(0, 0, 0, 0, 0), true}};
    static const char* const elw[4] = {"elwmul", "elwmul_col0", "elwmul_row", "elwmul_both"};
    for (uint32_t b = 0; b < 4; ++b) v.push_back({elw[b], TT_OP_ELWMUL(0, 0, b, 0, 0), true});
    static const char* const add[2][4][2] = {
        {{"elwadd", "elwadd_acc"}, {"elwadd_col0", "elwadd_col0_acc"}, {"elwadd_row", "elwadd_row_acc"}, {"elwadd_both", "elwadd_both_acc"}},
        {{"elwsub", "elwsub_acc"}, {"elwsub_col0", "elwsub_col0_acc"}, {"elwsub_row", "elwsub_row_acc"}, {"elwsub_both", "elwsub_both_acc"}}};
    for (uint32_t b = 0; b < 4; ++b)
        for (uint32_t acc = 0; acc < 2; ++acc) {
            v.push_back({add[0][b][acc], TT_OP_ELWADD(0, acc, b, 0, 0), false});
            v.push_back({add[1][b][acc], TT_OP_ELWSUB(0, acc, b, 0, 0), false});
        }
    return v;
}

// Points the RWCs somewhere seeded: SrcA at a 16-row block MVMUL may read, SrcB and Dst anywhere
// 8-aligned (the instructions mask them further).
void place(Machine& m, Rng& r, uint32_t phase) {
    m.s.rwc[kMath].srca = r.below(4) * 16 + (r.below(2) ? 0 : r.below(8));
    m.s.rwc[kMath].srcb = r.below(64);
    m.s.rwc[kMath].dst = r.below(1024);
    m.s.rwc[kMath].fidelity = phase;
    m.s.srca_math_bank = int(r.below(2));
    m.s.srcb_math_bank = int(r.below(2));
}

void hash_fpu() {
    Machine m;
    const std::vector<Op> all = ops();
    for (const Op& op : all)
        for (int style = 0; style < kNumStyles; ++style)
            for (int dst32 = 0; dst32 < 2; ++dst32) {
                if (style == kInt8 && !dst32) continue;  // INT8 math always uses Dst32b
                for (uint32_t phase = 0; phase < (op.any_phase ? 4u : 1u); ++phase)
                    for (int dist = 0; dist < kNumDists; ++dist) {
                        const std::string name = std::string(op.name) + "/" + kStyleNames[style] + "/" +
                                                 (dst32 ? "dst32" : "dst16") + "/p" + std::to_string(phase) + "/" +
                                                 kDistNames[dist];
                        Rng r(fnv(kFnvSeed, name.data(), name.size()));
                        configure(m, Style(style), dst32);
                        fill(m, r, Dist(dist), Style(style), dst32);
                        for (int n = 0; n < 24; ++n) {
                            place(m, r, phase);
                            m.execute(kMath, op.word);
                        }
                        std::printf("%s %016llx\n", name.c_str(),
                                    (unsigned long long)fnv(kFnvSeed, m.s.dst, sizeof m.s.dst));
                    }
            }
}

// Edge-case fp32 patterns for the SFPU's multiply-add.
std::vector<uint32_t> edge_values() {
    std::vector<uint32_t> v;
    const uint32_t exps[] = {0, 1, 2, 23, 24, 25, 100, 126, 127, 128, 150, 200, 253, 254, 255};
    const uint32_t mans[] = {0, 1, 2, 3, 0x400000, 0x400001, 0x3fffff, 0x7fffff, 0x7ffffe, 0x000004, 0x555555};
    for (uint32_t e : exps)
        for (uint32_t mn : mans)
            for (uint32_t s = 0; s < 2; ++s) v.push_back((s << 31) | (e << 23) | mn);
    return v;
}

// sfpu::mad over `triples` (a, b, c in turn): the hash of its results in order, and how many
// results the 32-lane form SFPI uses (sfpi_host::mad) gets differently.
uint64_t hash_mad(const std::vector<uint32_t>& triples, long& lane_mismatches) {
    const size_t n = triples.size() / 3;
    std::vector<uint32_t> out(n);
    for (size_t i = 0; i < n; ++i) out[i] = sfpu::mad(triples[3 * i], triples[3 * i + 1], triples[3 * i + 2]);
    for (size_t i0 = 0; i0 < n; i0 += sfpu::kLanes) {
        sfpi_host::Vec a{}, b{}, c{};
        for (size_t i = i0; i < std::min(n, i0 + sfpu::kLanes); ++i)
            a[i - i0] = triples[3 * i], b[i - i0] = triples[3 * i + 1], c[i - i0] = triples[3 * i + 2];
        const sfpi_host::Vec d = sfpi_host::mad(a, b, c);
        for (size_t i = i0; i < std::min(n, i0 + sfpu::kLanes); ++i) lane_mismatches += d[i - i0] != out[i];
    }
    return fnv(kFnvSeed, out.data(), out.size() * sizeof out[0]);
}

void hash_sfpu() {
    const std::vector<uint32_t> edges = edge_values();
    long mismatches = 0;
    // every (a, b) pair of edge values with an edge and a random c
    {
        Rng r(1);
        std::vector<uint32_t> t;
        for (uint32_t a : edges)
            for (uint32_t b : edges) {
                const uint32_t c = edges[r.below(uint32_t(edges.size()))];
                t.insert(t.end(), {a, b, c, a, b, r.next()});
            }
        std::printf("sfpu_mad/edges %016llx\n", (unsigned long long)hash_mad(t, mismatches));
    }
    // random operands with exponents close enough that the addend and product overlap; each
    // triple as SFPMAD, SFPADD (b = 1.0) and SFPMUL (c = +0)
    for (int dist = 0; dist < kNumDists; ++dist) {
        const std::string name = std::string("sfpu_mad/") + kDistNames[dist];
        Rng r(fnv(kFnvSeed, name.data(), name.size()));
        std::vector<uint32_t> t;
        for (int n = 0; n < 200000; ++n) {
            uint32_t x[3];
            for (uint32_t& v : x) {
                if (dist == kUniform) {
                    v = r.next();
                    continue;
                }
                uint32_t sign, exp, man;
                draw(r, Dist(dist), 8, sign, exp, man);
                v = (sign << 31) | (exp << 23) | (man << 13) | (dist == kTies ? 0u : r.next() & 0x1fffu);
            }
            t.insert(t.end(), {x[0], x[1], x[2], x[0], sfpu::kFp32One, x[2], x[0], x[1], 0u});
        }
        std::printf("%s %016llx\n", name.c_str(), (unsigned long long)hash_mad(t, mismatches));
    }
    if (mismatches) std::printf("sfpu_mad/lanes_differ_from_scalar %ld\n", mismatches);
}

// CPU ns per instruction of each timed kind, over `reps` instructions on clustered BF16/TF32 data.
void bench(int reps) {
    Machine m;
    struct Kind {
        const char* name;
        uint32_t word;
        Style style;
        bool dst32;
    };
    const Kind kinds[] = {
        {"MVMUL bf16 dst16", TT_OP_MVMUL(0, 0, 0, 0), kBf16, false},
        {"MVMUL bf16 dst32", TT_OP_MVMUL(0, 0, 0, 0), kBf16, true},
        {"MVMUL tf32 dst32", TT_OP_MVMUL(0, 0, 0, 0), kTf32, true},
        {"MVMUL fp16 dst16", TT_OP_MVMUL(0, 0, 0, 0), kFp16, false},
        {"ELWMUL bf16 dst32", TT_OP_ELWMUL(0, 0, 0, 0, 0), kBf16, true},
        {"ELWADD bf16 dst16", TT_OP_ELWADD(0, 0, 0, 0, 0), kBf16, false},
        {"GAPOOL bf16 dst32", TT_OP_GAPOOL(0, 0, 0, 0, 0), kBf16, true},
    };
    for (const Kind& k : kinds) {
        Rng r(7);
        configure(m, k.style, k.dst32);
        fill(m, r, kClustered, k.style, k.dst32);
        const bool elwadd = std::strncmp(k.name, "ELWADD", 6) == 0;
        const double t0 = cpu_ns();
        for (int n = 0; n < reps; ++n) {
            m.s.rwc[kMath].srca = uint32_t(n & 3) * 16;
            m.s.rwc[kMath].srcb = uint32_t(n & 7) * 8;
            m.s.rwc[kMath].dst = uint32_t(n & 63) * 8;
            m.s.rwc[kMath].fidelity = elwadd ? 0u : uint32_t(n & 3);
            m.execute(kMath, k.word);
        }
        const double ns = cpu_ns() - t0;
        std::printf("%s %.1f\n", k.name, ns / reps);
    }
    // the SFPU's multiply-add per lane value
    Rng r(9);
    std::vector<uint32_t> x(3 * 4096);
    for (uint32_t& v : x) {
        uint32_t sign, exp, man;
        draw(r, kClustered, 8, sign, exp, man);
        v = (sign << 31) | (exp << 23) | (man << 13) | (r.next() & 0x1fffu);
    }
    uint32_t sink = 0;
    const int lanes = reps * 32;
    const double t0 = cpu_ns();
    for (int n = 0; n < lanes; ++n) {
        const int i = (n & 4095) * 3;
        sink ^= sfpu::mad(x[i], x[i + 1], x[i + 2] ^ sink);
    }
    const double ns = cpu_ns() - t0;
    std::printf("sfpu::mad per lane %.2f (%u)\n", ns / lanes, sink & 1u);
    // the same through the 32-lane form SFPI code uses
    sfpi_host::Vec va, vb, vc;
    const double t1 = cpu_ns();
    for (int n = 0; n < reps; ++n) {
        for (int l = 0; l < sfpu::kLanes; ++l) {
            const int i = ((n * sfpu::kLanes + l) & 4095) * 3;
            va[l] = x[i], vb[l] = x[i + 1], vc[l] = x[i + 2] ^ sink;
        }
        sink ^= sfpi_host::mad(va, vb, vc)[n & 31];
    }
    std::printf("sfpi_host::mad per lane %.2f (%u)\n", (cpu_ns() - t1) / lanes, sink & 1u);
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "hash";
    if (mode == "hash") {
        hash_fpu();
        hash_sfpu();
    } else if (mode == "bench") {
        bench(argc > 2 ? std::atoi(argv[2]) : 20000);
    } else {
        std::fprintf(stderr, "usage: arith_driver hash | bench [REPS]\n");
        return 2;
    }
    return 0;
}
