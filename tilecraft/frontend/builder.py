"""IR emission state shared by the statement, expression and intrinsic visitors."""

from __future__ import annotations

import ast
from contextlib import contextmanager
from typing import Iterable, Iterator, NoReturn

from ..diagnostics import Span, error
from ..ir import ops as ir
from ..ir.types import Type
from .source import FunctionSource
from .value_kinds import RV, Linear, Scope


class Builder:
    """Appends ops to the current region, names registers, and raises located errors."""

    def __init__(self) -> None:
        self.body: list[ir.Op] = []
        self._regions: list[list[ir.Op]] = [self.body]
        self._names: dict[str, int] = {}
        #: the names of multiply-assigned locals (their one mutable register): never a temporary's
        self._locals: set[str] = set()
        self._versions: dict[str, int] = {}
        #: the operation that defined each single-assignment register (expression temporaries)
        self.producer: dict[str, ir.Op] = {}
        self.source: FunctionSource | None = None
        self.scope: Scope | None = None
        self.node: ast.AST | None = None

    # ---------------------------------------------------------------- locations and errors
    def span(self, node: ast.AST | None = None) -> Span | None:
        node = node if node is not None else self.node
        if self.source is None or node is None:
            return None
        return self.source.span(node)

    def fail(self, code: str, message: str, node: ast.AST | None = None, hint: str | None = None) -> NoReturn:
        raise error(code, message, self.span(node), hint=hint)

    @contextmanager
    def at(self, node: ast.AST) -> Iterator[None]:
        saved, self.node = self.node, node
        try:
            yield
        finally:
            self.node = saved

    @contextmanager
    def in_function(self, source: FunctionSource, scope: Scope) -> Iterator[None]:
        saved = self.source, self.scope
        self.source, self.scope = source, scope
        try:
            yield
        finally:
            self.source, self.scope = saved

    # ---------------------------------------------------------------- registers
    def reg(self, hint: str, type_: Type) -> ir.Reg:
        """A new single-assignment register named after ``hint`` (``c``, ``c.1``, ...), never after a
        multiply-assigned local: a condition temporary ``%c`` must not overwrite the user's ``c``."""
        base = hint or "t"
        while True:
            count = self._names.get(base, 0)
            self._names[base] = count + 1
            name = base if count == 0 else f"{base}.{count}"
            if name not in self._locals:
                return ir.Reg(name, type_)

    def reserve_locals(self, names: Iterable[str]) -> None:
        """Keep the register names of these multiply-assigned locals from temporaries."""
        self._locals.update(names)

    def named_reg(self, name: str, type_: Type) -> ir.Reg:
        """The one mutable register of a multiply-assigned local (created on first use)."""
        return ir.Reg(name, type_)

    def bump(self, reg: ir.Reg) -> None:
        """Record that ``reg`` was (re)assigned: linear forms over its old value go stale."""
        self._versions[reg.name] = self._versions.get(reg.name, 0) + 1

    def version_key(self, reg: ir.Reg) -> tuple[str, int]:
        return (reg.name, self._versions.get(reg.name, 0))

    def var_linear(self, reg: ir.Reg) -> Linear:
        return (((self.version_key(reg), 1),), 0)

    # ---------------------------------------------------------------- emission
    def emit(self, op: ir.Op) -> ir.Op:
        if op.loc is None:
            op.loc = self.span()
        self._regions[-1].append(op)
        for result in op.results():
            self.bump(result)
        return op

    @contextmanager
    def region(self, ops: list[ir.Op]) -> Iterator[list[ir.Op]]:
        self._regions.append(ops)
        try:
            yield ops
        finally:
            self._regions.pop()

    def fresh(self, op: ir.Op, linear: Linear | None = None) -> RV:
        self.emit(op)
        result = op.results()[0]
        self.producer[result.name] = op
        return RV(result, fresh=True, linear=linear)
