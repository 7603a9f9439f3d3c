"""What each scalar operator means: the one table every layer reads.

A scalar operation (``arith.binary``, ``arith.unary``, ``arith.cmp``) names its operator with one of
the enums below. Its record says everything that must agree between the layers: which Python
syntax writes it (both front ends), its value (Python's: constant folding, the simulator, the
cost model's runs, the fast-forward guards), the type of its result (the TT-Lang front end), when
it can fail (dead-code elimination keeps such operations), and how the simulator's generated Python
and the emitted C++ spell it. Python's meaning is the language's; the C++ spelling must give the
same value on a 32-bit kernel: ``//`` and ``%`` floor (C++'s ``/`` and ``%`` truncate), so they are
the helpers of :data:`CPP_HELPERS`, and ``/`` of two integers divides as floats.
"""

from __future__ import annotations

import ast
import operator
from dataclasses import dataclass
from ..text_enum import TextEnum
from typing import Any, Callable

from .types import BOOL, FLOAT, INDEX, Type


class BinaryOp(TextEnum):
    """The operators of ``arith.binary`` (their printed names)."""

    ADD = "add"
    SUB = "sub"
    MUL = "mul"
    FLOORDIV = "floordiv"
    MOD = "mod"
    TRUEDIV = "truediv"
    POW = "pow"
    LSHIFT = "lshift"
    RSHIFT = "rshift"
    AND = "and"
    OR = "or"
    XOR = "xor"
    MIN = "min"
    MAX = "max"


class UnaryOp(TextEnum):
    """The operators of ``arith.unary``: the unary Python operators and the conversions."""

    NEG = "neg"
    NOT = "not"
    INVERT = "invert"
    ABS = "abs"
    INT = "int"
    FLOAT = "float"
    BOOL = "bool"


class CompareOp(TextEnum):
    """The operators of ``arith.cmp``."""

    EQ = "eq"
    NE = "ne"
    LT = "lt"
    LE = "le"
    GT = "gt"
    GE = "ge"


@dataclass(frozen=True)
class Binary:
    """One binary operator. ``python`` and ``cpp`` are templates over the operands ``{a}`` and
    ``{b}`` (``{t}``: the C++ type of the result); ``logical_*`` replace them when the result is a
    bool (``and``/``or`` of truth values)."""

    op: BinaryOp
    evaluate: Callable[[Any, Any], Any]
    python: str
    cpp: str | None  # None: not emitted (the front ends reject it before the printer)
    #: the result is a float whatever the operands (``/``)
    always_float: bool = False
    #: the right operand values for which Python raises (division by zero, negative shift counts)
    fails_for: Callable[[Any], bool] | None = None
    logical_python: str | None = None
    logical_cpp: str | None = None


@dataclass(frozen=True)
class Unary:
    op: UnaryOp
    evaluate: Callable[[Any], Any]
    python: str
    cpp: str
    #: the result's type; None: the operand's
    result: Type | None = None
    #: whether Python raises for some operand of this type (``int()`` of inf or NaN)
    fails_for_type: Type | None = None


@dataclass(frozen=True)
class Compare:
    op: CompareOp
    evaluate: Callable[[Any, Any], bool]
    symbol: str  # the same in Python and C++


def _zero(value: Any) -> bool:
    return value == 0


def _negative(value: Any) -> bool:
    return value < 0


_INFIX = "{a} %s {b}"

BINARY: dict[BinaryOp, Binary] = {b.op: b for b in (
    Binary(BinaryOp.ADD, operator.add, _INFIX % "+", _INFIX % "+"),
    Binary(BinaryOp.SUB, operator.sub, _INFIX % "-", _INFIX % "-"),
    Binary(BinaryOp.MUL, operator.mul, _INFIX % "*", _INFIX % "*"),
    Binary(BinaryOp.FLOORDIV, operator.floordiv, _INFIX % "//", "tilecraft_floordiv<{t}>({a}, {b})", fails_for=_zero),
    Binary(BinaryOp.MOD, operator.mod, _INFIX % "%", "tilecraft_mod<{t}>({a}, {b})", fails_for=_zero),
    Binary(BinaryOp.TRUEDIV, operator.truediv, _INFIX % "/", "static_cast<float>({a}) / static_cast<float>({b})",
           always_float=True, fails_for=_zero),
    Binary(BinaryOp.POW, operator.pow, _INFIX % "**", None, fails_for=_negative),
    Binary(BinaryOp.LSHIFT, operator.lshift, _INFIX % "<<", _INFIX % "<<", fails_for=_negative),
    Binary(BinaryOp.RSHIFT, operator.rshift, _INFIX % ">>", _INFIX % ">>", fails_for=_negative),
    Binary(BinaryOp.AND, operator.and_, _INFIX % "&", _INFIX % "&",
           logical_python="({a} and {b})", logical_cpp="({a} && {b})"),
    Binary(BinaryOp.OR, operator.or_, _INFIX % "|", _INFIX % "|",
           logical_python="({a} or {b})", logical_cpp="({a} || {b})"),
    Binary(BinaryOp.XOR, operator.xor, _INFIX % "^", _INFIX % "^"),
    Binary(BinaryOp.MIN, min, "min({a}, {b})", "({a} < {b} ? {a} : {b})"),
    Binary(BinaryOp.MAX, max, "max({a}, {b})", "({a} > {b} ? {a} : {b})"),
)}

