"""What kind of value each field of each operation holds, read from the field's type annotation.

The printer, the parser and the verifier all walk operations field by field; this table tells
them how to print, parse and check a field without a case per operation. A field whose
annotation does not say (a list of call arguments is a ``list`` like a print's arguments) states
its kind on the operation class itself, as dataclass metadata (:func:`field_of_kind`), so the
kind follows the class through any rename.
"""

from __future__ import annotations

import functools
import typing
from dataclasses import field, fields
from typing import Any

from . import ops as ir
from . import scalarops
from . import types as t

REG, OPERAND, OPT_REG, CB, SEM, NET, INDEX, RANGE = "reg", "operand", "opt_reg", "cb", "sem", "net", "index", "range"
STR, INT, BOOL, INTS, NUMBERS, CORE, PRINT_ARGS, TENSOR, CALL_ARGS, TEMPLATE = (
    "str", "int", "bool", "ints", "numbers", "core", "print_args", "tensor", "call_args", "template")

#: kinds printed as positional operands (in field order); all others print as ``name=value``
POSITIONAL = frozenset({REG, OPERAND, CB, SEM, NET})

#: fields that are not operands or attributes: results, loop variables, locations
_SKIP = {"result", "outs", "var", "loc"}

_BY_HINT: dict[Any, str] = {
    ir.Reg: REG, ir.Operand: OPERAND, typing.Optional[ir.Reg]: OPT_REG, t.CBDecl: CB, t.SemaphoreDecl: SEM,
    t.PipeNetDecl: NET, ir.TensorIndex: INDEX, t.CoreRange: RANGE, str: STR, int: INT, bool: BOOL,
    tuple[int, ...]: INTS, tuple: NUMBERS, tuple[ir.Operand, ...]: CORE, list: PRINT_ARGS, t.TensorDecl: TENSOR,
    scalarops.BinaryOp: STR, scalarops.UnaryOp: STR, scalarops.CompareOp: STR,
}


def field_of_kind(kind: str, **options: Any) -> Any:
    """A dataclass field of an operation whose kind its annotation does not give (``args:
    list = field_of_kind(CALL_ARGS, default_factory=list)``)."""
    return field(metadata={"kind": kind}, **options)


@functools.cache
def _kinds(cls: type) -> dict[str, str | None]:
    # each class's annotations are read in its own module (an operation may subclass another's)
    hints = typing.get_type_hints(cls, localns={**vars(ir), **vars(t)})
    out: dict[str, str | None] = {}
    for f in fields(cls):
        if f.name in _SKIP or f.metadata.get("region"):
            out[f.name] = None
            continue
        kind = f.metadata.get("kind") or _BY_HINT.get(hints[f.name])
        if kind is None:
            raise TypeError(f"{cls.__name__}.{f.name}: no field kind for {hints[f.name]!r}")
        out[f.name] = kind
    return out


def kind_of(cls: type, field: str) -> str | None:
    """The kind of ``cls.field``; None for results, loop variables, locations and regions."""
    return _kinds(cls)[field]
