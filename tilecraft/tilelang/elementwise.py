"""A ``T.Parallel`` body as block math (docs/tilelang.md).

TileLang writes elementwise work one element at a time, ``for i, j in T.Parallel(M, N): C[i, j] =
...``; on Tensix the unit is the tile, so the body becomes one block expression over the whole
``M x N`` block: ``buf[i, j]`` reads or writes the whole buffer, a per-row fragment ``m[i]`` is
broadcast across the row, and a tensor indexed ``base + i`` is a tile slice loaded or stored there.
Names the body defines (``y = by * block_M + i``) are substituted where they are used.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ..frontend.generated_ast import parse_at as _parse, place_missing as _at, substitute as _substitute
from .codes import FRAGMENT_INDEX, LOOP_BOUND, NOT_TILE_ALIGNED, STATEMENT, TILE, UNSUPPORTED

if TYPE_CHECKING:
    from .translate import Buffer, Translator

#: T.<name>(x) -> ttl.math.<name>(x)
MATH = {"exp": "exp", "exp2": "exp2", "log": "log", "log2": "log2", "sqrt": "sqrt", "rsqrt": "rsqrt", "abs": "abs",
        "tanh": "tanh", "sigmoid": "sigmoid", "max": "max", "min": "min"}


class ParallelBody:
    """One ``for ... in T.Parallel(...)`` loop of a prim_func being translated by ``translator``."""

    def __init__(self, translator: "Translator", stmt: ast.For):
        self.t = translator
        self.stmt = stmt
        self.vars: tuple[str, ...] = ()
        self.extents: tuple[int, ...] = ()
        #: names the body defines (index helpers, named values)
        self.scalars: dict[str, ast.expr] = {}

    def translate(self) -> list[ast.stmt]:
        stmt = self.stmt
        it = stmt.iter
        assert isinstance(it, ast.Call)
        targets = stmt.target.elts if isinstance(stmt.target, ast.Tuple) else [stmt.target]
        if len(targets) != len(it.args) or not all(isinstance(t, ast.Name) for t in targets) or len(targets) > 2:
            self.t.fail(UNSUPPORTED, "T.Parallel binds one variable per extent (one or two)", stmt,
                        "for i, j in T.Parallel(block_M, block_N):")
        extents = tuple(self.t.static_int(a, "T.Parallel's extent", LOOP_BOUND) for a in it.args)
        if any(e % TILE for e in extents):
            self.t.fail(NOT_TILE_ALIGNED, f"T.Parallel{extents} is not a multiple of {TILE} in every dimension", it,
                        "iterate over whole tiles (the block shapes)")
        self.vars = tuple(t.id for t in targets)  # type: ignore[attr-defined]
        self.extents = extents
        out: list[ast.stmt] = []
        for s in stmt.body:
            out += self.statement(s)
        return out

    def statement(self, stmt: ast.stmt) -> list[ast.stmt]:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and stmt.targets[0].id not in self.t.buffers:
            self.scalars[stmt.targets[0].id] = stmt.value  # an index helper, y = by * block_M + i
            return []
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else \
            stmt.target if isinstance(stmt, ast.AugAssign) else None
        if not isinstance(target, ast.Subscript) or not isinstance(target.value, ast.Name):
            self.t.fail(STATEMENT, "a T.Parallel body takes element assignments (buf[i, j] = expr) and index names",
                        stmt, "C_local[i, j] = A_shared[i, j] * 2")
        value = self.element(stmt.value)  # type: ignore[attr-defined]
        name = target.value.id
        if name in self.t.buffers:
            self.whole(target, self.t.buffers[name])
            if isinstance(stmt, ast.AugAssign):
                self.t.read(name, target)
                return [_at(ast.AugAssign(target=ast.Name(id=name, ctx=ast.Store()), op=stmt.op, value=value), stmt)]
            return self.t.assign(name, value, stmt)
        if name in self.t.params and isinstance(stmt, ast.Assign):
            return [_at(ast.Assign(targets=[self.tensor_element(target, "store")], value=value), stmt)]
        self.t.fail(FRAGMENT_INDEX, f"an element assignment to '{name}' that tilecraft cannot map", target,
                    "assign buffers by the loop's variables, buf[i, j] = ..., and tensors as T[base + i, base + j] = ...")

    def whole(self, sub: ast.Subscript, buf: Buffer) -> str:
        """``buf[i, j]`` by exactly the loop variables -> "whole"; a per-row fragment ``m[i]`` -> "row"."""
        idx = sub.slice.elts if isinstance(sub.slice, ast.Tuple) else [sub.slice]
        names = [self.loop_var(i) for i in idx]
        if tuple(names) == self.vars and buf.shape == self.extents:
            return "whole"
        if len(self.vars) == 2 and names == [self.vars[0]] and buf.shape == self.extents[:1]:
            return "row"
        self.t.fail(FRAGMENT_INDEX, f"{ast.unparse(sub)}: inside T.Parallel{self.extents} a buffer is indexed by the "
                    f"loop's variables in order ({', '.join(self.vars)}), over its whole shape {buf.shape}", sub,
                    "elementwise bodies read and write whole buffers: buf[i, j]; a per-row value as row[i]")

    def loop_var(self, node: ast.expr) -> str | None:
        node = _substitute(node, self.scalars)
        return node.id if isinstance(node, ast.Name) and node.id in self.vars else None

    def tensor_element(self, sub: ast.Subscript, kind: str) -> ast.Subscript:
        """``A[base_r + i, base_c + j]`` -> a tile slice of ``A`` at (base_r, base_c) of the loop's shape."""
        idx = sub.slice.elts if isinstance(sub.slice, ast.Tuple) else [sub.slice]
        bases: list[ast.expr] = []
        for d, i in enumerate(idx):
            expr = _substitute(i, self.scalars)
            var = self.vars[d] if d < len(self.vars) else None
            base = _split_offset(expr, var)
            if len(idx) != len(self.vars) or base is None:
                self.t.fail(FRAGMENT_INDEX, f"{ast.unparse(sub)}: inside T.Parallel a tensor is indexed as base + "
                            f"{', base + '.join(self.vars)} (the loop's variables in order)", sub,
                            "A[by * block_M + i, bx * block_N + j]")
            bases.append(_at(base, i))
        return self.t.slice(sub, self.extents, kind, bases)

    def element(self, expr: ast.expr) -> ast.expr:
        """An element expression of a T.Parallel body as block math."""
        if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name):
            name = expr.value.id
            if name in self.t.buffers:
                buf = self.t.buffers[name]
                how = self.whole(expr, buf)
                value = self.t.read(name, expr)
                if how == "row":
                    tiles = tuple(e // TILE for e in self.extents)
                    return _at(ast.Call(func=_parse("ttl.block.broadcast", expr), args=[value],
                                        keywords=[ast.keyword(arg="dims", value=_parse("[-1]", expr)),
                                                  ast.keyword(arg="shape", value=ast.Constant(tiles))]), expr)
                return value
            if name in self.t.params:
                return self.tensor_element(expr, "load")
            self.t.fail(FRAGMENT_INDEX, f"{ast.unparse(expr)}: only buffers and tensors are indexed in T.Parallel",
                        expr, "read a buffer as buf[i, j]")
        if isinstance(expr, ast.Name) and expr.id in self.scalars:  # a name the body defined: its value
            return self.element(self.scalars[expr.id])
        if isinstance(expr, ast.Name) and expr.id in self.t.scalars:  # one the kernel defined
            return self.t.rewrite(expr)
        if isinstance(expr, ast.Name):
            if expr.id in self.vars:
                self.t.fail(FRAGMENT_INDEX, f"'{expr.id}' is a T.Parallel index used as a value", expr,
                            "use the loop's variables only to index buffers and tensors")
            return _at(ast.Name(id=expr.id, ctx=ast.Load()), expr)
        if isinstance(expr, ast.Constant):
            return expr
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
            return _at(ast.BinOp(left=self.element(expr.left), op=expr.op, right=self.element(expr.right)),
                       expr)
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
            return _at(ast.UnaryOp(op=expr.op, operand=self.element(expr.operand)), expr)
        if isinstance(expr, ast.Call):
            name = self.t.construct(expr)
            if name in MATH and not expr.keywords:
                return _at(ast.Call(func=_parse(f"ttl.math.{MATH[name]}", expr),
                                    args=[self.element(a) for a in expr.args], keywords=[]), expr)
            self.t.unsupported(expr, name)
        self.t.fail(UNSUPPORTED, f"{ast.unparse(expr)} is outside the elementwise subset (+ - * /, T.exp, T.max, ...)",
                    expr, "see docs/tilelang.md")


def _split_offset(expr: ast.expr, var: str | None) -> ast.expr | None:
    """``base + var`` / ``var + base`` / ``var`` -> base; None for any other shape."""
    if var is None:
        return None
    if isinstance(expr, ast.Name) and expr.id == var:
        return ast.Constant(0)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        for base, v in ((expr.left, expr.right), (expr.right, expr.left)):
            if isinstance(v, ast.Name) and v.id == var and var not in {n.id for n in ast.walk(base)
                                                                         if isinstance(n, ast.Name)}:
                return base
    return None
