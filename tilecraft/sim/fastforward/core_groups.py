"""One skeleton per group of cores: run a few cores of a box of the grid, derive the others' recordings.

Cores that run alone (:func:`~tilecraft.sim.language.engine.cores_run_alone`) record their graphs one after the other, and
in most programs they run the same code on different slices: the 8x8 matmul tutorial's 64 cores
differ only in the offsets of their tensor slices. Phase 1 then runs a handful of them per box of
the grid and writes the others' recordings as arithmetic: entry by entry, a core's recording is
affine in its coordinates.

**Why that is exact.** :func:`traced_ops` proves from the IR that every number computed from the
core's coordinates flows only through affine arithmetic (``+``, ``-``, ``*`` by a number that does
not depend on them) into tensor slice bounds, through comparisons (*guards*) into branch conditions
(:func:`.loop_plan.flows_are_affine`, the rule loops are skipped by, with the coordinates as the
changing numbers), or into the start and end of a loop (``range(node, n, nodes)``; the variable of
a loop whose start depends on them does too); nothing else of a core depends on where it is (no
per-core parameters; cores that run alone exchange nothing). The generated code reports the sign of
every such guard's ``lhs - rhs`` (``K.guard``) and the trip count of every such loop (``K.trips``)
as it runs, and the fast-forward controller each skip it makes; that sequence is the core's *trace*.
For a box of cores, the box's corners and the neighbours of its first corner along each dimension
are run; if their traces are equal:

* the cores of the box make the same decisions: by induction over the traced ops in the order they
  run, each runs at the same point with the same loop positions in every core (the earlier ones
  agreeing), and a guard's ``lhs - rhs`` is affine in the coordinates, a loop's trip count
  ``ceil((end - start) / step)`` (at least 0) of affine bounds, so both are monotone in each
  coordinate and a value shared by the corners is the value throughout the box. Skipped loop
  periods repeat the observed ones (:mod:`.advance`), and the skips are in the trace too;
* so every core records the same entries in the same order, each a number affine in the coordinates
  (slice bounds) or a value id that differs between cores only by the core's first id: the first
  corner and its neighbours give every entry's step per coordinate, and the other corners are checked
  against the prediction.

A box whose samples disagree is split in two along its longest side, down to boxes of fewer than
:data:`MIN_CORES` cores, which are run core by core. A sample that fails (a protocol error, a
deadlock, a block left in a buffer) abandons the attempt: the launch then runs every core in order
(:class:`GroupsAbandoned`), so errors and warnings are those of the core-by-core run. The recording
is assembled in the grid's order, so phase 2 sees exactly the graph the core-by-core run records
(tests/sim/test_sim_core_groups.py compares them column by column on every example).
"""

from __future__ import annotations

import itertools
from typing import Any, Callable

import numpy as np

from ...ir import ops as ir
from ...ir.program_ir import ProgramIR
from .loop_plan import derived_registers, flows_are_affine
from ..dataflow.graph import append_entries, column

#: a box of fewer cores is run core by core (sampling it would run most of them anyway)
MIN_CORES = 8


class GroupsAbandoned(Exception):
    """A sampled core did not finish cleanly: the launch runs every core in order instead."""


def traced_ops(program: ProgramIR, op_id: Callable[[ir.Op], int]) -> set[int] | None:
    """Op ids of what depends on the core's coordinates (the comparisons, and the loops whose start or
    end does), when every number computed from the coordinates flows only into affine arithmetic,
    slice bounds, such comparisons and such loop bounds; None when some core-dependent number goes
    anywhere else (a loop's step, block math, a division) or a parameter differs between cores."""
    if any(len(param.values) > 1 for param in program.params):
        return None
    traced: set[int] = set()
    for thread in program.threads:
        body = list(ir.walk(thread.body))
        seeds = {reg.name for op in body if isinstance(op, ir.CoreCoord) for reg in op.outs}
        if not seeds:
            continue
        changing = _coordinate_registers(body, seeds)
        loops = [op for op in body if isinstance(op, ir.For) and _changes(op.lo, changing) | _changes(op.hi, changing)]
        if any(_changes(loop.step, changing) for loop in loops):
            return None
        bounded = {id(loop) for loop in loops}
        guards = flows_are_affine([op for op in body if id(op) not in bounded], changing)
        if guards is None:
            return None
        traced.update(op_id(op) for op in (*guards, *loops))
    return traced


