"""The cost model's lower bound and cut-off (what the autotuner prunes with) never cut a winner:
``lower_bound(p) <= estimate(p).cycles`` on every program tried, ``estimate(stop_after=)`` stops a
run exactly when its time passes the limit, and gives the full estimate otherwise."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from benchmarks.perf_kernels import eltwise_stream, matmul_mcast, tile_tensor, unary_pipeline
from tilecraft.perf import BeyondLimit, estimate, lower_bound
from tilecraft.perf.capture import programs


def build(kernel, *shapes, arch="wormhole_b0", grid=None):
    tensors = [tile_tensor(s) for s in shapes]
    with programs(arch, grid) as launched:
        kernel(*tensors)
    (program,) = launched
    return program


PROGRAMS = {
    "matmul 4x4 tiles, 1x1x1 blocks": lambda: build(matmul_mcast((2, 2), 1, 1, 1), *[(128, 128)] * 3),
    "matmul 8x8 tiles, 2x4x2 blocks": lambda: build(matmul_mcast((4, 2), 2, 4, 2), *[(256, 256)] * 3),
    "eltwise 4x4 grid": lambda: build(eltwise_stream((4, 4), (1, 2)), *[(512, 1024)] * 3),
    "exp pipeline": lambda: build(unary_pipeline(8, 4, "exp"), (8 * 32, 128), (8 * 32, 128)),
}


@pytest.mark.parametrize("name", PROGRAMS)
@pytest.mark.parametrize("board", ["n150", "p150"])
def test_lower_bound_is_below_the_estimate(name: str, board: str) -> None:
    program = PROGRAMS[name]()
    bound = lower_bound(program, board, "HiFi2")
    cycles = estimate(program, board, "HiFi2").cycles
    assert 0 < bound <= cycles


@settings(max_examples=12, deadline=None)
@given(bm=st.sampled_from([1, 2, 4]), bk=st.sampled_from([1, 2, 4]), bn=st.sampled_from([1, 2, 4]),
       fidelity=st.sampled_from(["LoFi", "HiFi4"]), board=st.sampled_from(["n150", "p150"]))
def test_lower_bound_holds_for_any_blocking(bm: int, bk: int, bn: int, fidelity: str, board: str) -> None:
    program = build(matmul_mcast((2, 2), bm, bk, bn), *[(256, 256)] * 3)
    assert lower_bound(program, board, fidelity) <= estimate(program, board, fidelity).cycles


def test_stop_after_stops_exactly_past_the_limit() -> None:
    program = PROGRAMS["matmul 8x8 tiles, 2x4x2 blocks"]()
    full = estimate(program, "n150", "HiFi2")
    same = estimate(program, "n150", "HiFi2", stop_after=full.cycles)
    assert same.cycles == full.cycles and same.bound == full.bound
    with pytest.raises(BeyondLimit) as stopped:
        estimate(program, "n150", "HiFi2", stop_after=full.cycles - 1)
    assert full.cycles - 1 < stopped.value.cycles <= full.cycles
    with pytest.raises(BeyondLimit) as bounded:  # below the bound: stopped before running
        estimate(program, "n150", "HiFi2", stop_after=lower_bound(program, "n150", "HiFi2") / 2)
    assert bounded.value.cycles == lower_bound(program, "n150", "HiFi2")
