"""Programs in the published TT-Lang 1.1.6 spelling, with the idioms its users write.

Each script in ``tests/published/`` imports ``ttl`` and ``ttnn`` as a script for the published
simulator does and asserts its own result. Each runs through ``tilecraft run`` in the batched
mode and with ``--exact``; the two must store the same bits in every tensor.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from tests.outputs import assert_same_bits, launch_outputs
from tilecraft.cli import main
from tilecraft.diagnostics import DiagnosticWarning

PROGRAMS = sorted((Path(__file__).parent / "published").glob("*.py"))

pytestmark = pytest.mark.usefixtures("fresh_process_state")


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_runs_and_fast_equals_exact(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert_same_bits(launch_outputs(path, capsys), launch_outputs(path, capsys, "--exact"))


def test_block_equality_is_identity_and_warns(capsys: pytest.CaptureFixture[str]) -> None:
    path = next(p for p in PROGRAMS if p.stem == "block_identity")
    assert main(["run", str(path)]) == 0
    err = capsys.readouterr().err
    lines = [i for i, text in enumerate(path.read_text().splitlines(), 1) if "x != z" in text or "x == x" in text]
    for line in lines:
        assert f"{path}:{line}:" in err and "warning[W0102]" in err, err
    assert "ttl.math.eq" in err


def test_a_tensor_made_without_a_layout_is_tile_and_says_so_once(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "default_layout.py"
    script.write_text(
        "import torch, ttl, ttnn\n"
        "@ttl.operation(grid=(1, 1))\n"
        "def copy(a, y):\n"
        "    dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)\n"
        "    @ttl.datamovement()\n"
        "    def mover():\n"
        "        with dfb.reserve() as blk:\n"
        "            ttl.copy(a[0, 0], blk).wait()\n"
        "        with dfb.wait() as blk:\n"
        "            ttl.copy(blk, y[0, 0]).wait()\n"
        "a = ttnn.from_torch(torch.ones(32, 32))\n"
        "y = ttnn.empty((32, 32), layout=ttnn.TILE_LAYOUT)\n"
        "copy(a, y)\n"
        "copy(a, y)\n"
        "assert ttnn.to_torch(y).sum() == 1024\n")
    assert main(["run", str(script)]) == 0
    err = capsys.readouterr().err
    assert err.count("warning[W0501]") == 1 and f"{script}:11:5: warning[W0501]: tensor 'a'" in err, err


def test_a_program_that_writes_nothing_warns(tmp_path: Path) -> None:
    script = tmp_path / "empty_share.py"
    script.write_text(
        "import torch\nimport tilecraft as ttl\nimport tilecraft.ttnn as ttnn\n"
        "@ttl.operation(grid=(1, 1))\n"
        "def copy(a, y):\n"
        "    n = a.shape[0] // 64\n"
        "    dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)\n"
        "    @ttl.datamovement()\n"
        "    def mover():\n"
        "        for i in range(n):\n"
        "            with dfb.reserve() as blk:\n"
        "                ttl.copy(a[i, 0], blk).wait()\n"
        "            with dfb.wait() as blk:\n"
        "                ttl.copy(blk, y[i, 0]).wait()\n"
        "a = ttnn.from_torch(torch.ones(32, 32), layout=ttnn.TILE_LAYOUT)\n"
        "copy(a, a)\n")
    import runpy
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        runpy.run_path(str(script), run_name="__main__")
    (warning,) = [w.message for w in caught if isinstance(w.message, DiagnosticWarning)]
    assert warning.diagnostic.code == "W1201" and "copies into 'y' ran zero times" in warning.diagnostic.message


def marked_line(path: Path, marker: str) -> int:
    (line,) = [i for i, text in enumerate(path.read_text().splitlines(), 1) if text.endswith(f"# {marker}")]
    return line


def test_blocks_pushed_and_never_consumed_warn_at_the_push(capsys: pytest.CaptureFixture[str]) -> None:
    path = next(p for p in PROGRAMS if p.stem == "unconsumed_pushed_blocks")
    assert main(["run", str(path)]) == 0
    err = capsys.readouterr().err
    assert err.count("warning[W1105]") == 1, err
    assert f"{path}:{marked_line(path, 'W1105')}:" in err and "'dfb' on core (0, 0)" in err, err
