"""Phase 1 advanced by whole loop periods (tilecraft/sim/fastforward/advance.py, loop_plan.py).

Every program here has loops long enough to be fast-forwarded; each asserts that periods were
skipped (or, where skipping would be wrong, that the run still gives the exact mode's bits), that
the result is bit for bit the one of ``--exact`` (which runs every operation), and, where the
answer is known, that it is the torch golden. The adversarial ones are the ways a skip could be
wrong: a branch whose outcome changes part-way (an ordering and an equality), a value carried
from one iteration to the next, a slice index that is not affine, an error or a deadlock after
the repeating part, several cores, nested loops, a thread-local accumulator.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.tutorial_sources import matmul_size, resize_source
from tests.outputs import assert_same_bits, launch_outputs
from tilecraft.cli import main
from tilecraft.sim.fastforward import advance

pytestmark = pytest.mark.usefixtures("fresh_process_state")

HEADER = '''
import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn
'''


@pytest.fixture
def skips(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of periods of every skip made while the test runs."""
    seen: list[int] = []
    original = advance.FastForward.apply

    def apply(self, plan, *args):  # type: ignore[no-untyped-def]
        seen.append(plan.count)
        return original(self, plan, *args)

    monkeypatch.setattr(advance.FastForward, "apply", apply)
    return seen


def run_both(tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, skips: list[int]) -> list[int]:
    """Run ``source`` fast and ``--exact``; the same bits; the skips the fast run made."""
    script = tmp_path / "program.py"
    script.write_text(HEADER + source)
    fast = launch_outputs(script, capsys)
    made = list(skips)
    assert_same_bits(fast, launch_outputs(script, capsys, "--exact"))
    return made


MATMUL_CHAIN = '''
@ttl.operation(grid=GRID)
def chain(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    m_tiles, k_tiles, n_tiles = a.shape[0] // 32, a.shape[1] // 32, b.shape[1] // 32
    gm, gn = ttl.grid_size(dims=2)
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=2)
    acc_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def read():
        node_m, node_n = ttl.node(dims=2)
        for m in range(node_m, m_tiles, gm):
            for n in range(node_n, n_tiles, gn):
                for k in range(k_tiles):
                    with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
                        ttl.copy(a[m, k], a_blk).wait()
                        ttl.copy(b[k, n], b_blk).wait()

    @ttl.compute()
    def compute():
        node_m, node_n = ttl.node(dims=2)
        for m in range(node_m, m_tiles, gm):
            for n in range(node_n, n_tiles, gn):
                with acc_dfb.reserve() as acc:
                    acc.store(ttl.block.fill(0, shape=acc.shape))
                for _ in range(k_tiles):
                    with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, acc_dfb.wait() as pre:
                        with acc_dfb.reserve() as acc:
                            acc.store(pre + a_blk @ b_blk)
                with acc_dfb.wait() as acc, y_dfb.reserve() as out:
                    out.store(ttl.math.relu(acc))

    @ttl.datamovement()
    def write():
        node_m, node_n = ttl.node(dims=2)
        for m in range(node_m, m_tiles, gm):
            for n in range(node_n, n_tiles, gn):
                with y_dfb.wait() as blk:
                    ttl.copy(blk, y[m, n]).wait()


torch.manual_seed(0)
M, K, N = SIZES
a_host = torch.randn(M, K, dtype=torch.bfloat16)
b_host = torch.randn(K, N, dtype=torch.bfloat16)
a = ttnn.from_torch(a_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
b = ttnn.from_torch(b_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((M, N), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
chain(a, b, y)
expected = torch.relu(a_host.float() @ b_host.float())
got = ttnn.to_torch(y).float()
assert torch.corrcoef(torch.stack([got.flatten(), expected.flatten()]))[0, 1] > 0.999
'''


@pytest.mark.parametrize("grid, sizes", [((1, 1), (64, 96 * 32, 96)), ((2, 2), (128, 80 * 32, 96)),
                                         pytest.param((1, 1), (40 * 32, 64, 40 * 32), marks=pytest.mark.slow)])
def test_matmul_chains_skip_periods_and_keep_the_exact_bits(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            skips: list[int], grid: tuple[int, int],
                                                            sizes: tuple[int, int, int]) -> None:
    source = MATMUL_CHAIN.replace("GRID", repr(grid)).replace("SIZES", repr(sizes))
    made = run_both(tmp_path, capsys, source, skips)
    assert made and sum(made) > 50


ELEMENTWISE = '''
@ttl.operation(grid=(1, 1))
def program(x: ttnn.Tensor, y: ttnn.Tensor):
    tiles = x.shape[1] // 32
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=3)

    @ttl.datamovement()
    def read():
        READ_LOOP

    @ttl.compute()
    def compute():
        for t in range(tiles):
            with x_dfb.wait() as blk, y_dfb.reserve() as out:
                COMPUTE_BODY

    @ttl.datamovement()
    def write():
        for t in range(tiles):
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[0, t]).wait()


torch.manual_seed(1)
TILES = 120
x_host = torch.randn(32, 32 * TILES)
x = ttnn.from_torch(x_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 32 * TILES), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
program(x, y)
got = ttnn.to_torch(y)
tiles_of = lambda t: t.reshape(32, TILES, 32).permute(1, 0, 2)
CHECK
'''

PLAIN_READ = '''for t in range(tiles):
            with x_dfb.reserve() as blk:
                ttl.copy(x[0, t], blk).wait()'''


def elementwise(read: str = PLAIN_READ, body: str = "out.store(blk + 1.0)", check: str = "") -> str:
    return ELEMENTWISE.replace("READ_LOOP", read).replace("COMPUTE_BODY", body).replace("CHECK", check)


