"""The Tensix PRNG as the ISA states it, for the tests to hold the machine's generators to.

VectorUnit.md ("PRNG") gives the generator: a 32-bit LFSR per lane whose value is the state before
stepping, the new top bit being the complement of the parity of the taps 0x80200003. How a seed
spreads over the lanes is ttsim's model of the Vector Unit (32 warm-up steps, then every second
step fills one lane, the last lane first); the matrix unit's and the packers' banks continue that
sequence after the lanes of the banks before them (tilecraft/emu/tensix/prng.h).
"""

from __future__ import annotations

FPU_STREAM, PACKER_STREAM = 32, 48  # prng.h's kFpuStream, kPackerStream


def step(state: int) -> int:
    """One LFSR step (VectorUnit.md's AdvancePRNG without the read)."""
    taps = bin(state & 0x80200003).count("1")
    return ((~taps << 31) | (state >> 1)) & 0xFFFFFFFF


def seeded(seed: int, lanes: int, first_lane: int = 0) -> list[int]:
    """The lanes' states after PRNG_SEED_Seed_Val is written with `seed`."""
    s = seed
    for _ in range(32 + 2 * first_lane):
        s = step(s)
    state = [0] * lanes
    for lane in reversed(range(lanes)):
        s = step(step(s))
        state[lane] = s
    return state


def rounds_up(dropped: int, n: int, prng_value: int) -> bool:
    """Whether stochastic rounding that drops `n` bits worth `dropped` rounds the magnitude up
    (SFPSTOCHRND_FloatFloat.md): the dropped bits scaled to 23 bits against the value's low 23 bits."""
    scaled = dropped << (23 - n) if n <= 23 else dropped >> (n - 23)
    return scaled >= (prng_value & 0x7FFFFF)


def drop_bits(magnitude: int, n: int, prng_value: int) -> int:
    """`magnitude` without its low `n` bits, rounded stochastically with `prng_value`."""
    return (magnitude >> n) + rounds_up(magnitude & ((1 << n) - 1), n, prng_value)
