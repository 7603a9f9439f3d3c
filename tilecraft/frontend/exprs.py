"""Expression visitors: constant folding, integer arithmetic, block expressions, subscripts."""

from __future__ import annotations

import ast
import builtins
import math as pymath
import operator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ..diagnostics import did_you_mean, warn
from ..ir import mathops, scalarops
from ..ir import ops as ir
from ..ir.scalarops import BinaryOp
from ..ir.program_ir import COMPUTE
from ..ir.types import BOOL, FLOAT, INDEX, BlockType, CBDecl, PipeDecl, PipeType, SemaphoreDecl, TensorDecl, Type
from .builder import Builder
from .value_kinds import (CT, RV, BoundMethod, CarriedBlock, FuncRef, Linear, PipeNetV, Poison, RemoteSemV, TensorSliceV,
                     operand_of, scalar_type)

#: every comparison operator, for folding constants
_ALL_CMPS: dict[type, Any] = {**{k: scalarops.COMPARE[op].evaluate for k, op in scalarops.AST_COMPARE.items()},
                              ast.Is: operator.is_,
                              ast.IsNot: operator.is_not, ast.In: lambda a, b: a in b,
                              ast.NotIn: lambda a, b: a not in b}
#: pure functions that fold when every argument is a compile-time constant
_FOLDABLE = {builtins.min, builtins.max, builtins.abs, builtins.int, builtins.float, builtins.bool,
             builtins.len, builtins.divmod, builtins.round, builtins.sum, builtins.tuple, builtins.list,
             *(getattr(pymath, n) for n in dir(pymath) if callable(getattr(pymath, n)))}


@dataclass(frozen=True)
class TupleV:
    """A tuple literal holding runtime values (``(x, y)`` core coordinates)."""

    items: tuple[Any, ...]


