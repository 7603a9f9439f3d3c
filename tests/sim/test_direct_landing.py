"""The proof that a pipe net may land in place (tilecraft/sim/language/direct_landing.py), read
where the user sees it: ``tilecraft show-ir`` says on each pipe net's line how it lands and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.paths import EXAMPLES, TESTS
from tilecraft import cli

pytestmark = pytest.mark.usefixtures("fresh_process_state")


@pytest.mark.parametrize("script, landing", [
    # a gather: every receive of node (0, y) is posted while its senders have nothing else to do
    (EXAMPLES / "gather_pipes.py", 'lands in place "every receive is posted before its send waits'),
    # each row's sender is one of its own destinations: its block would pass its landing slot twice
    (EXAMPLES / "matmul_row_multicast.py",
     'lands in landing slots "pipe#0((0, 0) => 3 cores): its sender is one of its destinations, so its own block '
     'would pass through its landing slot twice (matmul_row_multicast measured 8% slower landed in place)"'),
    # a multicast that needs no sender among its destinations lands in place
    (EXAMPLES / "scatter_multicast.py", 'lands in place "every receive is posted'),
    # both nodes send before they receive: landed in place, each send waits for the other's receive
    (TESTS / "sim" / "programs" / "pipe_swap_send_first.py",
     'lands in landing slots "landed in place, the program stops (E2110: deadlock'),
    # a multicast whose two destinations receive into different buffers: no one address for both
    (TESTS / "sim" / "programs" / "pipe_multicast_two_buffers.py",
     'lands in landing slots "pipe#0((0, 0) => 2 cores): its destinations receive one block into different buffer '
     'slots (p_dfb[0], q_dfb[0])"'),
], ids=["gather_pipes", "matmul_row_multicast", "scatter_multicast", "pipe_swap_send_first",
        "pipe_multicast_two_buffers"])
def test_show_ir_says_how_each_pipe_net_lands(script: Path, landing: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["show-ir", str(script)]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert landing in out, [line for line in out.splitlines() if "@pipenet" in line]


@pytest.mark.parametrize("script, direct", [(EXAMPLES / "gather_pipes.py", True),
                                            (EXAMPLES / "matmul_row_multicast.py", False)],
                         ids=["proven", "refused"])
def test_the_emitted_kernels_land_in_place_only_where_proven(script: Path, direct: bool, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Proven: receivers publish their block's address and no receive copies out of a slot;
    refused: every receive copies its slot (metal/lower_pipes.py)."""
    monkeypatch.setattr(cli, "require_compiles", lambda *args: None)  # the header check is tested elsewhere
    cli.main(["emit", str(script), "-o", str(tmp_path)])  # emitting computes no values: the script's check fails
    kernels = "\n".join(p.read_text() for p in tmp_path.rglob("*.cpp"))
    assert ("// pipe net 0 lands in place:" in kernels) == direct, capsys.readouterr().err[-2000:]
    assert ("noc_inline_dw_write" in kernels) == direct
    assert kernels.count("pipe receive: wait for the flag, copy the slot, free it") == (0 if direct else 1)
