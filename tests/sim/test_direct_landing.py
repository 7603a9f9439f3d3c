"""The proof that a pipe net may land in place (tilecraft/sim/language/direct_landing.py), read
where the user sees it: ``tilecraft show-ir`` says after each pipe net how it lands and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.paths import EXAMPLES, TESTS
from tilecraft import cli

pytestmark = pytest.mark.usefixtures("fresh_process_state")


@pytest.mark.parametrize("script, landing", [
    # a gather: every receive of node (0, y) is posted while its senders have nothing else to do
    (EXAMPLES / "gather_pipes.py", "// @pipenet0 lands in place: every receive is posted before its send waits"),
    # the sender is its own destination and sends before it receives: its own block takes the local
    # copy, the rest of the row (a rectangle) lands in place
    (EXAMPLES / "matmul_row_multicast.py", "// @pipenet0 lands in place: every receive is posted"),
    # each column's sender is one of four in the column: the other three are not a rectangle
    (EXAMPLES / "scatter_gather_loopback.py",
     "// @pipenet0 lands in landing slots: pipe#1((0, 1) => 4 cores): its destinations other than the sender (0, 1) "
     "are not a rectangle one multicast writes"),
    # both nodes send before they receive: landed in place, each send waits for the other's receive
    (TESTS / "sim" / "programs" / "pipe_swap_send_first.py",
     "// @pipenet0 lands in landing slots: landed in place, the program stops (E2110: deadlock"),
], ids=["gather_pipes", "matmul_row_multicast", "scatter_gather_loopback", "pipe_swap_send_first"])
def test_show_ir_says_how_each_pipe_net_lands(script: Path, landing: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["show-ir", str(script)]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert landing in out, [line for line in out.splitlines() if "@pipenet" in line]
