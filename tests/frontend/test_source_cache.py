"""Two scripts run in one process whose helpers differ only in a default value (or in the file they
live in) must each compute with their own: thread and helper sources are cached by code identity.
Python compares code objects by value (not by file, not by the defaults), so a cache keyed by code
gave the first script's answer and file name to the second."""

from __future__ import annotations

from pathlib import Path

import pytest

from tilecraft.cli import main

pytestmark = pytest.mark.usefixtures("fresh_process_state")

SCRIPT = """\
import torch
import ttl
import ttnn

COLUMN = {column}


def scale(x, k={k}):
    return x * k


@ttl.operation(grid=(1, 1))
def kern(a, y):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def compute():
        with a_dfb.wait() as x, y_dfb.reserve() as out:
            out.store(scale(x))

    @ttl.datamovement()
    def reader():
        with a_dfb.reserve() as blk:
            ttl.copy(a[0, 0], blk).wait()

    @ttl.datamovement()
    def writer():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, COLUMN]).wait()


a = ttnn.from_torch(torch.ones(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
kern(a, y)
print(float(ttnn.to_torch(y)[0, 0]))
"""


def write(directory: Path, **fields: str) -> Path:
    directory.mkdir()
    path = directory / "prog.py"
    path.write_text(SCRIPT.format(**fields))
    return path


def test_each_script_uses_its_own_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    two = write(tmp_path / "two", k="2.0", column="0")
    three = write(tmp_path / "three", k="3.0", column="0")
    assert main(["run", str(two)]) == 0 and capsys.readouterr().out == "2.0\n"
    assert main(["run", str(three)]) == 0 and capsys.readouterr().out == "3.0\n"


def test_a_diagnostic_names_the_file_it_comes_from(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same program in two files; the second one's tensor slice is out of bounds."""
    good = write(tmp_path / "good", k="2.0", column="0")
    bad = write(tmp_path / "bad", k="2.0", column="1")
    assert main(["run", str(good)]) == 0
    capsys.readouterr()
    assert main(["run", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:30:" in err and "error[E1107]" in err, err