def _coordinate_registers(body: list[ir.Op], seeds: set[str]) -> set[str]:
    """The registers computed from the coordinates: through arithmetic, and a loop's variable where its
    start is one of them (each value of the variable is the start plus a multiple of the step)."""
    changing = derived_registers(body, seeds)
    while True:
        starts = {op.var.name for op in body if isinstance(op, ir.For) and _changes(op.lo, changing)}
        grown = derived_registers(body, changing | starts)
        if grown == changing:
            return changing
        changing = grown


def _changes(x: Any, changing: set[str]) -> bool:
    return isinstance(x, ir.Reg) and x.name in changing


class Recording:
    """One sampled core's recorded entries, per recorder column, with its value ids counted from 0."""

    def __init__(self, columns: list[np.ndarray], values: int, trace: list[Any]):
        self.columns = columns
        self.values = values
        self.trace = trace

    def same_shape(self, other: "Recording") -> bool:
        """The same decisions (trace), values and number of entries per column."""
        return self.values == other.values and self.trace == other.trace \
            and all(len(a) == len(b) for a, b in zip(self.columns, other.columns))


class AffineModel:
    """Per column, a core's entries as ``first + sum_d (coord_d - origin_d) * step_d``."""

    def __init__(self, origin: tuple[int, ...], first: Recording, steps: dict[int, Recording]):
        self.origin = origin
        self.first = first
        self.steps = {d: [b.astype(np.int64) - a.astype(np.int64) if a.dtype.kind in "iu" else b - a
                          for a, b in zip(first.columns, rec.columns)] for d, rec in steps.items()}

    def predict(self, core: tuple[int, ...]) -> list[np.ndarray]:
        """``core``'s entries per column (int64 for integer columns)."""
        out = []
        for c, base in enumerate(self.first.columns):
            value = base.astype(np.int64) if base.dtype.kind in "iu" else base.copy()
            for d, steps in self.steps.items():
                if core[d] != self.origin[d]:
                    value = value + (core[d] - self.origin[d]) * steps[c]
            out.append(value)
        return out

    def matches(self, core: tuple[int, ...], rec: Recording) -> bool:
        """Whether ``rec`` (a sampled core's recording) is what the model predicts for ``core``."""
        return all(np.array_equal(p, r) for p, r in zip(self.predict(core), rec.columns))


