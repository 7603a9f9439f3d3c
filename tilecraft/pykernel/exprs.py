"""Expression visitors of the PyKernel front end: integer arithmetic, comparisons, names, enums.

Kernels compute with integers only (the published PyKernel subset): constants fold at compile
time with Python's meaning, everything else becomes scalar IR operations on 32-bit (or, for NoC
addresses, 64-bit) registers, printed as the C++ the kernel runs.
"""

from __future__ import annotations

import ast
import builtins
from typing import Any

from ..ir import ops as ir
from ..ir import scalarops
from ..ir.types import BOOL
from . import api
from .kernel_names import (MISSING, TYPE_NAMES, EnumType, EnumValue, StringValue, TypeName, describe, int_type,
                     is_float_const, is_int)

#: the operators a PyKernel kernel writes: integer arithmetic, as the published PyKernel subset
_BINARY = {node: op for node, op in scalarops.AST_BINARY.items() if op is not scalarops.BinaryOp.POW}
SUBSET_HINT = ("PyKernel kernels use integer arithmetic and comparisons, `for` over `range`, `if`/`else`, "
               "assignments and calls of the Metalium kernel API")


class ExprMixin:
    """Turns one expression node into a value (see :mod:`.values`)."""

    def expr(self, node: ast.expr) -> Any:
        visitor = getattr(self, f"expr_{type(node).__name__}", None)
        with self.at(node):
            if visitor is None:
                self.fail("E0601", f"unsupported expression in a PyKernel kernel: {type(node).__name__}",
                          hint=SUBSET_HINT)
            return visitor(node)

    def integer(self, node: ast.expr, what: str) -> ir.Operand:
        """An expression that must be an integer (loop bounds, conditions, arithmetic operands)."""
        value = self.expr(node)
        if is_int(value):
            return value
        if is_float_const(value):
            self.fail("E0610", f"{what} is a float: PyKernel kernels compute with integers only", node,
                      hint="floats may only be passed straight to an API parameter that takes a float "
                           "(fill_tile's value, ...)")
        self.fail("E0607", f"{what} must be an integer, not {describe(value)}", node)

    # ---------------------------------------------------------------- leaves
    def expr_Constant(self, node: ast.Constant) -> Any:
        if isinstance(node.value, (bool, int, float)):
            return ir.Const(node.value)
        if isinstance(node.value, str):
            return StringValue(node.value)
        self.fail("E0601", f"unsupported constant {node.value!r} in a PyKernel kernel", hint=SUBSET_HINT)

    def expr_Name(self, node: ast.Name) -> Any:
        if node.id in self.scope:
            return self.scope[node.id]
        if node.id in api.enums():
            return EnumType(node.id, api.enums()[node.id])
        if node.id in TYPE_NAMES:
            return TypeName(TYPE_NAMES[node.id])
        host = self.host_value(node.id)
        if isinstance(host, (bool, int)) and not isinstance(host, type):
            return ir.Const(host)  # a module constant: folded like a CompileTimeValue
        if host is not MISSING:
            self.fail("E0611", f"'{node.id}' is a Python value of the host ({type(host).__name__}), which a kernel "
                      "cannot use", hint="pass it to create_kernel as a runtime argument or a CompileTimeValue "
                                         "keyword")
        self.fail("E0611", f"name '{node.id}' is not defined in this kernel",
                  hint="a kernel sees its parameters, its own variables and integer constants of its module")

    def host_value(self, name: str) -> Any:
        """What ``name`` is in the kernel's module (or builtins); MISSING when nothing."""
        if name in self.globals:
            return self.globals[name]
        return getattr(builtins, name, MISSING)

    def expr_Attribute(self, node: ast.Attribute) -> Any:
        base = self.expr(node.value)
        if isinstance(base, EnumType):
            if node.attr not in base.members:
                self.fail("E0607", f"{base.enum} has no member '{node.attr}' in TT-Metalium 0.81.1",
                          hint=f"{base.enum} members: {', '.join(base.members)}")
            return EnumValue(base.enum, node.attr)
        self.fail("E0601", f"attribute '.{node.attr}' of {describe(base)} is not supported in a PyKernel kernel",
                  hint="call the free API functions (get_noc_addr(id, accessor), ...) instead of methods")

    # ---------------------------------------------------------------- arithmetic
    def expr_BinOp(self, node: ast.BinOp) -> Any:
        op = _BINARY.get(type(node.op))
        if op is not None and scalarops.BINARY[op].always_float:
            self.fail("E0610", "'/' makes a float: PyKernel kernels compute with integers only",
                      hint="use // for integer division")
        if op is None:
            self.fail("E0601", f"operator {type(node.op).__name__} is not supported in a PyKernel kernel",
                      hint=SUBSET_HINT)
        lhs = self.integer(node.left, "the left operand")
        rhs = self.integer(node.right, "the right operand")
        if isinstance(lhs, ir.Const) and isinstance(rhs, ir.Const):
            try:
                return ir.Const(scalarops.BINARY[op].evaluate(lhs.value, rhs.value))
            except (ZeroDivisionError, ValueError) as exc:
                self.fail("E0613", f"this constant expression fails at compile time: {exc}")
        return self.temp(ir.Binary, int_type(lhs, rhs), op=op, lhs=lhs, rhs=rhs)

    def expr_UnaryOp(self, node: ast.UnaryOp) -> Any:
        value = self.integer(node.operand, "the operand")
        if isinstance(node.op, ast.UAdd):
            return value
        op = scalarops.AST_UNARY[type(node.op)]
        if isinstance(value, ir.Const):
            return ir.Const(scalarops.UNARY[op].evaluate(value.value))
        return self.temp(ir.Unary, scalarops.UNARY[op].result or int_type(value), op=op, operand=value)

    def expr_BoolOp(self, node: ast.BoolOp) -> Any:
        op = "and" if isinstance(node.op, ast.And) else "or"
        result = self.integer(node.values[0], "an operand")
        for item in node.values[1:]:
            rhs = self.integer(item, "an operand")
            if isinstance(result, ir.Const) and isinstance(rhs, ir.Const):
                result = ir.Const(bool(result.value and rhs.value) if op == "and" else bool(result.value or rhs.value))
            else:
                result = self.temp(ir.Binary, BOOL, op=op, lhs=result, rhs=rhs)
        return result

    def expr_Compare(self, node: ast.Compare) -> Any:
        result: Any = None
        left = self.integer(node.left, "the left operand")
        for op_node, right_node in zip(node.ops, node.comparators):
            op = scalarops.AST_COMPARE.get(type(op_node))
            if op is None:
                self.fail("E0601", f"comparison {type(op_node).__name__} is not supported in a PyKernel kernel",
                          hint="compare integers with == != < <= > >=")
            right = self.integer(right_node, "the right operand")
            if isinstance(left, ir.Const) and isinstance(right, ir.Const):
                part: Any = ir.Const(scalarops.COMPARE[op].evaluate(left.value, right.value))
            else:
                part = self.temp(ir.Compare, BOOL, op=op, lhs=left, rhs=right)
            if result is None:
                result = part
            elif isinstance(result, ir.Const) and isinstance(part, ir.Const):
                result = ir.Const(result.value and part.value)
            else:
                result = self.temp(ir.Binary, BOOL, op="and", lhs=result, rhs=part)
            left = right
        return result

    def expr_IfExp(self, node: ast.IfExp) -> Any:
        cond = self.integer(node.test, "the condition")
        yes = self.integer(node.body, "the value if true")
        no = self.integer(node.orelse, "the value if false")
        if isinstance(cond, ir.Const):
            return yes if cond.value else no
        return self.temp(ir.Select, int_type(yes, no), cond=cond, if_true=yes, if_false=no)

    def expr_Subscript(self, node: ast.Subscript) -> Any:
        self.fail("E0601", "subscripts are not supported in a PyKernel kernel (kernels hold no lists)",
                  hint="a template argument is written f[Arg](...) directly in a call, e.g. "
                       "compute_kernel_hw_startup[SrcOrder.Reverse](cb_a, cb_b, cb_out)")

    def temp(self, cls: type, type_: Any, **fields: Any) -> ir.Reg:
        """Emit one scalar operation into a fresh register (an expression temporary)."""
        reg = self.reg("t", type_)
        self.emit(cls(result=reg, **fields))
        self.temps.add(id(reg))
        return reg

