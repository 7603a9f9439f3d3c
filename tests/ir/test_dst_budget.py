"""DST budget at compile time (``metal/lower_compute.py: fit_dst``): an expression that needs more
DST tiles per output tile than DST holds is scheduled through fp32 intermediate buffers, with the
same bits at every level; an operation whose operands alone do not fit is ``E0411`` at the user's
line, before anything is simulated (the emitted C++ of the first case: tests/ir/lower_dst_budget.ir)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.outputs import assert_same_bits, launch_outputs, launch_with_messages
from tilecraft.arch.base import Arch

pytestmark = pytest.mark.usefixtures("fresh_process_state")

PROGRAM = '''
import torch
import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def deep(a: ttnn.Tensor, y: ttnn.Tensor) -> None:
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 2), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 2), block_count=2)

    @ttl.datamovement()
    def read():
        with a_dfb.reserve() as a_blk:
            ttl.copy(a[0:1, 0:2], a_blk).wait()

    @ttl.compute()
    def compute():
        with a_dfb.wait() as x, y_dfb.reserve() as y_blk:
            NAMED
            y_blk.store(EXPRESSION)

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as y_blk:
            ttl.copy(y_blk, y[0:1, 0:2]).wait()


torch.manual_seed(0)
a = torch.randn(32, 64)
deep(ttnn.from_torch(a, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT),
     ttnn.from_torch(torch.zeros(32, 64), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT))
'''

#: five DST tiles per output tile, where DST holds four (fp32, half-sync)
DEEP = "ttl.math.exp(x) + (ttl.math.sin(x) + (ttl.math.cos(x) + (ttl.math.tanh(x) + ttl.math.sigmoid(x))))"
#: three operands that ``where`` holds in DST at once, whatever is spilled
WHERE = "ttl.math.where(x > 0.0, ttl.math.exp(x), ttl.math.sin(x))"


#: a named expression four operands of SFPU operations read: computed once per chunk, held in DST
SHARED = ("e = ttl.math.exp(x) - 1.0", "e * e + ttl.math.where(x > 0.0, e, 1.0 - e)")


def script(tmp_path: Path, expression: str, named: str = "pass") -> Path:
    path = tmp_path / "deep.py"
    path.write_text(textwrap.dedent(PROGRAM).replace("EXPRESSION", expression).replace("NAMED", named))
    return path


def test_an_expression_read_several_times_in_one_store_stays_in_dst(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Its readers read its DST slot (tests/ir/evaluate_once.ir counts one exp_tile); the bits are
    the language level's."""
    path = script(tmp_path, SHARED[1], SHARED[0])
    assert_same_bits(launch_outputs(path, capsys), launch_outputs(path, capsys, "--level", "metal"))


def test_an_expression_deeper_than_dst_lowers_with_the_same_bits(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = script(tmp_path, DEEP)
    language, err = launch_with_messages(path, capsys)
    assert "W3001" not in err, err  # it used to be "an expression that needs 5 DST tiles" (E3001)
    assert_same_bits(language, launch_outputs(path, capsys, "--level", "metal"))


def test_an_operation_whose_operands_do_not_fit_dst_is_an_error_before_it_runs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Arch, "dst_tiles_per_phase", lambda self, fp32_acc: 2)
    path = script(tmp_path, WHERE)
    launches, err = launch_with_messages(path, capsys, must_pass=False)
    line = textwrap.dedent(PROGRAM).splitlines().index("            y_blk.store(EXPRESSION)") + 1
    assert (f"{path}:{line}:13: error[E0411]: this store's expression has an operation that needs 3 DST tiles per "
            "output tile with every operand read from a buffer, and DST holds 2 (wormhole_b0, fp32)") in err, err
    assert launches == []  # nothing was simulated
