"""Which loops of a thread the simulator may advance by whole iterations (:mod:`.advance`).

Skipping iterations is sound only when every iteration of a loop does the same thing apart from
numbers that change by the same amount each time: the loop variables, slice starts computed from
them, value ids. This module proves that from the IR, per ``scf.for``:

* no operation that ends or leaves the loop early (``break``, ``continue``, ``return``) nor a
  ``while`` loop (whose trip count is not known up front) is in its body, nor anything whose effect
  reaches beyond the core (pipes, semaphores) or the user (``print``);
* every loop nested in it qualifies too, and the bounds of nested loops do not depend on the
  iteration;
* the numbers that change from one iteration to the next (the loop variables and everything
  computed from them or carried from an earlier iteration) only flow through affine arithmetic
  (``+``, ``-``, ``*`` by an unchanging factor) into tensor slice bounds, or through comparisons
  into branch conditions (*guards*: an affine comparison changes its outcome at most once over a
  run of iterations, so checking both ends of a skipped run proves it constant in between).

Everything a skipped run must shift lives outside Python's frame locals so that it can be shifted:
loop positions in iterator objects, and the registers a qualifying loop assigns (:attr:`ThreadPlan.
shifted`) in a per-thread list. Block handles, transfer handles and transfer groups are not shifted
(buffer positions are compared modulo the buffer's size, :mod:`.advance`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ...ir import ops as ir
from ...ir.program_ir import ThreadIR
from ...ir.types import BlockType

#: operations a skipped loop must not contain
_ENDS_EARLY = (ir.Break, ir.Continue, ir.Return, ir.While)
_REACHES_OUT = (ir.Print, ir.PrintBlock, ir.PrintBuffer, ir.SemWait, ir.SemSet, ir.SemRemote,
                ir.SemMulticastSet, ir.CopyBlockToPipe, ir.CopyPipeToBlock, ir.PipeForEach, ir.PipeEnd)
#: registers that hold handles, not numbers: never shifted
_HANDLES = (ir.CBReserve, ir.CBWait, *ir.COPY_OPS, ir.GroupNew)
#: copies whose result is, in the timing model, the cycle the transfer completes (a clock)
_TIMED_COPIES = (ir.CopyTensorToBlock, ir.CopyBlockToTensor, ir.CopyBlockToBlock)
#: transfer groups hold those clocks in lists the timing model's skips cannot see into
_GROUPS = (ir.GroupNew, ir.GroupAdd, ir.GroupWait)


@dataclass
class ThreadPlan:
    """What the code generator and the fast-forward controller need to know of one thread."""

    #: op ids of the ``scf.for`` loops that may be advanced by whole iterations
    loops: set[int] = field(default_factory=set)
    #: register name -> index in the thread's register list (kept there so a skip can shift it)
    shifted: dict[str, int] = field(default_factory=dict)
    #: per qualifying loop: the comparisons in its body whose operands change between iterations
    guards: dict[int, list[ir.Compare]] = field(default_factory=dict)
    #: indices in the register list that hold clocks (the timing model's transfer completions)
    clocks: set[int] = field(default_factory=set)


def plan_thread(thread: ThreadIR, op_id: Callable[[ir.Op], int], clocks: bool = False) -> ThreadPlan:
    """The loops of ``thread`` that qualify (by ``op_id``), and the registers they shift.

    ``clocks``: plan for the timing model, whose copies return the cycle they complete: every such
    register of the thread is kept in the list too (:attr:`ThreadPlan.clocks`, so that a skip can
    shift a completion still to come), and loops with transfer groups do not qualify."""
    plan = ThreadPlan()
    assigned_outside = _assignments_outside(thread.body)
    loops = [op for op in ir.walk(thread.body) if isinstance(op, ir.For)]
    for op in loops:
        guards = _qualifying_guards(op, assigned_outside, _GROUPS if clocks else ())
        if guards is not None:
            plan.loops.add(op_id(op))
            plan.guards[op_id(op)] = guards
    # a loop qualifies only with every loop inside it: a position in a plain loop is invisible
    for op in reversed(loops):  # inner loops first
        if any(op_id(sub) not in plan.loops for sub in ir.walk(op.body) if isinstance(sub, ir.For)):
            plan.loops.discard(op_id(op))
    for op in loops:
        if op_id(op) in plan.loops:
            for name in _shiftable(op):
                plan.shifted.setdefault(name, len(plan.shifted))
    if clocks:
        for op in ir.walk(thread.body):
            if isinstance(op, _TIMED_COPIES):
                plan.clocks.add(plan.shifted.setdefault(op.result.name, len(plan.shifted)))
    return plan


def _qualifying_guards(loop: ir.For, assigned_outside: dict[int, set[str]],
                       excluded: tuple[type, ...]) -> list[ir.Compare] | None:
    """The guards of ``loop`` if it qualifies on its own (nested loops aside), else None."""
    body = list(ir.walk(loop.body))
    if any(isinstance(op, _ENDS_EARLY + _REACHES_OUT + excluded) for op in body):
        return None
    return flows_are_affine(body, _changing_registers(loop, body, assigned_outside[id(loop)]))


def _changing_registers(loop: ir.For, body: list[ir.Op], outside: set[str]) -> set[str]:
    """Registers whose value may differ between iterations: loop variables, registers carried
    from an earlier iteration (read before they are assigned, or assigned before the loop too),
    and, to a fixed point, everything computed from them."""
    changing = {loop.var.name}
    assigned_here = {result.name for op in body for result in op.results()}
    assigned_yet: set[str] = set()
    for op in body:
        for operand in op.operands():
            if isinstance(operand, ir.Reg) and operand.name in assigned_here and operand.name not in assigned_yet:
                changing.add(operand.name)  # read before this iteration assigns it: carried
        for result in op.results():
            assigned_yet.add(result.name)
            if result.name in outside or isinstance(op, ir.For):
                changing.add(result.name)
    return derived_registers(body, changing)


def derived_registers(body: list[ir.Op], seeds: set[str]) -> set[str]:
    """``seeds`` and, to a fixed point, every register of ``body`` computed from them by scalar
    arithmetic, comparisons and selections (by name: a register assigned twice counts once)."""
    changing = set(seeds)
    grew = True
    while grew:
        grew = False
        for op in body:
            if isinstance(op, (ir.Assign, ir.Binary, ir.Unary, ir.Compare, ir.Select)) \
                    and any(isinstance(x, ir.Reg) and x.name in changing for x in op.operands()):
                for result in op.results():
                    if result.name not in changing:
                        changing.add(result.name)
                        grew = True
    return changing


def flows_are_affine(body: list[ir.Op], changing: set[str]) -> list[ir.Compare] | None:
    """The guard comparisons of ``body`` if every changing number flows only into affine arithmetic,
    slice bounds and guards; None if one flows anywhere else."""
    guards: list[ir.Compare] = []
    boolean: set[str] = set()  # registers holding the outcome of a guard

    def changes(x: ir.Operand | None) -> bool:
        return isinstance(x, ir.Reg) and x.name in changing

    for op in body:
        scalars = [x for x in op.operands() if changes(x) and not isinstance(x.type, BlockType)]
        if not scalars:
            continue
        if any(x.name in boolean for x in scalars):
            if isinstance(op, ir.If) or (isinstance(op, ir.Unary) and op.op == "not") \
                    or (isinstance(op, ir.Binary) and op.op in ("and", "or")) or isinstance(op, ir.Assign):
                boolean.update(r.name for r in op.results())
                continue
            return None
        if isinstance(op, ir.Compare):
            guards.append(op)
            boolean.add(op.result.name)
        elif isinstance(op, ir.Assign) or (isinstance(op, ir.Unary) and op.op == "neg"):
            continue
        elif isinstance(op, ir.Binary) and (op.op in ("add", "sub") or (op.op == "mul" and len(scalars) == 1)):
            continue
        elif isinstance(op, (ir.CopyTensorToBlock, ir.CopyBlockToTensor)):
            continue  # slice bounds: recorded, and shifted by the same amount every iteration
        else:
            return None  # a condition, a loop bound, a scalar in block math, non-affine arithmetic
    return guards


def _assignments_outside(body: list[ir.Op]) -> dict[int, set[str]]:
    """Per loop of the thread: the registers assigned anywhere in the thread outside that loop."""
    everywhere: dict[str, int] = {}
    for op in ir.walk(body):
        for result in op.results():
            everywhere[result.name] = everywhere.get(result.name, 0) + 1
    out: dict[int, set[str]] = {}
    for op in ir.walk(body):
        if isinstance(op, ir.For):
            inside: dict[str, int] = {op.var.name: 1}
            for sub in ir.walk(op.body):
                for result in sub.results():
                    inside[result.name] = inside.get(result.name, 0) + 1
            out[id(op)] = {name for name, n in inside.items() if everywhere[name] > n}
    return out


def _shiftable(loop: ir.For) -> list[str]:
    """The registers a qualifying loop assigns that hold numbers (its variable included)."""
    names = [loop.var.name]
    for op in ir.walk(loop.body):
        if not isinstance(op, _HANDLES):
            names.extend(result.name for result in op.results())
    return names
