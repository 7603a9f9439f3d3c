"""A rounding point the program states, ``expr.to(ttnn.bfloat16)`` (docs/language.md section 5.9),
at every level: the language level rounds there (to nearest even, or as the packer rounds with
``--numerics device``), the lowering packs the value into a bfloat16 buffer and lets the FPU read it
(tests/ir/lower_rounding_point.ir), and the emitted C++ computes ``--numerics device``'s bits.

The yardstick programs written this way (benchmarks/emit_programs/softmax_rows.py, rmsnorm_rows.py)
are checked against torch at the language and metal levels here, and bit for bit between
``--numerics device`` and ``--level cpp`` in tests/metal/test_expert_patterns.py (slow).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import torch

from tests.emu.test_numerics_device import differing_bytes, outputs
from tests.outputs import launch_outputs
from tilecraft import device_arith

PROGRAMS = Path(__file__).resolve().parents[2] / "benchmarks" / "emit_programs"

pytestmark = pytest.mark.usefixtures("fresh_process_state")

#: ``y = (x * s).to(bfloat16) * 3`` into a Float32 output, so that the rounding point is the only
#: rounding before the output's
THIRDS = '''
import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

SCALE = 1.0 / 3.0


@ttl.operation(grid=(1, 1))
def thirds(x: ttnn.Tensor, y: ttnn.Tensor) -> None:
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 2), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 2), block_count=2)

    @ttl.datamovement()
    def read():
        with x_dfb.reserve() as x_blk:
            ttl.copy(x[0:1, 0:2], x_blk).wait()

    @ttl.compute()
    def compute():
        with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
            third = (x_blk * SCALE).to(ttnn.bfloat16)
            y_blk.store(third * 3.0)

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as y_blk:
            ttl.copy(y_blk, y[0:1, 0:2]).wait()


torch.manual_seed(7)
x = ttnn.from_torch((torch.randn(32, 64) * 4).to(torch.bfloat16), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 64), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
thirds(x, y)
'''


@pytest.fixture
def thirds_script(tmp_path: Path) -> Path:
    path = tmp_path / "thirds.py"
    path.write_text(textwrap.dedent(THIRDS))
    return path


def test_the_language_level_rounds_at_the_point_to_nearest_even(
        thirds_script: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``(x / 3).to(bfloat16) * 3``: each value is the bfloat16 nearest to x / 3 (ties to even), times
    3 in fp32 -- not x / 3 * 3, which the program without the rounding point computes."""
    (x, y), = launch_outputs(thirds_script, capsys)
    third = x.float() * torch.tensor(1.0 / 3.0, dtype=torch.float32)
    assert torch.equal(y, third.to(torch.bfloat16).float() * 3.0)
    assert not torch.equal(y, third * 3.0)


def test_device_numerics_round_as_the_packer_and_equal_the_metal_level(
        thirds_script: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With ``--numerics device`` the point rounds as the packer does (ties away from zero), and the
    lowered kernels at the metal level (the pack into a bfloat16 buffer, copied back into DST)
    compute the same values."""
    (x, y), = launch_outputs(thirds_script, capsys, "--numerics", "device")
    third = x.float() * torch.tensor(1.0 / 3.0, dtype=torch.float32)
    assert torch.equal(y, device_arith.pack_bf16(third).float() * 3.0)
    (_, metal), = launch_outputs(thirds_script, capsys, "--level", "metal")
    assert torch.allclose(metal, y, rtol=0, atol=float(y.abs().max()) * 2 ** -8)


@pytest.mark.slow
def test_the_emitted_cpp_computes_the_device_numerics_bits(thirds_script: Path) -> None:
    emulated = outputs(thirds_script, "--level", "cpp")
    assert emulated and differing_bytes(outputs(thirds_script, "--numerics", "device"), emulated) == 0


def _pcc(a: torch.Tensor, b: torch.Tensor) -> float:
    return float(torch.corrcoef(torch.stack([a.flatten().double(), b.flatten().double()]))[0, 1])


@pytest.mark.parametrize("level", ["language", "metal"])
def test_softmax_with_ttnn_rounding_points_matches_torch(level: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The yardstick softmax (64 x 128): against torch, within what bfloat16 intermediates allow."""
    flags = ("--rows", "64", "--cols", "128") + (("--level", level) if level != "language" else ())
    (x, y), = launch_outputs(PROGRAMS / "softmax_rows.py", capsys, *flags)
    want = torch.softmax(x.float(), dim=-1)
    assert _pcc(y.float(), want) > 0.9999 and float((y.float() - want).abs().max()) < 4e-3


@pytest.mark.parametrize("level", ["language", "metal"])
def test_rmsnorm_with_ttnn_rounding_points_matches_torch(level: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The yardstick RMSNorm with a gain (64 x 128): against torch in float64."""
    flags = ("--rows", "64", "--cols", "128") + (("--level", level) if level != "language" else ())
    (x, g, y), = launch_outputs(PROGRAMS / "rmsnorm_rows.py", capsys, *flags)
    xf = x.double()
    want = xf / torch.sqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-5) * g.double()[:1]  # g: one row, tile-padded
    assert _pcc(y.float(), want) > 0.9999 and float((y.double() - want).abs().max()) < 0.05
