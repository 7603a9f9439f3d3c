// fpu::dot8 (eight DST elements per call, one per vector lane) against fpu::dot (one element per
// call), bit for bit: random bfloat16 and TF32 tiles, random 32-bit operand words (denormals, NaN,
// inf), tiny and huge exponents, operands and DST values drawn from an edge-case list (zeros of
// both signs, denormals, inf, NaN, the largest finite value, the smallest normal), for every
// fidelity phase count and both DST modes. Prints the number of differing elements, exits 1 on any.
#include "fpu.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

using namespace tc::fpu;

static Split split_a[2], split_b[2], split_at[2];

int main() {
    std::mt19937 rng(7);
    const std::uint32_t edge[] = {0, 0x80000000u, 0x00010000u, 0x80010000u, 0x7F800000u, 0xFF800000u,
                                  0x7FC00000u, 0x7F7F0000u, 0xFF7F0000u, 0x00800000u, 0x80800000u, 0x3F800000u,
                                  0xBF800000u, 0x3F810000u, 0x01000000u, 0x7E800000u};
    static std::uint32_t a[1024], b[1024];
    long bad = 0, total = 0;
    for (int trial = 0; trial < 600; ++trial) {
        const int mode = trial % 6;  // 0 bf16, 1 edge mix, 2 random words, 3 tiny, 4 wide exponents, 5 full words
        std::normal_distribution<float> normal(0.f, mode == 3 ? 1e-36f : 1.f);
        for (int i = 0; i < 1024; ++i) {
            float x = normal(rng), y = normal(rng);
            if (mode == 4) {
                x *= std::ldexp(1.f, int(rng() % 200) - 100);
                y *= std::ldexp(1.f, int(rng() % 200) - 100);
            }
            std::memcpy(&a[i], &x, 4);
            std::memcpy(&b[i], &y, 4);
            if (mode == 1 || mode == 5) {
                if (rng() % 4 == 0) a[i] = edge[rng() % 16];
                if (rng() % 4 == 0) b[i] = edge[rng() % 16];
            }
            if (mode == 2) a[i] = rng(), b[i] = rng();
            if (mode != 5) a[i] &= 0xFFFFE000u, b[i] &= 0xFFFFE000u;  // 19-bit source-register values
            if (mode == 0) a[i] &= 0xFFFF0000u, b[i] &= 0xFFFF0000u;
        }
        // a: SrcA, 32 columns of K = 32 (k contiguous); b: SrcB, 32 rows
        for (int low = 0; low < 2; ++low) {
            split(a, 1024, true, low, split_a[low]);
            split(b, 1024, false, low, split_b[low]);
            transpose(split_a[low], 32, 32, split_at[low]);
        }
        const Split* const x[2] = {&split_a[0], &split_a[1]};
        const Split* const xt[2] = {&split_at[0], &split_at[1]};
        const Split* const y[2] = {&split_b[0], &split_b[1]};
        const int phases = 1 + trial % 4;
        const bool fp32 = (trial / 4) % 2;
        for (int i = 0; i < 32; ++i) {
            std::uint32_t want[32], got[32];
            for (int j = 0; j < 32; ++j) {
                want[j] = got[j] = (rng() % 3 == 0 ? edge[rng() % 16] : rng()) & (fp32 ? ~0u : 0xFFFF0000u);
                want[j] = dot(x, j * 32, y, i * 32, 32, want[j], phases, fp32);
            }
            for (int j0 = 0; j0 < 32; j0 += 8) dot8(xt, j0, 32, y, i * 32, 32, got + j0, phases, fp32);
            for (int j = 0; j < 32; ++j) {
                ++total;
                if (want[j] != got[j] && bad++ < 10)
                    std::printf("mode %d, %d phases, fp32 %d: dot %08x, dot8 %08x\n", mode, phases, fp32, want[j], got[j]);
            }
        }
    }
    std::printf("%ld of %ld elements differ\n", bad, total);
    return bad != 0;
}