def test_a_branch_whose_outcome_changes_part_way_is_not_skipped_over(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], skips: list[int]) -> None:
    body = '''if t < 77:
                    out.store(blk + 1.0)
                else:
                    out.store(blk * 2.0)'''
    check = '''want = torch.cat([x_host[:, :77 * 32] + 1.0, x_host[:, 77 * 32:] * 2.0], 1)
assert torch.equal(got, want)'''
    assert run_both(tmp_path, capsys, elementwise(body=body, check=check), skips)


def test_an_equality_that_holds_once_is_not_skipped_over(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], skips: list[int]) -> None:
    body = '''if t == 61:
                    out.store(blk * 0.0)
                else:
                    out.store(blk + 1.0)'''
    check = '''want = x_host + 1.0
want[:, 61 * 32:62 * 32] = 0.0
assert torch.equal(got, want)'''
    run_both(tmp_path, capsys, elementwise(body=body, check=check), skips)


def test_a_carried_affine_index_is_shifted(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            skips: list[int]) -> None:
    read = '''j = tiles - 1
        for t in range(tiles):
            with x_dfb.reserve() as blk:
                ttl.copy(x[0, j], blk).wait()
            j = j - 1'''
    check = "assert torch.equal(got, (tiles_of(x_host).flip(0) + 1.0).permute(1, 0, 2).reshape(32, -1))"
    assert run_both(tmp_path, capsys, elementwise(read=read, check=check), skips)


def test_a_non_affine_index_runs_step_by_step(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              skips: list[int]) -> None:
    read = '''for t in range(tiles):
            with x_dfb.reserve() as blk:
                ttl.copy(x[0, (t * 7) % tiles], blk).wait()'''
    check = '''order = [(t * 7) % TILES for t in range(TILES)]
assert torch.equal(got, (tiles_of(x_host)[order] + 1.0).permute(1, 0, 2).reshape(32, -1))'''
    # the reader moves outside any loop that qualifies, so no period of the core can be skipped
    assert not run_both(tmp_path, capsys, elementwise(read=read, check=check), skips)


def reports(tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str) -> list[str]:
    """What a failing program prints, fast and ``--exact``."""
    script = tmp_path / "program.py"
    script.write_text(HEADER + source)
    out = []
    for flags in ((), ("--exact",)):
        assert main(["run", str(script), *flags]) != 0
        out.append(capsys.readouterr().err)
    return out


def test_a_slice_past_the_end_after_the_repeating_part_is_reported(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], skips: list[int]) -> None:
    read = '''for t in range(tiles):
            with x_dfb.reserve() as blk:
                ttl.copy(x[0, t + 1], blk).wait()'''
    fast, exact = reports(tmp_path, capsys, elementwise(read=read))
    assert "E1107" in fast and "[0:1, 120:121]" in fast and fast == exact
    assert skips


def test_a_deadlock_after_the_repeating_part_is_diagnosed_as_in_the_exact_mode(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], skips: list[int]) -> None:
    read = '''for t in range(tiles - 1):
            with x_dfb.reserve() as blk:
                ttl.copy(x[0, t], blk).wait()'''
    fast, exact = reports(tmp_path, capsys, elementwise(read=read))
    assert "deadlock" in fast and fast == exact
    assert skips


def test_a_thread_local_accumulator_is_shifted(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              skips: list[int]) -> None:
    source = '''
@ttl.operation(grid=(1, 1))
def program(x: ttnn.Tensor, y: ttnn.Tensor):
    tiles = x.shape[1] // 32
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def read():
        for t in range(tiles):
            with x_dfb.reserve() as blk:
                ttl.copy(x[0, t], blk).wait()

    @ttl.compute()
    def compute():
        acc = ttl.block.fill(0.0, shape=(1, 1))
        for t in range(tiles):
            with x_dfb.wait() as blk:
                acc = acc + blk
        with y_dfb.reserve() as out:
            out.store(acc)

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()


torch.manual_seed(2)
TILES = 100
x_host = torch.randint(-8, 8, (32, 32 * TILES)).float()
x = ttnn.from_torch(x_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
program(x, y)
assert torch.equal(ttnn.to_torch(y), x_host.reshape(32, TILES, 32).sum(1))
'''
    assert run_both(tmp_path, capsys, source, skips)


#: published tutorials, unchanged apart from the size, with K loops long enough to skip periods
#: (the multi-node steps take 15-17 s each and run with -m slow; steps 1 and 2 skip periods by default)
TUTORIALS = [pytest.param("matmul/step_1_single_node_single_tile_block.py", 128, 1024, 128),
             pytest.param("matmul/step_2_single_node_multitile_block.py", 256, 4096, 256),
             pytest.param("matmul/step_3_multinode.py", 512, 4096, 512, marks=pytest.mark.slow),
             pytest.param("matmul/step_4_multinode_grid_full.py", 1024, 4096, 1024, marks=pytest.mark.slow)]


@pytest.mark.parametrize("tutorial, m, k, n", TUTORIALS, ids=[t.values[0] for t in TUTORIALS])
def test_published_tutorials_skip_periods_and_keep_the_exact_bits(
        tutorials: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], skips: list[int],
        tutorial: str, m: int, k: int, n: int) -> None:
    script = tmp_path / Path(tutorial).name
    script.write_text(resize_source((tutorials / tutorial).read_text(), matmul_size(m, k, n)))
    fast = launch_outputs(script, capsys)
    assert skips and sum(skips) >= 20
    assert_same_bits(fast, launch_outputs(script, capsys, "--exact"))
