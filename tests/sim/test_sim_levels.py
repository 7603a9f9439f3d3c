"""The level evaluator (tilecraft/sim/dataflow/level_evaluator.py) keeps program order where batching could break it.

Writes of one tensor from two sites run in program order per tensor (the level evaluator runs a
segment's writes at its end): here two copies alternate into the same tile and the last of all
comes from the first site, so running the writes site by site would keep the wrong one.
A value that depends only on reads is computed just before the loop step that consumes it, not
with every other step's at the reads' depth.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.outputs import assert_same_bits, launch_outputs
from tilecraft.sim.dataflow import level_evaluator
from tilecraft.sim.dataflow.level_evaluator import LevelEvaluator

pytestmark = pytest.mark.usefixtures("fresh_process_state")

PROGRAM = '''
import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def last_write_wins(x: ttnn.Tensor, y: ttnn.Tensor):
    tiles = x.shape[1] // 32
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    p_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)
    q_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def reader():
        for t in range(tiles):
            with x_dfb.reserve() as blk:
                ttl.copy(x[0, t], blk).wait()

    @ttl.compute()
    def compute():
        for _ in range(tiles):
            with x_dfb.wait() as x_blk:
                with p_dfb.reserve() as p_blk:
                    p_blk.store(x_blk + 1.0)
                with q_dfb.reserve() as q_blk:
                    q_blk.store(x_blk * 2.0)

    @ttl.datamovement()
    def writer():
        for t in range(tiles):
            with p_dfb.wait() as p_blk:
                ttl.copy(p_blk, y[0, 0]).wait()
            with q_dfb.wait() as q_blk:
                if t < tiles - 1:
                    ttl.copy(q_blk, y[0, 0]).wait()
'''


def test_writes_of_one_tensor_from_two_sites_keep_program_order(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    source = PROGRAM + '''
torch.manual_seed(0)
x_host = torch.randn(32, 32 * 5)
x = ttnn.from_torch(x_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 64), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
last_write_wins(x, y)
got = ttnn.to_torch(y)
assert torch.equal(got[:, :32], x_host[:, 128:] + 1.0)  # the last write, from the first of the two sites
assert not got[:, 32:].any()
print("ok")
'''
    script = tmp_path / "last_write_wins.py"
    script.write_text(source)
    fast = launch_outputs(script, capsys)
    assert_same_bits(fast, launch_outputs(script, capsys, "--exact"))


READ_THEN_OVERWRITTEN = '''
import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def move_then_overwrite(x: ttnn.Tensor):
    a_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    p_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def reader():
        with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
            ttl.copy(x[0, 0], a_blk).wait()
            ttl.copy(x[0, 0], b_blk).wait()

    @ttl.compute()
    def compute():
        with a_dfb.wait() as a_blk, p_dfb.reserve() as p_blk:
            p_blk.store(a_blk + 1.0)

    @ttl.datamovement()
    def writer():
        with p_dfb.wait() as p_blk:
            ttl.copy(p_blk, x[0, 0]).wait()
        with b_dfb.wait() as b_blk:
            ttl.copy(b_blk, x[0, 1]).wait()


torch.manual_seed(0)
x_host = torch.randn(32, 64)
x = ttnn.from_torch(x_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
move_then_overwrite(x)
got = ttnn.to_torch(x)
assert torch.equal(got[:, :32], x_host[:, :32] + 1.0)
assert torch.equal(got[:, 32:], x_host[:, :32])  # the block read before the tile was overwritten
'''


def test_a_read_written_elsewhere_keeps_the_value_it_read(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A block read from a tile, then copied to another tile after the first was overwritten, holds
    the old contents: the level evaluator gathers such reads before the segment's writes."""
    script = tmp_path / "move_then_overwrite.py"
    script.write_text(READ_THEN_OVERWRITTEN)
    assert_same_bits(launch_outputs(script, capsys), launch_outputs(script, capsys, "--exact"))


