"""What a name or expression means while a thread is compiled.

``CT`` is a compile-time Python value (folded: grid sizes, buffer objects, shapes); ``RV`` is a
runtime register. The rest are front-end-only views that become operands of one operation
(a tensor slice is only ever the source or destination of a copy).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Span
from ..ir.ops import Const, Operand, Reg
from ..ir.types import BOOL, FLOAT, INDEX, PipeNetDecl, SemaphoreDecl, TensorDecl, Type


@dataclass(frozen=True)
class CT:
    value: Any


#: a linear form over register versions: ((key, coef), ...), const
Linear = tuple[tuple[tuple[tuple[str, int], int], ...], int]


@dataclass(frozen=True)
class RV:
    reg: Reg
    #: True when ``reg`` is a temporary no Python name refers to yet (can be bound without a copy)
    fresh: bool = False
    #: the value as a linear form of register versions, when known (for static slice extents)
    linear: Linear | None = None

    @property
    def type(self) -> Type:
        return self.reg.type


@dataclass(frozen=True)
class TensorSliceV:
    decl: TensorDecl
    #: per dim (lo, hi); hi is None where the extent is known at compile time
    bounds: tuple[tuple[Operand, Operand | None], ...]
    extents: tuple[int | None, ...]


@dataclass(frozen=True)
class RemoteSemV:
    """``sem.get_remote(core)`` (``multicast`` False) or ``get_remote_multicast(range)``."""

    decl: SemaphoreDecl
    core: tuple[Any, ...] | None = None
    cores: Any = None
    multicast: bool = False


@dataclass(frozen=True)
class FuncRef:
    """A Python function to inline; ``variants`` holds its per-core objects (closures differ)."""

    variants: tuple[Any, ...]
    #: for functions defined inside the thread: the scope they close over
    scope: Any = None
    node: Any = None

    @property
    def fn(self) -> Any:
        return self.variants[0]


@dataclass(frozen=True)
class PipeNetV:
    decl: PipeNetDecl


@dataclass(frozen=True)
class Poison:
    """A name whose value depends on a runtime branch or loop the IR cannot merge."""

    reason: str
    span: Span | None = None
    hint: str = "use the value inside the branch or loop that produced it"


@dataclass(eq=False)
class CarriedBlock:
    """A block name that a runtime loop assigns, while the loop body is compiled: the body is
    compiled once, so a read of the name before the body assigns it must see the value the
    previous iteration left, held in the name's local block (:meth:`StmtMixin.carried_value`
    creates it on that first read and copies ``before``, the value at loop entry, into it just
    ahead of ``loop``). A body that assigns before it reads leaves the marker unread: nothing is
    copied. After the loop the marker stays bound where the loop assigned a local block, so a
    read after a loop that may run no iteration gets the entry value copied in too."""

    name: str
    #: the binding at loop entry: a block (of a buffer, or the name's local block) or an outer marker
    before: Any
    loop: Any
    #: the region holding ``loop`` and the scope binding the name (its local block is keyed by it)
    region: list[Any]
    scope: "Scope"
    #: the name's local block, once a read made the value loop-carried
    own: RV | None = None
    #: where the first loop-carried read is
    read_at: Span | None = None


@dataclass(frozen=True)
class BoundMethod:
    """``obj.method`` looked up but not called yet."""

    obj: Any
    method: str


@dataclass
class Scope:
    """Local bindings of one function body (thread or inlined helper)."""

    prefix: str
    parent: "Scope | None" = None
    bindings: dict[str, Any] = field(default_factory=dict)
    #: names assigned at more than one place: they live in one mutable register
    multi: frozenset[str] = frozenset()

    def lookup(self, name: str) -> Any:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.bindings:
                return scope.bindings[name]
            scope = scope.parent
        return None


def operand_of(value: CT | RV) -> Operand:
    return value.reg if isinstance(value, RV) else Const(value.value)


def scalar_type(value: Any) -> Type | None:
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INDEX
    if isinstance(value, float):
        return FLOAT
    return None
