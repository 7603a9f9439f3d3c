"""Operations numbered for generated code: code passes small ints, errors map them back to spans."""

from __future__ import annotations

from typing import Any

from ..ir import ops as ir


class OpTable:
    """Base of the runtimes that generate code: ``op_id(op)`` numbers an op once; ``span_of(i)``."""

    def __init__(self) -> None:
        self.ops: list[ir.Op] = []
        self._op_ids: dict[int, int] = {}

    def op_id(self, op: ir.Op) -> int:
        found = self._op_ids.get(id(op))
        if found is None:
            found = self._op_ids[id(op)] = len(self.ops)
            self.ops.append(op)
        return found

    def span_of(self, op: int) -> Any:
        return self.ops[op].loc
