"""The PyKernel front end: a kernel function's Python AST -> tilecraft's kernel-level IR (kir).

The output is the same kind of :class:`~tilecraft.metal.kir.Kernel` the TT-Lang lowering makes:
the language IR's scalar and structured control-flow operations (``arith.*``, ``scf.for``,
``scf.if``) plus ``metal.arg`` / ``metal.call`` / ``metal.aggregate``. It is verified like a
lowered kernel and printed by the same C++ printer, so a PyKernel kernel and a TT-Lang kernel
reach the emulator, the header check and ``tilecraft emit`` the same way.

One visitor per supported statement (``stmt_<Node>``), per expression (:mod:`.exprs`) and the
calls (:mod:`.calls`); anything else is E0601 at its line and column, through the Builder that
the TT-Lang front end uses for its own spans and errors.
"""

from __future__ import annotations

import ast
from typing import Any

from ..frontend.builder import Builder
from ..frontend.source import FunctionSource
from ..frontend.thread import multi_assigned
from ..ir import ops as ir
from ..ir.types import BOOL, INDEX
from ..metal import kir
from . import api
from .calls import CallMixin
from .exprs import SUBSET_HINT, ExprMixin
from .interface import CB, COMMON, CT, RT, KernelInterface
from .kernel_names import Obj, describe, int_type, is_float_const, is_int

_ARG_SOURCE = {CB: "ct", RT: "rt", COMMON: "common"}


