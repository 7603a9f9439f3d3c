"""What the lowered compute kernel does for one execution of each store: the store's call plan.

Why: the language-level cost model times a ``block.store`` as one unit, but the kernel the lowering
emits for it makes calls the expression tree does not show: operands copied into DST, ``*_init``
calls and reconfigurations per DST section, intermediate buffers packed and read back, broadcast
unpacks. Re-deriving those rules in the cost model would be a second copy of the lowering's
decisions; instead every kernel op the lowering emits is recorded with the IR op it was emitted for
(:meth:`.lowered.LoweredProgram.emitted_for`), and a store's plan is read from the finished kernel (after
the init and format passes): its calls in order, with the loops the lowering made for it unrolled.
The lowering plans and emits in one pass (an operand evaluated into an intermediate buffer is
emitted while the tree is planned), so the emitted calls are the plan's one source of truth.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

from ..diagnostics import DiagnosticWarning, KernelError
from ..ir import ops as ir
from . import kir
from .lower import not_emittable
from .lowered import LoweredProgram

#: the compute thread's IR ops a plan is read for: the stores, and a buffer's push and pop, where
#: the lowering may evaluate too (a block's final value copied out of its partials buffer at its push)
PLANNED = (ir.BlockStore, ir.LocalStore, ir.CBPush, ir.CBPop)


@dataclass(frozen=True)
class StorePlan:
    """The compute kernel's calls for one execution of one store, in order.

    ``calls``: each call with its arguments resolved to numbers (buffer ids, constants; other
    registers, such as DST indices, as 0), loops the lowering made for the store unrolled, and of a
    branch the one a store runs on most iterations (the else of a K loop's last-step test, the
    then of a "was it written" test). ``sections``: DST acquisitions (``tile_regs_acquire``).
    ``front``: the pages at each buffer's front when the store starts, as the kernel runs its
    loops (:func:`_fronts`). ``cycled``: of those, the buffers the calls both push and wait on
    (intermediate buffers packed and read back, a block's partials or local buffer: its current
    value read or dropped, the next packed behind it; :func:`cycled_buffers`): their round trips
    are part of the store's time."""

    calls: tuple[tuple[str, tuple[int, ...]], ...]
    sections: int
    front: tuple[tuple[int, int], ...]

    @property
    def cycled(self) -> tuple[tuple[int, int], ...]:
        return cycled_buffers(self.calls, dict(self.front))


@dataclass(frozen=True)
class LoweredPlans:
    """A program's lowering and the plan of each of its compute threads' stores."""

    program: kir.MetalProgram
    plans: dict[ir.Op, StorePlan]

    def buffers(self) -> tuple[tuple[int, int, int], ...]:
        """Every buffer's id, page size and pages."""
        return tuple((cb.index, cb.page_bytes, cb.pages) for cb in self.program.cbs)


