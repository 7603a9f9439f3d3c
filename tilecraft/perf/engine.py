"""Run a program's timing skeleton on its grid: per-core, per-thread cycle counts without data.

The event loop is conservative discrete-event simulation: the thread with the smallest cycle
count runs next, and it runs until it blocks or reaches an operation on a shared resource
while another thread is behind it in time (generated code yields there). So DRAM banks, NoC
links and remote semaphores are claimed in simulated-time order, while everything a thread
does on its own core runs without returning to the loop. Buffer and pipe times are exact for
the model (they depend only on the program's order of operations, :mod:`.timed_state`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..arch.base import Arch
from ..arch.processors import thread_processors
from ..ir import ops as ir
from ..ir.grid import all_cores, reshape_coords
from ..ir.program_ir import COMPUTE, ProgramIR
from ..metal.lowered import LoweredProgram
from ..metal.store_plan import store_plans
from ..sim.fastforward.periodic import LoopIter, ThreadLoops
from ..sim.op_table import OpTable
from .codegen import TimingCodegen
from .compute_cost import StoreCost, store_cost
from .event_loop import BeyondLimit, ThreadTimes, run_threads
from .fastforward import TimedFastForward, can_fast_forward
from .network import Resources, hops, xy
from .store_replay import predecessors, replay_plan
from .timed_state import Clock, PipeRecv, PipeSend, TimedCB, TimedPipe, TimedSem


class TimedCore:
    """What generated code sees as ``K``: one core's timed buffers, semaphores and pipes."""

    def __init__(self, run: "TimingRun", core: tuple[int, ...]):
        self.run = run
        self.core = core
        self.clock = run.clock
        self.res = run.res
        self.flops = [0]
        logs = run.occupancy if run.trace else None
        self.cbs = [TimedCB(cb, run.clock, logs.setdefault((core, cb.index), []) if logs is not None else None)
                    for cb in run.program.cbs]
        self.sems = [TimedSem(s, run.clock) for s in run.program.semaphores]
        self.pipes_src = {n.index: [run.pipes[p.index] for p in n.pipes if p.src == core]
                          for n in run.program.pipenets}
        self.pipes_dst = {n.index: [run.pipes[p.index] for p in n.pipes if core in p.dsts]
                          for n in run.program.pipenets}
        position = xy(core)
        self.ports = [(("in", position, noc), ("out", position, noc)) for noc in range(2)]
        #: per thread: its qualifying loops and the registers they shift (:mod:`.fastforward`)
        self.loops = [ThreadLoops(code.plan, code) for code in run.code]

    def loop(self, thread: int, loop: int, lo: int, hi: int, step: int) -> LoopIter | range:
        """The iteration of a qualifying loop (generated only where the run has a controller)."""
        return self.run.fast_forward.loop(self.loops[thread], loop, lo, hi, step)

    def coords(self, dims: int) -> tuple[int, ...]:
        return reshape_coords(self.core, self.run.program.grid, dims)

    def sem_remote(self, index: int, core: tuple[int, ...], kind: str, value: int, t: float) -> None:
        target = self.run.cores[core].sems[index]
        arrival = t + self._hops(core) * self.run.figs.noc_hop_cycles
        target.update(target.value + value if kind == "inc" else value, arrival)

    def sem_mcast(self, index: int, cores: list[tuple[int, ...]], value: int, t: float) -> None:
        hop = self.run.figs.noc_hop_cycles
        for core in cores:
            self.run.cores[core].sems[index].update(value, t + self._hops(core) * hop)

    def _hops(self, core: tuple[int, ...]) -> int:
        return hops(self.core, core)


