"""The Tensix machine's arithmetic, bit for bit, against the hashes of the model it replaced.

arith_driver.cpp runs every matrix-unit arithmetic instruction (MVMUL and its row broadcast,
GAPOOL, ELWMUL/ELWADD/ELWSUB with each broadcast and AddDst) in every Src style (BF16, TF32, FP16,
INT8 math), both Dst modes and every fidelity phase over six seeded input distributions (raw random
bits, clustered, wide, extreme exponents incl. zero/denormal/inf/NaN patterns, rounding ties, exact
cancellation), and the SFPU's multiply-add over edge-case pairs and random triples (also
checking SFPI's 32-lane form against the scalar one on every triple: a difference adds a case
line, which fails the key check); it prints one hash of all of Dst (or of every result) per case. data/arith_golden.txt holds the hashes the
straightforward instruction-level model (per product, per group of eight, per Dst element, before
the vectorised rewrite) printed, written by ``python -m benchmarks.tensix_speed --write-golden``;
test_fpu.py / test_sfpu.py hold that model to the ISA and to tilecraft/device_arith.py. So a speed-up
that changes one bit of one result in any case fails here, naming the case. The same holds for
Tenstorrent's SFPU kernels run through our SFPI (test_sfpi.py's kernel set, both Dst modes), whose
output hashes are in data/sfpu_kernel_golden.txt.
"""

from __future__ import annotations

import hashlib
import os
import struct
from pathlib import Path

import pytest
import torch

from tests.emu.tensix.test_sfpi import DST_MODES, KERNELS, run_kernel  # noqa: F401 (run_kernel: fixture)

HERE = Path(__file__).parent
DRIVER = (HERE / "arith_driver.cpp").read_text()
GOLDEN = HERE / "data" / "arith_golden.txt"


def parse(text: str) -> dict[str, str]:
    return dict(line.split() for line in text.splitlines() if line.strip())


def test_every_case_matches_the_reference_model_bit_for_bit(tensix_unit_test) -> None:
    expected = parse(GOLDEN.read_text())
    got = parse(tensix_unit_test(DRIVER))
    assert len(expected) == 1855 and got.keys() == expected.keys()
    changed = [case for case in expected if got[case] != expected[case]]
    assert not changed, f"{len(changed)} cases differ from the reference bits, e.g. {changed[:8]}"


# --- Tenstorrent's SFPU kernels through our SFPI, bit for bit ------------------------------------

SFPU_GOLDEN = HERE / "data" / "sfpu_kernel_golden.txt"
WRITE_ENV = "TILECRAFT_WRITE_SFPU_GOLDEN"  # set to 1 to rewrite SFPU_GOLDEN from the current model


def _edge_values(dtype: torch.dtype) -> torch.Tensor:
    """128 values a kernel's special cases hinge on: zeros, denormals, the extremes, infinities,
    NaNs, and powers of two and halves around the ranges the kernels split at."""
    bits = [0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF,
            0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x3F800000, 0xBF800000, 0x3F000000, 0xBF000000]
    values = [struct.unpack("<f", struct.pack("<I", b))[0] for b in bits]
    values += [sign * 2.0 ** e for e in range(-12, 12) for sign in (1.0, -1.0)]
    values += [sign * (k + 0.5) for k in range(32) for sign in (1.0, -1.0)]
    return torch.tensor(values[:128], dtype=torch.float64).to(dtype)


@pytest.mark.parametrize("dst", sorted(DST_MODES))
def test_wheel_sfpu_kernels_keep_their_bits(run_kernel, dst) -> None:
    """Every kernel of test_sfpi.py's set over a face of random values in its range and a face of
    edge values: a hash of the output bits per kernel, held to the hashes the model printed before
    its lane loops were made fast (SFPU_GOLDEN)."""
    dtype = DST_MODES[dst][0]
    got = {}
    for op, (_, (lo, hi), _) in sorted(KERNELS.items()):
        if (op, dst) == ("exp", "bf16"):
            continue  # no SFPI kernel (test_sfpi.py)
        gen = torch.Generator().manual_seed(2121)
        x = torch.cat([(torch.rand(128, generator=gen, dtype=torch.float64) * (hi - lo) + lo).to(dtype), _edge_values(dtype)])
        out = run_kernel(op, dst, x)
        got[f"{op}/{dst}"] = hashlib.sha256(out.contiguous().view(torch.uint8).numpy().tobytes()).hexdigest()[:16]
    lines = {case: digest for case, digest in parse(SFPU_GOLDEN.read_text()).items()} if SFPU_GOLDEN.exists() else {}
    if os.environ.get(WRITE_ENV) == "1":
        lines.update(got)
        SFPU_GOLDEN.write_text("".join(f"{case} {digest}\n" for case, digest in sorted(lines.items())))
        pytest.skip(f"rewrote {SFPU_GOLDEN.name} ({WRITE_ENV}=1)")
    assert got.keys() <= lines.keys(), f"no golden hash for {sorted(got.keys() - lines.keys())}"
    changed = [case for case in got if got[case] != lines[case]]
    assert not changed, f"SFPU kernels whose output bits changed: {changed}"
