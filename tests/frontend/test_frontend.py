"""Front end: what the IR of small kernels looks like (CHECK comments inside the kernels)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.filecheck import filecheck
from tests.paths import TESTS
from tilecraft.cli import main

KERNELS = sorted((TESTS / "frontend" / "kernels").glob("*.py"))


pytestmark = pytest.mark.usefixtures("fresh_process_state")


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda p: p.stem)
def test_ir_matches_checks(kernel: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show-ir", str(kernel)]) == 0, capsys.readouterr().err
    filecheck(kernel, capsys.readouterr().out)
