"""The timing model advanced by whole loop periods (tilecraft/perf/fastforward.py) against the same
model run operation by operation (``estimate(..., fast_forward=False)``, ``profile --exact``).

The stated tolerance (docs/performance-model.md): the predicted cycles within ``TOTAL_TOL`` of the
step-by-step run, and every source line's busy and stall cycles within ``LINE_TOL`` of the
program's predicted cycles (cores in lockstep tie on equal clocks, and which one a tie favours
depends on the last bits of the clocks, which a skip shifts). Long-loop programs assert that
periods were skipped; the adversarial ones are the ways a skip could go wrong: a branch whose
outcome (and cost) changes part-way, a buffer that fills up late and then makes its producer
stall, several cores sharing DRAM banks.
"""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

import tilecraft as ttl
import tilecraft.ttnn as ttnn
from benchmarks.emit_tools import programs_of
from benchmarks.perf_kernels import eltwise_stream, unary_pipeline
from benchmarks.tutorial_sources import matmul_size, resize_source
from tests import paths
from tests.perf.test_perf_model import build
from tests.end_to_end.test_tutorials import SMALL
from tilecraft.cli import main
from tilecraft.perf import Estimate, estimate
from tilecraft.perf.capture import programs
from tilecraft.perf.fastforward import REL_TOL
from tilecraft.scripts import install_modules

TILE = 32
#: predicted cycles, relative to the step-by-step run's
TOTAL_TOL = 10 * REL_TOL
#: each line's busy and stall cycles, relative to the program's predicted cycles
LINE_TOL = 1e-4

EXAMPLES = sorted(paths.EXAMPLES.glob("*.py"))

pytestmark = pytest.mark.usefixtures("fresh_process_state")


def agree(program) -> Estimate:
    """Estimate ``program`` both ways; they agree within the tolerance; the fast-forwarded one."""
    fast = estimate(program)
    exact = estimate(program, fast_forward=False)
    assert fast.cycles == pytest.approx(exact.cycles, rel=TOTAL_TOL)
    assert [(line.file, line.line) for line in fast.lines] == [(line.file, line.line) for line in exact.lines]
    for got, want in zip(fast.lines, exact.lines):
        assert got.busy_per_core == pytest.approx(want.busy_per_core, abs=LINE_TOL * exact.cycles), got
        assert got.stall_per_core == pytest.approx(want.stall_per_core, abs=LINE_TOL * exact.cycles), got
    assert fast.flops == exact.flops
    assert fast.dram_read_bytes == exact.dram_read_bytes and fast.dram_write_bytes == exact.dram_write_bytes
    for share in ("compute_utilisation", "dram_utilisation", "noc_utilisation"):
        assert getattr(fast, share) == pytest.approx(getattr(exact, share), abs=LINE_TOL), share
    assert fast.bound == exact.bound
    return fast


def skips(est: Estimate) -> int:
    ff = est.run.fast_forward
    return ff.skipped_periods if ff is not None else 0


# ---------------------------------------------------------------- every example and tutorial
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_examples_agree(path: Path) -> None:
    for program in programs_of(path):
        agree(program)


@pytest.mark.parametrize("tutorial, size", SMALL, ids=[t for t, _ in SMALL])
def test_tutorials_agree(tutorials: Path, tmp_path: Path, tutorial: str, size) -> None:
    script = tmp_path / Path(tutorial).name
    script.write_text(resize_source((tutorials / tutorial).read_text(), size))
    for program in programs_of(script):
        agree(program)


# ---------------------------------------------------------------- long loops: periods are skipped
def k_chain(k_tiles: int):
    """``y = a @ b`` on one core, one tile product per step of a K loop (the tutorial's step 1)."""

    @ttl.operation(grid=(1, 1))
    def chain(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
        a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
        b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=2)
        acc_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)
        y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=1)

        @ttl.datamovement()
        def read():
            for k in range(k_tiles):
                with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
                    ttl.copy(a[0, k], a_blk).wait()
                    ttl.copy(b[k, 0], b_blk).wait()

        @ttl.compute()
        def compute():
            with acc_dfb.reserve() as acc:
                acc.store(ttl.block.fill(0, shape=acc.shape))
            for _ in range(k_tiles):
                with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, acc_dfb.wait() as pre:
                    with acc_dfb.reserve() as acc:
                        acc.store(pre + a_blk @ b_blk)
            with acc_dfb.wait() as acc, y_dfb.reserve() as out:
                out.store(acc)

        @ttl.datamovement()
        def write():
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[0, 0]).wait()

    return chain


