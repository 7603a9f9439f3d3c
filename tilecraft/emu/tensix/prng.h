// The Tensix coprocessor's PRNGs and the stochastic rounding they drive.
//
// Why one module: the Vector Unit's PRNG (SFPMOV, SFPCAST, SFPSTOCHRND), the matrix unit's
// stochastic rounding into Dst (ALU_ROUNDING_MODE_Fpu_srnd_en) and the packers' stochastic
// rounding (ALU_ROUNDING_MODE_Gasket_srnd_en / Packer_srnd_en) all draw random bits from PRNGs that
// one config write (PRNG_SEED_Seed_Val) re-seeds, and all round with the same comparator.
//
// What the ISA documents (tt-isa-documentation WormholeB0): the Vector Unit's generator is one
// 32-bit LFSR per lane (VectorUnit.md "PRNG": a value is the state before stepping, the new top
// bit the complement of the parity of taps 0x80200003); writing PRNG_SEED_Seed_Val re-seeds "all
// the PRNGs" (BackendConfiguration.md); the matrix unit and the packers' early format conversion
// have PRNGs of their own for stochastic rounding (SoftReset.md); the rounding compares the
// discarded bits, scaled to 23 bits, with 23 random bits and rounds the magnitude up when they are
// at least as large (SFPSTOCHRND_FloatFloat.md), which is why it is biased slightly towards larger
// magnitudes and can even round up a value that needs no rounding (Packers/FormatConversion.md
// says the same of the packers). How a seed spreads over the lanes is ttsim's model of the Vector
// Unit (32 warm-up steps, then two steps per lane, filling the last lane first).
//
// What neither documents, and is this model's choice: the matrix unit's and the packers'
// generators are banks of the same LFSR, one lane per Dst column (16), seeded from the same
// register as the Vector Unit's, their lanes continuing the seed's sequence after the Vector
// Unit's 32 (kFpuStream, kPackerStream) so that no two units draw the same bits; a lane steps once
// per datum it rounds. Runs are therefore reproducible, and a kernel that writes PRNG_SEED gets a
// different (and again reproducible) stream.
#pragma once

#include <array>
#include <cstdint>

namespace tc_tensix {

// Where a unit's lanes start in the seed's sequence (see above).
constexpr int kSfpuStream = 0;
constexpr int kFpuStream = 32;
constexpr int kPackerStream = 48;  // packer i: kPackerStream + 16 * i

namespace rounding {

// The comparator's threshold: 0x400000 (half of 2^23) rounds to nearest with ties away from zero;
// stochastic rounding uses the low 23 bits of a PRNG value.
constexpr uint32_t kNearest = 0x400000u;
inline uint32_t stochastic_threshold(uint32_t prng_value) { return prng_value & 0x7fffffu; }

// A magnitude with its low `n` bits (0..31) dropped, rounded up when those bits, scaled to 23
// bits, are at least `threshold`. With kNearest that is rounding half away from zero; with a
// stochastic threshold the probability of rounding up is (dropped + 2^-23) in units of the kept
// last place, and a magnitude with nothing to drop rounds up when the threshold is 0.
inline uint32_t drop_bits(uint32_t magnitude, unsigned n, uint32_t threshold) {
    const uint32_t dropped = n == 0 ? 0u : magnitude & (0xffffffffu >> (32 - n));
    const uint32_t scaled = n <= 23 ? dropped << (23 - n) : dropped >> (n - 23);
    return (n == 32 ? 0u : magnitude >> n) + (scaled >= threshold ? 1u : 0u);
}

}  // namespace rounding

template <int kLanes>
struct LanePrng {
    std::array<uint32_t, kLanes> state{};
    int stream = 0;  // lanes already handed out of the seed's sequence before this bank's
    bool seeded = false;
    uint32_t seed_value = 0;

    explicit LanePrng(int first_lane = 0) : stream(first_lane) {}

    static uint32_t step(uint32_t s) {
        const uint32_t taps = uint32_t(__builtin_popcount(s & 0x80200003u));
        return (~taps << 31) | (s >> 1);
    }
    // The seed stepped 32 times, then every second step of the sequence fills one lane, the last
    // lane first; a bank further along the sequence skips the lanes of the banks before it.
    void seed(uint32_t value) {
        uint32_t s = value;
        for (int i = 0; i < 32 + 2 * stream; ++i) s = step(s);
        for (int lane = kLanes - 1; lane >= 0; --lane) {
            s = step(step(s));
            state[lane] = s;
        }
        seeded = true;
        seed_value = value;
    }
    // Re-seed when the register's value changed since the last seeding (as a write to it does on
    // the device); an unwritten register seeds with 0.
    void follow_seed_register(uint32_t value) {
        if (!seeded || value != seed_value) seed(value);
    }
    uint32_t advance(int lane) {
        const uint32_t v = state[lane];
        state[lane] = step(v);
        return v;
    }
    // The threshold `lane` rounds its next datum with, the generator first following the seed
    // register's value `seed_register`.
    uint32_t next_threshold(uint32_t seed_register, int lane) {
        follow_seed_register(seed_register);
        return rounding::stochastic_threshold(advance(lane));
    }
};

}  // namespace tc_tensix
