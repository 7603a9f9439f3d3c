"""IR passes, each a named function over a ProgramIR; ``PIPELINE`` lists them in order.

The simulator runs the pipeline before generating code, so what it executes is the optimised
IR that ``tilecraft show-ir`` prints too.
"""

from __future__ import annotations

from typing import Callable

from . import ops as ir
from . import scalarops
from .evaluate_once import evaluate_once
from .program_ir import ProgramIR
from .verify import verify_program

_PURE = (ir.Assign, ir.Binary, ir.Unary, ir.Compare, ir.Select)


def _reads(op: ir.Op) -> list[ir.Reg]:
    return [r for r in op.operands() if isinstance(r, ir.Reg)]


def eliminate_dead_scalars(program: ProgramIR) -> None:
    """Remove pure scalar operations whose results nothing reads (e.g. the ends of slices whose
    extent the compiler proved, which the copy no longer refers to)."""
    for thread in program.threads:
        while True:
            used = {r.name for op in ir.walk(thread.body) for r in _reads(op)}
            for op in ir.walk(thread.body):
                if isinstance(op, ir.While):
                    used.add(getattr(op.cond, "name", ""))
            removed = _remove(thread.body, used)
            if not removed:
                break


def _may_raise(op: ir.Op) -> bool:
    """Whether running ``op`` can stop the thread with an error (E1199), which must happen even
    when its result is unused, as in Python: a division or modulo by a possible zero, a power or
    shift by a possible negative amount, ``int()`` of a float (inf, NaN)."""
    if isinstance(op, ir.Binary):
        return scalarops.may_fail(op.op, op.rhs.value if isinstance(op.rhs, ir.Const) else None)
    if isinstance(op, ir.Unary):
        return scalarops.UNARY[op.op].fails_for_type == op.operand.type
    return False


def _remove(body: list[ir.Op], used: set[str]) -> int:
    removed = 0
    keep = []
    for op in body:
        if isinstance(op, _PURE) and op.result.name not in used and not _may_raise(op):
            removed += 1
            continue
        for region in op.regions():
            removed += _remove(region, used)
        keep.append(op)
    body[:] = keep
    return removed


PIPELINE: list[tuple[str, Callable[[ProgramIR], None]]] = [
    ("eliminate-dead-scalars", eliminate_dead_scalars),
    ("evaluate-once", evaluate_once),
]


def run_pipeline(program: ProgramIR, names: list[str] | None = None) -> ProgramIR:
    """Run the passes (``names``, in that order, or the whole pipeline), verifying the IR after each."""
    passes = dict(PIPELINE)
    for name in names if names is not None else list(passes):
        if name not in passes:
            raise ValueError(f"unknown pass {name!r}; passes: {', '.join(passes)}")
        passes[name](program)
        verify_program(program, f"pass {name}")
    return program