class TimingRun(OpTable):
    """One program, one architecture, one fidelity: generate, run, keep every thread's times."""

    def __init__(self, program: ProgramIR, arch: Arch, phases: int, fp32_acc: bool, trace: bool,
                 fast_forward: bool = True, lowered: LoweredProgram | None = None):
        if arch.costs is None:
            raise ValueError(f"architecture {arch.name!r} has no cost figures")
        self.program = program
        self.arch = arch
        self.figs = arch.costs
        self.phases = phases
        self.fp32_acc = fp32_acc
        self.trace = trace
        OpTable.__init__(self)
        for thread in program.threads:
            for op in ir.walk(thread.body):
                self.op_id(op)
        self.stall_labels: dict[int, str] = {}
        self.store_costs: dict[int, StoreCost] = {}
        #: each store's calls as the lowering emits them. None where the program does not lower, and
        #: for a 16-bit DST (``fp32_acc`` False): the lowering emits fp32 DST only (half the tiles per
        #: section), so its calls are not those of the kernel being timed; the expression tree's
        #: figure (:func:`.compute_cost.store_cost`, at the DST size asked for) is. Read from the
        #: launch's lowering where the caller has it (``lowered``), else from one made here
        self.plans = store_plans(lowering_of(program, arch, lowered)) if fp32_acc else None
        self.buffers = self.plans.buffers() if self.plans is not None else ()
        stored = lambda op: isinstance(op, (ir.BlockStore, ir.LocalStore))  # noqa: E731
        #: each store -> the store that runs before it on its thread (:func:`.store_replay.predecessors`)
        self.before = {op: prev for t in program.threads for op, prev in predecessors(t.body, stored).items()}
        self.occupancy: dict[tuple, list] = {}
        self.clock = Clock()
        self.res = Resources(arch)
        self.pipes = {p.index: TimedPipe(p, self.clock, n.direct) for n in program.pipenets for p in n.pipes}
        #: advances the run by whole loop periods once its state repeats (None: every operation)
        self.fast_forward = TimedFastForward(self) if fast_forward and can_fast_forward(program, trace) else None
        self.codegen_globals: dict[str, Any] = {"PipeSend": PipeSend, "PipeRecv": PipeRecv, "FF": self.fast_forward}
        nocs = [p.default_noc for p in thread_processors(t.kind == COMPUTE for t in program.threads)]
        self.code = [TimingCodegen(program, t, self, noc, trace).generate()
                     for t, noc in zip(program.threads, nocs)]
        self.cores = {c: TimedCore(self, c) for c in all_cores(program.grid)}
        self.threads: list[ThreadTimes] = []

    # ---------------------------------------------------------------- used by codegen
    def constant_value(self, value: Any) -> str:
        name = f"C{len(self.codegen_globals)}"
        self.codegen_globals[name] = value
        return name

    def store_cost(self, op: ir.BlockStore, defs: dict[str, ir.Op]) -> StoreCost:
        """A store's cost: its expression tree's (:func:`.compute_cost.store_cost`), and where the
        program lowers, the cycles of the calls the lowering emits for it (:mod:`.store_replay`)."""
        cost = store_cost(op, defs, self.figs, self.phases, self.arch.dst_tiles_per_phase(self.fp32_acc))
        lowered = self.lowered_cost(op)
        if lowered is not None:
            cost = replace(cost, lowered=lowered[0], lowered_fill=lowered[1])
        self.store_costs[self.op_id(op)] = cost
        return cost

    def lowered_cost(self, op: ir.Op) -> tuple[float, float] | None:
        """``(steady, fill)`` cycles of the calls the lowering emits for compute op ``op``, after the
        store before it (a push or pop: after itself; :func:`.store_replay.replay_plan`); None where
        it has no plan."""
        plans = self.plans.plans if self.plans is not None else {}
        plan = plans.get(op)
        if plan is None:
            return None
        before = plans.get(self.before.get(op, op), plan)
        return replay_plan(plan, before, self.buffers, self.arch, self.phases)

    # ---------------------------------------------------------------- running
    def run(self, stop_after: float = float("inf")) -> None:
        """Run every thread to its end; raise :class:`BeyondLimit` once a clock passes ``stop_after``."""
        n_ops = len(self.ops)
        params = self.program.params
        for flat, (core, k) in enumerate(self.cores.items()):
            values = [p.values[flat] if len(p.values) > 1 else p.values[0] for p in params]
            for ir_thread, code in zip(self.program.threads, self.code):
                times = ThreadTimes(core, ir_thread.name, ir_thread.kind, [0.0] * n_ops, [0.0] * n_ops,
                                    [] if self.trace else None)
                times.gen = code.fn(k, values, times.busy, times.stall, times.events)
                self.threads.append(times)
                self.clock.ready(times, 0.0)
            for loops, times in zip(k.loops, self.threads[-len(self.code):]):
                loops.thread = times
        if self.fast_forward is not None:
            self.fast_forward.begin([tl for k in self.cores.values() for tl in k.loops], list(self.cores.values()))
        run_threads(self.clock, self.threads, stop_after,
                    "run the program in the simulator (`tilecraft run`) for the diagnosis")

    @property
    def flops(self) -> int:
        return sum(k.flops[0] for k in self.cores.values())


def lowering_of(program: ProgramIR, arch: Arch, lowered: LoweredProgram | None) -> LoweredProgram:
    """``lowered`` (the launch's lowering of ``program``), or a lowering of ``program`` for ``arch``."""
    if lowered is None:
        return LoweredProgram(program, arch.name)
    if lowered.program is not program or lowered.arch != arch.name:
        raise ValueError(f"the lowering given is of program {lowered.program.name!r} for {lowered.arch}, not of "
                         f"the program timed, {program.name!r} for {arch.name}")
    return lowered
