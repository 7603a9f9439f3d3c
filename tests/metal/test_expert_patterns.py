"""The lowering emits what a Metalium expert writes for attention's patterns (issue 23, item 2), with
the bits of the lowering it replaces: ``q @ transpose(k)`` reads k transposed through the matrix
unit (``matmul_block``'s transpose flag) instead of a transpose pass into a buffer; an expression
of one store that both a reduce (through the FPU's source registers) and an SFPU operation read
(softmax's ``e``) is computed once and packed into two buffers, instead of computed again in DST;
a block several statements read that way (computed once, ir/evaluate_once.py) is packed into both
at its store, instead of copied from one into the other by the statement that reads it through the FPU.

The emitted calls are FileChecked in tests/ir/lower_matmul_transposed.ir,
tests/ir/lower_read_both_ways.ir and tests/ir/lower_once_read_both_ways.ir; the yardsticks are benchmarks/emit_vs_hand.py's flash attention
and softmax (docs/emit.md).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from tests.emu.device_precision import assert_device_precision
from tests.emu.test_numerics_device import differing_bytes, outputs
from tests.outputs import assert_same_bits, launch_outputs
from tilecraft.ir import passes
from tilecraft.metal.lower_compute import ComputeLowering

ROOT = Path(__file__).resolve().parents[2]
SOFTMAX = ROOT / "benchmarks" / "emit_programs" / "softmax_rows.py"
#: a softmax whose intermediates are all fp32 (no rounding point: each is read both through the FPU
#: and in DST), as the yardstick was before it stated ttnn's rounding points
FP32_SOFTMAX = ROOT / "examples" / "single_thread_softmax.py"

pytestmark = pytest.mark.usefixtures("fresh_process_state")

SCORES = '''
import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def scores(q: ttnn.Tensor, k: ttnn.Tensor, s: ttnn.Tensor) -> None:
    q_dfb = ttl.make_dataflow_buffer_like(q, shape=(1, 3), block_count=2)
    k_dfb = ttl.make_dataflow_buffer_like(k, shape=(2, 3), block_count=2)
    s_dfb = ttl.make_dataflow_buffer_like(s, shape=(1, 2), block_count=2)

    @ttl.datamovement()
    def read():
        with q_dfb.reserve() as q_blk, k_dfb.reserve() as k_blk:
            ttl.copy(q[0:1, 0:3], q_blk).wait()
            ttl.copy(k[0:2, 0:3], k_blk).wait()

    @ttl.compute()
    def compute():
        with q_dfb.wait() as q_blk, k_dfb.wait() as k_blk, s_dfb.reserve() as s_blk:
            s_blk.store(q_blk @ ttl.block.transpose(k_blk) * 0.125)

    @ttl.datamovement()
    def write():
        with s_dfb.wait() as s_blk:
            ttl.copy(s_blk, s[0:1, 0:2]).wait()


torch.manual_seed(3)
q_host, k_host = torch.randn(32, 96).to(torch.bfloat16), torch.randn(64, 96).to(torch.bfloat16)
q = ttnn.from_torch(q_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
k = ttnn.from_torch(k_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
s = ttnn.zeros((32, 64), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
scores(q, k, s)
want = q_host.float() @ k_host.float().T * 0.125
assert torch.allclose(ttnn.to_torch(s), want, rtol=1e-2, atol=1e-2)
'''


@pytest.fixture
def scores_script(tmp_path: Path) -> Path:
    path = tmp_path / "scores.py"
    path.write_text(textwrap.dedent(SCORES))
    return path


@pytest.mark.parametrize("level", ["metal", pytest.param("cpp", marks=pytest.mark.slow)])
def test_a_transposed_operand_read_by_the_matrix_unit_keeps_the_transpose_pass_bits(
        level: str, scores_script: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """q @ k^T * scale (bfloat16 in, Float32 out, K of 3 tiles): the same bits as the lowering
    that transposes k into a buffer first; against the language level, the device's precision for
    matrix-unit sums (tests/emu/device_precision.py) on the emulator, every bit at the metal level."""
    fused = launch_outputs(scores_script, capsys, "--level", level)
    language = launch_outputs(scores_script, capsys)
    monkeypatch.setattr(ComputeLowering, "transposed_operand", lambda self, op: None)
    assert_same_bits(fused, launch_outputs(scores_script, capsys, "--level", level))
    if level == "cpp":
        assert_device_precision(fused[0][-1], language[0][-1], sums=True)
    else:
        assert_same_bits(fused, language)


@pytest.mark.parametrize("level", ["metal", pytest.param("cpp", marks=pytest.mark.slow)])
def test_an_expression_read_by_a_reduce_and_in_dst_is_computed_once_with_the_same_bits(
        level: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Softmax's ``e * recip(reduce_sum(e))`` (128 x 128 bfloat16, fp32 intermediates): the same bits
    as computing ``e`` again for the multiply, at the metal level and on the emulator."""
    once = launch_outputs(FP32_SOFTMAX, capsys, "--level", level)
    monkeypatch.setattr(ComputeLowering, "read_by_both_units", lambda self, value: [])
    assert_same_bits(once, launch_outputs(FP32_SOFTMAX, capsys, "--level", level))


@pytest.mark.parametrize("level", ["metal", pytest.param("cpp", marks=pytest.mark.slow)])
def test_a_block_computed_once_and_read_both_ways_keeps_its_bits(
        level: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Softmax (128 x 128 bfloat16, fp32 intermediates) with ``e`` computed once and packed into two
    buffers at its store: the same bits as without the pass (``e`` computed again in the store that
    reads it both ways, packed twice there), at the metal level and on the emulator."""
    once = launch_outputs(FP32_SOFTMAX, capsys, "--level", level)
    monkeypatch.setattr(passes, "PIPELINE", [p for p in passes.PIPELINE if p[0] != "evaluate-once"])
    assert_same_bits(once, launch_outputs(FP32_SOFTMAX, capsys, "--level", level))


@pytest.mark.slow
@pytest.mark.parametrize("program", ["softmax_rows", "rmsnorm_rows"])
def test_the_yardstick_programs_compute_the_device_numerics_bits_on_the_emulator(program: str) -> None:
    """The yardsticks' softmax and RMSNorm (64 x 256), with ttnn's rounding points
    (``.to(ttnn.bfloat16)``: bfloat16 buffers the FPU reads, tests/ir/lower_rounding_point.ir), with
    every bit of ``--numerics device`` (which models the FPU for the operations that moved there)."""
    path = SOFTMAX.parent / f"{program}.py"
    size = ("--rows", "64", "--cols", "256")
    emulated = outputs(path, "--level", "cpp", *size)
    assert emulated and differing_bytes(outputs(path, "--numerics", "device", *size), emulated) == 0
