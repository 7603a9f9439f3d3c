"""Operations numbered for generated code: code passes small ints, errors map them back to spans."""

from __future__ import annotations

from typing import Any

from ..diagnostics import KernelError, error
from ..ir import ops as ir

#: iterations after which a while loop whose variables never repeat is stopped as runaway
RUNAWAY_ITERATIONS = 1 << 22


class OpTable:
    """Base of the runtimes that generate code: ``op_id(op)`` numbers an op once; ``span_of(i)``."""

    def __init__(self) -> None:
        self.ops: list[ir.Op] = []
        self._op_ids: dict[int, int] = {}
        #: ops whose outcome the generated code reports (:mod:`tilecraft.sim.fastforward.core_groups`): comparisons, the order of
        #: their operands (``K.guard``); loops, their trip count (``K.trips``)
        self.traced: set[int] = set()

    def op_id(self, op: ir.Op) -> int:
        found = self._op_ids.get(id(op))
        if found is None:
            found = self._op_ids[id(op)] = len(self.ops)
            self.ops.append(op)
        return found

    def span_of(self, op: int) -> Any:
        return self.ops[op].loc

    def no_progress(self, op: int, iteration: int, repeats: int) -> KernelError:
        """The error for a while loop that cannot end (raised by generated code, see
        ``ThreadCodegen.op_While``): its variables came back to an earlier state (``repeats`` is
        that iteration, and the condition depends on nothing else, so it never becomes false),
        or it ran :data:`RUNAWAY_ITERATIONS` times (``repeats`` < 0)."""
        if repeats >= 0:
            what = (f"its variables at iteration {iteration} are those of iteration {repeats}, and its "
                    "condition depends on nothing else")
        else:
            what = f"it ran {iteration:,} iterations without its variables ever repeating"
        return error("E2115", f"a while loop never ends: {what}", self.span_of(op),
                     hint="update the loop's variables so that the condition becomes false, or add a break")
