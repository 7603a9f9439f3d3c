"""The tuner and the launch agree on L1: a candidate is pruned exactly when its launch would fail.

Both read one computation of a program's L1 need (``metal.lower.program_l1_need``'s, which the
tuner reads from the candidate's one lowering, ``LoweredProgram.l1_need``): the
program's own buffers plus those the compiler adds when it lowers it (partial results, pipe
landing slots and flags). ``examples/autotune_matmul.py`` at 4096^3 on an n150 once chose
BM=16, BK=4, BN=8, whose own buffers fit (1,310,720 B) but which needs 2,031,648 B with the
compiler's, so ``tilecraft run`` rejected the winner with E0401. These tests use 512^3 (16 tiles a
side), where that candidate needs the same 2,031,648 B (the need depends on the blocks, and on the
size only where a K loop of one block lets the compiler keep the partial results in DST).
"""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import given, settings, strategies as st

from tests.paths import EXAMPLES
import tilecraft.ttnn as ttnn
from tilecraft import options as run_options
from tilecraft import session
from tilecraft.diagnostics import KernelError
from tilecraft.metal.lower import ProgramLowering
from tilecraft.perf import estimate
from tilecraft.tune import options as tune_options
from tilecraft.tune.evaluate import COMPILED, OK, PRUNED, Job, build, evaluate, split_params
from tilecraft.tune.runners import SerialRunner
from tilecraft.tune.space import Config
from tilecraft.tune.sweep import run_sweep

EXAMPLE = EXAMPLES / "autotune_matmul.py"
BLOCKS = [1, 2, 4, 8, 16]
SIZE = 512
WH_L1 = 1464 * 1024 - 100 * 1024  # 1,396,736 B available on wormhole_b0
TILE = 2048  # bytes of a bfloat16 tile


@pytest.fixture(scope="module")
def matmul() -> Any:
    return runpy.run_path(str(EXAMPLE), run_name="tune_l1_matmul")["matmul"]


@pytest.fixture(autouse=True)
def tuning(tmp_path: Path) -> Iterator[None]:
    with tune_options.using(dask=False, cache_dir=tmp_path, arch="n150"), session.using(run_options.RunOptions()):
        yield


def tensors() -> tuple:
    make = lambda: ttnn.zeros((SIZE, SIZE), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)  # noqa: E731
    return make(), make(), make()


def compile_phase(matmul: Any, params: dict[str, int]):
    """The tuner's verdict on one candidate (the compile phase a sweep runs first)."""
    request = matmul.setting(tensors(), {}).request
    return evaluate(Job(0, params, request.source, request.call, request.arch, request.grid, request.fidelity,
                        request.fp32_acc, "compile"))


def launch_error(matmul: Any, params: dict[str, int]) -> KernelError | None:
    """What launching the candidate on an n150 does (built, checked and lowered; no values)."""
    kernel, hyper = split_params(matmul.kernel, params)
    with session.using(run_options.RunOptions(arch="wormhole_b0", grid=(8, 8), simulate=False)):
        try:
            kernel(*tensors(), **hyper)
        except KernelError as exc:
            return exc
    return None