READ_BEFORE_A_BARRIER = '''
import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def read_write_read(x: ttnn.Tensor, z: ttnn.Tensor):
    a_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    p_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    go_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(z, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def reader():
        with a_dfb.reserve() as a_blk:
            ttl.copy(x[0, 0], a_blk).wait()

    @ttl.compute()
    def compute():
        with p_dfb.reserve() as p_blk:
            p_blk.store(ttl.block.fill(7.0, shape=p_blk.shape))
        with go_dfb.wait() as go_blk, a_dfb.wait() as a_blk, y_dfb.reserve() as y_blk:
            y_blk.store(a_blk + go_blk)

    @ttl.datamovement()
    def writer():
        with p_dfb.wait() as p_blk:
            ttl.copy(p_blk, x[0, 0]).wait()
        with go_dfb.reserve() as go_blk:
            ttl.copy(x[0, 1], go_blk).wait()
        with y_dfb.wait() as y_blk:
            ttl.copy(y_blk, z[0, 0]).wait()


torch.manual_seed(0)
x_host = torch.randn(32, 64)
x = ttnn.from_torch(x_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
z = ttnn.zeros((32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
read_write_read(x, z)
assert torch.equal(ttnn.to_torch(x)[:, :32], torch.full((32, 32), 7.0))
assert torch.equal(ttnn.to_torch(z), x_host[:, :32] + x_host[:, 32:])  # x[0, 0] as it was when read
'''


