"""The pipe protocol's layout rules (tilecraft/ir/pipe_protocol.py), which the lowering reads:
landing slots and ready counters are shared only where no two pipes could need the same one."""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from tilecraft.ir import pipe_protocol
from tilecraft.ir.types import PipeDecl, PipeNetDecl

CORES = [(x, y) for x in range(4) for y in range(3)]


@st.composite
def nets(draw: st.DrawFn) -> PipeNetDecl:
    pipes = []
    for index in range(draw(st.integers(1, 10))):
        src = draw(st.sampled_from(CORES))
        dsts = tuple(draw(st.lists(st.sampled_from(CORES), min_size=1, max_size=4, unique=True)))
        pipes.append(PipeDecl(index, src, dsts, len(dsts) > 1))
    return PipeNetDecl(0, tuple(pipes))


@settings(max_examples=40)
@given(nets())
def test_pipes_sharing_a_destination_land_in_different_slots(net: PipeNetDecl) -> None:
    slots = pipe_protocol.landing_slots(net)
    for i, a in enumerate(net.pipes):
        for j, b in enumerate(net.pipes[:i]):
            if set(a.dsts) & set(b.dsts):
                assert slots[i] != slots[j]
    most_received = max(sum(core in p.dsts for p in net.pipes) for core in CORES)
    assert most_received <= max(slots) + 1 <= len(net.pipes)


@settings(max_examples=40)
@given(nets())
def test_pipes_of_one_source_count_on_different_semaphores(net: PipeNetDecl) -> None:
    counters = pipe_protocol.ready_counters(net)
    for i, a in enumerate(net.pipes):
        assert sorted(counters[j] for j, b in enumerate(net.pipes[:i + 1]) if b.src == a.src) == \
            list(range(sum(b.src == a.src for b in net.pipes[:i + 1])))  # each source: 0, 1, 2, ... in order


def test_scatter_gather_needs_a_slot_per_pipe_of_a_column_not_of_the_net() -> None:
    """scatter_gather_loopback on (2, 4): 8 pipes, each core receiving the 4 of its column."""
    pipes = tuple(PipeDecl(x * 4 + y, (x, y), tuple((x, r) for r in range(4)), True) for x in range(2) for y in range(4))
    net = PipeNetDecl(0, pipes)
    assert pipe_protocol.landing_slots(net) == [0, 1, 2, 3, 0, 1, 2, 3]
    assert pipe_protocol.ready_counters(net) == [0] * 8


def test_destination_rectangle_and_corner_order() -> None:
    row = PipeDecl(0, (0, 1), ((0, 1), (1, 1), (2, 1)), True)
    assert pipe_protocol.destination_rectangle(row) == (0, 1, 2, 1)
    ell = PipeDecl(1, (0, 0), ((0, 0), (1, 0), (0, 1)), True)
    assert pipe_protocol.destination_rectangle(ell) is None
    assert pipe_protocol.multicast_corners(0) == ("min", "max")
    assert pipe_protocol.multicast_corners(1) == ("max", "min")


def test_a_send_waits_on_the_first_full_slot() -> None:
    empty, full = SimpleNamespace(full=False), SimpleNamespace(full=True)
    assert pipe_protocol.blocking_slot([empty, full, SimpleNamespace(full=True)]) is full
    assert pipe_protocol.blocking_slot([empty, empty]) is None