def test_a_long_k_loop_is_skipped() -> None:
    k = 600
    est = agree(build(k_chain(k), (TILE, k * TILE), (k * TILE, TILE), (TILE, TILE)))
    assert skips(est) > 50


def test_a_long_stream_is_skipped_with_its_banks_rotating() -> None:
    """Each block starts 4 pages (4 banks) further: the periods are the last one with the banks
    renumbered, and the banks' busy cycles are spread as the step-by-step run spreads them."""
    n = 600
    est = agree(build(unary_pipeline(n, 4, "exp"), (n * TILE, 4 * TILE), (n * TILE, 4 * TILE)))
    assert skips(est) > 50
    exact = estimate(est.run.program, fast_forward=False)
    assert est.run.res.bank_busy == pytest.approx(exact.run.res.bank_busy, rel=1e-9)


def multicore_stream(cores: int, blocks: int):
    """``y = exp(x)`` on ``cores`` cores, each streaming its own rows: every core reads and writes
    the same banks at the same times (the rows of a core are a multiple of 12 pages apart)."""

    @ttl.operation(grid=(cores, 1))
    def stream(x: ttnn.Tensor, y: ttnn.Tensor):
        x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 4), block_count=2)
        y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 4), block_count=2)

        @ttl.datamovement()
        def load():
            first = ttl.node(dims=1) * blocks
            for i in range(blocks):
                with x_dfb.reserve() as blk:
                    ttl.copy(x[first + i:first + i + 1, 0:4], blk).wait()

        @ttl.compute()
        def apply():
            for _ in range(blocks):
                with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
                    y_blk.store(ttl.math.exp(x_blk))

        @ttl.datamovement()
        def save():
            first = ttl.node(dims=1) * blocks
            for i in range(blocks):
                with y_dfb.wait() as blk:
                    ttl.copy(blk, y[first + i:first + i + 1, 0:4]).wait()

    return stream


def test_several_cores_sharing_the_banks_are_skipped_together() -> None:
    cores, blocks = 4, 600
    est = agree(build(multicore_stream(cores, blocks), *[(cores * blocks * TILE, 4 * TILE)] * 2))
    assert skips(est) > 50


def test_cores_whose_loops_do_not_qualify_run_every_operation() -> None:
    """Round-robin blocks (``n // cols``, ``n % cols``: not affine): no skip, the same result."""
    blocks = 200
    est = agree(build(eltwise_stream((2, 2)), *[(4 * blocks * TILE, 4 * TILE)] * 3))
    assert skips(est) == 0


def step_1(tutorials: Path, tmp_path: Path, n: int) -> Path:
    script = tmp_path / "step_1.py"
    source = (tutorials / "matmul/step_1_single_node_single_tile_block.py").read_text()
    script.write_text(resize_source(source, matmul_size(n, n, n)))
    return script


def test_the_matmul_tutorial_is_skipped_at_its_outer_loop(tutorials: Path, tmp_path: Path) -> None:
    """Step 1 at 1024^3: 32x32x32 tiles, 32768 iterations of the K loop."""
    install_modules()
    with programs() as launched:
        try:
            runpy.run_path(str(step_1(tutorials, tmp_path, 1024)), run_name="__main__")
        except AssertionError:
            pass  # the script checks values, which a timing-only run does not compute
    est = agree(launched[0])
    assert skips(est) > 0