class KernelCompiler(CallMixin, ExprMixin, Builder):
    def __init__(self, name: str, source: FunctionSource, globals_: dict[str, Any], interface: KernelInterface):
        super().__init__()
        self.source = source
        self.globals = globals_
        self.interface = interface
        self.kernel = kir.Kernel(name=name, processor=interface.processor, body=self.body)
        self.kernel.includes.add(api.BASE_HEADER[interface.kind])
        self.scope: dict[str, Any] = {}
        self.mutable = frozenset(multi_assigned(source.node))
        #: registers of mutable variables (a copy is made when another name is bound to one)
        self.variables: set[int] = set()
        #: expression temporaries not yet bound to a name (binding one renames it)
        self.temps: set[int] = set()
        self.loop_depth = 0
        self.branch_depth = 0

    def compile(self) -> kir.Kernel:
        node = self.source.node
        with self.at(node):
            self.bind_parameters()
        body = list(node.body)
        if body and isinstance(body[-1], ast.Return):
            with self.at(body[-1]):
                if body[-1].value is not None and not (
                        isinstance(body[-1].value, ast.Constant) and body[-1].value.value is None):
                    self.fail("E0601", "a kernel returns nothing", body[-1].value)
            body = body[:-1]  # the published kernels end with a bare `return`
        self.stmts(body)
        return self.kernel

    def bind_parameters(self) -> None:
        for param in self.interface.params:
            if param.role == CT:
                self.scope[param.name] = ir.Const(param.value)
                continue
            reg = self.reg(param.name if param.name not in self.mutable else f"{param.name}_arg", kir.U32)
            label = param.name if param.role != CB else f"{param.name} (circular buffer id)"
            self.emit(kir.Arg(result=reg, source=_ARG_SOURCE[param.role], index=param.index, label=label))
            self.bind(param.name, reg, self.source.node)

    # ---------------------------------------------------------------- statements
    def stmts(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            visitor = getattr(self, f"stmt_{type(stmt).__name__}", None)
            with self.at(stmt):
                if visitor is None:
                    self.fail("E0601", f"unsupported statement in a PyKernel kernel: {type(stmt).__name__}",
                              hint=SUBSET_HINT)
                visitor(stmt)

    def stmt_Pass(self, node: ast.Pass) -> None:
        pass

    def stmt_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return  # a docstring
        if isinstance(node.value, ast.Call):
            with self.at(node.value):
                self.expr_Call(node.value, discard=True)
            return
        self.expr(node.value)

    def stmt_Assign(self, node: ast.Assign) -> None:
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            self.fail("E0601", "assign one name at a time in a PyKernel kernel", node.targets[0],
                      hint="write a = x and b = y on two lines")
        self.bind(node.targets[0].id, self.expr(node.value), node.targets[0])

    def stmt_AnnAssign(self, node: ast.AnnAssign) -> None:
        """``x: int = v``: the published spelling of a mutable integer variable."""
        if not isinstance(node.target, ast.Name) or node.value is None:
            self.fail("E0601", "an annotated assignment in a kernel is `name: int = value`", node)
        if not (isinstance(node.annotation, ast.Name) and node.annotation.id in ("int", "bool")):
            self.fail("E0601", "kernel variables are integers: annotate them `: int`", node.annotation,
                      hint="lists (`x: [int, N]`) are not supported")
        self.bind(node.target.id, self.integer(node.value, "the value"), node.target)

    def stmt_AugAssign(self, node: ast.AugAssign) -> None:
        if not isinstance(node.target, ast.Name):
            self.fail("E0601", "augmented assignment needs a plain name", node.target)
        value = self.expr(ast.BinOp(left=ast.Name(id=node.target.id, ctx=ast.Load()), op=node.op, right=node.value,
                                    lineno=node.lineno, col_offset=node.col_offset,
                                    end_lineno=node.end_lineno, end_col_offset=node.end_col_offset))
        self.bind(node.target.id, value, node.target)

    def stmt_While(self, node: ast.While) -> None:
        self.fail("E0602", "while loops are not supported in PyKernel kernels",
                  hint="loop with `for i in range(start, stop, step)`; a kernel's trip counts come from its "
                       "arguments")

    def stmt_For(self, node: ast.For) -> None:
        it = node.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"):
            self.fail("E0601", "a kernel loops only over range(...)", it, hint="for i in range(start, stop, step)")
        if not isinstance(node.target, ast.Name):
            self.fail("E0601", "the loop variable must be one name", node.target)
        if node.orelse:
            self.fail("E0601", "for ... else is not supported in a PyKernel kernel", node.orelse[0])
        if it.keywords or not 1 <= len(it.args) <= 3:
            self.fail("E0606", f"range() takes 1 to 3 positional arguments, but {len(it.args)} were given", it)
        bounds = [self.integer(a, "a range bound") for a in it.args]
        lo, hi, step = (ir.Const(0), bounds[0], ir.Const(1)) if len(bounds) == 1 else \
            (bounds[0], bounds[1], bounds[2] if len(bounds) == 3 else ir.Const(1))
        if isinstance(step, ir.Const) and step.value == 0:
            self.fail("E0613", "range() step must not be zero", it.args[2])
        name = node.target.id
        negative = any(isinstance(b, ir.Const) and b.value < 0 for b in (lo, hi, step))
        type_ = INDEX if negative else int_type(lo, hi, step)  # counting down past 0 needs a signed variable
        # Python's loop variable is a copy of the count: assigning it in the body does not change
        # the iterations, and after the loop it holds the last value. When the kernel does either,
        # the C++ loop counts in its own variable and assigns the Python one each iteration.
        copy = name in self.mutable or _read_outside(self.source.node, node)
        target = self.variable(name, type_) if copy else None
        if target is not None:
            self.variables.add(id(target))
        var = self.reg(name, type_) if copy else self.variable(name, type_)
        loop = ir.For(var=var, lo=lo, hi=hi, step=step)
        self.emit(loop)
        self.loop_depth += 1
        try:
            with self.region(loop.body):
                if target is not None:
                    self.emit(ir.Assign(result=target, value=var))
                self.scope[name] = var if target is None else target
                self.stmts(node.body)
        finally:
            self.loop_depth -= 1

    def stmt_If(self, node: ast.If) -> None:
        cond = self.integer(node.test, "the condition")
        if isinstance(cond, ir.Const):  # decided at compile time (a CompileTimeValue, a literal)
            self.stmts(node.body if cond.value else node.orelse)
            return
        branch = ir.If(cond=cond)
        self.emit(branch)
        self.branch_depth += 1
        try:
            with self.region(branch.then_body):
                self.stmts(node.body)
            with self.region(branch.else_body):
                self.stmts(node.orelse)
        finally:
            self.branch_depth -= 1

    def stmt_Break(self, node: ast.Break) -> None:
        if not self.loop_depth:
            self.fail("E0601", "break outside a loop")
        self.emit(ir.Break())

    def stmt_Continue(self, node: ast.Continue) -> None:
        if not self.loop_depth:
            self.fail("E0601", "continue outside a loop")
        self.emit(ir.Continue())

    def stmt_Return(self, node: ast.Return) -> None:
        self.fail("E0601", "return is supported only as the last statement of a kernel",
                  hint="use if/else around the rest of the kernel instead of an early return")

    def stmt_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.fail("E0604", f"helper function '{node.name}' inside a kernel: a kernel calls the Metalium kernel "
                  "API only", hint="write the computation inline")

    # ---------------------------------------------------------------- names
    def variable(self, name: str, type_: Any) -> ir.Reg:
        """The register of a mutable variable (made at its first assignment) or a fresh one."""
        existing = self.scope.get(name)
        if name in self.mutable and isinstance(existing, ir.Reg) and id(existing) in self.variables:
            return existing
        reg = self.reg(name, type_)
        if name in self.mutable:
            self.variables.add(id(reg))
        return reg

    def bind(self, name: str, value: Any, node: ast.AST) -> None:
        if isinstance(value, Obj):
            self.bind_object(name, value, node)
            return
        if value is None:
            self.fail("E0607", f"'{name}' cannot hold the result of a call that returns nothing", node)
        if isinstance(value, ir.Reg) or is_int(value):  # a run-time value
            if name in self.mutable:
                if not is_int(value):
                    self.fail("E0607", f"'{name}' is assigned more than once, but holds {describe(value)}: only "
                              "integer variables can change", node)
                target = self.variable(name, _variable_type(value))
                producer = self._regions[-1][-1] if self._regions[-1] else None
                if isinstance(value, ir.Reg) and id(value) in self.temps and getattr(producer, "result", None) is value:
                    producer.result = target  # x = x + 1 computes into x itself
                    self.temps.discard(id(value))
                else:
                    self.emit(ir.Assign(result=target, value=value))
                self.scope[name] = target
            elif isinstance(value, ir.Reg) and id(value) in self.temps:
                value.name = self.reg(name, value.type).name  # the temporary takes the user's name
                self.temps.discard(id(value))
                self.scope[name] = value
            elif isinstance(value, ir.Reg) and id(value) in self.variables:
                copy = self.reg(name, value.type)  # a snapshot: the variable may change later
                self.emit(ir.Assign(result=copy, value=value))
                self.scope[name] = copy
            else:
                self.scope[name] = value
            return
        if name in self.mutable:  # a compile-time constant (a float, an enum member, a type) cannot change
            code = "E0610" if is_float_const(value) else "E0607"
            self.fail(code, f"'{name}' is assigned more than once, but holds {describe(value)}: only integer "
                      "variables can change in a PyKernel kernel", node)
        self.scope[name] = value

    def bind_object(self, name: str, value: Obj, node: ast.AST) -> None:
        if name in self.mutable or self.loop_depth or self.branch_depth or name in self.scope:
            self.fail("E0612", f"'{name}' holds a {value.cls}: create it once, at the top level of the kernel",
                      node, hint="accessors and address generators are declared once and used everywhere after")
        value.reg.name = self.reg(name, value.reg.type).name
        self.scope[name] = value


def _read_outside(function: ast.FunctionDef, loop: ast.For) -> bool:
    """Whether the loop variable of ``loop`` is read anywhere in ``function`` outside the loop."""
    name = loop.target.id
    inside = {id(n) for n in ast.walk(loop)}
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) and id(n) not in inside
               for n in ast.walk(function))


def _variable_type(value: ir.Operand) -> Any:
    """A mutable variable's C++ type, from its first value (uint32_t as the API's words are)."""
    if isinstance(value, ir.Reg):
        return value.type
    if isinstance(value.value, bool):
        return BOOL
    return kir.U32 if value.value >= 0 else INDEX