def test_the_old_winner_is_pruned_with_the_buffers_the_compiler_adds(matmul: Any) -> None:
    params = dict(BM=16, BK=4, BN=8)
    outcome = compile_phase(matmul, params)
    own = 2 * 2 * 16 * 4 * TILE + 2 * 2 * 4 * 8 * TILE + 2 * 16 * 8 * TILE  # a and b twice (fetch, dfb), y
    # y's partials, two landing slots, and per net a flag word and an address word (metal/lower_pipes.py)
    added = 2 * 16 * 8 * TILE + 16 * 4 * TILE + 4 * 8 * TILE + 2 * 2 * 16
    assert (own, own + added) == (1_310_720, 2_031_680)
    assert outcome.status == PRUNED
    assert outcome.l1_bytes == own + added and outcome.l1_available == WH_L1
    assert outcome.reason.startswith(
        f"E0401 the buffers of program 'matmul' need {own + added} B of L1 per core but wormhole_b0 has {WH_L1} B "
        f"available: its own buffers take {own} B and the compiler adds {added} B (y_dfb_partial: partial results "
        "of 'y_dfb', pipenet0_landing: landing slots of pipe net 0, pipenet1_landing: landing slots of pipe net 1, "
        "pipenet0_flags: arrival flags of pipe net 0, pipenet1_flags: arrival flags of pipe net 1)")
    # the launch rejects it with the same diagnostic: one computation, read by both
    rejected = launch_error(matmul, params)
    assert rejected is not None and rejected.code == "E0401"
    assert outcome.reason.startswith(f"E0401 {rejected.diagnostic.message}")
    (partial,) = [n for n in rejected.diagnostic.notes if n.message.startswith("buffer 'y_dfb_partial'")]
    assert partial.message == ("buffer 'y_dfb_partial' (added by the compiler: partial results of 'y_dfb'): "
                               f"2 x {16 * 8 * TILE} B = {2 * 16 * 8 * TILE} B (block (16, 8), bfloat16)")
    assert partial.span is not None and partial.span.source_line().strip() == "y_blk += a_blk @ b_blk"


@settings(max_examples=12, deadline=None, derandomize=True)
@given(st.sampled_from(BLOCKS), st.sampled_from(BLOCKS), st.sampled_from(BLOCKS))
def test_a_candidate_is_pruned_for_l1_exactly_when_its_launch_fails(matmul: Any, bm: int, bk: int, bn: int) -> None:
    params = dict(BM=bm, BK=bk, BN=bn)
    outcome = compile_phase(matmul, params)
    rejected = launch_error(matmul, params)
    if rejected is None:
        assert outcome.status == COMPILED, outcome.reason
        assert outcome.l1_bytes <= WH_L1
    else:
        assert outcome.status == PRUNED and outcome.reason.startswith(f"{rejected.code} {rejected.diagnostic.message}")


def test_the_sweep_never_returns_a_configuration_the_launch_rejects(matmul: Any) -> None:
    """Six candidates whose own buffers all fit; two need more with the compiler's (BK=8: the
    landing slots; 16x4x8: the partials). Every ranked one launches."""
    candidates = [Config(BM=bm, BK=bk, BN=bn) for bm, bk, bn in
                  [(16, 4, 8), (8, 8, 8), (4, 4, 4), (2, 2, 2), (8, 4, 4), (4, 8, 2)]]
    result = run_sweep(matmul.setting(tensors(), {}).request, candidates, SerialRunner(), top=6, exhaustive=True)
    pruned = {tuple(o.params.values()) for o in result.with_status(PRUNED)}
    assert pruned == {(16, 4, 8), (8, 8, 8)}
    assert result.ranked and all(launch_error(matmul, o.params) is None for o in result.ranked)


def test_a_candidate_is_lowered_once_with_fp32_accumulation(matmul: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The L1 need and, with fp32 accumulation, the cost model's store plans (the calls the lowering
    emits for each store) read the candidate's one lowering; the estimate is the one the cost model
    makes when it lowers the program itself."""
    lowered_kernels = []
    lower_kernels = ProgramLowering.lower_kernels
    monkeypatch.setattr(ProgramLowering, "lower_kernels",
                        lambda self: lowered_kernels.append(self) or lower_kernels(self))
    params = dict(BM=4, BK=4, BN=4)
    request = matmul.setting(tensors(), {}).request
    for phase in ("compile", "estimate"):
        lowered_kernels.clear()
        outcome = evaluate(Job(0, params, request.source, request.call, request.arch, request.grid, request.fidelity,
                               True, phase))
        assert outcome.status == (COMPILED if phase == "compile" else OK), outcome.reason
        assert len(lowered_kernels) == 1, phase
    kernel, _ = split_params(matmul.kernel, params)
    program = build(kernel, request.call, params, "wormhole_b0", request.grid).program
    assert outcome.cycles == estimate(program, request.arch, request.fidelity, fp32_acc=True).cycles