class ExprMixin(Builder):
    kind: str  # thread kind, set by ThreadCompiler

    # ---------------------------------------------------------------- dispatch
    def expr(self, node: ast.expr) -> Any:
        visitor = getattr(self, f"expr_{type(node).__name__}", None)
        with self.at(node):
            if visitor is None:
                self.fail("E0101", f"unsupported expression in a kernel thread: {type(node).__name__}",
                          hint="threads accept integer arithmetic, comparisons, calls of ttl functions "
                               "and helper functions, and block expressions")
            return visitor(node)

    def expr_Constant(self, node: ast.Constant) -> Any:
        return CT(node.value)

    def expr_Name(self, node: ast.Name) -> Any:
        value = self.lookup(node.id)
        if isinstance(value, Poison):
            self.fail("E0102", f"'{node.id}' {value.reason}", hint=value.hint)
        if isinstance(value, CarriedBlock):
            return self.carried_value(value, node)
        return value

    def carried_value(self, marker: CarriedBlock, node: ast.AST | None = None) -> RV:
        raise NotImplementedError

    def expr_Tuple(self, node: ast.Tuple) -> Any:
        items = tuple(self.expr(e) for e in node.elts)
        if all(isinstance(i, CT) for i in items):
            return CT(tuple(i.value for i in items))
        return TupleV(items)

    expr_List = expr_Tuple

    def expr_JoinedStr(self, node: ast.JoinedStr) -> Any:
        parts = []
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                part = self.expr(value.value)
                spec = self.expr(value.format_spec) if value.format_spec is not None else CT("")
                if isinstance(part, CT) and isinstance(spec, CT):
                    text = part.value
                    text = {-1: text, ord("r"): repr(text), ord("s"): str(text), ord("a"): ascii(text)}[value.conversion]
                    try:
                        parts.append(CT(format(text, spec.value)))
                    except (TypeError, ValueError) as exc:
                        self.fail("E0104", f"f-string format failed: {exc}", value)
                    continue
                if value.conversion != -1 or spec != CT(""):
                    warn("W0104", "a value known only at run time is printed without its f-string conversion or "
                         "format spec", self.span(value), hint="the simulator prints the number as str() does")
                parts.append(part)
            else:
                parts.append(CT(value.value))
        if all(isinstance(p, CT) for p in parts):
            return CT("".join(p.value for p in parts))
        return TupleV(tuple(parts))

    # ---------------------------------------------------------------- attributes and subscripts
    def expr_Attribute(self, node: ast.Attribute) -> Any:
        base = self.expr(node.value)
        attr = node.attr
        if isinstance(base, CT):
            obj = base.value
            if isinstance(obj, (CBDecl, TensorDecl)) and attr == "shape":
                return CT(obj.shape)
            if isinstance(obj, CBDecl):
                if attr in ("reserve", "wait", "push", "pop"):
                    return BoundMethod(obj, attr)
                if attr == "block_count":
                    return CT(obj.buffer_factor)
                if attr == "capacity_tiles":  # the published simulator's count: blocks x units per block
                    return CT(obj.buffer_factor * pymath.prod(obj.shape))
                self.fail("E0104", f"circular buffer has no attribute '{attr}'",
                          hint="a buffer has shape, block_count, capacity_tiles, reserve(), wait(), push() and pop()")
            if isinstance(obj, TensorDecl):
                self.fail("E0104", f"tensor '{obj.name}' has no attribute '{attr}' usable in a thread",
                          hint="use tensor slices (t[r0:r1, c0:c1]) with ttl.copy, or t.shape")
            if hasattr(obj, "index") and hasattr(obj, "initial") or self.is_semaphore(obj):
                return BoundMethod(obj, attr)
            try:
                return self.classify_ct(getattr(obj, attr))
            except AttributeError:
                if isinstance(obj, ModuleType):  # ttl.math.expp: named as the user spelled the module
                    self.fail("E0104", f"{ast.unparse(node.value)} has no attribute '{attr}'",
                              hint=did_you_mean(attr, _public_names(obj)))
                self.fail("E0104", f"{_describe(obj)} has no attribute '{attr}'")
        if isinstance(base, RV) and isinstance(base.type, BlockType):
            if attr == "shape":
                return CT(base.type.shape)
            if attr in ("store", "push", "pop", "to"):
                return BoundMethod(base, attr)
            self.fail("E0104", f"a block has no attribute '{attr}'", hint="blocks have store(), push(), "
                      "pop(), to() and shape")
        if isinstance(base, RV) and isinstance(base.type, PipeType) and attr in ("src", "dst"):
            return self.pipe_end(base, attr)
        if isinstance(base, (RV, RemoteSemV, PipeNetV)):
            return BoundMethod(base, attr)
        self.fail("E0104", f"cannot take attribute '{attr}' of {_describe(base)}")

    def pipe_end(self, pipe: RV, end: str) -> Any:
        """``pipe.src`` / ``pipe.dst`` of the pipe an ``if_src`` / ``if_dst`` function is called with:
        a per-iteration value, in the spelling the pipes were written in (an int for a linear node
        index, else one int per coordinate)."""
        net = self.env.program.pipenets[pipe.type.net]
        if end == "dst" and any(p.multicast for p in net.pipes):
            self.fail("E0104", "pipe.dst of a multicast pipe is a core range, which a thread cannot hold",
                      hint="use pipe.dst only with unicast pipes, or compute the range from ttl.node()")
        spellings = {self.env.pipe_spelling[p.index][end == "dst"] for p in net.pipes}
        written = spellings.pop() if len(spellings) == 1 else len(self.grid)
        dims = 1 if written is None else written
        outs = [self.reg(f"{end}{i}", INDEX) for i in range(dims)]
        self.emit(ir.PipeEnd(outs=outs, pipe=pipe.reg, end=end, dims=dims))
        values = tuple(RV(r) for r in outs)
        return values[0] if written is None else TupleV(values)

    def is_semaphore(self, obj: Any) -> bool:
        return isinstance(obj, SemaphoreDecl)

    def expr_Subscript(self, node: ast.Subscript) -> Any:
        base = self.expr(node.value)
        if isinstance(base, CT) and isinstance(base.value, TensorDecl):
            return self.tensor_slice(base.value, node.slice)
        index = self.expr(node.slice)
        if isinstance(index, SliceV) and all(isinstance(p, CT) for p in (index.lower, index.upper, index.step)):
            index = CT(slice(index.lower.value, index.upper.value, index.step.value))
        if isinstance(base, CT) and isinstance(index, CT):
            try:
                return self.classify_ct(base.value[index.value])
            except Exception as exc:  # noqa: BLE001 - user indexing error, reported at the node
                self.fail("E0104", f"indexing failed: {exc}")
        if isinstance(base, TupleV) and isinstance(index, CT) and isinstance(index.value, int):
            return base.items[index.value]
        if isinstance(base, CT) and isinstance(base.value, (tuple, list)) and isinstance(index, RV) \
                and index.type == INDEX and _number_table(base.value):
            return self.table_lookup(base.value, self.from_end(index, len(base.value)))
        self.fail("E0101", "only tensors, constant tuples with constant indices and constant tables of numbers "
                  "can be subscripted in a thread")

    def from_end(self, index: RV, length: int) -> RV:
        """A runtime index into a sequence of ``length`` items, with Python's negative indices made positive."""
        negative = self.fresh(ir.Compare(result=self.reg("c", BOOL), op="lt", lhs=index.reg, rhs=ir.Const(0)))
        wrapped = self.fresh(ir.Binary(result=self.reg("t", INDEX), op="add", lhs=index.reg, rhs=ir.Const(length)))
        return self.fresh(ir.Select(result=self.reg("t", INDEX), cond=negative.reg, if_true=wrapped.reg,
                                    if_false=index.reg))

    def table_lookup(self, table: tuple | list, index: RV) -> Any:
        """``TABLE[i]`` for a constant table of numbers (or of equal-length tuples of numbers) and a runtime
        ``i``, typically ``TILES_PER_NODE[node]``: a chain of selects, one per entry. An index past the end
        gives the last entry (Python raises IndexError there)."""
        if isinstance(table[0], (tuple, list)):
            return TupleV(tuple(self.table_lookup([row[k] for row in table], index) for k in range(len(table[0]))))
        types = {scalar_type(v) for v in table}
        type_ = FLOAT if FLOAT in types else BOOL if types == {BOOL} else INDEX
        value: ir.Operand = ir.Const(table[-1])
        for k in reversed(range(len(table) - 1)):
            hit = self.fresh(ir.Compare(result=self.reg("c", BOOL), op="eq", lhs=index.reg, rhs=ir.Const(k)))
            value = self.fresh(ir.Select(result=self.reg("t", type_), cond=hit.reg, if_true=ir.Const(table[k]),
                                         if_false=value)).reg
        return RV(value) if isinstance(value, ir.Reg) else CT(table[0])

    def tensor_slice(self, decl: TensorDecl, index: ast.expr) -> TensorSliceV:
        entries = self.index_entries(index)
        shape = decl.unit_shape
        if len(entries) != len(shape):
            self.fail("E0106", f"tensor '{decl.name}' has {len(shape)} dimensions but the slice has "
                      f"{len(entries)}", index)
        bounds, extents = [], []
        for (entry, node), dim_extent in zip(entries, shape):
            if isinstance(entry, SliceV):
                if not (isinstance(entry.step, CT) and entry.step.value in (None, 1)):
                    self.fail("E0101", "tensor slices cannot have a step", node)
                lo = entry.lower if not _is_none(entry.lower) else CT(0)
                hi = entry.upper if not _is_none(entry.upper) else CT(dim_extent)
            else:
                lo = self.need_integer(entry, node)
                hi = self.arith(BinaryOp.ADD, lo, CT(1), node)
            for bound in (lo, hi):
                if _type(bound) != INDEX:
                    self.fail("E0104", f"tensor indices must be integers, got {_describe(bound)}", node)
            extent = self.static_difference(hi, lo)
            bounds.append((operand_of(lo), operand_of(hi) if extent is None else None))  # hi = lo + extent
            extents.append(extent)
        return TensorSliceV(decl, tuple(bounds), tuple(extents))

    def index_entries(self, index: ast.expr) -> list[tuple[Any, ast.AST]]:
        """The entries of a subscript, each evaluated (a slice: :class:`SliceV`) with its node.

        A slice may be written in place (``t[a:b, c]``) or held in a variable (``rows = slice(a,
        b)``; ``t[rows, c]``), and a tuple of them may be a variable too.
        """
        nodes = index.elts if isinstance(index, ast.Tuple) else [index]
        entries: list[tuple[Any, ast.AST]] = []
        for node in nodes:
            value = self.expr(node)
            items = value.items if isinstance(value, TupleV) else (
                tuple(self.classify_ct(v) for v in value.value)
                if isinstance(value, CT) and isinstance(value.value, tuple) else (value,))
            for item in items:
                if isinstance(item, CT) and isinstance(item.value, slice):
                    item = SliceV(CT(item.value.start), CT(item.value.stop), CT(item.value.step))
                entries.append((item, node))
        return entries

    def expr_Slice(self, node: ast.Slice) -> Any:
        return SliceV(*(self.expr(part) if part is not None else CT(None)
                        for part in (node.lower, node.upper, node.step)))

    def need_integer(self, value: Any, node: ast.AST) -> Any:
        if isinstance(value, (CT, RV)) and _type(value) == INDEX and not isinstance(_value_of(value), bool):
            return value
        self.fail("E0104", f"tensor indices must be integers, got {_describe(value)}", node)

    def static_difference(self, hi: Any, lo: Any) -> int | None:
        a, b = self.linear_of(hi), self.linear_of(lo)
        if a is None or b is None:
            return None
        diff = _lin_add(a, _lin_scale(b, -1))
        return diff[1] if not diff[0] else None

    def linear_of(self, value: Any) -> Linear | None:
        if isinstance(value, CT) and isinstance(value.value, int):
            return ((), value.value)
        if isinstance(value, RV) and value.type == INDEX:
            return value.linear if value.linear is not None else self.var_linear(value.reg)
        return None

    # ---------------------------------------------------------------- scalars
    def scalar(self, node: ast.expr) -> Any:
        value = self.expr(node)
        if isinstance(value, CT) and scalar_type(value.value) is not None:
            return value
        if isinstance(value, RV) and value.type in (INDEX, BOOL, FLOAT):
            return value
        self.fail("E0104", f"expected an integer, got {_describe(value)}", node)

    def arith(self, op: BinaryOp, lhs: Any, rhs: Any, node: ast.AST) -> Any:
        """Scalar arithmetic with folding and linear-form tracking; ``op`` is the operator's one record
        (``ir/scalarops.py``)."""
        if isinstance(lhs, CT) and isinstance(rhs, CT):
            try:
                return CT(scalarops.BINARY[op].evaluate(lhs.value, rhs.value))
            except Exception as exc:  # noqa: BLE001 - e.g. division by zero in user constants
                self.fail("E0104", f"constant expression failed: {exc}", node)
        type_: Type = scalarops.binary_result(op, _type(lhs), _type(rhs))
        linear = None
        la, lb = self.linear_of(lhs), self.linear_of(rhs)
        if la is not None and lb is not None:
            if op is BinaryOp.ADD:
                linear = _lin_add(la, lb)
            elif op is BinaryOp.SUB:
                linear = _lin_add(la, _lin_scale(lb, -1))
            elif op is BinaryOp.MUL and (not la[0] or not lb[0]):
                linear = _lin_scale(lb, la[1]) if not la[0] else _lin_scale(la, lb[1])
        result = self.reg("t", type_)
        with self.at(node):
            return self.fresh(ir.Binary(result=result, op=op, lhs=operand_of(lhs), rhs=operand_of(rhs)), linear)

    def expr_BinOp(self, node: ast.BinOp) -> Any:
        lhs, rhs = self.expr(node.left), self.expr(node.right)
        if _is_block(lhs) or _is_block(rhs):
            return self.block_binop(node, lhs, rhs)
        if isinstance(node.op, ast.MatMult):
            self.fail("E0104", "'@' needs two blocks")
        name = scalarops.AST_BINARY[type(node.op)]
        return self.arith(name, self.need_scalar(lhs, node.left), self.need_scalar(rhs, node.right), node)

    def need_scalar(self, value: Any, node: ast.AST) -> Any:
        if isinstance(value, CT) and scalar_type(value.value) is not None:
            return value
        if isinstance(value, RV) and value.type in (INDEX, BOOL, FLOAT):
            return value
        self.fail("E0104", f"expected a number, got {_describe(value)}", node)

    def expr_UnaryOp(self, node: ast.UnaryOp) -> Any:
        value = self.expr(node.operand)
        if _is_block(value):
            if isinstance(node.op, ast.USub):
                return self.tile_unary("neg", value, (), node)
            if isinstance(node.op, ast.UAdd):
                return value
            self.fail("E0104", "only unary minus applies to blocks")
        value = self.need_scalar(value, node.operand)
        if isinstance(node.op, ast.UAdd):
            return CT(+value.value) if isinstance(value, CT) else value
        op = scalarops.AST_UNARY[type(node.op)]
        if isinstance(value, CT):
            return CT(scalarops.UNARY[op].evaluate(value.value))
        type_ = scalarops.UNARY[op].result or value.type
        linear = _lin_scale(self.linear_of(value), -1) if op == "neg" and self.linear_of(value) else None
        return self.fresh(ir.Unary(result=self.reg("t", type_), op=op, operand=value.reg), linear)

    def expr_Compare(self, node: ast.Compare) -> Any:
        result = None
        left = self.expr(node.left)
        for op_node, right_node in zip(node.ops, node.comparators):
            right = self.expr(right_node)
            part = self.compare(op_node, left, right, node, right_node)
            result = part if result is None else self.logical("and", result, part, node)
            left = right
        return result

    def compare(self, op_node: ast.cmpop, left: Any, right: Any, node: ast.Compare, right_node: ast.AST) -> Any:
        """One link of a comparison chain. Constants of any kind fold (Python's own semantics);
        ``==``/``!=``/``is`` between blocks compare the blocks themselves, as Python and the
        published simulator do; ordering operators on blocks compare elementwise."""
        kind = type(op_node)
        if isinstance(left, CT) and isinstance(right, CT) and kind in _ALL_CMPS:
            try:
                return CT(_ALL_CMPS[kind](left.value, right.value))
            except Exception as exc:  # noqa: BLE001 - e.g. ordering a string and an int
                self.fail("E0104", f"comparison failed: {exc}", node)
        if _is_block(left) or _is_block(right):
            if kind in (ast.Eq, ast.NotEq, ast.Is, ast.IsNot):
                return self.block_identity(kind, left, right, node)
            if len(node.ops) > 1:
                self.fail("E0101", "chained comparisons of blocks are not supported")
            if kind not in scalarops.AST_COMPARE:
                self.fail("E0101", f"unsupported comparison of blocks: {type(op_node).__name__}")
            return self.tile_binary(str(scalarops.AST_COMPARE[kind]), left, right, node)
        if kind in (ast.Is, ast.IsNot):  # a runtime scalar is never None, True or False itself
            if isinstance(left, RV) != isinstance(right, RV):
                return CT(kind is ast.IsNot)
            self.fail("E0101", "'is' compares objects; compare runtime numbers with == or !=", node)
        if kind in (ast.In, ast.NotIn):
            return self.membership(kind, left, right, node)
        name = scalarops.AST_COMPARE[kind]
        left_s, right_s = self.need_scalar(left, node.left), self.need_scalar(right, right_node)
        return self.fresh(ir.Compare(result=self.reg("c", BOOL), op=name, lhs=operand_of(left_s),
                                     rhs=operand_of(right_s)))

    def block_identity(self, kind: type, left: Any, right: Any, node: ast.Compare) -> CT:
        same = isinstance(left, RV) and isinstance(right, RV) and left.reg is right.reg
        if kind in (ast.Eq, ast.NotEq):
            warn("W0102", "'==' and '!=' between blocks compare the blocks themselves (equal only for the same "
                 "block), as Python and the TT-Lang simulator do: this condition is decided at compile time",
                 self.span(node), hint="for an elementwise comparison write ttl.math.eq(a, b) / ttl.math.ne(a, b)")
        return CT(same if kind in (ast.Eq, ast.Is) else not same)

    def membership(self, kind: type, left: Any, right: Any, node: ast.Compare) -> Any:
        """``x in (a, b, ...)`` with a runtime ``x``: ``x == a or x == b or ...``."""
        if not (isinstance(right, CT) and isinstance(right.value, (tuple, list, range))):
            self.fail("E0101", "'in' needs a constant tuple, list or range on its right", node)
        x = self.need_scalar(left, node.left)
        found: Any = CT(False)
        for item in right.value:
            if scalar_type(item) is None:
                continue
            test = self.fresh(ir.Compare(result=self.reg("c", BOOL), op="eq", lhs=operand_of(x), rhs=ir.Const(item)))
            found = self.logical("or", found, test, node)
        if kind is ast.NotIn:
            return CT(not found.value) if isinstance(found, CT) else self.fresh(
                ir.Unary(result=self.reg("c", BOOL), op="not", operand=found.reg))
        return found

    def logical(self, op: str, a: Any, b: Any, node: ast.AST) -> Any:
        if isinstance(a, CT) and isinstance(b, CT):
            return CT((a.value and b.value) if op == "and" else (a.value or b.value))
        if isinstance(a, CT):
            if op == "and":
                return self.truth(b) if a.value else CT(False)
            return CT(True) if a.value else self.truth(b)
        if isinstance(b, CT):
            return self.logical(op, b, a, node)
        return self.fresh(ir.Binary(result=self.reg("c", BOOL), op=op, lhs=self.truth(a).reg,
                                    rhs=self.truth(b).reg))

    def truth(self, value: RV) -> RV:
        """A boolean register for a condition: integers are true when non-zero, as in Python."""
        if value.type == BOOL:
            return value
        return self.fresh(ir.Unary(result=self.reg("c", BOOL), op="bool", operand=value.reg))

    def expr_BoolOp(self, node: ast.BoolOp) -> Any:
        op = "and" if isinstance(node.op, ast.And) else "or"
        values = [self.need_scalar(self.expr(v), v) for v in node.values]
        result = values[0]
        for value in values[1:]:
            result = self.logical(op, result, value, node)
        return result

    def expr_IfExp(self, node: ast.IfExp) -> Any:
        cond = self.need_scalar(self.expr(node.test), node.test)
        if isinstance(cond, CT):
            return self.expr(node.body if cond.value else node.orelse)
        a = self.need_scalar(self.expr(node.body), node.body)
        b = self.need_scalar(self.expr(node.orelse), node.orelse)
        type_ = FLOAT if FLOAT in (_type(a), _type(b)) else INDEX
        return self.fresh(ir.Select(result=self.reg("t", type_), cond=cond.reg, if_true=operand_of(a),
                                    if_false=operand_of(b)))

    # ---------------------------------------------------------------- block expressions
    def block_binop(self, node: ast.BinOp, lhs: Any, rhs: Any) -> Any:
        if isinstance(node.op, ast.MatMult):
            return self.tile_matmul(lhs, rhs, node)
        name = mathops.OPERATORS.get(type(node.op).__name__)
        if name is None:
            self.fail("E0104", f"operator {type(node.op).__name__} is not defined on blocks",
                      hint="blocks support + - * / ** @ and unary -")
        return self.tile_binary(name, lhs, rhs, node)

    def block_operand(self, value: Any, node: ast.AST) -> Any:
        if _is_block(value):
            return value
        if isinstance(value, CT) and isinstance(value.value, (int, float)) and not isinstance(value.value, bool):
            return CT(float(value.value))
        if isinstance(value, RV) and value.type in (INDEX, FLOAT):
            return value
        self.fail("E0104", f"expected a block or a number in a block expression, got {_describe(value)}", node)

    def require_compute(self, what: str) -> None:
        if self.kind != COMPUTE:
            self.fail("E0003", f"{what} can only be used in a compute thread",
                      hint="move block math into the @ttl.compute() thread")

    def expr_block_type(self, *operands: Any, shape: tuple[int, ...] | None = None) -> BlockType:
        blocks = [o for o in operands if _is_block(o)]
        base = blocks[0].type
        return base.as_expr(shape)

    def tile_unary(self, fn: str, x: Any, params: tuple, node: ast.AST) -> RV:
        self.require_compute(f"ttl.math.{fn}")
        x = self.block_operand(x, node)
        if not _is_block(x):
            self.fail("E0104", f"ttl.math.{fn} needs a block argument", node)
        result = self.reg("e", self.expr_block_type(x))
        return self.fresh(ir.TileUnary(result=result, fn=fn, x=x.reg, params=params))

    def tile_binary(self, fn: str, lhs: Any, rhs: Any, node: ast.AST) -> RV:
        self.require_compute(f"block '{fn}'")
        lhs, rhs = self.block_operand(lhs, node), self.block_operand(rhs, node)
        if not (_is_block(lhs) or _is_block(rhs)):
            self.fail("E0104", f"ttl.math.{fn} needs at least one block operand", node)
        if _is_block(lhs) and _is_block(rhs):
            self.check_same_shape(lhs.type, rhs.type, fn, node)
        result = self.reg("e", self.expr_block_type(lhs, rhs))
        return self.fresh(ir.TileBinary(result=result, fn=fn, lhs=operand_of(lhs), rhs=operand_of(rhs)))

    def check_same_shape(self, a: BlockType, b: BlockType, what: str, node: ast.AST) -> None:
        if a.unit != b.unit:
            self.fail("E0105", f"a block of {block_extent(a)} and a block of {block_extent(b)} cannot be "
                      f"combined in '{what}'", node,
                      hint="tile-layout blocks count 32x32 tiles and row-major blocks count elements; make "
                           "both buffers like tensors of the same layout")
        if a.shape != b.shape:
            self.fail("E0105", f"block shapes {a.shape} and {b.shape} do not match in '{what}'", node,
                      hint="elementwise operations need equal block shapes; use ttl.block.broadcast "
                           "to expand a block")

    def tile_matmul(self, lhs: Any, rhs: Any, node: ast.AST) -> RV:
        self.require_compute("matmul '@'")
        if not (_is_block(lhs) and _is_block(rhs)):
            self.fail("E0104", "'@' needs two blocks", node)
        a, b = lhs.type, rhs.type
        if len(a.shape) < 2 or len(a.shape) != len(b.shape) or not a.unit.tiled or not b.unit.tiled:
            self.fail("E0105", f"matmul needs two tile blocks of 2 dimensions, or of 3 or more with the same leading "
                      f"(batch) dimensions; got {block_extent(a)} @ {block_extent(b)}", node)
        if a.shape[:-2] != b.shape[:-2]:
            self.fail("E0105", f"batched matmul blocks differ in their batch dimensions: {a.shape} @ {b.shape}", node,
                      hint="a batched matmul multiplies block i of the left by block i of the right: give both "
                           "the same leading dimensions")
        if a.shape[-1] != b.shape[-2]:
            self.fail("E0105", f"matmul inner dimensions differ: {a.shape} @ {b.shape}", node,
                      hint="the left block's columns (in tiles) must equal the right block's rows")
        shape = ir.TileMatmul.result_shape(a.shape, b.shape)
        assert shape is not None, "the checks above are TileMatmul.result_shape's"
        result = self.reg("e", a.as_expr(shape))
        return self.fresh(ir.TileMatmul(result=result, lhs=lhs.reg, rhs=rhs.reg))

    # ---------------------------------------------------------------- helpers used by subclasses
    def lookup(self, name: str) -> Any:
        raise NotImplementedError

    def classify_ct(self, value: Any) -> Any:
        raise NotImplementedError


