"""``tilecraft profile --plot`` writes a PNG (roofline + per-core summary); matplotlib is optional."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.paths import EXAMPLES
from tilecraft.cli import main

EXAMPLE = EXAMPLES / "matmul_3_multinode.py"


def test_plot_is_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib", reason="--plot is an optional extra: pip install 'tilecraft[plot]'")
    assert main(["profile", str(EXAMPLE), "--plot", str(tmp_path / "p.png")]) == 0, capsys.readouterr().err
    assert (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
