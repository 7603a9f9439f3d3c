"""Advance the threads of one core by whole loop periods instead of one operation at a time.

A core's threads run the same loop bodies over and over: at 8192^3 the matmul tutorial's K loop
runs 16.7 million times. Phase 1 does not need to step through each iteration: the skeleton is
deterministic, so once the state of the core's threads *repeats* (same program points, same
buffer occupancy, numbers changing by the same amounts), every further period of the loop is the
same as the last, shifted. The controller here

1. snapshots the core at the head of a long loop (:class:`LoopIter`, one per run of a loop that
   :mod:`.loop_plan` proved uniform) for its first iterations;
2. finds a period ``P`` whose last four snapshots agree: equal structure (each thread's program
   point, loop nest and blocked operation, each buffer's occupancy modulo its size, which threads
   wait where) and numbers that change by the same step (loop positions, the registers the loop
   assigns, value ids in buffer slots, the recorder's counters and the lengths of its columns);
3. checks that the recorded graph of the last three periods changes by the same step entry by entry,
   that the guards of the loops (affine comparisons) keep their outcome over the skipped run, that
   no loop runs out within it, and that each value's depth stays the maximum of its operands';
4. appends ``N`` more periods to the graph (arithmetic progressions in numpy) and shifts the loop
   positions, registers and buffer contents by ``N`` steps.

Buffer positions are not shifted: the snapshots compare buffers relative to their oldest block,
and the number of skipped periods is a multiple that moves every ring by whole turns, so the block
handles held in the threads' frames stay valid. Protocol errors cannot hide in a skipped run: the protocol state at every operation of a
skipped period is that of the same operation in the observed periods. A thread that made progress
outside any qualifying loop, a thread that re-entered its outermost loop, or anything that does not
repeat exactly stops the attempt; the core then simply runs on step by step.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from .loop_plan import ThreadPlan

#: the longest period tried, in iterations of the loop whose head is snapshotted
MAX_PERIOD = 4
#: snapshots taken per run of a loop (the first iterations may still be settling)
WINDOW = 4 * MAX_PERIOD + 4
#: runs of a loop shorter than this are not snapshotted (nothing worth skipping)
MIN_ITERATIONS = WINDOW + 8
#: recorder entries extrapolated per numpy call
APPEND_CHUNK = 1 << 21
#: runs of one loop watched in vain after which its later runs are not watched (snapshots cost time)
GIVE_UP = 4

_COMPARE = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
            "ge": operator.ge}


class ThreadLoops:
    """One thread on one core: its active qualifying loops (outermost first) and shifted registers."""

    __slots__ = ("thread", "plan", "code", "stack", "regs")

    def __init__(self, plan: ThreadPlan, code: Any):
        self.thread: Any = None  # the SimThread, set when it is scheduled
        self.plan = plan
        self.code = code
        self.stack: list[LoopIter] = []
        self.regs: list[Any] = [None] * len(plan.shifted)


class LoopIter:
    """``range(lo, hi, step)`` whose position the controller can read and advance."""

    __slots__ = ("controller", "owner", "loop", "next", "hi", "step", "count", "history")

    def __init__(self, controller: "FastForward", owner: ThreadLoops, loop: int, span: range, watch: bool):
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
            self.controller.checkpoint(self)
        return self.next - self.step

    def remaining_steps(self, delta: int) -> int:
        """How many more periods of ``delta`` this loop can run in full after the current one."""
        if delta == 0:
            return 1 << 62
        if (delta > 0) != (self.step > 0):
            return -1
        return (self.hi - self.next) // delta - 2  # one period to spare at the end


class Snapshot:
    __slots__ = ("structure", "numbers", "lengths")

    def __init__(self, structure: tuple, numbers: list, lengths: list[int]):
        self.structure = structure
        self.numbers = numbers
        self.lengths = lengths


class FastForward:
    """The controller for one program run: the core being run, its threads, the recorder."""

    def __init__(self, rec: Any):
        self.rec = rec
        self.group: list[ThreadLoops] = []
        self.cbs: list[Any] = []
        self.ready: Any = None
        self.skipped_periods = 0
        #: per loop: how many of its runs were watched without finding a period
        self.fruitless: dict[int, int] = {}
        self.columns = [col for site in rec.reads for col in (site.out, site.starts, site.his) if col is not None]
        self.columns += [col for site in rec.computes for col in (site.out, site.leaves)]
        self.columns += [col for site in rec.writes for col in (site.at, site.vids, site.starts, site.his)
                         if col is not None]
        self.columns.append(rec.depth)

    def loop(self, owner: ThreadLoops, loop: int, lo: int, hi: int, step: int) -> LoopIter:
        span = range(lo, hi, step)  # the errors of range() for bad bounds, as a plain loop gives
        watch = len(span) >= MIN_ITERATIONS and self.fruitless.get(loop, 0) < GIVE_UP
        return LoopIter(self, owner, loop, span, watch)

    def begin_group(self, group: list[ThreadLoops], cbs: list[Any], ready: Any) -> None:
        self.group = group
        self.cbs = cbs
        self.ready = ready

    # ---------------------------------------------------------------- observing
    def checkpoint(self, it: LoopIter) -> None:
        history = it.history
        if it.count > WINDOW:
            it.history = None
            self.fruitless[it.loop] = self.fruitless.get(it.loop, 0) + 1
            return
        history.append(self.snapshot())
        for period in range(1, MAX_PERIOD + 1):
            if len(history) > 3 * period and self.try_skip(it, [history[-1 - 3 * period + i * period]
                                                                for i in range(4)]):
                it.history = None
                self.fruitless[it.loop] = 0
                return

    def snapshot(self) -> Snapshot:
        index = {id(tl.thread): i for i, tl in enumerate(self.group)}
        structure: list[Any] = [len(self.rec.barriers), tuple(index.get(id(t), -1) for t in self.ready)]
        numbers: list[Any] = [self.rec.next_vid]
        for tl in self.group:
            thread = tl.thread
            frame = thread.gen.gi_frame
            structure.append((thread.done, frame.f_lasti if frame is not None else -2,
                              thread.blocked[1] if thread.blocked else -1, tuple(i.loop for i in tl.stack),
                              id(tl.stack[0]) if tl.stack else 0, tuple(map(type, tl.regs))))
            numbers.append(thread.steps)
            numbers.extend(i.next for i in tl.stack)
            numbers.extend(r for r in tl.regs if r is not None)
        for cb in self.cbs:
            ring = _ring(cb)
            structure.append((cb.nres - cb.npop, cb.npush - cb.npop, cb.nwait - cb.npop,
                              tuple(cb.vids[slot] >= 0 for slot in ring),
                              tuple(None if cb.xfers[slot] is None else (cb.xfers[slot].incoming, cb.xfers[slot].done)
                                    for slot in ring),
                              tuple(index.get(id(w), -1) for w in cb.waiters)))
            numbers.append(cb.npop)
            numbers.extend(cb.vids[slot] for slot in ring if cb.vids[slot] >= 0)
        lengths = [len(col) for col in self.columns]
        return Snapshot(tuple(structure), numbers, lengths)

    # ---------------------------------------------------------------- skipping
    def try_skip(self, it: LoopIter, snaps: list[Snapshot]) -> bool:
        first = snaps[0]
        if any(s.structure != first.structure for s in snaps[1:]):
            return False
        steps = _common_step(snaps, "numbers")
        lengths = _common_step(snaps, "lengths")
        if steps is None or lengths is None:
            return False
        plan = self.plan_skip(steps)
        if plan is None:
            return False
        blocks = self.record_blocks(snaps, lengths)
        if blocks is None:
            return False
        while plan.count >= 2 and not self.guards_hold(plan):
            plan.count = plan.count // 2 - plan.count // 2 % plan.turns
        if plan.count < 2 or not self.depths_stay_maxima(blocks, steps[0], plan.count):
            return False
        self.apply(plan, steps[0], blocks)
        return True

    def plan_skip(self, steps: list[Any]) -> "SkipPlan | None":
        """How many periods may be skipped (no loop runs out, every buffer ring turns whole) and the
        step of everything that moves; None where a thread moved in a way that cannot be shifted.
        ``steps`` follows the layout of :meth:`snapshot`'s numbers (taken now: the state is the last
        snapshot's)."""
        count = 1 << 62
        at = 1  # numbers[0] is the recorder's next value id
        threads = []
        for tl in self.group:
            thread_steps = steps[at]
            loop_steps = steps[at + 1:at + 1 + len(tl.stack)]
            at += 1 + len(tl.stack)
            live = [j for j, r in enumerate(tl.regs) if r is not None]
            reg_steps = list(zip(live, steps[at:at + len(live)]))
            at += len(live)
            if not tl.stack and thread_steps:
                return None  # progress outside any qualifying loop
            if any(step and type(tl.regs[j]) is not int for j, step in reg_steps):
                return None  # a float or a flag that changes: not an exact progression
            for level, step in zip(tl.stack, loop_steps):
                count = min(count, level.remaining_steps(step))
            threads.append((tl, loop_steps, reg_steps))
        turns = 1
        slot_steps = []
        for cb in self.cbs:
            moved = steps[at] % cb.capacity
            turns = math.lcm(turns, cb.capacity // math.gcd(moved, cb.capacity))
            held = sum(cb.vids[slot] >= 0 for slot in _ring(cb))
            slot_steps.extend(steps[at + 1:at + 1 + held])
            at += 1 + held
        plan = SkipPlan(count - count % turns, turns, threads, slot_steps)
        return plan if plan.count >= 2 else None

    def record_blocks(self, snaps: list[Snapshot], lengths: list[int]) -> list[tuple[Any, np.ndarray, np.ndarray]] | None:
        """Per recorder column: the last observed period's entries and their step per period (the
        last three periods must agree entry by entry)."""
        out = []
        for c, col in enumerate(self.columns):
            n = lengths[c]
            if not n:
                continue
            ends = [s.lengths[c] for s in snaps]
            b1, b2, b3 = (_entries(col, ends[i], ends[i + 1]) for i in range(3))
            step = b2 - b1
            if not np.array_equal(b3 - b2, step):
                return None
            out.append((col, b3, step))
        return out

    def guards_hold(self, plan: "SkipPlan") -> bool:
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
            frame = tl.thread.gen.gi_frame
            value, step = (frame.f_locals.get(tl.code.names(x.name)) if frame is not None else None), 0
        return (value, step) if isinstance(value, (int, float)) and not isinstance(value, bool) else None

    def depths_stay_maxima(self, blocks: list[Any], vid_step: int, count: int) -> bool:
        """A stored value's depth is one more than its deepest operand's. Depths of the skipped
        periods are extrapolated; that is right when the same operand stays the deepest over the run,
        and since each depth is affine in the period, it suffices that it is at the run's last period."""
        depth = np.frombuffer(self.rec.depth, dtype=np.dtype(self.rec.depth.typecode))
        try:
            return self._depths_stay_maxima(depth, blocks, vid_step, count)
        finally:
            del depth  # the view pins the recorder's growing column

    def _depths_stay_maxima(self, depth: np.ndarray, blocks: list[Any], vid_step: int, count: int) -> bool:
        for site in self.rec.computes:
            block = next((b for b in blocks if b[0] is site.leaves), None)
            if block is None or not site.block_pos:
                continue
            width = len(site.block_leaves)
            leaves = block[1].reshape(-1, width)[:, site.block_pos].astype(np.int64)
            leaf_steps = block[2].reshape(-1, width)[:, site.block_pos].astype(np.int64)
            outs = next(b for b in blocks if b[0] is site.out)[1].astype(np.int64)
            if not np.isin(leaf_steps, (0, vid_step)).all():
                return False
            moving = leaf_steps != 0
            before = np.where(moving, leaves - vid_step, leaves)
            if (before < 0).any():
                return False
            final = depth[leaves] + np.where(moving, count * (depth[leaves] - depth[before]), 0)
            final_out = depth[outs] + count * (depth[outs] - depth[outs - vid_step])
            if not np.array_equal(final.max(axis=1) + 1, final_out):
                return False
        return True

    def apply(self, plan: "SkipPlan", vid_step: int, blocks: list[Any]) -> None:
        count = plan.count
        for col, block, step in blocks:
            per_chunk = max(1, APPEND_CHUNK // len(block))  # bounds the temporaries of long runs
            for first in range(1, count + 1, per_chunk):
                periods = np.arange(first, min(first + per_chunk, count + 1), dtype=block.dtype).reshape(-1, 1)
                col.frombytes((block + periods * step).tobytes())
        self.rec.next_vid += count * vid_step
        for tl, loop_steps, reg_steps in plan.threads:
            for level, step in zip(tl.stack, loop_steps):
                level.next += count * step
            for j, step in reg_steps:
                if step:
                    tl.regs[j] += count * step
        slot_steps = iter(plan.slot_steps)
        for cb in self.cbs:  # positions stay: the run turns every ring whole
            for slot in _ring(cb):
                if cb.vids[slot] >= 0:
                    cb.vids[slot] += count * next(slot_steps)
        self.skipped_periods += count


class SkipPlan:
    """A skip being prepared: how many periods, the ring turns they must be a multiple of, and the
    step per period of each thread's loop positions and registers and of each held block's value."""

    __slots__ = ("count", "turns", "threads", "slot_steps")

    def __init__(self, count: int, turns: int, threads: list[tuple[ThreadLoops, list[int], list[tuple[int, int]]]],
                 slot_steps: list[int]):
        self.count = count
        self.turns = turns
        self.threads = threads
        self.slot_steps = slot_steps


def _constant_outcome(op: str, lhs: tuple[Any, Any], rhs: tuple[Any, Any], count: int) -> bool:
    """Whether ``lhs op rhs`` has one outcome over the skipped run and the periods next to it.

    Each side is affine in the period, ``value + t * step``; within the run a side's value may be the
    one of the period before or after (it may be assigned before or after the snapshot's point), so
    ``t`` spans -1 .. count + 2 and the sides may be one period apart. Their difference is affine
    too: an ordering has one outcome wherever it has it at both ends; equality holds throughout only
    where the difference is zero throughout and fails throughout only where it keeps one sign."""
    (a, da), (b, db) = lhs, rhs
    test = _COMPARE[op]
    outcomes = set()
    for shift_a in (0, 1):
        for shift_b in (0, 1):
            ends = [(a + (t + shift_a) * da) - (b + (t + shift_b) * db) for t in (-1, count + 1)]
            if op in ("eq", "ne") and not (ends[0] == ends[1] == 0 or ends[0] * ends[1] > 0):
                return False
            outcomes.update(test(d, 0) for d in ends)
    return len(outcomes) == 1


def _ring(cb: Any) -> list[int]:
    """A buffer's slots in ring order from its oldest block, so that states one turn apart compare."""
    return [(cb.npop + r) % cb.capacity for r in range(cb.capacity)]


def _common_step(snaps: list[Snapshot], field: str) -> list[Any] | None:
    """The per-period step of every number, if all three periods agree on it."""
    a, b, c, d = (getattr(s, field) for s in snaps)
    if not (len(a) == len(b) == len(c) == len(d)):
        return None
    out = []
    for w, x, y, z in zip(a, b, c, d):
        step = x - w
        if y - x != step or z - y != step:
            return None
        out.append(step)
    return out


def _entries(col: Any, start: int, stop: int) -> np.ndarray:
    """A copy of ``col[start:stop]`` (a copy: a view would pin the growing array's buffer)."""
    view = np.frombuffer(col, dtype=np.dtype(col.typecode), count=stop - start, offset=start * col.itemsize)
    out = view.copy()
    del view
    return out
