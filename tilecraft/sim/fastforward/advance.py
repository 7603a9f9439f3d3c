"""Advance the threads of one core by whole loop periods instead of one operation at a time.

A core's threads run the same loop bodies over and over: at 8192^3 the matmul tutorial's K loop
runs 16.7 million times. Phase 1 does not need to step through each iteration: the skeleton is
deterministic, so once the state of the core's threads *repeats* (same program points, same
buffer occupancy, numbers changing by the same amounts), every further period of the loop is the
same as the last, shifted. The controller here

1. snapshots the core at the head of a long loop (:class:`LoopIter`, one per run of a loop that
   :mod:`.loop_plan` proved uniform) for its first iterations;
2. finds a period ``P`` whose last four snapshots agree: equal structure (each thread's program
   point, loop nest and blocked operation, each buffer relative to its oldest block, which threads
   wait where) and numbers that change by the same step (loop positions, the registers the loop
   assigns, value ids in buffer slots, the recorder's counters and the lengths of its columns);
3. checks that the recorded graph of the last three periods changes by the same step entry by entry,
   that the guards of the loops (affine comparisons) keep their outcome over the skipped run, that
   no loop runs out within it, and that each value's depth stays the maximum of its operands';
4. appends ``N`` more periods to the graph (arithmetic progressions in numpy) and shifts the loop
   positions, registers and buffer contents by ``N`` steps.

Buffer positions are not shifted: the snapshots compare buffers relative to their oldest block,
and the number of skipped periods is a multiple that moves every ring by whole turns, so the block
handles held in the threads' frames stay valid. Protocol errors cannot hide in a skipped run: the
protocol state at every operation of a skipped period is that of the same operation in the
observed periods. A thread that made progress
outside any qualifying loop, a thread that re-entered its outermost loop, or anything that does not
repeat exactly stops the attempt; the core then simply runs on step by step. What does not
depend on the recorder (loop positions, registers, the period search, guards) is in :mod:`.periodic`,
shared with the timing model's controller (:mod:`tilecraft.perf.fastforward`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..dataflow.graph import append_entries
from .periodic import LoopIter, PeriodicController, SkipPlan, Snapshot, ThreadLoops, common_step, ring

__all__ = ["FastForward", "LoopIter", "ThreadLoops"]

#: recorder entries extrapolated per numpy call
APPEND_CHUNK = 1 << 21


class FastForward(PeriodicController):
    """The controller for one program run: the core being run, its threads, the recorder."""

    def __init__(self, rec: Any):
        super().__init__()
        self.rec = rec
        self.cbs: list[Any] = []
        self.ready: Any = None
        #: where each skip is reported as ``(loop, periods)`` while a core is sampled (:mod:`.core_groups`)
        self.trace: list[Any] | None = None
        self.columns = [getattr(owner, name) for owner, name, _ in rec.columns()]

    def begin_group(self, group: list[ThreadLoops], cbs: list[Any], ready: Any) -> None:
        self.group = group
        self.cbs = cbs
        self.ready = ready

    # ---------------------------------------------------------------- observing
    def snapshot(self) -> Snapshot:
        index = {id(tl.thread): i for i, tl in enumerate(self.group)}
        structure: list[Any] = [len(self.rec.barriers), tuple(index.get(id(t), -1) for t in self.ready)]
        numbers: list[Any] = []
        for tl in self.group:
            thread = tl.thread
            self.thread_state(tl, (thread.done, thread.blocked[1] if thread.blocked else -1), structure, numbers)
        numbers.append(self.rec.next_vid)
        for cb in self.cbs:
            slots = ring(cb)
            structure.append((cb.nres - cb.npop, cb.npush - cb.npop, cb.nwait - cb.npop,
                              tuple(cb.vids[slot] >= 0 for slot in slots),
                              tuple(None if cb.xfers[slot] is None else (cb.xfers[slot].incoming, cb.xfers[slot].done)
                                    for slot in slots),
                              tuple(index.get(id(w), -1) for w in cb.waiters)))
            numbers.append(cb.npop)
            numbers.extend(cb.vids[slot] for slot in slots if cb.vids[slot] >= 0)
        lengths = [len(col) for col in self.columns]
        return Snapshot(tuple(structure), numbers, lengths)

    # ---------------------------------------------------------------- skipping
    def try_skip(self, it: LoopIter, snaps: list[Snapshot]) -> bool | None:
        first = snaps[0]
        if any(s.structure != first.structure for s in snaps[1:]):
            return None
        steps = common_step([s.numbers for s in snaps])
        lengths = common_step([s.extra for s in snaps])
        if steps is None or lengths is None:
            return None
        plan = self.plan_loops(steps)
        if plan is None:
            return None
        vid_step = steps[plan.at]
        slot_steps = self.plan_buffers(plan, steps)
        blocks = self.record_blocks(snaps, lengths)
        if blocks is None or not self.settle_count(plan) \
                or not self.depths_stay_maxima(blocks, vid_step, plan.count):
            return None
        self.apply(plan, vid_step, blocks, slot_steps)
        if self.trace is not None:
            self.trace.append((it.loop, plan.count))
        return True

    def plan_buffers(self, plan: SkipPlan, steps: list[Any]) -> list[int]:
        """The ring turns a skip must be a multiple of, and the step of each held block's value."""
        at = plan.at + 1  # after the recorder's next value id
        slot_steps = []
        for cb in self.cbs:
            self.ring_turns(plan, steps[at], cb.capacity)
            held = sum(cb.vids[slot] >= 0 for slot in ring(cb))
            slot_steps.extend(steps[at + 1:at + 1 + held])
            at += 1 + held
        return slot_steps

    def record_blocks(self, snaps: list[Snapshot], lengths: list[int]) -> list[tuple[Any, np.ndarray, np.ndarray]] | None:
        """Per recorder column: the last observed period's entries and their step per period (the
        last three periods must agree entry by entry)."""
        out = []
        for c, col in enumerate(self.columns):
            n = lengths[c]
            if not n:
                continue
            ends = [s.extra[c] for s in snaps]
            b1, b2, b3 = (_entries(col, ends[i], ends[i + 1]) for i in range(3))
            step = b2 - b1
            if not np.array_equal(b3 - b2, step):
                return None
            out.append((col, b3, step))
        return out

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

    def apply(self, plan: SkipPlan, vid_step: int, blocks: list[Any], slot_steps: list[int]) -> None:
        count = plan.count
        for col, block, step in blocks:
            append_progression(col, block, step, count)
        self.rec.next_vid += count * vid_step
        self.shift_loops(plan)
        moves = iter(slot_steps)
        for cb in self.cbs:  # positions stay: the run turns every ring whole
            for slot in ring(cb):
                if cb.vids[slot] >= 0:
                    cb.vids[slot] += count * next(moves)


