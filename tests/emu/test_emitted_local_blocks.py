"""Local blocks (``m = fill(...)`` updated in a loop) read inside computed operands, at every level.

The flash-attention pattern of issue 21 (tests/emu/defects/flash_attention.py) keeps a running max,
sum and output in local blocks. The emitter built each store's expression (which evaluates the
computed operands of broadcasts and reductions into intermediate buffers right away) before
waiting for the local blocks it reads, so the emitted kernel read ``m`` unwaited (E5207 at
``--level cpp``; ``--level metal`` does not check the CB protocol); and it freed each local
block's last value at the end without a wait (E5202). Now the waits come first.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from tests.emu.harness import script_values

SCRIPT = Path(__file__).resolve().parent / "defects" / "flash_attention.py"

pytestmark = pytest.mark.usefixtures("fresh_process_state")


@pytest.mark.parametrize("level", ["language", "metal", "cpp"])
def test_flash_attention_matches_torch(level: str) -> None:
    code, values, err = script_values(SCRIPT, "--level", level)
    assert code == 0, err[-3000:]
    assert "warning[" not in err
    q, kt, v, o = (t.double() for t in values)
    want = torch.softmax(q @ kt, dim=-1) @ v
    assert torch.allclose(o, want, rtol=2e-2, atol=2e-2), (o - want).abs().max()
