"""IR passes, each a named function over a ProgramIR; ``PIPELINE`` lists them in order.

The simulator runs the pipeline before generating code, so what it executes is the optimised
IR that ``tilecraft show-ir`` prints too.
"""

from __future__ import annotations

from typing import Callable

from . import ops as ir
from .program import ProgramIR
from .types import FLOAT

_PURE = (ir.Assign, ir.Binary, ir.Unary, ir.Compare, ir.Select)


def _reads(op: ir.Op) -> list[ir.Reg]:
    """Registers an op reads; a copy with compiler-proven extents does not need its slice ends."""
    if isinstance(op, (ir.CopyTensorToBlock, ir.CopyBlockToTensor)):
        index = op.src if isinstance(op, ir.CopyTensorToBlock) else op.dst
        block = op.dst if isinstance(op, ir.CopyTensorToBlock) else op.src
        static = None not in index.static_extents
        bounds = [lo for lo, _ in index.bounds] + ([] if static else [hi for _, hi in index.bounds])
        return [r for r in [*bounds, block] if isinstance(r, ir.Reg)]
    return [r for r in op.operands() if isinstance(r, ir.Reg)]


def eliminate_dead_scalars(program: ProgramIR) -> None:
    """Remove pure scalar operations whose results nothing reads (e.g. unneeded slice ends)."""
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
        rhs = op.rhs.value if isinstance(op.rhs, ir.Const) else None
        if op.op in ("floordiv", "mod", "truediv"):
            return rhs is None or rhs == 0
        if op.op in ("pow", "lshift", "rshift"):
            return rhs is None or rhs < 0
    if isinstance(op, ir.Unary) and op.op == "int":
        return op.operand.type == FLOAT
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
]


def run_pipeline(program: ProgramIR) -> ProgramIR:
    for _name, pass_fn in PIPELINE:
        pass_fn(program)
    return program
