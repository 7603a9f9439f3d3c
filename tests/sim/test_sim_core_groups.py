"""Phase 1 by groups of cores (tilecraft/sim/fastforward/core_groups.py) records exactly the core-by-core graph.

Every example and every multi-node tutorial is recorded twice, by groups and core by core, and
the recorder's columns handed to phase 2 must be equal entry for entry (and the outputs bit for
bit). The programs below are the ways a derived recording could be wrong: a core in the middle of
the grid that decides differently (an equality, an ordering at a trailing edge), loops strided by
the coordinates with equal and unequal trip counts, coordinates in a loop step or in non-affine
arithmetic (no grouping at all), an error, a warning or a slice outside the tensor on one core
only; and random affine programs (Hypothesis).
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.tutorial_sources import matmul_size, resize_source
from tests import paths
from tests.outputs import assert_same_bits, launch_with_messages
from tilecraft.sim.fastforward import core_groups
from tilecraft.sim.language import engine
from tilecraft.sim.dataflow.graph import column

pytestmark = pytest.mark.usefixtures("fresh_process_state")

#: what differs between two runs' messages: the autotuner's timings
TIMING = r"[0-9.]+ (s|ms)\b"

EXAMPLES = sorted(paths.EXAMPLES.glob("*.py"))

HEADER = '''
import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn
'''


class Seen:
    """What the runs of a test recorded: per launch the recorder's columns, and the boxes derived."""

    def __init__(self) -> None:
        self.launches: list[list[np.ndarray]] = []
        self.derived: list[int] = []


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> Seen:
    record = Seen()
    original_evaluator, original_run = engine.evaluator_for, core_groups.CoreGroups.run

    def evaluator_for(rec: Any, *args: Any) -> Any:
        record.launches.append(_columns(rec))
        return original_evaluator(rec, *args)

    def run(self: core_groups.CoreGroups) -> None:
        original_run(self)
        record.derived.append(self.derived)

    monkeypatch.setattr(engine, "evaluator_for", evaluator_for)
    monkeypatch.setattr(core_groups.CoreGroups, "run", run)
    return record


def _columns(rec: Any) -> list[np.ndarray]:
    out = [np.asarray([rec.next_vid, *rec.barriers]), column(rec.depth).copy()]
    for site in rec.reads:
        out += [column(site.out).copy(), column(site.starts).copy()]
        out += [column(site.his).copy()] if site.his is not None else []
    for site in rec.computes:
        out += [column(site.out).copy(), column(site.leaves).copy()]
    for site in rec.writes:
        out += [column(site.at).copy(), column(site.vids).copy(), column(site.starts).copy()]
        out += [column(site.his).copy()] if site.his is not None else []
    return out


def record_both(script: Path, capsys: pytest.CaptureFixture[str], seen: Seen, monkeypatch: pytest.MonkeyPatch,
                must_pass: bool = True) -> tuple[int, str]:
    """Run ``script`` by groups and core by core: the same columns, outputs and messages (but for the
    autotuner's timings). Returns the cores the grouped run derived without running them, and its
    messages. Each run tunes afresh (an autotuned example would otherwise launch once the second
    time, from the first run's choice)."""
    seen.launches.clear()
    seen.derived.clear()
    with tempfile.TemporaryDirectory() as tune_cache:
        monkeypatch.setenv("TILECRAFT_TUNE_CACHE", tune_cache)
        grouped, grouped_err = launch_with_messages(script, capsys, must_pass=must_pass)
    launches, derived = seen.launches[:], sum(seen.derived)
    seen.launches.clear()
    with monkeypatch.context() as m, tempfile.TemporaryDirectory() as tune_cache:
        m.setenv("TILECRAFT_TUNE_CACHE", tune_cache)
        m.setattr(engine, "traced_ops", lambda *args: None)
        alone, alone_err = launch_with_messages(script, capsys, must_pass=must_pass)
    assert len(launches) == len(seen.launches)
    for a, b in zip(launches, seen.launches):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            assert np.array_equal(x, y)
    assert re.sub(TIMING, "", grouped_err) == re.sub(TIMING, "", alone_err)
    if must_pass:
        assert_same_bits(grouped, alone)
    return derived, grouped_err


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_records_the_same_graph_by_groups(path: Path, capsys: pytest.CaptureFixture[str],
                                                         seen: Seen, monkeypatch: pytest.MonkeyPatch) -> None:
    record_both(path, capsys, seen, monkeypatch)


#: multi-node tutorials: (tutorial, M, K, N); 2048 x 256 x 2048 fills every core of the 8x8 grid (with -m slow), 1280 x 256 x 1152
#: leaves the last row and column of nodes short (their guards decide differently)
TUTORIALS = [
    pytest.param("matmul/step_3_multinode.py", 2048, 256, 2048, marks=pytest.mark.slow),
    pytest.param("matmul/step_4_multinode_grid_full.py", 2048, 256, 2048, marks=pytest.mark.slow),
    ("matmul/step_4_multinode_grid_full.py", 1280, 256, 1152),
    ("matmul/step_5_multidevice_shard_m.py", 1024, 512, 1024),
]


