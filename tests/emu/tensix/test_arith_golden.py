"""The Tensix machine's arithmetic, bit for bit, against the hashes of the model it replaced.

arith_driver.cpp runs every matrix-unit arithmetic instruction (MVMUL and its row broadcast,
GAPOOL, ELWMUL/ELWADD/ELWSUB with each broadcast and AddDst) in every Src style (BF16, TF32, FP16,
INT8 math), both Dst modes and every fidelity phase over six seeded input distributions (raw random
bits, clustered, wide, extreme exponents incl. zero/denormal/inf/NaN patterns, rounding ties, exact
cancellation), and the SFPU's multiply-add over edge-case pairs and random triples; it prints one
hash of all of Dst (or of every result) per case. data/arith_golden.txt holds the hashes the
straightforward instruction-level model (per product, per group of eight, per Dst element, before
the vectorised rewrite) printed, written by ``python -m benchmarks.tensix_speed --write-golden``;
test_fpu.py / test_sfpu.py hold that model to the ISA and to tilecraft/device_arith.py. So a speed-up
that changes one bit of one result in any case fails here, naming the case.
"""

from __future__ import annotations

from pathlib import Path

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
