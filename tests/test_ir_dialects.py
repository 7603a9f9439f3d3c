"""How the IR knows its operations: each operation class states its own fields' kinds
(``ir/fieldkinds.py`` names no operation)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tilecraft.ir.fieldkinds import CALL_ARGS, TEMPLATE, kind_of
from tilecraft.metal import kir


@dataclass(eq=False, kw_only=True)
class Invoke(kir.Call):
    """``metal.call`` under another name: its fields keep their kinds."""

    name: ClassVar[str] = "metal.invoke"


def test_a_renamed_operation_keeps_its_field_kinds() -> None:
    assert (kind_of(Invoke, "args"), kind_of(Invoke, "template")) == (CALL_ARGS, TEMPLATE)
    assert (kind_of(kir.Aggregate, "args"), kind_of(kir.Aggregate, "template")) == (CALL_ARGS, TEMPLATE)
