"""Advance the timing model by whole loop periods once its state repeats.

At 8192^3 the matmul tutorial's K loop runs 16.7 million times, and the timing model would time
every iteration of every thread. In steady state an iteration is the last one shifted in time:
the same operations, the same stalls, every clock one period later. The controller here (a
:class:`tilecraft.sim.fastforward.periodic.PeriodicController`, as the simulator's) watches the heads of the
long loops of one thread, the *pacer*, and snapshots every thread of every core there (cores share
DRAM banks and NoC links, so one core cannot be advanced alone):

* **structure**, equal in each snapshot: each thread's program point, loop nest and where it waits
  (running, its rank in the ready queue, the buffer it is parked on, finished), each buffer's
  occupancy, which clocks are *dead* (below);
* **counts** moving by exactly equal steps: loop positions, integer registers, buffer counters,
  resumptions;
* **clocks**, compared relative to the pacer's clock: threads' cycle counters, buffer slots' push
  and pop cycles, transfer completions held in registers, DRAM banks' and NoC links' next-free
  cycles. A clock below every runnable thread's clock is *dead*: every later use takes the larger
  of it and a thread's clock, which is then the thread's, so its value no longer matters (it is
  left as it is). Every live clock must keep its distance to the pacer's clock;
* **accumulators** that only grow: busy and stall cycles per operation (the profiler's line table),
  FLOPs, bytes moved, resources' busy cycles.

A period of ``P`` iterations is accepted when the last four snapshots agree: the structures are
equal, the counts move by equal steps, the pacer's clock moves by ``dt > 0`` per period with the
three steps within ``REL_TOL * dt`` of each other, every live clock keeps its distance to the
pacer's within ``REL_TOL * dt``, and every accumulator's three steps agree within ``REL_TOL``
times its step (plus ``dt``). The DRAM bank each page goes to is ``page % banks``: a period must
move every DRAM access of the moving loops by a whole number of turns over the banks, so that the
skipped periods touch the same banks as the observed one. Then the loops' guards are checked over
the run (:mod:`tilecraft.sim.fastforward.periodic`) and everything is extended by ``N`` periods: counts by
``N`` exact steps, live clocks by ``N * dt`` (dead ones stay), accumulators by ``N`` times their
mean step over the three observed periods.

Why that is within the tolerance of the step-by-step run: every time in the model is a max-plus
expression of earlier times and fixed costs. While the same operations run in the same order and
every live clock keeps its distance to the others, every maximum picks the same operand as in the
observed period, and each period adds the same amounts. Distances that moved by less than
``REL_TOL * dt`` per period (rounding, or a drift too small to see in three periods) can change
the run by at most ``REL_TOL`` of its length. Only runs without pipes, semaphores, transfer groups
or a trace are advanced (their state is in places a skip cannot shift).
"""

from __future__ import annotations

import heapq
from typing import Any

import numpy as np

from ..ir import ops as ir
from ..ir.program_ir import COMPUTE, ProgramIR
from ..sim.fastforward.periodic import LoopIter, PeriodicController, SkipPlan, Snapshot, ThreadLoops, common_step, ring
from .network import page_strides

#: relative tolerance on the steps of clocks and accumulators per period (see the module's doc)
REL_TOL = 1e-6
#: a snapshot costs about as much as this many resumptions of each thread; once snapshots have
#: cost more than GRACE resumptions and more than the skips saved, the run is no longer watched
SNAPSHOT_COST = 8
GRACE = 16000


def can_fast_forward(program: ProgramIR, trace: bool) -> bool:
    """Whether a timing run of ``program`` may be advanced by whole periods: no pipes or semaphores
    (their waits hold clocks in places a skip cannot see), no transfer groups, no trace."""
    if trace or program.pipenets or program.semaphores:
        return False
    return not any(isinstance(op, (ir.GroupNew, ir.GroupAdd, ir.GroupWait))
                   for thread in program.threads for op in ir.walk(thread.body))


class _Times:
    """The clocks and counters of a snapshot (:meth:`TimedFastForward.snapshot`)."""

    __slots__ = ("pace", "own", "rel", "acc", "bank_busy", "banks_dead", "head")

    def __init__(self, pace: float, own: np.ndarray, rel: np.ndarray, acc: np.ndarray, bank_busy: np.ndarray,
                 banks_dead: bool, head: int):
        self.pace = pace  # the pacer's clock
        self.own = own  # every unfinished thread's clock
        self.rel = rel  # the other clocks less the pacer's (0 where dead)
        self.acc = acc  # the accumulators
        self.bank_busy = bank_busy
        self.banks_dead = banks_dead  # whether every bank's next-free cycle is dead
        self.head = head  # which head of the watched loop