UNARY: dict[UnaryOp, Unary] = {u.op: u for u in (
    Unary(UnaryOp.NEG, operator.neg, "-{a}", "-{a}"),
    Unary(UnaryOp.NOT, operator.not_, "not {a}", "!{a}", result=BOOL),
    Unary(UnaryOp.INVERT, operator.invert, "~{a}", "~{a}"),
    Unary(UnaryOp.ABS, abs, "abs({a})", "({a} < 0 ? -{a} : {a})"),
    Unary(UnaryOp.INT, int, "int({a})", "static_cast<int32_t>({a})", result=INDEX, fails_for_type=FLOAT),
    Unary(UnaryOp.FLOAT, float, "float({a})", "static_cast<float>({a})", result=FLOAT),
    Unary(UnaryOp.BOOL, bool, "bool({a})", "static_cast<bool>({a})", result=BOOL),
)}

COMPARE: dict[CompareOp, Compare] = {c.op: c for c in (
    Compare(CompareOp.EQ, operator.eq, "=="),
    Compare(CompareOp.NE, operator.ne, "!="),
    Compare(CompareOp.LT, operator.lt, "<"),
    Compare(CompareOp.LE, operator.le, "<="),
    Compare(CompareOp.GT, operator.gt, ">"),
    Compare(CompareOp.GE, operator.ge, ">="),
)}

#: the Python syntax of each operator, for the front ends
AST_BINARY: dict[type[ast.operator], BinaryOp] = {
    ast.Add: BinaryOp.ADD, ast.Sub: BinaryOp.SUB, ast.Mult: BinaryOp.MUL, ast.FloorDiv: BinaryOp.FLOORDIV,
    ast.Mod: BinaryOp.MOD, ast.Div: BinaryOp.TRUEDIV, ast.Pow: BinaryOp.POW, ast.LShift: BinaryOp.LSHIFT,
    ast.RShift: BinaryOp.RSHIFT, ast.BitAnd: BinaryOp.AND, ast.BitOr: BinaryOp.OR, ast.BitXor: BinaryOp.XOR,
}
AST_UNARY: dict[type[ast.unaryop], UnaryOp] = {ast.USub: UnaryOp.NEG, ast.Not: UnaryOp.NOT,
                                               ast.Invert: UnaryOp.INVERT}
AST_COMPARE: dict[type[ast.cmpop], CompareOp] = {
    ast.Eq: CompareOp.EQ, ast.NotEq: CompareOp.NE, ast.Lt: CompareOp.LT, ast.LtE: CompareOp.LE,
    ast.Gt: CompareOp.GT, ast.GtE: CompareOp.GE,
}


def binary_result(op: BinaryOp, lhs: Type, rhs: Type) -> Type:
    """The type of ``lhs op rhs`` in the TT-Lang front end: a float if ``op`` always makes one or
    an operand is one, else an integer."""
    return FLOAT if BINARY[op].always_float or FLOAT in (lhs, rhs) else INDEX


def may_fail(op: str, rhs: Any) -> bool:
    """Whether ``lhs op rhs`` can raise in Python, given the right operand's constant value (None:
    known at run time only): a division by zero, a negative shift count or power."""
    fails_for = BINARY[BinaryOp(op)].fails_for
    return fails_for is not None and (rhs is None or fails_for(rhs))


#: the C++ definitions the ``cpp`` spellings call, printed ahead of ``kernel_main`` where they are
#: used: Python's floor division and modulo (the sign of the divisor) for ints and floats
CPP_HELPERS: dict[str, str] = {
    "tilecraft_floordiv": """\
// Python's a // b: C++'s / truncates toward zero, Python floors
template <typename T>
inline T tilecraft_floordiv(T a, T b) {
    if constexpr (static_cast<T>(0.5) != 0) {
        return __builtin_floorf(a / b);
    } else if constexpr (static_cast<T>(-1) > 0) {
        return a / b;
    } else {
        T q = a / b;
        return (q * b != a && (a < 0) != (b < 0)) ? q - 1 : q;
    }
}""",
    "tilecraft_mod": """\
// Python's a % b: the remainder takes the sign of the divisor (C++'s % takes the dividend's)
template <typename T>
inline T tilecraft_mod(T a, T b) {
    if constexpr (static_cast<T>(0.5) != 0) {
        T r = __builtin_fmodf(a, b);
        return (r != 0 && (r < 0) != (b < 0)) ? r + b : r;
    } else if constexpr (static_cast<T>(-1) > 0) {
        return a % b;
    } else {
        T r = a % b;
        return (r != 0 && (r < 0) != (b < 0)) ? r + b : r;
    }
}""",
}


def cpp_helpers_of(text: str) -> list[str]:
    """The helper definitions that C++ ``text`` (a kernel, or the spellings it uses) calls, in a
    fixed order."""
    return [body for name, body in CPP_HELPERS.items() if f"{name}<" in text]
