"""The scalar operator records of ``ir/scalarops.py``: each spelling means what Python means.

The simulator's generated Python and the emitted C++ spell every operator from its record; here
each spelling is evaluated on operands of every sign (and zero where Python allows it) and
compared with the record's Python value: the Python templates with ``eval``, the C++ templates and
the floor-division/modulo helpers compiled by the host's g++ as a kernel would run them (int32 and
float operands). The programs that run the operators at every level are
tests/published/integer_division.py (tests/end_to_end/test_published.py, test_published_cpp.py).
"""

from __future__ import annotations

import itertools
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from tilecraft.arch.processors import Processor
from tilecraft.ir import ops as ir
from tilecraft.ir import scalarops
from tilecraft.ir.program_ir import COMPUTE, ThreadIR
from tilecraft.ir.scalarops import BinaryOp
from tilecraft.metal import kir
from tilecraft.metal.lower_common import KernelLowering

INTS = (-7, -6, -3, -2, -1, 0, 1, 2, 3, 5, 7)
FLOATS = (-2.5, -1.75, -0.5, 0.0, 0.25, 1.5, 3.0)
#: operators whose C++ spelling is not emitted (the front ends reject them) or whose C++ type rules
#: differ on purpose (shifts of negative numbers are the kernel's 32-bit ones)
NOT_COMPARED = {BinaryOp.POW, BinaryOp.LSHIFT, BinaryOp.RSHIFT}


def _pairs(values: tuple) -> list[tuple]:
    return [(a, b) for a, b in itertools.product(values, repeat=2)]


def _python_value(rule: scalarops.Binary, a: object, b: object) -> object:
    try:
        return rule.evaluate(a, b)
    except (ZeroDivisionError, ValueError, TypeError):
        return None


def test_every_ir_operator_has_one_record_and_the_python_spelling_agrees() -> None:
    assert set(scalarops.BINARY) == set(BinaryOp)
    assert set(scalarops.UNARY) == set(scalarops.UnaryOp) and set(scalarops.COMPARE) == set(scalarops.CompareOp)
    for rule in scalarops.BINARY.values():
        for values in (INTS, FLOATS):
            for a, b in _pairs(values):
                want = _python_value(rule, a, b)
                if want is None:
                    continue
                assert eval(rule.python.format(a=f"({a!r})", b=f"({b!r})")) == want, (rule.op, a, b)  # noqa: S307
    for compare in scalarops.COMPARE.values():
        for a, b in _pairs(INTS):
            assert eval(f"({a}) {compare.symbol} ({b})") == compare.evaluate(a, b)  # noqa: S307


def test_division_and_remainder_fail_where_python_raises() -> None:
    assert scalarops.may_fail(BinaryOp.FLOORDIV, 0) and scalarops.may_fail(BinaryOp.MOD, None)
    assert not scalarops.may_fail(BinaryOp.TRUEDIV, 3) and scalarops.may_fail(BinaryOp.LSHIFT, -1)
    assert not scalarops.may_fail(BinaryOp.ADD, None)


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs the host's g++")
def test_the_cpp_spellings_compute_what_python_does(tmp_path: Path) -> None:
    """One C++ program evaluates every emitted binary operator on int32 and float operand pairs
    (a divisor of zero left out) and prints the results; each must equal Python's, floats to the
    float32 rounding of Python's value."""
    cases: list[tuple[BinaryOp, str, object, object, object]] = []
    for op, rule in scalarops.BINARY.items():
        if op in NOT_COMPARED:
            continue
        for ctype, values in (("int32_t", INTS), ("float", FLOATS)):
            if ctype == "float" and op in (BinaryOp.AND, BinaryOp.OR, BinaryOp.XOR):
                continue
            for a, b in _pairs(values):
                want = _python_value(rule, a, b)
                if want is not None:
                    cases.append((op, ctype, a, b, want))
    body = []
    for op, ctype, a, b, _ in cases:
        result_type = "float" if scalarops.BINARY[op].always_float else ctype
        literal = (lambda v: f"{v!r}f") if ctype == "float" else str
        expr = scalarops.BINARY[op].cpp.format(a=f"x_{ctype[0]}({literal(a)})", b=f"x_{ctype[0]}({literal(b)})",
                                               t=result_type)
        body.append(f'    std::printf("%.9g\\n", static_cast<double>({expr}));')
    source = "\n".join([
        "#include <cstdint>", "#include <cstdio>", *scalarops.CPP_HELPERS.values(),
        # through functions the compiler cannot see through, so nothing is folded at compile time
        "__attribute__((noinline)) int32_t x_i(int32_t v) { return v; }",
        "__attribute__((noinline)) float x_f(float v) { return v; }",
        "int main() {", *body, "    return 0;", "}"])
    (tmp_path / "ops.cpp").write_text(source)
    subprocess.run(["g++", "-std=c++20", "-O1", "-Wall", "-Wextra", "-Werror", "-o", str(tmp_path / "ops"),
                    str(tmp_path / "ops.cpp")], check=True, capture_output=True, text=True)
    printed = subprocess.run([str(tmp_path / "ops")], check=True, capture_output=True, text=True).stdout.split()
    assert len(printed) == len(cases)
    wrong = [(op, ctype, a, b, want, got) for (op, ctype, a, b, want), got in zip(cases, printed)
             if np.float32(float(got)) != np.float32(want)]
    assert not wrong, wrong[:10]


@pytest.mark.parametrize("op", [op for op in BinaryOp if not scalarops.BINARY[op].always_float], ids=str)
def test_the_lowering_folds_constants_as_python_does(op: BinaryOp) -> None:
    """The Metalium lowering folds its own integer arithmetic on two constants (tile indices, loop
    bounds) by the operator's record. It had a table of its own that knew four operators."""
    lowering = KernelLowering(None, ThreadIR("t", COMPUTE, []), kir.Kernel("k", Processor.COMPUTE, []), None)
    rule = scalarops.BINARY[op]
    for a, b in _pairs(INTS):
        try:
            expected = eval(rule.python.format(a=f"({a})", b=f"({b})"))
        except (ZeroDivisionError, ValueError):
            continue
        assert lowering.arith(op.value, ir.Const(a), ir.Const(b)) == ir.Const(expected), (a, b)
