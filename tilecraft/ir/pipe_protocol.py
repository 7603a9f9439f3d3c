"""The pipe protocol, stated once: what a pipe send and a pipe receive wait for, and how the
emitted program lays out the landing slots and counters that carry it.

The language's pipe model (docs/architecture.md, "The simulator"): every pipe has a landing slot
of one block on each of its destination cores. A send lands at its ``ttl.copy``, as the published
simulator's send begins there: the copy blocks until the slot of *every* destination is empty
(``blocking_slot``), puts the block in all of them, and its ``wait()`` then returns at once (so a
core may start a receive on a pipe to itself, send, and wait for the receive first); a receive
completes when a block has landed in its slot, and takes it out, which frees the slot. One block in flight per pipe and destination: the finite capacity
that makes flow control and "no counterpart" errors real, and that lets a core send before it
receives (the scatter-gather with loopback).

Three layers apply this rule and read it from here: the functional simulator
(``sim/language/state.py``: ``PipeSend``/``PipeRecv``), the cost model (``perf/timed_state.py``) and the
Metalium lowering (``metal/lower_pipes.py``), which builds the same protocol from L1 slots,
flag words, per-pipe ready semaphores and multicasts. What only the lowering needs -- which L1
slot a pipe lands in, which ready semaphore counts its free destinations, the corner order of a
multicast rectangle on each NoC -- is computed here too, so that the rule and its layout are read
in one place.
"""

from __future__ import annotations

from typing import Callable, Hashable, Iterable, Protocol, Sequence, TypeVar

from .types import PipeDecl, PipeNetDecl

#: blocks a pipe may have in flight to one destination (its landing slot holds one)
BLOCKS_IN_FLIGHT = 1


class LandingSlot(Protocol):
    """What the protocol reads of a landing slot, whichever layer keeps it."""

    @property
    def full(self) -> bool: ...


SlotT = TypeVar("SlotT", bound=LandingSlot)


def blocking_slot(slots: Iterable[SlotT]) -> SlotT | None:
    """The first of a send's destination slots that still holds a block (the send waits on it),
    or None when the block may land in all of them."""
    return next((slot for slot in slots if slot.full), None)


class DirectSlot(LandingSlot, Protocol):
    """A destination that a pipe lands on in place: what the direct protocol reads of it."""

    @property
    def unready(self) -> bool: ...


DirectT = TypeVar("DirectT", bound=DirectSlot)


def direct_blocking_slot(slots: Iterable[DirectT]) -> DirectT | None:
    """Under the direct protocol (the block lands in the receiver's own buffer, no landing slot):
    the first destination that has not yet posted the receive this send lands in (the send waits on
    it), or None. A destination served through a landing slot is never unready."""
    return next((slot for slot in slots if slot.unready), None)


# ---------------------------------------------------------------- the emitted layout
def _colour(pipes: Sequence[PipeDecl], keys: Callable[[PipeDecl], Iterable[Hashable]]) -> list[int]:
    """Greedy colouring: each pipe the smallest index no earlier pipe sharing a key uses."""
    used: dict[Hashable, set[int]] = {}
    colours = []
    for pipe in pipes:
        taken: set[int] = set()
        for key in keys(pipe):
            taken |= used.get(key, set())
        colour = next(c for c in range(len(pipes) + 1) if c not in taken)
        for key in keys(pipe):
            used.setdefault(key, set()).add(colour)
        colours.append(colour)
    return colours


def landing_slots(net: PipeNetDecl) -> list[int]:
    """The landing slot of each pipe of ``net`` (by position in the net). A multicast writes one L1
    address on all its destinations, so a pipe has the same slot on each; two pipes that share a
    destination get different slots. The landing area of the net then holds ``max + 1`` slots per
    core -- the most pipes any core receives in typical nets, not one slot per pipe of the net."""
    return _colour(net.pipes, lambda pipe: pipe.dsts)


def ready_counters(net: PipeNetDecl) -> list[int]:
    """The ready counter (a semaphore on the source core) of each pipe of ``net``: destinations
    free their slot by incrementing it, and the send waits for the pipe's destination count.
    Pipes of one source get different counters, so a core that sends several pipes of a net
    counts each pipe's free destinations apart (two pipes on one counter deadlock: the second
    pipe's receiver can overshoot the first pipe's exact count)."""
    return _colour(net.pipes, lambda pipe: (pipe.src,))


def destination_rectangle(pipe: PipeDecl) -> tuple[int, int, int, int] | None:
    """(x0, y0, x1, y1), the smaller corner first, when the pipe's destinations on a 2-D grid are
    exactly the cores of a rectangle (what a NoC multicast writes); None otherwise."""
    if any(len(d) != 2 for d in pipe.dsts):
        return None
    xs = [d[0] for d in pipe.dsts]
    ys = [d[1] for d in pipe.dsts]
    rect = (min(xs), min(ys), max(xs), max(ys))
    if len(set(pipe.dsts)) != (rect[2] - rect[0] + 1) * (rect[3] - rect[1] + 1):
        return None
    return rect


def multicast_corners(noc: int) -> tuple[str, str]:
    """Which corner a multicast rectangle starts from on ``noc``: NOC 0 routes toward increasing
    coordinates, so it starts at the smaller corner; NOC 1 routes toward decreasing ones, so
    tt-metal expects the larger corner first (``get_noc_multicast_addr(x_end, y_end, x_start,
    y_start, addr)``). Given the other way round, the rectangle wraps around the torus."""
    return ("min", "max") if noc == 0 else ("max", "min")