def append_progression(col: Any, block: np.ndarray, step: np.ndarray, count: int) -> None:
    """Append ``block + p * step`` for periods ``p = 1 .. count`` to the recorder column ``col``.

    In chunks of about ``APPEND_CHUNK`` entries computed into one reused buffer, which the column copies
    from directly: a fresh product, sum and ``bytes`` per chunk had glibc map and unmap them each time,
    and at 8192^3 their page faults were most of phase 1's CPU (~0.5 GB of page-ins, ~0.7 s)."""
    per_chunk = max(1, APPEND_CHUNK // len(block))  # bounds the temporaries of long runs
    buffer = np.empty((min(per_chunk, count), len(block)), dtype=block.dtype)
    for first in range(1, count + 1, per_chunk):
        periods = np.arange(first, min(first + per_chunk, count + 1), dtype=block.dtype).reshape(-1, 1)
        out = buffer[:len(periods)]
        np.multiply(periods, step, out=out)
        out += block
        append_entries(col, out)


def _entries(col: Any, start: int, stop: int) -> np.ndarray:
    """A copy of ``col[start:stop]`` (a copy: a view would pin the growing array's buffer)."""
    view = np.frombuffer(col, dtype=np.dtype(col.typecode), count=stop - start, offset=start * col.itemsize)
    out = view.copy()
    del view
    return out
