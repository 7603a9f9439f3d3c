"""One L1 need for every tool: ``run``, ``emit``, ``profile`` and the language server report the
same ``E0401`` for a program whose own buffers fit but which overflows with the compiler's.

The matmul below keeps ``y_blk += a_blk @ b_blk`` over K blocks, so the compiler keeps ``y``'s
partial results in a buffer of two blocks of its own (``metal.lower.program_l1_need`` names it
``y_dfb_partial``). The program's own buffers take 917,504 B of wormhole_b0's 1,396,736 B; with
the partials, 1,441,792 B. (The tuner reads the same need: tests/tune/test_tune_l1.py.)
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tilecraft.cli import main
from tilecraft.lsp.runner import RunRequest, run

SCRIPT = '''import torch
import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def matmul(a, b, y):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(16, 4), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(4, 8), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(16, 8), block_count=2)

    @ttl.datamovement()
    def load():
        for k in range(2):
            with a_dfb.reserve() as blk:
                ttl.copy(a[0:16, k * 4:(k + 1) * 4], blk).wait()
            with b_dfb.reserve() as blk:
                ttl.copy(b[k * 4:(k + 1) * 4, 0:8], blk).wait()

    @ttl.compute()
    def mac():
        with y_dfb.reserve() as y_blk:
            y_blk.store(ttl.block.fill(0.0, shape=y_blk.shape))
            for _ in range(2):
                with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk:
                    y_blk += a_blk @ b_blk

    @ttl.datamovement()
    def save():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0:16, 0:8]).wait()


a = ttnn.from_torch(torch.ones(512, 256), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
b = ttnn.from_torch(torch.ones(256, 256), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((512, 256), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
matmul(a, b, y)
'''

MESSAGE = ("the buffers of program 'matmul' need 1441792 B of L1 per core but wormhole_b0 has 1396736 B available: "
           "its own buffers take 917504 B and the compiler adds 524288 B (y_dfb_partial: partial results of 'y_dfb')")


@pytest.fixture
def script(tmp_path: Path) -> Path:
    path = tmp_path / "partials.py"
    path.write_text(SCRIPT)
    return path


def header(script: Path) -> str:
    line = SCRIPT.splitlines().index("@ttl.operation(grid=(1, 1))") + 1
    return f"{script}:{line}:1: error[E0401]: {MESSAGE}"


@pytest.mark.usefixtures("fresh_process_state")
@pytest.mark.parametrize("command", [["run"], ["run", "--level", "metal"], ["emit", "-o", "OUT"],
                                     ["profile", "--no-values"]])
def test_each_command_reports_the_need_with_the_compilers_buffers(script: Path, command: list[str],
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    argv = [command[0], str(script), *(str(script.parent / "out") if a == "OUT" else a for a in command[1:])]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert header(script) in err, err
    assert (f"note: {script}:{SCRIPT.splitlines().index('                    y_blk += a_blk @ b_blk') + 1}:21: "
            "buffer 'y_dfb_partial' (added by the compiler: partial results of 'y_dfb'): 2 x 262144 B = 524288 B "
            "(block (16, 8), bfloat16)") in err


@pytest.mark.usefixtures("fresh_process_state")
def test_the_language_server_reports_the_same_need(script: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])
    events: list[dict] = []
    run(RunRequest(str(script), SCRIPT, "compile"), events.append)
    (diagnostic,) = [e["diagnostic"] for e in events if e["event"] == "diagnostic"]
    assert diagnostic["code"] == "E0401" and diagnostic["message"] == MESSAGE


#: the compute thread of SCRIPT in the TT-Lang 1.1.6 idiom: the sum in a local block, stored at the end
LOCAL_SCRIPT = SCRIPT.replace('''        with y_dfb.reserve() as y_blk:
            y_blk.store(ttl.block.fill(0.0, shape=y_blk.shape))
            for _ in range(2):
                with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk:
                    y_blk += a_blk @ b_blk
''', '''        acc = ttl.block.fill(0, shape=(16, 8))
        for _ in range(2):
            with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk:
                acc += a_blk @ b_blk
        with y_dfb.reserve() as y_blk:
            y_blk.store(acc)
''')


@pytest.mark.usefixtures("fresh_process_state")
def test_a_local_accumulator_that_overflows_names_its_buffer_and_the_alternative(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The local block does not fit DST (128 float32 tiles), so the compiler keeps it in L1 in float32,
    its value rotating through one block and one DST chunk (it is only summed into and copied out):
    even so E0401, which names that buffer and what it is for, and the hint suggests the output
    block's += (whose two blocks are the output's bfloat16: half the bytes, as MESSAGE shows)."""
    assert LOCAL_SCRIPT != SCRIPT
    path = tmp_path / "local.py"
    path.write_text(LOCAL_SCRIPT)
    assert main(["emit", str(path), "-o", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert re.search(r"error\[E0401\]: the buffers of program 'matmul' need 1458176 B of L1 per core but wormhole_b0 "
                     r"has 1396736 B available: its own buffers take 917504 B and the compiler adds 540672 B "
                     r"\(acc[.\w]*_local: the value of local block 'acc'\)", err), err
    assert re.search(r"buffer 'acc[.\w]*_local' \(added by the compiler: the value of local block 'acc'\): "
                     r"1 x 524288 B \+ one DST chunk of 16384 B = 540672 B \(block \(16, 8\), float32\)", err), err
    assert ("a local block (acc = ttl.block.fill(...)) too large for DST lives in L1 in float32, in two blocks "
            "(its value and the next one), or in one block and one DST chunk when it is only accumulated into "
            "(acc = acc + a @ b) and copied out once final: accumulating into the reserved output block instead "
            "(y_blk += a_blk @ b_blk) keeps the two blocks in the output's format") in err
