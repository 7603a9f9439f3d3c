"""Advancing threads by whole loop periods: what the simulator and the timing model share.

Both engines run generated thread code whose qualifying loops (:mod:`.loop_plan`) iterate through
a :class:`LoopIter` and keep the registers they assign in a per-thread list. A
:class:`PeriodicController` watches the heads of long loops, takes a snapshot of the run's state
there (its subclass says what the state is), finds a period ``P`` whose last four snapshots agree
(equal structure, numbers moving by equal steps), checks that every loop can run ``N`` more periods
and that every guard keeps its outcome over them, and then extends everything by ``N`` periods at
once. This module holds the parts that do not depend on the engine: loop positions, registers,
the period search, the guards, buffer rings; :mod:`.advance` (the value recorder) and
:mod:`tilecraft.perf.fastforward` (clocks and cycle counters) add their own state.
"""

from __future__ import annotations

import math
from typing import Any

from ...ir import scalarops
from .loop_plan import ThreadPlan

#: after this many runs of a loop in a row watched without a skip, only every MISSES_RETRY-th
#: run of it is watched (snapshots cost time; this only decides where to look)
MISSES = 3
MISSES_RETRY = 16


class ThreadLoops:
    """One thread on one core: its active qualifying loops (outermost first) and shifted registers."""

    __slots__ = ("thread", "plan", "code", "stack", "regs")

    def __init__(self, plan: ThreadPlan, code: Any):
        self.thread: Any = None  # the engine's thread record, set when it is started
        self.plan = plan
        self.code = code
        self.stack: list[LoopIter] = []
        self.regs: list[Any] = [None] * len(plan.shifted)


class LoopIter:
    """``range(lo, hi, step)`` whose position the controller can read and advance."""

    __slots__ = ("controller", "owner", "loop", "next", "hi", "step", "count", "history")

    def __init__(self, controller: "PeriodicController", owner: ThreadLoops, loop: int, span: range, watch: bool):
        self.controller = controller
        self.owner = owner
        self.loop = loop
        self.next = span.start
        self.hi = span.stop
        self.step = span.step
        self.count = 0
        self.history: list[Any] | None = [] if watch else None
        owner.stack.append(self)

    def __iter__(self) -> "LoopIter":
        return self

    def __next__(self) -> int:
        value = self.next
        if (value >= self.hi) if self.step > 0 else (value <= self.hi):
            self.owner.stack.pop()
            raise StopIteration
        self.next = value + self.step
        self.count += 1
        if self.history is not None:
            self.controller.at_head(self)
        return self.next - self.step

    def remaining_steps(self, delta: int) -> int:
        """How many more periods of ``delta`` this loop can run in full after the current one."""
        if delta == 0:
            return 1 << 62
        if (delta > 0) != (self.step > 0):
            return -1
        return (self.hi - self.next) // delta - 2  # one period to spare at the end


class Snapshot:
    """The state at one loop head: what must be equal, the numbers that must move by equal steps,
    and what the subclass compares its own way (``extra``)."""

    __slots__ = ("structure", "numbers", "extra")

    def __init__(self, structure: tuple, numbers: list, extra: Any = None):
        self.structure = structure
        self.numbers = numbers
        self.extra = extra


class SkipPlan:
    """A skip being prepared: how many periods, the ring turns they must be a multiple of, and the
    step per period of each thread's loop positions and (integer) registers."""

    __slots__ = ("count", "turns", "threads", "at", "resumed")

    def __init__(self, count: int, turns: int, threads: list[tuple[ThreadLoops, list[int], list[tuple[int, int]]]],
                 at: int, resumed: int):
        self.count = count
        self.turns = turns
        self.threads = threads
        #: where the subclass's part of the snapshot's numbers starts
        self.at = at
        #: times the engine resumed a thread per period (the work one period stands for)
        self.resumed = resumed


