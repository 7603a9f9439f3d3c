"""SFPU chains with log2 on mixed-format inputs: the language level and the emitted C++ on the
emulator (``--level cpp``) against a float64 torch golden of the held inputs.

Issue 21 found ``log2(|x| + 1)`` with a float32 input at PCC 0 at ``--level cpp`` (right at the
language level), and a log/log2/softsign chain over bfloat8_b and float32 inputs wrong likewise,
with no diagnostic. The cause was the emitter: it passed ``log_with_base_tile`` its scale
1 / ln(base) as fp16a bits, the convention of older tt-metal releases; 0.81.1's
``ckernel_sfpu_log.h`` reads the 32 bits of a float, so the scale was a denormal and every result
about 0. The emitter now passes fp32 bits, and for log2 ``base_is_two`` (0.81.1's exact path:
log2 of a power of two is exact), which the emulator models (tests/emu/test_compute.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from tests.emu.harness import script_values
from tilecraft import dtypes
from tilecraft.numerics import matches_golden

HERE = Path(__file__).resolve().parent / "sfpu_chains"

pytestmark = pytest.mark.usefixtures("fresh_process_state")


def log2_of_abs(x: torch.Tensor) -> torch.Tensor:
    return torch.log2(x.double().abs() + 1)


def log_softsign(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    t = torch.log(a.double().abs() + 1) - torch.log2(b.double().abs() + 2)
    return t / (1 + t.abs())


@pytest.mark.parametrize("out", ["bfloat16", "float32", "bfloat8_b"])
@pytest.mark.parametrize("level", ["language", "cpp"])
@pytest.mark.parametrize("script, golden", [("log2_of_abs.py", log2_of_abs), ("log_softsign_mixed.py", log_softsign)],
                         ids=["log2_of_abs", "log_softsign_mixed"])
def test_chain_matches_torch(script: str, golden, level: str, out: str) -> None:
    code, (*inputs, y), err = script_values(HERE / script, out, "--level", level)
    assert code == 0, err[-3000:]
    want = golden(*inputs)
    fmt = getattr(dtypes, out)
    assert matches_golden(y, want, fmt), (y.double() - want).abs().max()
    if script == "log2_of_abs.py":  # log2(1), log2(2), log2(4), log2(8), log2(1024), log2(16): exact
        assert y[0, :6].tolist() == [0.0, 1.0, 2.0, 3.0, 10.0, 4.0]
