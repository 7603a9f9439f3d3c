"""Every script in examples/ runs through the CLI, in the fast mode and in the exact mode, with the
same bits.

The scripts assert their own torch goldens, so a passing run means the program computed the
right values (and, for the barrier examples, that the synchronisation held). They run in
process (``tilecraft.cli.main``) so that torch is imported once for the whole file; the slow
test runs each one as a plain ``python examples/NAME.py`` in a fresh interpreter.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests import paths
from tests.outputs import assert_same_bits, launch_outputs

EXAMPLES = sorted(paths.EXAMPLES.glob("*.py"))


pytestmark = pytest.mark.usefixtures("fresh_process_state")


def test_examples_exist():
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_runs_and_fast_equals_exact(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Batched and one-value-at-a-time evaluation store the same bits in every tensor."""
    assert_same_bits(launch_outputs(path, capsys), launch_outputs(path, capsys, "--exact"))


@pytest.mark.slow
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_runs_as_plain_python(path: Path) -> None:
    """Without the CLI: the script imports tilecraft itself."""
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]
