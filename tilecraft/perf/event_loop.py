"""The conservative event loop both cost models run, and what it keeps of each thread.

Its own module so that the language level (:mod:`.engine`) and the kernel level
(:mod:`.kernel_replay`) share it without importing each other: the language level replays a
store's lowered calls with the kernel level's compute stages (:mod:`.store_replay`).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Any

from .timed_state import Clock


@dataclass(eq=False)
class ThreadTimes:
    """What one thread of one core did: busy and stall cycles per operation id, and its end."""

    core: tuple[int, ...]
    name: str
    kind: str
    busy: list[float]
    stall: list[float]
    events: list[tuple[int, float, float]] | None
    end: float = 0.0
    t: float = 0.0
    gen: Any = field(default=None, repr=False)
    #: times the event loop resumed it (a thread that moved shows it to :mod:`.fastforward`)
    steps: int = 0
    #: cycles to add to the thread's clock when it resumes (a skip moved it, :mod:`.fastforward`)
    shift: float = 0.0

    @property
    def busy_total(self) -> float:
        return sum(self.busy)

    @property
    def stall_total(self) -> float:
        return sum(self.stall)


class BeyondLimit(Exception):
    """The run passed ``stop_after`` cycles: its time is at least ``cycles``, so it cannot beat the
    estimate the caller compares it with (the autotuner's cut-off). Raised as soon as any thread's
    clock passes the limit, since the program ends no earlier than its slowest thread."""

    def __init__(self, cycles: float, limit: float):
        super().__init__(f"predicted time passed {limit:,.0f} cycles (reached {cycles:,.0f})")
        self.cycles = cycles
        self.limit = limit


def run_threads(clock: Clock, threads: list[ThreadTimes], stop_after: float, unfinished_hint: str) -> None:
    """The conservative event loop both cost models run: the thread with the smallest clock goes
    next; a thread yields ``(t, None)`` to be resumed in time order, or ``(t, waitable)`` to park
    until that waitable changes. Raises :class:`BeyondLimit` once a clock passes ``stop_after``,
    and says which threads never finished (``unfinished_hint``: what to do about it)."""
    heap = clock.heap
    pop, push, seq = heapq.heappop, heapq.heappush, clock.seq
    while heap:
        thread = pop(heap)[2]
        thread.steps += 1
        try:
            if thread.shift:
                shift, thread.shift = thread.shift, 0.0
                t, waitable = thread.gen.send(shift)
            else:
                t, waitable = next(thread.gen)
        except StopIteration as stop:
            thread.end = stop.value
            thread.gen = None
            if thread.end > stop_after:
                raise BeyondLimit(thread.end, stop_after) from None
            continue
        if t > stop_after:
            raise BeyondLimit(t, stop_after)
        thread.t = t
        if waitable is None:
            push(heap, (t, next(seq), thread))
        else:
            waitable.waiters.append(thread)
    stuck = [t for t in threads if t.gen is not None]
    if stuck:
        names = ", ".join(f"core {t.core} '{t.name}'" for t in stuck[:4])
        raise RuntimeError(f"timing engine: {len(stuck)} threads never finished ({names}); {unfinished_hint}")
