"""A launch lowers its program to Metalium once (``metal/lowered.py``), and every consumer of the
launch reads that one lowering: the W3001 warning and the L1 budget check, ``--level metal``,
``--level cpp``, ``tilecraft emit``, ``tilecraft profile --level metal``, ``tilecraft profile
--fp32-acc`` (each store charged the calls the lowering emitted for it) and ``tilecraft show-ir``
(the buffers the compiler adds)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.paths import EXAMPLES, TESTS
from tilecraft import cli
from tilecraft.metal import lower as metal_lower

EXAMPLE = EXAMPLES / "elementwise_1_single_tile.py"

pytestmark = pytest.mark.usefixtures("fresh_process_state")


@pytest.fixture
def lowerings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of each program lowered: a spy on ``ProgramLowering.lower_kernels``, the work every
    way into the lowering does (``lower_program``, ``LoweredProgram``, and ``program_l1_need``,
    which the tuner and ``block_count="max"`` call)."""
    seen: list[str] = []
    original = metal_lower.ProgramLowering.lower_kernels

    def spy(self: metal_lower.ProgramLowering) -> Any:
        seen.append(self.program.name)
        return original(self)

    monkeypatch.setattr(metal_lower.ProgramLowering, "lower_kernels", spy)
    return seen


@pytest.mark.parametrize("argv", [
    ["run"], ["run", "--level", "metal"], ["run", "--level", "cpp"],
    ["emit", "-o", "{tmp}"], ["profile", "--level", "metal"], ["profile"], ["profile", "--fp32-acc"], ["show-ir"],
], ids=["run", "run-metal", "run-cpp", "emit", "profile-metal", "profile", "profile-fp32-acc", "show-ir"])
def test_a_launch_lowers_its_program_once(argv: list[str], lowerings: list[str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(cli, "require_compiles", lambda *args: None)  # the header check is not what is counted
    command = [argv[0], str(EXAMPLE), *(arg.format(tmp=tmp_path) for arg in argv[1:])]
    emitting = argv[0] == "emit"  # computes no values: the script's own check on them fails (E0710)
    assert cli.main(command) == (1 if emitting else 0), capsys.readouterr().err
    assert lowerings == ["relu_diff_scale"]


def test_a_program_that_does_not_lower_is_lowered_once_for_its_warning_and_its_error(
        lowerings: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``emit`` of a program the simulator runs but Metalium cannot (a block printed): the launch's
    W3001 and ``emit``'s E3001 come from the same lowering, tried once."""
    script = TESTS / "published" / "print_objects.py"
    assert cli.main(["emit", str(script), "-o", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("warning[W3001]") == 1 and err.count("error[E3001]") == 1, err
    assert f"{script}:18:13: error[E3001]: print() of a block cannot be emitted" in err
    assert len(lowerings) == 1


#: the example with its output buffer sized by what the others leave
SIZED_BY_MAX = EXAMPLE.read_text().replace('y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)',
                                           'y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count="max")')


@pytest.mark.parametrize("level", ["language", "metal"])
def test_a_max_buffer_is_sized_by_one_more_lowering_before_the_pipeline(
        level: str, lowerings: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``block_count="max"`` needs what the lowering adds before the program is complete (its
    counts are what is being computed, and the pass pipeline has not run), so the front end lowers
    the program once to size it (``frontend/l1_budget.py``); the launch then lowers the finished
    program once, as any other."""
    script = tmp_path / "sized_by_max.py"
    script.write_text(SIZED_BY_MAX)
    assert 'block_count="max"' in SIZED_BY_MAX
    assert cli.main(["run", str(script), "--level", level]) == 0, capsys.readouterr().err
    assert lowerings == ["relu_diff_scale", "relu_diff_scale"]
