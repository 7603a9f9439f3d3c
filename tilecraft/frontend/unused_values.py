"""Block expressions a thread computes and never uses: almost always a forgotten ``store``.

``_ = x + x`` or ``y = ttl.math.exp(x)`` without ``blk.store(y)`` compiles to tile operations whose
result nothing reads; the published simulator rejects such a program at its end ("used in an
expression but never reached a store"). tilecraft drops the computation and warns at the
expression, once per place (``W0103``).
"""

from __future__ import annotations

from ..diagnostics import Span, warn
from ..ir import ops as ir
from ..ir.program_ir import ProgramIR
from ..ir.types import BlockType


def warn_unused_block_values(program: ProgramIR) -> None:
    for thread in program.threads:
        read = {operand.name for op in ir.walk(thread.body) for operand in op.operands()
                if isinstance(operand, ir.Reg)}
        unused = [op for op in ir.walk(thread.body)
                  if any(isinstance(r.type, BlockType) and r.type.expr and r.name not in read for r in op.results())]
        # an operation the front end folded into a larger one it feeds (a reduce under a broadcast)
        # is unused too, but the expression around it is not: only outermost expressions count
        used = [op.loc for op in ir.walk(thread.body) if op.loc is not None and op not in unused]
        for op in unused:
            if not any(_inside(op.loc, outer) for outer in used):
                warn("W0103", "this block expression is computed and never stored or used: it is dropped",
                     op.loc, hint="store it into a reserved block (out.store(...)), or remove it; the "
                                  "TT-Lang simulator rejects a program whose block values never reach a store")


def _inside(inner: Span | None, outer: Span) -> bool:
    return inner is not None and inner != outer and inner.file == outer.file and inner.line == outer.line \
        and outer.col <= inner.col and (outer.end_col is None or (inner.end_col or inner.col) <= outer.end_col)
