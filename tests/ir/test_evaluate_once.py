"""Evaluate once (``ir/evaluate_once.py``): a block expression several statements use is computed
once, into a block the compiler adds and counts, with the results' bits unchanged; where the
program changes what it reads between its uses, it is computed at every use, with W0420 saying why.

The FileCheck side (the pass's IR, one ``matmul_tiles`` instead of two) is tests/ir/evaluate_once.ir.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.outputs import assert_same_bits, launch_outputs, launch_with_messages
from tilecraft import session
from tilecraft.cli import main
from tilecraft.ir import ops as ir
from tilecraft.ir import passes
from tilecraft.ir.l1 import Added
from tilecraft.metal import kir

FLASH_ATTENTION = Path(__file__).resolve().parents[2] / "examples" / "flash_attention.py"

pytestmark = pytest.mark.usefixtures("fresh_process_state")


@pytest.fixture
def every_use(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pipeline without the pass: each use evaluates the expression, as before it existed."""
    monkeypatch.setattr(passes, "PIPELINE", [p for p in passes.PIPELINE if p[0] != "evaluate-once"])


def lowered(path: Path, capsys: pytest.CaptureFixture[str]) -> kir.MetalProgram:
    """The one program ``path`` launches, lowered (emission computes no values)."""
    seen: list[kir.MetalProgram] = []
    with session.using(lowering_hooks=[lambda lowering: seen.append(lowering.metal())]):
        assert main(["show-ir", str(path)]) == 0
    capsys.readouterr()
    (program,) = seen
    return program


def products_of_q(program: kir.MetalProgram) -> int:
    """How many ``matmul_block`` calls of the compute kernel read the query block: Q @ K^T's count
    per K/V block (the loop body is emitted once)."""
    compute = next(k for k in program.kernels if k.name == "attend")
    return sum(1 for op in ir.walk(compute.body) if isinstance(op, kir.Call) and op.fn == "matmul_block"
               and str(op.args[0]) == "%cb_q_dfb")


def test_flash_attention_multiplies_q_by_k_once_per_kv_block(capsys: pytest.CaptureFixture[str]) -> None:
    program = lowered(FLASH_ATTENTION, capsys)
    assert products_of_q(program) == 1
    assert program.l1_need is not None
    once = {b.name: b for b in program.l1_need.added if b.added is Added.EVALUATED_ONCE}
    # s is read by reduce_max through the FPU and in DST: the FPU reads a copy packed at s's store
    assert sorted(once) == ["alpha.once_local", "m_new.once_local", "p.once_local", "s.once_fpu", "s.once_local"]
    assert once["s.once_local"].fmt == "float32" and once["s.once_local"].nbytes == 2 * 2 * 4096
    assert once["s.once_fpu"].nbytes == once["s.once_local"].nbytes
    assert len(program.cbs) == 15  # 16 before K^T was read through the matrix unit (no buffer for it)