def test_a_read_consumed_after_a_barrier_keeps_the_value_it_read(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A block read from a tile that a later write overwrites, consumed only after a read-after-write
    barrier, holds the old contents (gathered before that segment's writes)."""
    script = tmp_path / "read_write_read.py"
    script.write_text(READ_BEFORE_A_BARRIER)
    assert_same_bits(launch_outputs(script, capsys), launch_outputs(script, capsys, "--exact"))


RUNNING_MAX = '''
import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

STEPS = 24


@ttl.operation(grid=(1, 1))
def running_max(x: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=1)

    @ttl.datamovement()
    def reader():
        for t in range(STEPS):
            with x_dfb.reserve() as blk:
                ttl.copy(x[0, t], blk).wait()

    @ttl.compute()
    def compute():
        with y_dfb.reserve() as y_blk:
            m = ttl.block.fill(-1e30, shape=(1, 1))
            total = ttl.block.fill(0.0, shape=(1, 1))
            for _ in range(STEPS):
                with x_dfb.wait() as x_blk:
                    scores = ttl.math.exp(x_blk * 0.5)  # used twice: computed once, from the read alone
                    m = ttl.math.max(m, scores)  # carried around the loop: one level deeper a step
                    total = total + scores
            y_blk.store(m + total)

    @ttl.datamovement()
    def writer():
        with y_dfb.wait() as y_blk:
            ttl.copy(y_blk, y[0, 0]).wait()


torch.manual_seed(0)
x_host = torch.randn(32, 32 * STEPS)
x = ttnn.from_torch(x_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
running_max(x, y)
scores = torch.exp(x_host * 0.5).reshape(32, STEPS, 32)
want = scores.amax(dim=1) + scores.sum(dim=1)
assert torch.allclose(ttnn.to_torch(y), want, rtol=1e-5), (ttnn.to_torch(y) - want).abs().max()
'''


def test_a_value_is_computed_just_before_its_consumer_not_at_its_own_depth(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A loop's values that depend only on reads (flash attention's scores) have the depth of the
    reads, but the loop-carried chain consumes them one step at a time: the level evaluator computes
    each just before its consumer, so no level holds the scores of every step (24 here) at once."""
    script = tmp_path / "running_max.py"
    script.write_text(RUNNING_MAX)
    widest: list[int] = []
    real_store = LevelEvaluator.store

    def store(self, vids, values):  # type: ignore[no-untyped-def]
        widest.append(len(vids))
        real_store(self, vids, values)

    monkeypatch.setattr(LevelEvaluator, "store", store)
    fast = launch_outputs(script, capsys)
    assert widest and max(widest) == 1  # one block per batch: every step's score on its own level
    monkeypatch.undo()
    assert_same_bits(fast, launch_outputs(script, capsys, "--exact"))


CHAIN_ACROSS_A_BARRIER = '''
import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def chain_across_a_barrier(x: ttnn.Tensor, w: ttnn.Tensor, z: ttnn.Tensor):
    a_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(w, shape=(1, 1), block_count=2)
    read_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    go_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    p_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    sum_dfb = ttl.make_dataflow_buffer_like(z, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(z, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def reader():
        for k in range(2):
            with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
                ttl.copy(x[0, k], a_blk).wait()
                ttl.copy(w[k, 0], b_blk).wait()
        with read_dfb.reserve() as done:  # both K steps' operands are read
            ttl.copy(x[0, 0], done).wait()

    @ttl.compute()
    def compute():
        with sum_dfb.reserve() as first:
            first.store(ttl.block.fill(0.0, shape=first.shape))
        for _ in range(2):
            with go_dfb.wait() as go_blk, a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, sum_dfb.wait() as partial:
                with sum_dfb.reserve() as nxt:
                    nxt.store(partial + a_blk @ b_blk)
            with p_dfb.reserve() as p_blk:  # this K step is done
                p_blk.store(ttl.block.fill(7.0, shape=p_blk.shape))
        with sum_dfb.wait() as total, y_dfb.reserve() as y_blk:
            y_blk.store(total)

    @ttl.datamovement()
    def writer():
        with read_dfb.wait() as done:
            pass
        with go_dfb.reserve() as go_blk:  # the first K step may run
            ttl.copy(x[0, 0], go_blk).wait()
        with p_dfb.wait() as p_blk:  # after it, the second K step's block of x is overwritten...
            ttl.copy(p_blk, x[0, 1]).wait()
        with go_dfb.reserve() as go_blk:  # ...and this read of x cuts a barrier before the second step
            ttl.copy(x[0, 0], go_blk).wait()
        with p_dfb.wait() as p_blk:
            ttl.copy(p_blk, x[0, 1]).wait()
        with y_dfb.wait() as y_blk:
            ttl.copy(y_blk, z[0, 0]).wait()


torch.manual_seed(0)
x_host = torch.randn(32, 64).bfloat16()
w_host = torch.randn(64, 32).bfloat16()
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
w = ttnn.from_torch(w_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
z = ttnn.zeros((32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
chain_across_a_barrier(x, w, z)
want = x_host.float() @ w_host.float()  # with x[0, 1] as it was when read, not the 7s written over it
assert torch.allclose(ttnn.to_torch(z).float(), want, rtol=0.02, atol=0.1), (ttnn.to_torch(z).float() - want).abs().max()
'''


def test_a_chain_step_whose_read_was_gathered_before_a_write_uses_that_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A K chain's next step is found as the reads after the last step's, without a search
    (chains._next_reads); when a write barrier lies between the steps, the second step's read of the
    overwritten block was gathered before the write, and the chain must take it from its slab
    (LevelEvaluator.holds_reads), not read the tensor again."""
    script = tmp_path / "chain_across_a_barrier.py"
    script.write_text(CHAIN_ACROSS_A_BARRIER)
    answers: list[bool] = []
    real = LevelEvaluator.holds_reads

    def holds_reads(self, vids):  # type: ignore[no-untyped-def]
        answers.append(real(self, vids))
        return answers[-1]

    monkeypatch.setattr(LevelEvaluator, "holds_reads", holds_reads)
    fast = launch_outputs(script, capsys)
    assert True in answers  # the second step's read of x was found in a slab
    monkeypatch.undo()
    assert_same_bits(fast, launch_outputs(script, capsys, "--exact"))


@pytest.mark.parametrize("table_cells", [level_evaluator.TABLE_CELLS, 0], ids=["table", "ufunc"])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_maximum_at_is_numpys(table_cells: int, data: st.DataObject) -> None:
    """The consumer horizons' per-key maximum (a marked table, or ``np.maximum.at`` where the table
    would be large) equals ``np.maximum.at``: keys absent, repeated, values of either depth dtype."""
    keys_count = data.draw(st.integers(1, 40))
    n = data.draw(st.integers(0, 300))
    dtype = data.draw(st.sampled_from([np.int16, np.int32]))
    keys = np.asarray(data.draw(st.lists(st.integers(0, keys_count - 1), min_size=n, max_size=n)), dtype=np.int64)
    values = np.asarray(data.draw(st.lists(st.integers(0, 2000), min_size=n, max_size=n)), dtype=dtype)
    start = np.asarray(data.draw(st.lists(st.integers(-1, 2000), min_size=keys_count, max_size=keys_count)),
                       dtype=np.int32)
    want, got = start.copy(), start.copy()
    np.maximum.at(want, keys, values)
    original = level_evaluator.TABLE_CELLS
    level_evaluator.TABLE_CELLS = table_cells
    try:
        level_evaluator.maximum_at(got, keys, values)
    finally:
        level_evaluator.TABLE_CELLS = original
    assert np.array_equal(got, want)
