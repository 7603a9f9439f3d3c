"""What the lowered compute kernel does for one execution of each store: the store's call plan.

Why: the language-level cost model times a ``block.store`` as one unit, but the kernel the lowering
emits for it makes calls the expression tree does not show: operands copied into DST, ``*_init``
calls and reconfigurations per DST section, intermediate buffers packed and read back, broadcast
unpacks. Re-deriving those rules in the cost model would be a second copy of the lowering's
decisions; instead every kernel op the lowering emits is recorded with the IR op it was emitted for
(:attr:`ProgramLowering.emitted_for`), and a store's plan is read from the finished kernel (after
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
from ..ir.program_ir import ProgramIR
from . import kir
from .lower import ProgramLowering, not_emittable

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
    ``cycled``: the buffers the calls both push and wait on (intermediate buffers packed and read
    back, a block's partials buffer: its current value read, the next packed behind it), each with
    the pages at its front before the calls (:func:`cycled_buffers`): their round trips are part
    of the store's time."""

    calls: tuple[tuple[str, tuple[int, ...]], ...]
    sections: int
    cycled: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class LoweredPlans:
    """A program's lowering and the plan of each of its compute threads' stores."""

    program: kir.MetalProgram
    plans: dict[ir.Op, StorePlan]

    def buffers(self) -> tuple[tuple[int, int, int], ...]:
        """Every buffer's id, page size and pages."""
        return tuple((cb.index, cb.page_bytes, cb.pages) for cb in self.program.cbs)


def store_plans(program: ProgramIR, arch: str) -> LoweredPlans | None:
    """The plan of every store (and compute push and pop, :data:`PLANNED`) of ``program`` as the
    lowering emits it for ``arch``; None when the program does not lower (its stores have no kernel
    to read a plan from). The lowering's warnings are its own (``tilecraft emit`` reports them), not
    the cost model's."""
    lowering = ProgramLowering(program, arch)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DiagnosticWarning)
            metal = lowering.lower()
    except KernelError as exc:
        if not_emittable(exc):
            return None
        raise
    plans: dict[ir.Op, StorePlan] = {}
    for kernel in metal.kernels:
        if kernel.processor.is_compute:
            calls: dict[ir.Op, list[kir.Call]] = {}
            _collect(kernel.body, lowering.emitted_for, calls)
            values = _values(kernel)
            for store, found in calls.items():
                resolved = tuple((c.fn, tuple(_number(a, values) for a in c.args)) for c in found)
                plans[store] = StorePlan(resolved, sum(1 for fn, _ in resolved if fn == "tile_regs_acquire"),
                                         cycled_buffers(resolved))
    return LoweredPlans(metal, plans)


def cycled_buffers(calls: tuple[tuple[str, tuple[int, ...]], ...]) -> tuple[tuple[int, int], ...]:
    """The buffers ``calls`` push and wait on, each with the pages at its front before them: the
    fewest that let every wait and pop of the calls find its pages (the value there before)."""
    pushed, waited = set(), set()
    front: dict[int, list[int]] = {}  # buffer -> [pages there before, pages there now]
    for fn, args in calls:
        if fn not in ("cb_push_back", "cb_wait_front", "cb_pop_front"):
            continue
        before_now = front.setdefault(args[0], [0, 0])
        if fn == "cb_push_back":
            pushed.add(args[0])
            before_now[1] += args[1]
            continue
        if fn == "cb_wait_front":
            waited.add(args[0])
        if before_now[1] < args[1]:
            before_now[0] += args[1] - before_now[1]
            before_now[1] = args[1]
        if fn == "cb_pop_front":
            before_now[1] -= args[1]
    return tuple((cb, n) for cb, (n, _) in front.items() if cb in pushed and cb in waited)


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
