"""Memory of the simulator's value phase (issue 12: peak RSS under 2 GB at 8192^3).

Phase 2 must keep no array over all values (tens of millions at the published sizes): the exact
mode's per-value last use is such an array, the fast mode's bookkeeping is per slab and per site.
A launch must also leave nothing of its recording behind: the runtime's objects form cycles that
only the cyclic collector frees, which may not run before the host code's own large allocations.
"""

from __future__ import annotations


import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.outputs import assert_same_bits, launch_outputs
from tests.paths import EXAMPLES
from tilecraft.sim.language import engine
from tilecraft.sim.dataflow.graph import SlabIndex

EXAMPLE = EXAMPLES / "matmul_1_single_tile.py"


def _arrays_over_all_values(evaluator: object, n: int) -> list[str]:
    return [name for name, value in vars(evaluator).items() if isinstance(value, np.ndarray) and len(value) >= n]


@pytest.mark.usefixtures("fresh_process_state")
@pytest.mark.parametrize("exact", [False, True])
def test_phase_two_keeps_no_array_over_all_values_and_a_launch_releases_its_recording(
        exact: bool, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[object, object, int, list[str]]] = []
    real = engine.evaluator_for

    def watched(rec, exact_mode, device=None):  # type: ignore[no-untyped-def]
        evaluator = real(rec, exact_mode, device)
        seen.append((rec, evaluator, rec.next_vid, _arrays_over_all_values(evaluator, rec.next_vid)))
        return evaluator

    monkeypatch.setattr(engine, "evaluator_for", watched)
    outputs = launch_outputs(EXAMPLE, capsys, *(["--exact"] if exact else []))
    assert seen
    for rec, _, n, over_all in seen:
        assert n > 20  # a chain of many values, so the check below means something
        assert over_all == (["last_use"] if exact else [])  # the exact mode's reference bookkeeping only
        sites = [*rec.reads, *rec.writes, *rec.computes]
        assert sites and not len(rec.depth)
        for site in sites:  # the recorded columns and every array derived from them are gone
            assert not any(isinstance(v, np.ndarray) for v in vars(site).values())
            assert not len(site.out if hasattr(site, "out") else site.vids)
    if not exact:
        monkeypatch.setattr(engine, "evaluator_for", real)
        assert_same_bits(outputs, launch_outputs(EXAMPLE, capsys, "--exact"))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0, 1, 1, 1, 2, 5, 40]), st.booleans(), st.booleans()), min_size=1, max_size=30),
       st.randoms(use_true_random=False))
def test_slab_index_finds_what_a_dict_does(steps: list[tuple[int, bool, bool]], rnd) -> None:  # type: ignore[no-untyped-def]
    """Slabs of disjoint value ids, in any order, added and removed; with few slabs, with more than
    MERGE_ABOVE (the merged search), and with slabs of one value each (the exact mode's dict)."""
    index, model = SlabIndex(), {}
    next_vid, slab = 0, 0
    for size, shuffle, removals in steps:
        slab += 1
        vids = list(range(next_vid, next_vid + size))
        next_vid += size + rnd.randint(0, 3)
        if shuffle:
            rnd.shuffle(vids)
        index.add(slab, np.asarray(vids, dtype=np.int32))
        model.update({v: (slab, row) for row, v in enumerate(vids)})
        if removals and model:
            gone = rnd.choice(sorted({s for s, _ in model.values()}))
            index.remove(gone)
            model = {v: at for v, at in model.items() if at[0] != gone}
        asked = np.asarray(rnd.sample(range(next_vid + 2), min(rnd.randint(1, 20), next_vid + 2)), dtype=np.int64)
        slabs, rows = index.locate(asked)
        for v, s, r in zip(asked.tolist(), slabs.tolist(), rows.tolist()):
            if v in model:
                assert (s, r) == model[v]
            else:
                assert s == -1
        assert index[int(asked[0])] == model.get(int(asked[0]), (-1, 0))[0]