@pytest.mark.parametrize("tutorial,m,k,n", TUTORIALS)
def test_tutorials_record_the_same_graph_by_groups(tutorials: Path, tmp_path: Path, tutorial: str, m: int, k: int,
                                                   n: int, capsys: pytest.CaptureFixture[str], seen: Seen,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / Path(tutorial).name
    script.write_text(resize_source((tutorials / tutorial).read_text(), matmul_size(m, k, n)))
    derived, _ = record_both(script, capsys, seen, monkeypatch)
    if "step_4" in tutorial and m == 2048:
        assert derived == 64 - 6  # one box: its four corners and two neighbours run


def test_elementwise_grid_tutorial_is_one_group(tutorials: Path, capsys: pytest.CaptureFixture[str], seen: Seen,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    derived, _ = record_both(tutorials / "elementwise/step_4_multinode_grid_full.py", capsys, seen, monkeypatch)
    assert derived > 0


#: a grid of blocks, each core scaling its own rows; READ, COMPUTE and WRITE are each thread's loop body
GRID_COPY = '''
@ttl.operation(grid=(8, 8))
def per_core(x: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def read():
        gx, gy = ttl.node(dims=2)
        for t in range(4):
READ
    @ttl.compute()
    def compute():
        gx, gy = ttl.node(dims=2)
        for t in range(4):
COMPUTE
    @ttl.datamovement()
    def write():
        gx, gy = ttl.node(dims=2)
        for t in range(4):
WRITE

torch.manual_seed(0)
x = torch.randn(8 * 32 * 4, WIDTH * 32, dtype=torch.bfloat16)
y = torch.zeros_like(x)
per_core(ttnn.from_torch(x), ttnn.from_torch(y))
'''

COPY = {
    "READ": '''
            with x_dfb.reserve() as blk:
                ttl.copy(x[ROW, gy], blk).wait()
''',
    "COMPUTE": '''
            with x_dfb.wait() as a, y_dfb.reserve() as b:
                b.store(a * 2.0)
''',
    "WRITE": '''
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[ROW, gy]).wait()
''',
}


def grid_program(tmp_path: Path, row: str = "gx * 4 + t", width: int = 8, **parts: str) -> Path:
    source = GRID_COPY.replace("WIDTH", str(width))
    for name, default in COPY.items():
        source = source.replace(name, parts.get(name, default).replace("ROW", row).rstrip("\n"))
    script = tmp_path / "program.py"
    script.write_text(HEADER + source)
    return script


def test_a_plain_grid_is_one_group(tmp_path: Path, capsys: pytest.CaptureFixture[str], seen: Seen,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    derived, _ = record_both(grid_program(tmp_path), capsys, seen, monkeypatch)
    assert derived == 64 - 6


def test_a_core_in_the_middle_that_decides_differently(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       seen: Seen, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only core (3, 5) scales by 3: every corner has ``gx != 3``, so the sign of ``gx - 3`` must split."""
    compute = '''
            with x_dfb.wait() as a, y_dfb.reserve() as b:
                if gx == 3 and gy == 5:
                    b.store(a * 3.0)
                else:
                    b.store(a * 2.0)
'''
    derived, _ = record_both(grid_program(tmp_path, COMPUTE=compute), capsys, seen, monkeypatch)
    assert 0 < derived < 64 - 6


def test_a_trailing_edge_guard(tmp_path: Path, capsys: pytest.CaptureFixture[str], seen: Seen,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Cores with ``gx * 4 + t >= 26`` skip their last rows (an ordering that changes at the edge)."""
    guarded = {name: "\n            if gx * 4 + t < 26:" + text.replace("\n", "\n    ") for name, text in COPY.items()}
    derived, _ = record_both(grid_program(tmp_path, **guarded), capsys, seen, monkeypatch)
    assert 0 < derived < 64 - 6


@pytest.mark.parametrize("row", ["gx * gx % 8 * 4 + t", "gx // 2 * 4 + t"])
def test_non_affine_coordinates_are_not_grouped(row: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                seen: Seen, monkeypatch: pytest.MonkeyPatch) -> None:
    record_both(grid_program(tmp_path, row=row), capsys, seen, monkeypatch)
    assert seen.derived == []  # not even tried


@pytest.mark.parametrize("end,one_group", [(32, True), (30, False)])
def test_loops_strided_by_the_coordinates(end: int, one_group: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          seen: Seen, monkeypatch: pytest.MonkeyPatch) -> None:
    """``range(gx, end, 8)``: every core runs 4 trips to 32; to 30 the last two rows of cores run 3, and
    the trip counts at the corners split the grid."""
    script = grid_program(tmp_path, row="t")
    script.write_text(script.read_text().replace("for t in range(4):", f"for t in range(gx, {end}, 8):"))
    derived, _ = record_both(script, capsys, seen, monkeypatch)
    assert derived == 64 - 6 if one_group else 0 < derived < 64 - 6


def test_coordinates_in_a_loop_step_are_not_grouped(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     seen: Seen, monkeypatch: pytest.MonkeyPatch) -> None:
    script = grid_program(tmp_path)
    script.write_text(script.read_text().replace("for t in range(4):", "for t in range(0, 4, gx + 1):"))
    record_both(script, capsys, seen, monkeypatch)
    assert seen.derived == []  # a step that depends on the coordinates: not tried


def test_an_error_on_one_core_is_reported_as_core_by_core(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          seen: Seen, monkeypatch: pytest.MonkeyPatch) -> None:
    """Core (5, 5) pushes a block whose copy it has not waited: the grouped attempt is abandoned when
    that core is sampled, and the error is the core-by-core run's, at that core and line."""
    read = '''
            with x_dfb.reserve() as blk:
                tx = ttl.copy(x[ROW, gy], blk)
                if gx != 5 or gy != 5 or t != 3:
                    tx.wait()
'''
    _, grouped_err = record_both(grid_program(tmp_path, READ=read), capsys, seen, monkeypatch, must_pass=False)
    assert "error[E1104]" in grouped_err and "core (5, 5)" in grouped_err and "program.py:17:13" in grouped_err


def test_a_warning_on_one_core_is_reported_as_core_by_core(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           seen: Seen, monkeypatch: pytest.MonkeyPatch) -> None:
    """Core (5, 5) leaves a block in a buffer: a sampled core that does not end clean abandons the
    attempt, so the warning counts the cores as the core-by-core run does."""
    read = '''
            with x_dfb.reserve() as blk:
                ttl.copy(x[ROW, gy], blk).wait()
            if gx == 5 and gy == 5 and t == 3:
                with x_dfb.reserve() as extra:
                    ttl.copy(x[ROW, gy], extra).wait()
'''
    _, grouped_err = record_both(grid_program(tmp_path, READ=read), capsys, seen, monkeypatch)
    assert "warning[W1105]" in grouped_err and "core (5, 5)" in grouped_err


def test_a_slice_outside_the_tensor_on_a_derived_core(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      seen: Seen, monkeypatch: pytest.MonkeyPatch) -> None:
    """The derived cores' slices are checked like the run ones: cores with ``gx + gy >= 12`` read a
    column of tiles past the end, and the first of them in the grid's order, (5, 7), is derived."""
    read = COPY["READ"].replace("x[ROW, gy]", "x[ROW, gx + gy]")
    script = grid_program(tmp_path, width=12, READ=read)
    derived, grouped_err = record_both(script, capsys, seen, monkeypatch, must_pass=False)
    assert derived == 64 - 6
    assert "E1107" in grouped_err and "12:13" in grouped_err


AFFINE = st.tuples(st.integers(-2, 2), st.integers(-2, 2))
COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")


@st.composite
def grouped_programs(draw: st.DrawFn) -> str:
    """A grid program whose rows and columns are affine in the core's coordinates, its loops starting
    at an affine function of them, its work guarded by an affine comparison of the coordinates and
    the loop variable (the same in all three threads, so every block is produced and consumed); long
    loops are fast-forwarded too."""
    nx, ny = draw(st.integers(2, 9)), draw(st.integers(1, 9))
    if nx * ny < core_groups.MIN_CORES:
        ny = -(-core_groups.MIN_CORES // nx)
    trips = draw(st.sampled_from((3, 40)))
    start_x, start_y = draw(st.integers(0, 1)), draw(st.integers(0, 1))  # the loop's start, affine too
    start = f"{start_x} * gx + {start_y} * gy"
    end = trips + start_x * nx + start_y * ny  # as far as the last core's rows go
    stop = draw(st.sampled_from((f"{start} + {trips}", str(end - draw(st.integers(0, 2))))))  # fixed or varying trips
    (ra, rb), (ca, cb) = draw(AFFINE), draw(AFFINE)
    row_base = abs(ra) * nx + abs(rb) * ny
    col_base = abs(ca) * nx + abs(cb) * ny
    row = f"{ra} * gx + {rb} * gy + t + {row_base}"
    col = f"{ca} * gx + {cb} * gy + {col_base}"
    (ga, gb), gt = draw(AFFINE), draw(st.integers(0, 1))
    guard = f"{ga} * gx + {gb} * gy + {gt} * t {draw(st.sampled_from(COMPARISONS))} {draw(st.integers(-4, 12))}"
    parts = {name: f"\n            if {guard}:" + text.replace("\n", "\n    ") for name, text in COPY.items()}
    loop = f"range({start}, {stop})"
    source = GRID_COPY.replace("grid=(8, 8)", f"grid=({nx}, {ny})").replace("range(4)", loop)
    source = source.replace("8 * 32 * 4", f"{2 * row_base + end} * 32").replace("WIDTH", str(2 * col_base + 1))
    for name, text in parts.items():
        source = source.replace(name, text.replace("ROW", row).replace("gy]", f"{col}]").rstrip("\n"))
    return HEADER + source


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(source=grouped_programs())
def test_random_grid_programs_record_the_same_graph_by_groups(source: str, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str], seen: Seen,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "program.py"
    script.write_text(source)
    record_both(script, capsys, seen, monkeypatch)