class CoreGroups:
    """Phase 1 by boxes of cores (module docstring). ``runtime`` is the :class:`~tilecraft.sim.language.engine.ProgramRuntime`."""

    def __init__(self, runtime: Any):
        self.runtime = runtime
        self.rec = runtime.rec
        self.grid: tuple[int, ...] = tuple(runtime.program.grid)
        self.samples: dict[tuple[int, ...], Recording] = {}
        self.models: list[tuple[tuple[tuple[int, int], ...], AffineModel]] = []
        #: cores whose recording was derived, not run (known once assembled)
        self.derived = 0
        #: the recorder's columns, and which hold value ids (all entries, or a store's block operands)
        self.columns = self.rec.columns()

    def run(self) -> None:
        """Record every core's graph: sampled boxes derived, the rest run; then assemble in grid order."""
        self.cover(tuple((0, extent) for extent in self.grid))
        self.assemble()

    # ---------------------------------------------------------------- sampling
    def cover(self, box: tuple[tuple[int, int], ...]) -> None:
        """Derive ``box`` (per dimension ``[lo, hi)``) from its samples, or halve it and cover the halves."""
        size = 1
        for lo, hi in box:
            size *= hi - lo
        if size < MIN_CORES:
            for core in itertools.product(*(range(lo, hi) for lo, hi in box)):
                self.sample(core)
            return
        origin = tuple(lo for lo, _ in box)
        units = {d: tuple(c + (i == d) for i, c in enumerate(origin)) for d, (lo, hi) in enumerate(box) if hi - lo > 1}
        corners = set(itertools.product(*({lo, hi - 1} for lo, hi in box)))
        first = self.sample(origin)
        others = {core: self.sample(core) for core in sorted(corners | set(units.values())) if core != origin}
        if all(first.same_shape(rec) for rec in others.values()):
            model = AffineModel(origin, first, {d: others[core] for d, core in units.items()})
            if all(model.matches(core, others[core]) for core in corners if core != origin):
                self.models.append((box, model))
                return
        longest = max(range(len(box)), key=lambda d: box[d][1] - box[d][0])
        lo, hi = box[longest]
        middle = (lo + hi) // 2
        for part in ((lo, middle), (middle, hi)):
            self.cover(box[:longest] + (part,) + box[longest + 1:])

    def sample(self, core: tuple[int, ...]) -> Recording:
        """Run one core alone from an empty recording and take its entries out of the recorder."""
        found = self.samples.get(core)
        if found is not None:
            return found
        runtime, rec = self.runtime, self.rec
        k = runtime.cores[core]
        trace: list[Any] = []
        k.trace = trace
        ff = runtime.fast_forward
        ff.trace = trace
        ff.forget_runs()  # the watching policy must not depend on the cores sampled before
        runtime.start_threads(core, k)
        ff.begin_group(k.loops, k.cbs, runtime.scheduler.ready)
        try:
            runtime.scheduler.drain()
        except Exception as exc:  # noqa: BLE001 - reported by the core-by-core run, at its own core
            raise GroupsAbandoned from exc
        if not all(tl.thread.done for tl in k.loops) or not all(_clean(cb) for cb in k.cbs) or rec.barriers:
            raise GroupsAbandoned
        columns = []
        for owner, name, _ in self.columns:
            col = getattr(owner, name)
            columns.append(column(col).copy())
            del col[:]
        found = self.samples[core] = Recording(columns, rec.next_vid, trace)
        rec.next_vid = 0
        return found

    # ---------------------------------------------------------------- assembling
    def assemble(self) -> None:
        """Append every core's entries to the recorder in the grid's order, value ids offset by the
        values of the cores before it."""
        model_of = {}
        for box, model in self.models:
            for core in itertools.product(*(range(lo, hi) for lo, hi in box)):
                model_of[core] = model
        base = 0
        for core in self.runtime.cores:
            sample = self.samples.pop(core, None)  # taken as it is appended: memory stays one recording
            if sample is not None:
                entries, values = sample.columns, sample.values
            else:
                model = model_of[core]
                entries, values = model.predict(core), model.first.values
                self.derived += 1
            for (owner, name, kind), values_of_core in zip(self.columns, entries):
                col = getattr(owner, name)
                shifted = _offset_ids(values_of_core, kind, owner, base)
                if shifted.dtype.kind in "iu" and len(shifted) and \
                        (int(shifted.min()) < -(1 << 31) or int(shifted.max()) >= 1 << 31):
                    raise GroupsAbandoned  # the core-by-core run says what overflows
                append_entries(col, shifted.astype(np.dtype(col.typecode), copy=False))
            base += values
        self.rec.next_vid = base


def _offset_ids(entries: np.ndarray, kind: str, site: Any, base: int) -> np.ndarray:
    """A core's entries with its value ids (local, from 0) offset by ``base``."""
    if not base or kind == "numbers":
        return entries
    if kind == "ids":
        return entries + base
    shifted = entries.reshape(-1, len(site.block_leaves)).copy()  # a store's operands: ids and scalars
    shifted[:, list(site.block_pos)] += base
    return shifted.reshape(-1)


def _clean(cb: Any) -> bool:
    """A buffer with nothing left in it: no held or unconsumed block, no copy not waited."""
    return cb.nres == cb.npush and cb.nwait == cb.npop and not cb.ready and all(x is None for x in cb.xfers)
