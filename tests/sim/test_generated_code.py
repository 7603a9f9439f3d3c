"""The simulator's generated Python can be read: ``tilecraft show-ir --generated`` prints it, and a
traceback through it (an internal error) shows its lines, because it is registered in linecache."""

from __future__ import annotations

import linecache
import traceback

import pytest

from tests.paths import EXAMPLES
from tilecraft import session
from tilecraft.cli import main
from tilecraft.sim.language.engine import ProgramRuntime
from benchmarks.emit_tools import programs_of

EXAMPLE = EXAMPLES / "compare_eltwise_add.py"

pytestmark = pytest.mark.usefixtures("fresh_process_state")


def test_show_ir_generated_prints_every_thread(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show-ir", "--generated", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    for thread in ("reader", "compute", "writer"):
        assert f"# <tilecraft eltwise_add.{thread}>\ndef thread_{thread}(K, P):" in out
    assert "v_a_dfb_blk = cb0.reserve(" in out


def test_a_traceback_through_generated_code_shows_its_source() -> None:
    import tilecraft.ttnn as ttnn
    import torch
    (program,) = programs_of(EXAMPLE)
    tensors = [ttnn.from_torch(torch.zeros(t.shape), dtype=t.fmt, layout=ttnn.TILE_LAYOUT) for t in program.tensors]
    runtime = ProgramRuntime(program, tensors)
    code = runtime.threads[0]
    assert linecache.getline(code.filename, 2).strip() == "REC = K.rec"
    broken = code.fn(None, [])  # K=None: the first line of the body fails
    with pytest.raises(AttributeError) as info:
        next(broken)
    text = "".join(traceback.format_exception(info.value))
    assert f'File "{code.filename}", line 2' in text and "REC = K.rec" in text
    assert session.options().show_generated is False