# ---------------------------------------------------------------- adversarial
def branching_stream(blocks: int, switch: int):
    """Cheap blocks, then (from ``switch`` on) expensive ones: the period changes part-way."""

    @ttl.operation(grid=(1, 1))
    def switching(x: ttnn.Tensor, y: ttnn.Tensor):
        x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 4), block_count=2)
        y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 4), block_count=2)

        @ttl.datamovement()
        def load():
            for i in range(blocks):
                with x_dfb.reserve() as blk:
                    ttl.copy(x[i:i + 1, 0:4], blk).wait()

        @ttl.compute()
        def apply():
            for i in range(blocks):
                with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
                    if i < switch:
                        y_blk.store(x_blk + 1.0)
                    else:
                        y_blk.store(ttl.math.exp(x_blk))

        @ttl.datamovement()
        def save():
            for i in range(blocks):
                with y_dfb.wait() as blk:
                    ttl.copy(blk, y[i:i + 1, 0:4]).wait()

    return switching


def test_a_branch_whose_cost_changes_part_way_is_not_skipped_over() -> None:
    n = 900
    exp_only = estimate(build(unary_pipeline(n, 4, "exp"), (n * TILE, 4 * TILE), (n * TILE, 4 * TILE)),
                        fast_forward=False)
    est = agree(build(branching_stream(n, 517), (n * TILE, 4 * TILE), (n * TILE, 4 * TILE)))
    assert skips(est) > 50
    assert est.cycles < exp_only.cycles  # the cheap part counted as cheap, the rest as exp


def test_a_buffer_that_fills_late_makes_its_producer_stall_as_step_by_step() -> None:
    """The reader outruns the exp compute into a 24-block buffer: for its first ~40 blocks it
    never waits, then it waits on every block. A skip before the buffer is full would extrapolate
    the reader's stall-free rate."""
    n = 900
    est = agree(build(unary_pipeline(n, 4, "exp", in_factor=24), (n * TILE, 4 * TILE), (n * TILE, 4 * TILE)))
    assert skips(est) > 50
    reserve = next(line for line in est.lines if "reserve" in line.source and line.stall_per_core > 0)
    assert reserve.stall_per_core > 100 * n  # the producer did stall, for most of the run


def late_joiner(blocks: int, delay: int):
    """Two cores stream their rows through the same banks, but core 1's compute first spends a
    while on a loop of its own: core 0 streams alone, then shares the banks (its period changes)."""

    @ttl.operation(grid=(2, 1))
    def stream(x: ttnn.Tensor, y: ttnn.Tensor):
        x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 4), block_count=2)
        y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 4), block_count=2)
        w_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 4), block_count=2)

        @ttl.datamovement()
        def load():
            first = ttl.node(dims=1) * blocks
            for i in range(blocks):
                with x_dfb.reserve() as blk:
                    ttl.copy(x[first + i:first + i + 1, 0:4], blk).wait()

        @ttl.compute()
        def apply():
            if ttl.node(dims=1) == 1:
                for _ in range(delay):
                    with w_dfb.reserve() as w:
                        w.store(ttl.block.fill(1.0, shape=w.shape))
                    with w_dfb.wait() as w:
                        pass
            for _ in range(blocks):
                with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
                    y_blk.store(ttl.math.abs(x_blk))

        @ttl.datamovement()
        def save():
            first = ttl.node(dims=1) * blocks
            for i in range(blocks):
                with y_dfb.wait() as blk:
                    ttl.copy(blk, y[first + i:first + i + 1, 0:4]).wait()

    return stream


def test_a_core_that_joins_late_changes_the_period_and_is_not_skipped_over() -> None:
    """No skip may run past the end of core 1's own loop (where the banks start being shared);
    core 0's loop is watched on, over its latest snapshots, and skipped once the shared state
    repeats."""
    blocks = 900
    est = agree(build(late_joiner(blocks, 400), *[(2 * blocks * TILE, 4 * TILE)] * 2))
    assert skips(est) > 50


def test_profile_exact_times_every_operation(tutorials: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    script = step_1(tutorials, tmp_path, 1024)
    outputs = []
    for flags in ((), ("--exact",)):
        assert main(["profile", str(script), "--no-values", *flags]) == 1  # the tutorial checks its values: E0710
        outputs.append(capsys.readouterr().out)
    predicted = [next(line for line in out.splitlines() if "predicted time" in line) for out in outputs]
    assert predicted[0] == predicted[1]