def block_extent(t: BlockType) -> str:
    """A block's shape with its unit, for messages: ``(2, 2) tiles`` or ``(2, 64) elements (row-major)``."""
    return f"{t.shape} tiles" if t.unit.tiled else f"{t.shape} elements (row-major)"


@dataclass(frozen=True)
class SliceV:
    """``a:b`` or ``slice(a, b)`` with compile-time or runtime bounds: a tensor subscript entry."""

    lower: Any
    upper: Any
    step: Any


def _number_table(table: tuple | list) -> bool:
    """Whether ``table`` holds numbers only, or equal-length tuples of numbers only (a table a thread
    may index at run time)."""
    if not table:
        return False
    if all(isinstance(row, (tuple, list)) for row in table):
        return len({len(row) for row in table}) == 1 and len(table[0]) > 0 \
            and all(scalar_type(v) is not None for row in table for v in row)
    return all(scalar_type(v) is not None for v in table)


def _is_none(value: Any) -> bool:
    return isinstance(value, CT) and value.value is None


def _value_of(value: Any) -> Any:
    return value.value if isinstance(value, CT) else None


def _type(value: Any) -> Type | None:
    if isinstance(value, CT):
        return scalar_type(value.value)
    return value.type


def _is_block(value: Any) -> bool:
    return isinstance(value, RV) and isinstance(value.type, BlockType)