def test_without_the_pass_each_statement_multiplies_q_by_k(every_use: None,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """The three statements that use ``s`` each compute it (once per statement: the lowering
    stages an expression several operands of one store read once; before either, 7 and 27)."""
    program = lowered(FLASH_ATTENTION, capsys)
    assert products_of_q(program) == 3
    assert len(program.cbs) == 22  # 21 before K^T lost its buffer and a value read by both units got two


def test_show_ir_names_the_buffers_the_compiler_adds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show-ir", str(FLASH_ATTENTION)]) == 0
    out = capsys.readouterr().out
    assert "%s.once = block.local_set %e.5, once=True : local<1x2, float32>" in out
    assert ("//   buffer 's.once_local' (added by the compiler: the value, computed once, of block expression 's'): "
            "2 x 8192 B = 16384 B (block (1, 2), float32)") in out


@pytest.mark.parametrize("level", ["language", "metal"])
def test_flash_attention_keeps_its_bits(level: str, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    once = launch_outputs(FLASH_ATTENTION, capsys, "--level", level)
    monkeypatch.setattr(passes, "PIPELINE", [p for p in passes.PIPELINE if p[0] != "evaluate-once"])
    assert_same_bits(once, launch_outputs(FLASH_ATTENTION, capsys, "--level", level))


@pytest.mark.slow
def test_flash_attention_keeps_its_bits_on_the_emulator(capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    once = launch_outputs(FLASH_ATTENTION, capsys, "--level", "cpp")
    monkeypatch.setattr(passes, "PIPELINE", [p for p in passes.PIPELINE if p[0] != "evaluate-once"])
    assert_same_bits(once, launch_outputs(FLASH_ATTENTION, capsys, "--level", "cpp"))


CHANGED_BETWEEN_USES = '''
import torch
import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def kern(a: ttnn.Tensor, y: ttnn.Tensor, z: ttnn.Tensor) -> None:
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)
    z_dfb = ttl.make_dataflow_buffer_like(z, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def read():
        with a_dfb.reserve() as a_blk:
            ttl.copy(a[0, 0], a_blk).wait()

    @ttl.compute()
    def compute():
        with a_dfb.wait() as a_blk, y_dfb.reserve() as y_blk, z_dfb.reserve() as z_blk:
            acc = ttl.block.fill(1.0, shape=(1, 1))
            e = ttl.math.exp(a_blk) * acc
            y_blk.store(e)
            acc = acc + 1.0
            z_blk.store(e)

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as y_blk:
            ttl.copy(y_blk, y[0, 0]).wait()
        with z_dfb.wait() as z_blk:
            ttl.copy(z_blk, z[0, 0]).wait()


a = torch.randn(32, 32) / 4
tensors = [ttnn.from_torch(t, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT) for t in (a, a * 0, a * 0)]
kern(*tensors)
y, z = (ttnn.to_torch(t) for t in tensors[1:])
# each use reads acc as it is when the store runs
assert torch.allclose(y, torch.exp(a)), (y - torch.exp(a)).abs().max()
assert torch.allclose(z, 2 * torch.exp(a)), (z - 2 * torch.exp(a)).abs().max()
'''


def test_an_operand_changed_between_uses_keeps_every_evaluation_and_says_why(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "changed.py"
    script.write_text(textwrap.dedent(CHANGED_BETWEEN_USES))
    _, err = launch_with_messages(script, capsys)
    line = CHANGED_BETWEEN_USES.splitlines().index("            e = ttl.math.exp(a_blk) * acc") + 1
    assert (f"{script}:{line}:17: warning[W0420]: the block expression 'e' is computed again by each statement "
            f"that uses it: 'acc' is assigned at line {line + 2} between its uses") in err, err
    assert err.count("W0420") == 1, err


TOO_LARGE_TO_HOLD = '''
import torch
import tilecraft as ttl
import tilecraft.ttnn as ttnn

R, C = 16, 8  # a block of 128 tiles: 256 KiB in bfloat16, 512 KiB in float32


@ttl.operation(grid=(1, 1))
def big(a: ttnn.Tensor, y: ttnn.Tensor, z: ttnn.Tensor) -> None:
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(R, C), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(R, C), block_count=1)
    z_dfb = ttl.make_dataflow_buffer_like(z, shape=(R, C), block_count=1)

    @ttl.datamovement()
    def read():
        with a_dfb.reserve() as a_blk:
            ttl.copy(a[0:R, 0:C], a_blk).wait()

    @ttl.compute()
    def compute():
        with a_dfb.wait() as x, y_dfb.reserve() as y_blk, z_dfb.reserve() as z_blk:
            e = ttl.math.exp(x)
            y_blk.store(e)
            z_blk.store(e * 2.0)

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as y_blk:
            ttl.copy(y_blk, y[0:R, 0:C]).wait()
        with z_dfb.wait() as z_blk:
            ttl.copy(z_blk, z[0:R, 0:C]).wait()


torch.manual_seed(0)
a = torch.randn(R * 32, C * 32)
ts = [ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT) for t in (a, a * 0, a * 0)]
big(*ts)
x = a.to(torch.bfloat16).float()
assert torch.allclose(ttnn.to_torch(ts[1]).float(), torch.exp(x), rtol=1e-2)
assert torch.allclose(ttnn.to_torch(ts[2]).float(), 2 * torch.exp(x), rtol=1e-2)
'''


def test_blocks_that_would_not_fit_l1_leave_the_program_as_written(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Holding ``e`` once would take two fp32 blocks of 512 KiB: the program then runs as written
    (it fits L1 that way), and W0420 says why (the E0401 it avoided)."""
    script = tmp_path / "too_large.py"
    script.write_text(TOO_LARGE_TO_HOLD)
    _, err = launch_with_messages(script, capsys)
    line = TOO_LARGE_TO_HOLD.splitlines().index("            e = ttl.math.exp(x)") + 1
    assert (f"{script}:{line}:17: warning[W0420]: the block expression 'e' is computed again by each statement "
            "that uses it: the blocks that would hold such expressions once do not fit (E0401: the buffers of "
            "program 'big' need 1835008 B of L1 per core") in err, err