class TimedFastForward(PeriodicController):
    """The controller of one :class:`.engine.TimingRun`."""

    def __init__(self, run: Any):
        super().__init__()
        self.run = run
        self.nbanks = run.figs.dram_banks
        #: the longest period tried: the bank count (the least period that moves every DRAM access
        #: pattern by whole turns over the banks divides it)
        self.MAX_PERIOD = max(4, self.nbanks)
        self.divisors = [p for p in range(1, self.MAX_PERIOD + 1) if self.MAX_PERIOD % p == 0]
        #: per loop: the period (in its iterations) and the head at which its last skip was found
        self.learned: dict[int, tuple[int, int]] = {}
        self.current: LoopIter | None = None
        #: snapshots taken, and thread resumptions the skips saved (what :attr:`gave_up` weighs)
        self.snapshots = 0
        self.saved = 0
        #: the pacer's loop whose head was reached (generated code then calls :meth:`head`)
        self.due: LoopIter | None = None
        self.pacer: ThreadLoops | None = None
        self.cbs: list[Any] = []
        #: qualifying loop id -> its DRAM copies as (page strides, register index or None per start)
        self.sites: list[dict[int, list[tuple[tuple[int, ...], list[int | None]]]]] = []

    @property
    def min_iterations(self) -> int:
        return 3 * 4 + 12  # enough for a period of four iterations and a skip of a few more

    # ---------------------------------------------------------------- setup
    def begin(self, loops: list[ThreadLoops], cores: list[Any]) -> None:
        """Every thread's loop record (core by core, threads in program order) and the cores' state."""
        self.group = loops
        self.cbs = [cb for k in cores for cb in k.cbs]
        self.cores = cores
        ops = self.run.ops
        self.sites = [self._dram_sites(code.plan, ops) for code in self.run.code]
        first = loops[:len(self.run.code)]
        # the pacer: the thread of the first core with the deepest nest of qualifying loops
        self.pacer = max(first, key=lambda tl: (len(tl.plan.loops), tl.thread.kind == COMPUTE), default=None)

    @staticmethod
    def _dram_sites(plan: Any, ops: list[ir.Op]) -> dict[int, list[tuple[tuple[int, ...], list[int | None]]]]:
        """Per qualifying loop: the DRAM copies in its body, each as the page strides of its tensor
        and, per start of the slice, the register-list index that holds it (None: a constant)."""
        out = {}
        for loop in plan.loops:
            sites = []
            for op in ir.walk(ops[loop].body):
                index = op.src if isinstance(op, ir.CopyTensorToBlock) else \
                    op.dst if isinstance(op, ir.CopyBlockToTensor) else None
                if index is not None:
                    strides = page_strides(index.tensor)
                    starts = [lo for lo, _ in index.bounds][-len(index.tensor.unit_shape):]
                    sites.append((strides, [plan.shifted.get(lo.name) if isinstance(lo, ir.Reg) else None
                                            for lo in starts[:len(strides)]]))
            out[loop] = sites
        return out

    def watches(self, owner: ThreadLoops) -> bool:
        return owner is self.pacer and not self.gave_up

    @property
    def gave_up(self) -> bool:
        """Whether snapshots have cost more than the skips saved (a run whose state does not repeat)."""
        cost = self.snapshots * SNAPSHOT_COST * len(self.group)
        return cost > GRACE and self.saved < cost

    def loop(self, owner: ThreadLoops, loop: int, lo: int, hi: int, step: int) -> LoopIter | range:
        if self.gave_up:
            return range(lo, hi, step)  # no skip comes any more: positions need not be readable
        return super().loop(owner, loop, lo, hi, step)

    def periods(self, it: LoopIter) -> list[int]:
        """Divisors of the bank count (a period must turn every DRAM access pattern whole, which the
        least such period divides) for which enough iterations remain to observe and skip. A run is
        watched as long as that holds (a loop may settle late, when another core joins in), over the
        latest snapshots only; :attr:`gave_up` bounds what that costs."""
        history = it.history
        if len(history) > 3 * self.MAX_PERIOD:
            del history[:len(history) - 3 * self.MAX_PERIOD]
        left = (it.hi - it.next) // it.step
        seen = len(history)
        return [p for p in self.divisors if max(0, 3 * p - seen) + 4 * p <= left]

    def checkpoint(self, it: LoopIter, *context: Any) -> Any:
        """As the base class, but a loop that was advanced before is first only snapshotted at the
        heads where its last run was found to repeat (four, a period apart), and tried there."""
        learned = self.learned.get(it.loop)
        if learned is None or it.history is None or it.count > learned[1]:
            return super().checkpoint(it, *context)
        period, at = learned
        if (at - it.count) % period or it.count < at - 3 * period:
            return None
        it.history.append(self.snapshot(*context))
        if it.count < at:
            return None
        snaps, it.history = it.history, []  # from here on, watched as any other run
        done = self.try_skip(it, snaps, *context) if len(snaps) == 4 else None
        if done is not None:
            self.skipped(it)
        return done

    def at_head(self, it: LoopIter) -> None:
        self.due = it

    def head(self, t: float) -> float:
        """The pacer is at the head of a watched loop with clock ``t`` (generated code calls this when
        :attr:`due`): snapshot, maybe skip; returns the pacer's clock afterwards."""
        it, self.due = self.due, None
        self.current = it
        shifted = self.checkpoint(it, t)
        return t if shifted is None else shifted

    # ---------------------------------------------------------------- observing
    def snapshot(self, t: float) -> Snapshot:
        self.snapshots += 1
        pacer = self.pacer.thread
        heap = self.run.clock.heap
        ranks = {id(entry[2]): r for r, entry in enumerate(sorted(heap, key=lambda e: (e[0], e[1])))}
        tmin = min([t] + [entry[0] for entry in heap])
        structure: list[Any] = []
        numbers: list[Any] = []
        clocks: list[float] = []
        own: list[float] = []  # the threads' own clocks
        waiting = {id(tl.thread): i for i, tl in enumerate(self.group)}
        accumulators: list[Any] = []
        for tl in self.group:
            thread = tl.thread
            if thread is pacer:
                where, now = "run", t
            elif thread.gen is None:
                where, now = "done", None
            elif id(thread) in ranks:
                where, now = ranks[id(thread)], thread.t
            else:
                where, now = "parked", thread.t
            self.thread_state(tl, where, structure, numbers)
            if now is not None:
                own.append(now)
            clocks.extend(tl.regs[j] if tl.regs[j] is not None else -np.inf for j in sorted(tl.plan.clocks))
            accumulators.append(thread.busy)
            accumulators.append(thread.stall)
        for cb in self.cbs:
            structure.append((cb.nres - cb.npop, cb.npush - cb.npop, cb.nwait - cb.npop, cb.free, cb.ready,
                              tuple(waiting.get(id(w), -1) for w in cb.waiters)))
            numbers.append(cb.npop)
            slots = ring(cb)
            clocks.extend(cb.push_t[s] for s in slots)
            clocks.extend(cb.pop_t[s] for s in slots)
        res = self.run.res
        structure.append(tuple(res.free))
        self.banks = slice(len(clocks), len(clocks) + len(res.bank_free))
        clocks.extend(res.bank_free)
        clocks.extend(res.free.values())
        clocks.append(res.last_sent)
        accumulators.append(list(res.busy.values()))
        accumulators.append([res.dram_read_bytes, res.dram_write_bytes, res.noc_bytes])
        accumulators.append([k.flops[0] for k in self.cores])
        times = np.array(clocks, dtype=np.float64)
        dead = times < tmin
        structure.append(dead.tobytes())
        acc = np.concatenate([np.asarray(a, dtype=np.float64) for a in accumulators])
        return Snapshot(tuple(structure), numbers, _Times(t, np.array(own, dtype=np.float64),
                                                          np.where(dead, 0.0, times - t), acc,
                                                          np.array(res.bank_busy, dtype=np.float64),
                                                          bool(dead[self.banks].all()), self.current.count))

    # ---------------------------------------------------------------- skipping
    def try_skip(self, it: LoopIter, snaps: list[Snapshot], t: float) -> float | None:
        first = snaps[0]
        if any(s.structure != first.structure for s in snaps[1:]):
            return None
        steps = common_step([s.numbers for s in snaps])
        if steps is None:
            return None
        plan = self.plan_loops(steps)
        if plan is None:
            return None
        at = plan.at
        for cb in self.cbs:
            self.ring_turns(plan, steps[at], cb.capacity)
            at += 1
        times = [s.extra for s in snaps]
        paces = [x.pace for x in times]
        dt = (paces[3] - paces[0]) / 3
        tol = REL_TOL * dt
        if dt <= 0 or any(abs(b - a - dt) > tol for a, b in zip(paces, paces[1:])):
            return None
        # a thread's own clock either moves with the pacer's or stays (it waits all along)
        own_steps = [b.own - a.own for a, b in zip(times, times[1:])]
        moving = np.abs(own_steps[0] - dt) <= tol
        if any((np.abs(np.where(moving, step - dt, step)) > tol).any() for step in own_steps):
            return None
        if any(np.abs(b.rel - a.rel).max(initial=0.0) > tol for a, b in zip(times, times[1:])):
            return None
        acc_steps = [b.acc - a.acc for a, b in zip(times, times[1:])]
        mean_step = (times[3].acc - times[0].acc) / 3
        bound = REL_TOL * (np.abs(mean_step) + dt)
        if any((np.abs(b - a) > bound).any() for a, b in zip(acc_steps, acc_steps[1:])):
            return None
        rotation = self.bank_rotation(plan, times[0].banks_dead)
        if rotation is None or not self.settle_count(plan):
            return None
        busy_steps = [b.bank_busy - a.bank_busy for a, b in zip(times, times[1:])]
        if any(np.abs(np.roll(a, rotation) - b).max(initial=0.0) > REL_TOL * (np.abs(b).max(initial=0.0) + dt)
               for a, b in zip(busy_steps, busy_steps[1:])):
            return None
        self.learned[it.loop] = (times[3].head - times[2].head, it.count)
        self.saved += plan.count * plan.resumed
        return self.apply(plan, t, dt, moving, mean_step, first.structure[-1], busy_steps[-1], rotation)

    def bank_rotation(self, plan: SkipPlan, banks_dead: bool) -> int | None:
        """How many banks each period moves the DRAM accesses of the moving threads by; None where
        the skipped periods would not see the observed ones' bank pattern.

        A slice's page is affine in the registers and its bank is ``page % banks``. Where every
        access moves by whole turns over the banks, each period touches the banks the last one
        did. Where they all move by the same ``r`` banks and every bank was idle at the period's
        start (its next-free cycle dead), a period is the last one with the banks renumbered,
        which gives it the same times; the banks' busy cycles then rotate by ``r`` per period."""
        moves = set()
        for (tl, loop_steps, reg_steps), sites in zip(plan.threads, self.sites * len(self.cores)):
            moving = next((level for level, step in zip(tl.stack, loop_steps) if step), None)
            if moving is None:
                continue  # the skip runs none of its accesses
            steps = dict(reg_steps)
            for strides, regs in sites[moving.loop]:
                moves.add(sum(s * steps.get(j, 0) for s, j in zip(strides, regs) if j is not None) % self.nbanks)
        if not moves or moves == {0}:
            return 0
        return moves.pop() if len(moves) == 1 and banks_dead else None

    def apply(self, plan: SkipPlan, t: float, dt: float, moving: np.ndarray, mean_step: np.ndarray,
              dead_bytes: bytes, bank_step: np.ndarray, rotation: int) -> float:
        """Extend the run by ``plan.count`` periods; returns the pacer's clock."""
        self.shift_loops(plan)
        count = plan.count
        delta = count * dt
        live = ~np.frombuffer(dead_bytes, dtype=bool)
        moves = iter(np.where(live, delta, 0.0).tolist())
        own = iter(np.where(moving, delta, 0.0).tolist())
        pacer = self.pacer.thread
        heap = self.run.clock.heap
        for tl in self.group:
            thread = tl.thread
            if thread.gen is not None:
                move = next(own)
                if thread is not pacer:
                    thread.t += move
                    thread.shift += move  # the frame's clock, when the thread resumes
            for j in sorted(tl.plan.clocks):
                move = next(moves)
                if tl.regs[j] is not None:
                    tl.regs[j] += move
        for cb in self.cbs:
            slots = ring(cb)
            for s in slots:
                cb.push_t[s] += next(moves)
            for s in slots:
                cb.pop_t[s] += next(moves)
        res = self.run.res
        for b in range(len(res.bank_free)):
            res.bank_free[b] += next(moves)
        for key in res.free:
            res.free[key] += next(moves)
        res.last_sent += next(moves)
        heap[:] = [(thread.t, seq, thread) for _, seq, thread in heap]
        heapq.heapify(heap)
        grown = iter((count * mean_step).tolist())
        for tl in self.group:
            for counters in (tl.thread.busy, tl.thread.stall):
                for i in range(len(counters)):
                    counters[i] += next(grown)
        turns = [0] * self.nbanks  # how often each rotation of the last period's bank pattern recurs
        for p in range(1, count + 1):
            turns[p * rotation % self.nbanks] += 1
            if p * rotation % self.nbanks == 0 and p < count:  # a whole cycle of rotations: the rest repeats
                whole, rest = divmod(count, p)
                turns = [n * whole for n in turns]
                for q in range(1, rest + 1):
                    turns[q * rotation % self.nbanks] += 1
                break
        added = sum(n * np.roll(bank_step, r) for r, n in enumerate(turns) if n)
        for b in range(len(res.bank_busy)):
            res.bank_busy[b] += float(added[b])
        for key in res.busy:
            res.busy[key] += next(grown)
        res.dram_read_bytes += next(grown)
        res.dram_write_bytes += next(grown)
        res.noc_bytes += next(grown)
        for k in self.cores:
            k.flops[0] += round(next(grown))
        return t + delta
