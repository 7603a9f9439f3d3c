"""Per-core state of the timing engine: buffers, semaphores and pipe slots that carry times.

The blocking rules are the functional simulator's (:mod:`tilecraft.sim.language.state`) without the
protocol checks (a program is profiled after it passed the simulator) and without data. What
they add is *when*: a ring buffer records, per slot, the cycle of the push that filled it and
of the pop that freed it, so ``reserve`` number n completes at ``max(now, pop n - capacity)``
and ``wait`` number n at ``max(now, push n)``. Because each of these is fixed by the program's
order of operations, buffer and pipe times do not depend on the order threads are run in.
"""

from __future__ import annotations

import heapq
import itertools
from typing import Any

from ..ir import pipe_protocol
from .network import hops


#: occupancy changes a buffer records at most for the trace
LOG_LIMIT = 20000


class Clock:
    """The ready queue: threads ordered by their own cycle count (a conservative event loop)."""

    def __init__(self) -> None:
        self.heap: list[tuple[float, int, Any]] = []
        self.seq = itertools.count()

    def ready(self, thread: Any, t: float) -> None:
        heapq.heappush(self.heap, (t, next(self.seq), thread))


class Waitable:
    __slots__ = ("waiters", "clock")

    def __init__(self, clock: Clock) -> None:
        self.waiters: list[Any] = []
        self.clock = clock

    def wake(self) -> None:
        if self.waiters:
            for thread in self.waiters:
                self.clock.ready(thread, thread.t)
            self.waiters.clear()


class TimedCB(Waitable):
    """A ring of ``capacity`` block slots with the push and pop cycle of each slot."""

    __slots__ = ("decl", "capacity", "free", "ready", "nres", "nwait", "npush", "npop", "push_t", "pop_t",
                 "log")

    def __init__(self, decl: Any, clock: Clock, log: list | None):
        super().__init__(clock)
        self.decl = decl
        self.capacity = decl.buffer_factor
        self.free = self.capacity
        self.ready = 0
        self.nres = self.nwait = self.npush = self.npop = 0
        self.push_t = [0.0] * self.capacity
        self.pop_t = [0.0] * self.capacity
        #: (cycle, +1 push / -1 pop) for the trace's occupancy counter; None when not tracing
        self.log = log

    def reserve(self, t: float) -> float:
        n = self.nres
        self.nres = n + 1
        self.free -= 1
        freed = self.pop_t[n % self.capacity]  # the pop of reservation n - capacity
        return freed if freed > t else t

    def wait(self, t: float) -> float:
        n = self.nwait
        self.nwait = n + 1
        self.ready -= 1
        pushed = self.push_t[n % self.capacity]
        return pushed if pushed > t else t

    def push(self, t: float) -> None:
        self.push_t[self.npush % self.capacity] = t
        self.npush += 1
        self.ready += 1
        if self.log is not None and len(self.log) < LOG_LIMIT:
            self.log.append((t, 1))
        if self.waiters:  # most pushes and pops wake no one: skip the call
            self.wake()

    def pop(self, t: float) -> None:
        self.pop_t[self.npop % self.capacity] = t
        self.npop += 1
        self.free += 1
        if self.log is not None and len(self.log) < LOG_LIMIT:
            self.log.append((t, -1))
        if self.waiters:  # most pushes and pops wake no one: skip the call
            self.wake()


class TimedSem(Waitable):
    """A semaphore value and the cycle of the change that set it (the arrival, for remote ones)."""

    __slots__ = ("decl", "value", "changed")

    def __init__(self, decl: Any, clock: Clock):
        super().__init__(clock)
        self.decl = decl
        self.value = decl.initial
        self.changed = 0.0

    def update(self, value: int, at: float) -> None:
        self.value = value & 0xFFFFFFFF
        if at > self.changed:
            self.changed = at
        self.wake()


class LandingSlot(Waitable):
    """One pipe's one-block landing buffer on one destination core (:mod:`tilecraft.ir.pipe_protocol`);
    for a net that lands in place, the destination's posted receive instead (no buffer)."""

    __slots__ = ("full", "landed", "freed", "direct", "posted")

    def __init__(self, clock: Clock, direct: bool):
        super().__init__(clock)
        self.full = False
        self.landed = 0.0
        self.freed = 0.0
        self.direct = direct
        #: landing in place: the destination has posted its receive (published its block's address)
        self.posted = False

    @property
    def unready(self) -> bool:
        """A send waits on this slot under the direct protocol (``pipe_protocol.direct_blocking_slot``)."""
        return self.direct and not self.posted


