"""The programs benchmarks/bench_vs_reference.py adds to the published tutorials run on tilecraft
unchanged, at a small size: their results against torch, and the fast mode equal to ``--exact`` bit
for bit. Where the published simulator is installed (``$TILECRAFT_REFERENCE_SIM``, by default the
benchmarks' /tmp/ref/venv/bin/tt-lang-sim) its results are compared with tilecraft's too.

The programs are written in the spelling tt-lang-sim 1.1.6 accepts (no ``ttl.math.fill``, no
``ttnn.zeros``, no scalar-block products, reductions with ``shape=``); each sets its problem size in
one line, which is the only line changed here.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest
import torch

from benchmarks.bench_vs_reference import DEFAULT_REFERENCE, PROGRAMS
from benchmarks.tutorial_sources import Resize, resize_source
from tests.outputs import assert_same_bits, launch_outputs

pytestmark = pytest.mark.usefixtures("fresh_process_state")

MCAST = ("matmul_1d_multicast.py", Resize("M, K, N = 4096, 4096, 4096", "M, K, N = 128, 256, 512"))
FLASH = ("flash_attention.py", Resize("S, D = 4096, 128", "S, D = 128, 64"))
GRID = ("--grid", "8,8")


def small(tmp_path: Path, program: str, resize: Resize) -> Path:
    script = tmp_path / program
    script.write_text(resize_source((PROGRAMS / program).read_text(), resize))
    return script


def golden(program: str, inputs: list[torch.Tensor]) -> torch.Tensor:
    """What the program computes, in fp32 torch, from the tensors it launched with."""
    if program == MCAST[0]:
        a, b = inputs
        return a.float() @ b.float()
    q, k, v = (t.float()[None] for t in inputs)
    return torch.nn.functional.scaled_dot_product_attention(q, k, v)[0]


@pytest.mark.parametrize("program, resize", [MCAST, FLASH], ids=["mcast", "flash"])
def test_program_runs_unchanged_and_exact(tmp_path: Path, program: str, resize: Resize,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    script = small(tmp_path, program, resize)
    fast = launch_outputs(script, capsys, *GRID)
    assert len(fast) == 1
    *inputs, result = fast[0]
    want = golden(program, inputs)
    # bfloat16 output: within a few of its ulps of the largest value (fp32 accumulation on the way)
    assert (result.float() - want).abs().max() <= 2 ** -7 * want.abs().max()
    assert_same_bits(fast, launch_outputs(script, capsys, "--exact", *GRID))


REFERENCE = Path(os.environ.get("TILECRAFT_REFERENCE_SIM", DEFAULT_REFERENCE))


@pytest.mark.slow
@pytest.mark.skipif(not REFERENCE.is_file(), reason=f"the published simulator ({REFERENCE}) is not installed")
@pytest.mark.parametrize("program, resize", [MCAST, FLASH], ids=["mcast", "flash"])
def test_reference_gives_the_same_values(tmp_path: Path, program: str, resize: Resize,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """tt-lang-sim 1.1.6 runs the same program; its result (fp32 throughout: it promotes bfloat16)
    is as close to tilecraft's as torch's is (tilecraft rounds the accumulator to bfloat16 at every
    store, so an element that cancels differs by a few ulps of the partial sums, not of itself)."""
    script = small(tmp_path, program, resize)
    *_, ours = launch_outputs(script, capsys, *GRID)[0]
    dump = tmp_path / "reference.npy"
    with_dump = script.with_name("dumped_" + program)
    result = "out" if program == FLASH[0] else "y"
    with_dump.write_text(script.read_text() + f"\nimport numpy\nnumpy.save({str(dump)!r}, {result}.float().numpy())\n")
    done = subprocess.run([str(REFERENCE), str(with_dump), *GRID], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "OMP_NUM_THREADS": "1"}, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    theirs = torch.from_numpy(np.load(dump))
    assert (ours.float().reshape(theirs.shape) - theirs).abs().max() <= 2 ** -7 * theirs.abs().max()