def _lin_add(a: Linear, b: Linear) -> Linear:
    terms: dict[Any, int] = dict(a[0])
    for key, coef in b[0]:
        terms[key] = terms.get(key, 0) + coef
    return (tuple(sorted((k, c) for k, c in terms.items() if c)), a[1] + b[1])


def _lin_scale(a: Linear | None, k: int) -> Linear | None:
    if a is None or not isinstance(k, int):
        return None
    return (tuple((key, coef * k) for key, coef in a[0] if coef * k), a[1] * k)


_DECL_KINDS = {CBDecl: "buffer", TensorDecl: "tensor", SemaphoreDecl: "semaphore", PipeDecl: "pipe"}


def _public_names(module: ModuleType) -> list[str]:
    """What a module offers a kernel: its ``__all__`` (``ttl``, ``ttl.math``), else its public names."""
    return list(getattr(module, "__all__", None) or (n for n in dir(module) if not n.startswith("_")))


def _describe(value: Any) -> str:
    if isinstance(value, CT):
        kind = _DECL_KINDS.get(type(value.value))
        if kind is not None:
            return f"{kind} '{getattr(value.value, 'name', value.value)}'"
        return f"{type(value.value).__name__} {value.value!r}"[:80]
    if isinstance(value, RV) and isinstance(value.type, BlockType):
        return f"a block of {block_extent(value.type)}"
    if isinstance(value, RV):
        return f"a value of type {value.type}"
    if isinstance(value, TensorSliceV):
        return f"a slice of tensor '{value.decl.name}'"
    if isinstance(value, FuncRef):
        return f"function {value.fn.__name__}" if value.fn is not None else f"function {value.node.name}"
    return _VIEW_WORDS.get(type(value), "a value of the kernel scope")


#: front-end views as users know them (a message never names an internal class)
_VIEW_WORDS: dict[type, str] = {PipeNetV: "a pipe net", RemoteSemV: "a remote semaphore",
                                BoundMethod: "a method", Poison: "a value", TupleV: "a tuple of runtime values"}


describe = _describe
is_block = _is_block
FOLDABLE = _FOLDABLE