def store_plans(lowered: LoweredProgram) -> LoweredPlans | None:
    """The plan of every store (and compute push and pop, :data:`PLANNED`) of ``lowered.program``
    as ``lowered`` (the launch's one lowering, or the cost model's own) emits it; None when the
    program does not lower (its stores have no kernel to read a plan from). The lowering's warnings
    are its own (the launch reports them when it lowers, ``tilecraft emit`` too), not the cost
    model's."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DiagnosticWarning)
            metal = lowered.metal(verify=False)
    except KernelError as exc:
        if not_emittable(exc):
            return None
        raise
    owners = lowered.emitted_for()
    plans: dict[ir.Op, StorePlan] = {}
    for kernel in metal.kernels:
        if kernel.processor.is_compute:
            calls: dict[ir.Op, list[kir.Call]] = {}
            _collect(kernel.body, owners, calls)
            values = _values(kernel)
            fronts = _fronts(kernel.body, owners, values)
            for store, found in calls.items():
                resolved = tuple((c.fn, tuple(_number(a, values) for a in c.args)) for c in found)
                plans[store] = StorePlan(resolved, sum(1 for fn, _ in resolved if fn == "tile_regs_acquire"),
                                         fronts.get(store, ()))
    return LoweredPlans(metal, plans)


def cycled_buffers(calls: tuple[tuple[str, tuple[int, ...]], ...],
                   front: dict[int, int]) -> tuple[tuple[int, int], ...]:
    """The buffers ``calls`` push and wait on, each with its pages at the front before them
    (``front``: :attr:`StorePlan.front`)."""
    waited = {args[0] for fn, args in calls if fn == "cb_wait_front"}
    pushed = dict.fromkeys(args[0] for fn, args in calls if fn == "cb_push_back")
    return tuple((cb, front.get(cb, 0)) for cb in pushed if cb in waited)


class _Occupancy:
    """Pages at each buffer's front along a walk of the kernel's calls, seeded at the start with
    the fewest pages that let every wait and pop of the walk find its pages."""

    def __init__(self) -> None:
        self.seed: dict[int, int] = {}
        self.now: dict[int, int] = {}
        #: planned op -> (pages now, seeds then) when it started
        self.at: dict[ir.Op, tuple[dict[int, int], dict[int, int]]] = {}

    def call(self, fn: str, args: tuple[int, ...]) -> None:
        if fn not in ("cb_push_back", "cb_wait_front", "cb_pop_front"):
            return
        cb, n = args[0], args[1]
        now = self.now.get(cb, 0)
        if fn == "cb_push_back":
            self.now[cb] = now + n
            return
        if now < n:  # the pages were there before the walk: the start holds them
            self.seed[cb] = self.seed.get(cb, 0) + n - now
            now = n
        self.now[cb] = now - n if fn == "cb_pop_front" else now

    def front(self, op: ir.Op) -> tuple[tuple[int, int], ...]:
        now, seed = self.at[op]
        return tuple((cb, now.get(cb, 0) + self.seed.get(cb, 0) - seed.get(cb, 0))
                     for cb in sorted(set(self.now) | set(self.seed)))


def _fronts(body: list[ir.Op], owners: dict[int, tuple[ir.Op, ir.Op]],
            values: dict[str, int]) -> dict[ir.Op, tuple[tuple[int, int], ...]]:
    """Each planned op -> the pages at each buffer's front when it starts, on a pass of its loops
    after the first. One walk of the kernel in order, every loop body once and of a branch the
    usual one (as :func:`_unrolled`: a "was it written" test true), seeded with the fewest pages
    that let every wait and pop find its pages: what a buffer holds between passes (a local
    block's current value, which its store drops after packing the next one behind it, and which a
    later store reads) is at its front from the start. Read from a store's calls alone, a drop
    after the pack would seem to wait for that pack."""
    walk = _Occupancy()

    def visit(ops: list[ir.Op]) -> None:
        for op in ops:
            owner = owners.get(id(op), (None, None))[1]
            if isinstance(owner, PLANNED):
                walk.at.setdefault(owner, (dict(walk.now), dict(walk.seed)))
                for c in _unrolled(op):
                    walk.call(c.fn, tuple(_number(a, values) for a in c.args))
            elif isinstance(op, kir.Call):
                walk.call(op.fn, tuple(_number(a, values) for a in op.args))
            elif isinstance(op, ir.If):
                visit(op.else_body or op.then_body)
            elif getattr(op, "body", None):
                visit(op.body)

    visit(body)
    return {op: walk.front(op) for op in walk.at}


def _collect(body: list[ir.Op], owners: dict[int, tuple[ir.Op, ir.Op]], calls: dict[ir.Op, list[kir.Call]]) -> None:
    """Each store's calls in ``body`` (recursively through the ops not emitted for a store). A call a
    pass added (a reconfiguration) belongs to the store of the next op emitted for one."""
    added: list[kir.Call] = []
    for op in body:
        owner = owners.get(id(op), (None, None))[1]
        if isinstance(owner, PLANNED):
            calls.setdefault(owner, []).extend(added)
            calls[owner].extend(_unrolled(op))
            added = []
            continue
        added = [op] if isinstance(op, kir.Call) and owner is None else []
        for inner in _bodies(op):
            _collect(inner, owners, calls)


def _bodies(op: ir.Op) -> list[list[ir.Op]]:
    return [b for b in (getattr(op, "body", None), getattr(op, "then_body", None), getattr(op, "else_body", None))
            if b]


def _unrolled(op: ir.Op) -> list[kir.Call]:
    """The calls one execution of ``op`` makes: constant-bound loops unrolled, the usual branch."""
    if isinstance(op, kir.Call):
        return [op]
    if isinstance(op, ir.For):
        trips = 1
        if all(isinstance(v, ir.Const) for v in (op.lo, op.hi, op.step)) and op.step.value:
            trips = max(0, -(-(op.hi.value - op.lo.value) // op.step.value))
        once = [c for inner in op.body for c in _unrolled(inner)]
        return once * trips
    if isinstance(op, ir.If):
        branch = op.else_body or op.then_body
        return [c for inner in branch for c in _unrolled(inner)]
    return []


def _values(kernel: kir.Kernel) -> dict[str, int]:
    """The buffer id each compile-time argument register holds (``bind_buffer_ids``)."""
    return {op.result.name: kernel.compile_args[op.index] for op in kernel.body
            if isinstance(op, kir.Arg) and op.source == "ct" and op.index < len(kernel.compile_args)}


def _number(arg: Any, values: dict[str, int]) -> int:
    if isinstance(arg, (ir.Const, kir.BufferId)) and isinstance(arg.value, (int, float, bool)):
        return int(arg.value)
    if isinstance(arg, ir.Reg):
        return values.get(arg.name, 0)
    return 0
