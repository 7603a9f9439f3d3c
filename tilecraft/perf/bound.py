"""A lower bound on a program's predicted time, for a fraction of the estimate's cost.

Why: the autotuner abandons a candidate once it cannot beat the best ones so far (``estimate(...,
stop_after=)``); a bound known before the run abandons it without running at all.

A thread's *busy* cycles do not depend on timing: every charge is a fixed cost of its operation
(a block product, a tile's NoC transaction, a buffer call); waiting is stall, not busy. And a
thread's control flow never depends on data or on time (docs/performance-model.md). So each
thread can run on its own, against a core whose buffers, pipes and semaphores never make it
wait, and its busy total there equals its busy total in the real run; the thread cannot end
sooner, so neither can the program. The transfers those threads make are a subset of the real
run's, so the time they hold each DRAM bank, NoC link and core port (a serial resource, held
``bytes / bandwidth`` per transfer) is a lower bound as well. The bound is the largest of these
for two sampled cores (the first and the last of the grid): it costs two cores' worth of a run.
"""

from __future__ import annotations

from typing import Any

from ..lang.grid import reshape_coords
from ..sim.fastforward.periodic import ThreadLoops
from .engine import TimingRun
from .network import Resources, xy


class _Always:
    """A value that satisfies every semaphore condition (``value != v`` and ``value < v`` are false)."""

    def __ne__(self, other: object) -> bool:
        return False

    def __eq__(self, other: object) -> bool:
        return True

    def __lt__(self, other: object) -> bool:
        return False

    __hash__ = object.__hash__


class _Free:
    """A buffer, semaphore or landing slot that never blocks: every condition holds at once."""

    free = ready = True
    value = _Always()
    changed = landed = freed = 0.0
    posted = True

    @property
    def full(self) -> bool:
        return True

    @full.setter
    def full(self, value: bool) -> None:
        pass

    def reserve(self, t: float) -> float:
        return t

    wait = reserve

    def push(self, t: float) -> None:
        pass

    pop = push

    def update(self, value: int, at: float) -> None:
        pass

    def wake(self) -> None:
        pass


class _FreePipe:
    """A pipe whose landing slots are empty for the sender and full for the receiver."""

    def __init__(self, decl: Any, direct: bool):
        self.decl = decl
        self.direct = direct
        self.all_slots: list = []
        self.slots: Any = _EverySlot()
        self.routes: dict = {}


class _EverySlot:
    def __getitem__(self, core: Any) -> _Free:
        return _Free()


class _AloneCore:
    """What a thread's generated code reads from its core (``K``), for a run on its own."""

    def __init__(self, run: TimingRun, core: tuple[int, ...], res: Resources):
        self.run = run
        self.core = core
        self.heap: list = []
        self.clock = self
        self.res = res
        self.flops = [0]
        position = xy(core)
        self.ports = [(("in", position, noc), ("out", position, noc)) for noc in range(2)]
        self.cbs = [_Free() for _ in run.program.cbs]
        self.sems = [_Free() for _ in run.program.semaphores]
        pipes = {n.index: [_FreePipe(p, n.direct) for p in n.pipes] for n in run.program.pipenets}
        self.pipes_src = {i: [p for p in ps if p.decl.src == core] for i, ps in pipes.items()}
        self.pipes_dst = {i: [p for p in ps if core in p.decl.dsts] for i, ps in pipes.items()}
        #: registers that code for a fast-forwarded run keeps in lists (its loops run plainly here)
        self.loops = [ThreadLoops(code.plan, code) for code in run.code]

    @staticmethod
    def loop(thread: int, loop: int, lo: int, hi: int, step: int) -> range:
        return range(lo, hi, step)

    def coords(self, dims: int) -> tuple[int, ...]:
        return reshape_coords(self.core, self.run.program.grid, dims)

    def sem_remote(self, *args: Any) -> None:
        pass

    def sem_mcast(self, *args: Any) -> None:
        pass


def busy_lower_bound(run: TimingRun) -> float:
    """The largest busy total of any thread, DRAM bank, NoC link or core port in runs of the first
    and the last core's threads on their own."""
    cores = list(run.cores)
    res = Resources(run.arch)
    bound = 0.0
    n_ops = len(run.ops)
    params = run.program.params
    for flat in sorted({0, len(cores) - 1}) if cores else ():
        values = [p.values[flat] if len(p.values) > 1 else p.values[0] for p in params]
        for code in run.code:
            busy = [0.0] * n_ops
            gen = code.fn(_AloneCore(run, cores[flat], res), values, busy, [0.0] * n_ops, None)
            try:
                next(gen)
            except StopIteration:
                bound = max(bound, sum(busy))
            else:  # it waited after all (on nothing that can change here): no bound from it
                gen.close()
    return max(bound, max(res.busy.values(), default=0.0), max(res.bank_busy, default=0.0))
