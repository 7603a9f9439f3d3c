"""What a name in a PyKernel kernel can stand for while the front end compiles it.

Integers are IR operands (registers, or constants that fold at compile time); everything else a
kernel can hold is one of the small records below. Only integer and bool values exist at run
time on the device as registers; objects (tensor accessors, address generators) are declared
once and passed to API calls by name.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ir import ops as ir
from ..ir.types import BOOL, INDEX, Type
from ..metal import kir

#: C++ types of integer registers, by the spelling an API signature returns
INT_TYPES: dict[str, Type] = {"uint32_t": kir.U32, "uint8_t": kir.U32, "uint16_t": kir.U32, "uintptr_t": kir.U32,
                              "int32_t": kir.I32, "int": kir.I32, "uint64_t": kir.U64, "bool": BOOL}
#: Python type names a kernel may pass where a template wants a type (``get_arg_val(int, 0)``)
TYPE_NAMES = {"int": "uint32_t", "bool": "bool", "float": "float", "uint32_t": "uint32_t", "int32_t": "int32_t",
              "uint64_t": "uint64_t"}


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


#: what a name that the kernel's module does not define resolves to
MISSING = _Missing()


@dataclass(frozen=True)
class Obj:
    """A kernel-side object: ``TensorAccessorArgs``, ``TensorAccessor``, ``InterleavedAddrGenFast``."""

    reg: ir.Reg
    cls: str
    #: for TensorAccessorArgs: the first compile-time argument it reads
    cta_base: int | None = None


_INTEGER_REGISTERS = (INDEX, BOOL, kir.U32, kir.I32, kir.U64)


@dataclass(frozen=True)
class TypeName:
    """A C++ type named in a kernel (``int`` in ``get_arg_val(int, 0)``)."""

    spelling: str


@dataclass(frozen=True)
class EnumValue:
    """A member of a kernel API enum (``SrcOrder.Reverse`` -> ``SrcOrder::Reverse``)."""

    enum: str
    member: str

    @property
    def cpp(self) -> str:
        return f"{self.enum}::{self.member}"


@dataclass(frozen=True)
class EnumType:
    """An enum's name used as a namespace for its members (``SrcOrder`` in ``SrcOrder.Reverse``)."""

    enum: str
    members: tuple[str, ...]


@dataclass(frozen=True)
class StringValue:
    """A string literal: only an argument of an API parameter that takes a name."""

    text: str


def is_int(value: object) -> bool:
    """An integer (or bool) operand: a register of an integer type or an int/bool constant."""
    if isinstance(value, ir.Const):
        return isinstance(value.value, (int, bool))
    return isinstance(value, ir.Reg) and value.type in _INTEGER_REGISTERS


def is_float_const(value: object) -> bool:
    return isinstance(value, ir.Const) and isinstance(value.value, float)


def _is_pointer(type_: Type) -> bool:
    return isinstance(type_, kir.CType) and type_.spelling.endswith("*")


def is_pointer(value: object) -> bool:
    return isinstance(value, ir.Reg) and _is_pointer(value.type)


def int_type(*operands: ir.Operand) -> Type:
    """The C++ type of an arithmetic result, by the usual promotions: 64-bit if an operand is,
    else unsigned if an operand is, else int."""
    types = [o.type for o in operands if isinstance(o, ir.Reg)]
    if kir.U64 in types:
        return kir.U64
    if kir.U32 in types:
        return kir.U32
    return INDEX


def describe(value: object) -> str:
    """How a message names a value's kind."""
    if isinstance(value, Obj):
        return f"{'an' if value.cls[0] in 'AEIOU' else 'a'} {value.cls}"
    if isinstance(value, TypeName):
        return f"the type {value.spelling}"
    if isinstance(value, EnumValue):
        return f"the enum value {value.cpp}"
    if isinstance(value, EnumType):
        return f"the enum {value.enum}"
    if isinstance(value, StringValue):
        return "a string"
    if is_float_const(value):
        return "a float"
    if is_pointer(value):
        return "a pointer"
    if isinstance(value, ir.Const) and isinstance(value.value, bool) or (
            isinstance(value, ir.Reg) and value.type is BOOL):
        return "a bool"
    if is_int(value):
        return "an integer"
    return f"a {type(value).__name__}"