class TimedPipe:
    """A pipe at run time: its landing slots, the links it holds and its bytes per block; ``direct``:
    its net lands in place (``PipeNetDecl.direct``)."""

    def __init__(self, decl: Any, clock: Clock, direct: bool):
        self.decl = decl
        self.direct = direct
        self.slots = {dst: LandingSlot(clock, direct) for dst in decl.dsts}
        self.all_slots = list(self.slots.values())
        self.routes: dict[int, tuple[tuple, int]] = {}


class PipeSend:
    """``ttl.copy(blk, pipe)``: the block leaves when every landing slot is empty (landing in place:
    when every destination has posted its receive)."""

    __slots__ = ("pipe", "issued", "nbytes", "noc", "res", "landed")

    def __init__(self, pipe: TimedPipe, issued: float, nbytes: int, noc: int, res: Any):
        self.pipe = pipe
        self.issued = issued
        self.nbytes = nbytes
        self.noc = noc
        self.res = res
        self.landed: float | None = None

    def wait(self, t: float, clock: Clock):
        """Generator: blocks on full slots, then holds the route; returns the landing cycle. The
        block lands once, at the copy; the ``wait()`` after it returns at once."""
        if self.landed is not None:
            return max(self.landed, t)
        pipe = self.pipe
        while True:
            full = pipe_protocol.blocking_slot(pipe.all_slots) or pipe_protocol.direct_blocking_slot(pipe.all_slots)
            if full is None:
                break
            yield t, full
        start = max([self.issued] + [s.freed for s in pipe.all_slots])
        if clock.heap and clock.heap[0][0] < start:
            yield start, None  # hold the links in simulated-time order
        route = pipe.routes.get(self.noc)
        if route is None:
            route = pipe.routes[self.noc] = self.res.pipe_links(pipe.decl.src, pipe.decl.dsts, self.noc)
        landed = self.res.noc_transfer(route[0], route[1], self.nbytes, start)
        for slot in pipe.all_slots:
            slot.full = True
            slot.landed = landed
            slot.wake()
        self.landed = landed
        return landed if landed > t else t


class PipeRecv:
    """``ttl.copy(pipe, blk)``: completes once a block has landed, as the lowered receive does
    (``metal/lower_pipes.py``). Through a landing slot (``receive``): the block lands in the core's
    slot, a NoC read within the core copies it into the block, and the slot is free once the
    receiver's increment of the sender's ready semaphore has reached the sender (the sender's next
    block waits for that). Landing in place (``publish``, ``receive_in_place``): at the copy the
    receiver writes its block's address to the sender, waits for that write's acknowledgement and
    increments the sender's ready semaphore (the send waits for its arrival); its wait only waits
    for the flag and clears it -- no copy."""

    __slots__ = ("slot", "pipe", "core", "nbytes", "noc", "res", "posted")

    def __init__(self, pipe: TimedPipe, core: tuple[int, ...], nbytes: int, noc: int, res: Any, t: float):
        self.slot = pipe.slots[core]
        self.pipe = pipe
        self.core = core
        self.nbytes = nbytes
        self.noc = noc
        self.res = res
        self.posted = t
        if pipe.direct:
            figs, hops = res.figs, self.hops_to_sender()
            # the address write and its barrier (a round trip), then the semaphore increment
            self.posted = t + 2 * figs.noc_issue_cycles + 2 * hops * figs.noc_hop_cycles
            self.slot.posted = True
            self.slot.freed = self.posted + hops * figs.noc_hop_cycles
            self.slot.wake()

    def hops_to_sender(self) -> int:
        return hops(self.core, self.pipe.decl.src)

    def wait(self, t: float, clock: Clock):
        slot = self.slot
        while not slot.full:
            yield t, slot
        slot.full = False
        t = max(t, slot.landed, self.posted)
        figs, res = self.res.figs, self.res
        if self.pipe.direct:
            slot.posted = False
            t += figs.cb_call_cycles  # the flag cleared
            slot.wake()
            return t
        t += figs.noc_issue_cycles  # noc_async_read of the slot into the block
        if clock.heap and clock.heap[0][0] < t:
            yield t, None  # claim the core's ports in simulated-time order
        links, hops = res.pipe_links(self.core, [self.core], self.noc)
        # the read barrier, the flag cleared, then the increment of the sender's ready semaphore
        t = max(t, res.noc_transfer(links, hops, self.nbytes, t)) + 2 * figs.cb_call_cycles + figs.noc_issue_cycles
        slot.freed = t + self.hops_to_sender() * figs.noc_hop_cycles
        slot.wake()
        return t
