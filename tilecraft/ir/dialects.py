"""The IR's dialects: the operation classes and register types behind each prefix of an
operation's printed name (``scf`` in ``scf.for``), registered explicitly.

The parser reads an operation by its name, so it must know every dialect a text may use, whatever
the process has imported. The language-level dialects are registered by :mod:`.ops`, which defines
them. A dialect defined above the IR layer (``metal``: the kernel-level IR of
:mod:`tilecraft.metal.kir`, which the IR may not import) is named here with the module that
defines it; that module states it as ``DIALECT``, which is registered the first time the dialect
is asked for. So a metal-level text parses in a process that never imported the emitter.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from .types import Type


@dataclass(frozen=True)
class Dialect:
    """One dialect: ``ops`` are its operation classes (each with a ``name`` starting ``name.``),
    ``types`` the register types it adds, by their printed spelling, and ``constants`` the operand
    constants it adds (subclasses of ``ops.Const`` printed as ``call(value)``, by their ``call``)."""

    name: str
    ops: tuple[type, ...]
    types: tuple[Type, ...] = ()
    constants: tuple[type, ...] = ()

    def __post_init__(self) -> None:
        for op in self.ops:
            if op.name.partition(".")[0] != self.name:
                raise ValueError(f"operation {op.name} is not in dialect {self.name!r}")


_REGISTERED: dict[str, Dialect] = {}

#: dialects defined above the IR layer -> the module whose ``DIALECT`` states them
DEFINED_ABOVE: dict[str, str] = {"metal": "tilecraft.metal.kir"}


def register(*dialects: Dialect) -> None:
    """Register ``dialects`` (a dialect registered again is replaced)."""
    for d in dialects:
        _REGISTERED[d.name] = d


def _register_defined_above(name: str) -> None:
    if name not in _REGISTERED and name in DEFINED_ABOVE:
        register(importlib.import_module(DEFINED_ABOVE[name]).DIALECT)


def dialect(name: str) -> Dialect | None:
    """The dialect called ``name``, registered from its defining module if it is defined above
    the IR; None for a name no dialect has."""
    _register_defined_above(name)
    return _REGISTERED.get(name)


def op_class(name: str) -> type | None:
    """The operation class printed as ``name`` (``metal.call``); None if there is none."""
    d = dialect(name.partition(".")[0])
    return next((op for op in d.ops if op.name == name), None) if d is not None else None


def register_type(spelling: str) -> Type | None:
    """A register type a dialect adds, by its printed spelling (``uint32_t``). A text may use a
    dialect's type before any of its operations (``%n = arith.assign 2 : uint32_t``), so the
    dialects defined above the IR are registered first."""
    return next((t for d in _all_registered() for t in d.types if str(t) == spelling), None)


def constant_class(call: str) -> type | None:
    """The operand constant a dialect prints as ``call(value)`` (``get_semaphore``); None if none."""
    return next((c for d in _all_registered() for c in d.constants if c.call == call), None)


def _all_registered() -> list[Dialect]:
    for name in DEFINED_ABOVE:
        _register_defined_above(name)
    return list(_REGISTERED.values())