class PeriodicController:
    """Watching loop heads, finding periods, shifting loop positions and registers; the state of
    the rest of the run is the subclass's (:meth:`snapshot`, :meth:`try_skip`)."""

    #: the longest period tried, in iterations of the loop whose head is snapshotted
    MAX_PERIOD = 4

    def __init__(self) -> None:
        self.group: list[ThreadLoops] = []
        self.skipped_periods = 0
        self.skips = 0
        #: per loop: runs started, and runs in a row watched without a skip
        self.runs: dict[int, int] = {}
        self.misses: dict[int, int] = {}

    @property
    def window(self) -> int:
        """Snapshots taken per run of a loop (the first iterations may still be settling)."""
        return 4 * self.MAX_PERIOD + 4

    @property
    def min_iterations(self) -> int:
        """Runs of a loop shorter than this are not snapshotted (nothing worth skipping)."""
        return self.window + 8

    def loop(self, owner: ThreadLoops, loop: int, lo: int, hi: int, step: int) -> LoopIter:
        span = range(lo, hi, step)  # the errors of range() for bad bounds, as a plain loop gives
        it = LoopIter(self, owner, loop, span, self.watches(owner) and len(span) >= self.min_iterations)
        if it.history is not None:
            runs = self.runs[loop] = self.runs.get(loop, 0) + 1
            if self.misses.get(loop, 0) >= MISSES and runs % MISSES_RETRY:
                it.history = None  # this loop has not repeated lately: only every so often is it watched
        return it

    def forget_runs(self) -> None:
        """Start watching every loop afresh (the counts that make an unrewarding loop watched less)."""
        self.runs.clear()
        self.misses.clear()

    def watches(self, owner: ThreadLoops) -> bool:
        """Whether the heads of ``owner``'s long loops are snapshotted."""
        return True

    def at_head(self, it: LoopIter) -> None:
        """A watched loop starts an iteration (the simulator checks at once; the timing model
        first needs the thread's clock)."""
        self.checkpoint(it)

    # ---------------------------------------------------------------- observing
    def checkpoint(self, it: LoopIter, *context: Any) -> Any:
        """Snapshot the state at ``it``'s head; skip once a period repeats. Returns what
        :meth:`try_skip` returned (None when nothing was skipped)."""
        history = it.history
        if history is None:
            return None
        if it.remaining_steps(it.step) < 1:  # too near its end for any skip: usually another thread's
            it.history = None  # loop skipped and took this one along, and will again; a miss, so that
            self.stop_watching(it)  # this one is watched only now and then (MISSES)
            return None
        periods = self.periods(it)
        if not periods:
            it.history = None
            self.stop_watching(it)
            return None
        history.append(self.snapshot(*context))
        for period in periods:
            if len(history) > 3 * period:
                done = self.try_skip(it, [history[-1 - 3 * period + i * period] for i in range(4)], *context)
                if done is not None:
                    self.skipped(it)
                    return done
        return None

    def skipped(self, it: LoopIter) -> None:
        """A run of a loop was advanced: it is watched no further, and its loop has repeated lately."""
        it.history = None
        self.skips += 1
        self.misses[it.loop] = 0

    def periods(self, it: LoopIter) -> list[int]:
        """The periods worth trying at this head (none: stop watching this run of the loop)."""
        return list(range(1, self.MAX_PERIOD + 1)) if it.count <= self.window else []

    def stop_watching(self, it: LoopIter) -> None:
        """A run of a loop is no longer watched without having been advanced."""
        self.misses[it.loop] = self.misses.get(it.loop, 0) + 1

    def snapshot(self, *context: Any) -> Snapshot:
        raise NotImplementedError

    def try_skip(self, it: LoopIter, snaps: list[Snapshot], *context: Any) -> Any:
        raise NotImplementedError

    def thread_state(self, tl: ThreadLoops, where: Any, structure: list, numbers: list) -> None:
        """Append one thread's part of a snapshot: its program point, where it waits (``where``),
        its loop nest and register types; its resumptions, loop positions and integer registers."""
        thread = tl.thread
        frame = thread.gen.gi_frame if thread.gen is not None else None
        clocks = tl.plan.clocks
        structure.append((where, frame.f_lasti if frame is not None else -2, tuple(i.loop for i in tl.stack),
                          id(tl.stack[0]) if tl.stack else 0, tuple(map(type, tl.regs))))
        numbers.append(thread.steps)
        numbers.extend(i.next for i in tl.stack)
        numbers.extend(r for j, r in enumerate(tl.regs) if r is not None and j not in clocks)

    # ---------------------------------------------------------------- skipping
    def plan_loops(self, steps: list[Any]) -> SkipPlan | None:
        """How many periods may be skipped (no loop runs out) and the step of every loop position
        and integer register; None where a thread moved in a way that cannot be shifted. ``steps``
        follows the layout of :meth:`thread_state` for each thread of :attr:`group` in turn."""
        count = 1 << 62
        at = resumed = 0
        threads = []
        for tl in self.group:
            thread_steps = steps[at]
            resumed += thread_steps
            loop_steps = steps[at + 1:at + 1 + len(tl.stack)]
            at += 1 + len(tl.stack)
            live = [j for j, r in enumerate(tl.regs) if r is not None and j not in tl.plan.clocks]
            reg_steps = list(zip(live, steps[at:at + len(live)]))
            at += len(live)
            if not tl.stack and thread_steps:
                return None  # progress outside any qualifying loop
            if any(step and type(tl.regs[j]) is not int for j, step in reg_steps):
                return None  # a float or a flag that changes: not an exact progression
            for level, step in zip(tl.stack, loop_steps):
                count = min(count, level.remaining_steps(step))
            threads.append((tl, loop_steps, reg_steps))
        return SkipPlan(count, 1, threads, at, resumed) if count >= 2 else None

    def ring_turns(self, plan: SkipPlan, moved: int, capacity: int) -> None:
        """A ring of ``capacity`` slots that moves ``moved`` slots per period must turn whole."""
        plan.turns = math.lcm(plan.turns, capacity // math.gcd(moved % capacity, capacity))

    def settle_count(self, plan: SkipPlan) -> bool:
        """Round the count down to whole ring turns and halve it until every guard holds over it."""
        plan.count -= plan.count % plan.turns
        while plan.count >= 2 and not self.guards_hold(plan):
            plan.count = plan.count // 2 - plan.count // 2 % plan.turns
        return plan.count >= 2

    def guards_hold(self, plan: SkipPlan) -> bool:
        """Whether every guard of every moving loop keeps its outcome over the run."""
        for tl, loop_steps, reg_steps in plan.threads:
            moving = next((level for level, step in zip(tl.stack, loop_steps) if step), None)
            if moving is None:
                continue
            steps = dict(reg_steps)
            for compare in tl.plan.guards.get(moving.loop, ()):
                sides = [self.progression(tl, x, steps) for x in (compare.lhs, compare.rhs)]
                if None in sides or not _constant_outcome(compare.op, sides[0], sides[1], plan.count):
                    return False
        return True

    def progression(self, tl: ThreadLoops, x: Any, steps: dict[int, int]) -> tuple[Any, Any] | None:
        """A guard operand as (value now, step per period); None where it is not a number."""
        if not hasattr(x, "name"):
            value, step = x.value, 0
        elif x.name in tl.plan.shifted:
            j = tl.plan.shifted[x.name]
            value, step = tl.regs[j], steps.get(j, 0)
        else:  # assigned outside the loops: the same throughout
            frame = tl.thread.gen.gi_frame if tl.thread.gen is not None else None
            value, step = (frame.f_locals.get(tl.code.names(x.name)) if frame is not None else None), 0
        return (value, step) if isinstance(value, (int, float)) and not isinstance(value, bool) else None

    def shift_loops(self, plan: SkipPlan) -> None:
        """Advance every loop position and integer register by ``plan.count`` periods."""
        count = plan.count
        for tl, loop_steps, reg_steps in plan.threads:
            for level, step in zip(tl.stack, loop_steps):
                level.next += count * step
            for j, step in reg_steps:
                if step:
                    tl.regs[j] += count * step
        self.skipped_periods += count


def _constant_outcome(op: str, lhs: tuple[Any, Any], rhs: tuple[Any, Any], count: int) -> bool:
    """Whether ``lhs op rhs`` has one outcome over the skipped run and the periods next to it.

    Each side is affine in the period, ``value + t * step``; within the run a side's value may be the
    one of the period before or after (it may be assigned before or after the snapshot's point), so
    ``t`` spans -1 .. count + 2 and the sides may be one period apart. Their difference is affine
    too: an ordering has one outcome wherever it has it at both ends; equality holds throughout only
    where the difference is zero throughout and fails throughout only where it keeps one sign."""
    (a, da), (b, db) = lhs, rhs
    test = scalarops.COMPARE[op].evaluate
    outcomes = set()
    for shift_a in (0, 1):
        for shift_b in (0, 1):
            ends = [(a + (t + shift_a) * da) - (b + (t + shift_b) * db) for t in (-1, count + 1)]
            if op in ("eq", "ne") and not (ends[0] == ends[1] == 0 or ends[0] * ends[1] > 0):
                return False
            outcomes.update(test(d, 0) for d in ends)
    return len(outcomes) == 1


def ring(cb: Any) -> list[int]:
    """A buffer's slots in ring order from its oldest block, so that states one turn apart compare."""
    return [(cb.npop + r) % cb.capacity for r in range(cb.capacity)]


def common_step(series: list[list[Any]]) -> list[Any] | None:
    """The per-period step of every number of four snapshots, if all three periods agree on it."""
    a, b, c, d = series
    if not (len(a) == len(b) == len(c) == len(d)):
        return None
    out = []
    for w, x, y, z in zip(a, b, c, d):
        step = x - w
        if y - x != step or z - y != step:
            return None
        out.append(step)
    return out
