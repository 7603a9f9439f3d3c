"""Local blocks (``m = fill(...)`` updated in a loop) read inside computed operands, at every level.

The flash-attention pattern of issue 21 (tests/emu/defects/flash_attention.py) keeps a running max,
sum and output in local blocks. The emitter built each store's expression (which evaluates the
computed operands of broadcasts and reductions into intermediate buffers right away) before
waiting for the local blocks it reads, so the emitted kernel read ``m`` unwaited (E5207 at
``--level cpp``; ``--level metal`` does not check the CB protocol); and it freed each local
block's last value at the end without a wait (E5202). Now the waits come first.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
import torch

from tilecraft import session
from tilecraft.cli import main

SCRIPT = Path(__file__).resolve().parent / "defects" / "flash_attention.py"

pytestmark = pytest.mark.usefixtures("fresh_process_state")


@pytest.mark.parametrize("level", ["language", "metal", "cpp"])
def test_flash_attention_matches_torch(level: str) -> None:
    seen: list[list[torch.Tensor]] = []
    err = io.StringIO()
    with session.using(result_hooks=[lambda program, tensors: seen.append([t.to_torch() for t in tensors])]), \
            contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["run", str(SCRIPT), "--level", level])
    assert code == 0, err.getvalue()[-3000:]
    assert "warning[" not in err.getvalue()
    q, kt, v, o = (t.double() for t in seen[0])
    want = torch.softmax(q @ kt, dim=-1) @ v
    assert torch.allclose(o, want, rtol=2e-2, atol=2e-2), (o - want).abs().max()
