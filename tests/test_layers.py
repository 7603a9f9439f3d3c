"""The layer contracts in pyproject.toml hold, and the check catches a planted violation.

Why both: a contract that is never seen to fail may not be checking anything (a misspelt module
name is silently a contract about nothing), so a copy of the package with one upward import
added must be reported, naming the importing module and the line.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("importlinter")

ROOT = Path(__file__).resolve().parent.parent


def _lint(project: Path) -> subprocess.CompletedProcess[str]:
    """Run lint-imports on the ``tilecraft`` package found first on the path in ``project``."""
    return subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command; "
                           "lint_imports_command()", "--no-cache", "--config", str(project / "pyproject.toml")],
                          cwd=project, env={"PYTHONPATH": str(project), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=300)


def test_the_layer_contracts_hold() -> None:
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_a_planted_upward_import_is_reported(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "tilecraft", tmp_path / "tilecraft",
                    ignore=shutil.ignore_patterns("__pycache__", "include", "runtime", "reference_kernels"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    planted = tmp_path / "tilecraft" / "metal" / "cpp.py"
    planted.write_text(planted.read_text() + "\nfrom ..frontend import build_program as _planted  # noqa\n")
    result = _lint(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "tilecraft.metal.cpp -> tilecraft.frontend.build_program" in result.stdout
    assert "Contracts: 2 kept, 2 broken." in result.stdout
