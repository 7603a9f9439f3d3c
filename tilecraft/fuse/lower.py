"""Traced block operations -> one single-threaded ``@ttl.operation`` (docs/language.md section 16).

The spatial loop is over the output's tiles in blocks (``block=``, default one tile). Every value
of the function is a block whose extent along each axis (rows, columns) is one of three *roles*:
``block0``/``block1`` (the output block's rows / columns), ``full`` (the whole extent: a reduced or
contracted dimension) or ``one`` (extent 1, broadcast by torch). Roles flow backwards from the output:
an elementwise operation gives its operands its own roles, a reduction over an axis needs that axis
of its operand whole, ``a @ b`` needs ``a``'s columns and ``b``'s rows whole, and a transpose gives
its operand its roles swapped (``k.T``'s rows follow the output's columns). A value that two
operations need with different roles along an axis (softmax's ``x`` is read whole by the row
maximum and block-wise by ``x - max``) forces that axis of the block to cover the whole extent; a
``block=`` the user fixed that splits such an axis is refused (``E0836``).

A matmul of two inputs that nothing else reads loops over the contracted extent (``k_looped``): it
accumulates, K block by K block, into a local block, so the buffers hold a K block of each operand
rather than the whole contracted extent.

The result is Python source of a single-threaded operation (loads of input slices, block math with
explicit broadcasts, one store), parsed, placed at the user's lines and compiled through the
single-threaded form (``frontend/single_thread.py``), which makes the reader, compute and writer.
"""

from __future__ import annotations

import ast
import builtins
import sys
from typing import Any, Callable

from ..diagnostics import Span, error
from ..frontend.source import FunctionSource, register_source
from .trace import Op, Traced

BLOCK_SPLITS_REDUCTION = "E0836"
AXES = ("rows", "columns")
#: a reduction of block ``x`` over ``dims`` (``scale``: 1/n for the mean)
REDUCTIONS = {
    "sum": "ttl.math.reduce_sum({x}, {dims})",
    "mean": "ttl.math.mul(ttl.math.reduce_sum({x}, {dims}), {scale})",
    "max": "ttl.math.reduce_max({x}, {dims})",
    "min": "ttl.math.neg(ttl.math.reduce_max(ttl.math.neg({x}), {dims}))",
}


def tiles(extent: int) -> int:
    return -(-extent // 32)


def output_axis(role: str) -> int | None:
    """The output axis whose block a ``block0``/``block1`` role follows (None for ``full``/``one``)."""
    return int(role[-1]) if role.startswith("block") else None


def plan_roles(traced: Traced, block: tuple[int | None, int | None],
               fixed: bool) -> tuple[dict[int, list[str]], set[int]]:
    """Each live op's roles, and the axes the block must cover whole; ``fixed``: the user gave ``block=``."""
    full = {axis for axis, b in enumerate(block) if b is None}
    while True:  # each round makes at least one more axis whole; a whole axis cannot disagree
        needs, conflicts = _needs(traced, full)
        if not conflicts:
            return needs, full
        for axis, op in conflicts.items():
            if fixed and block[axis] is not None and block[axis] != tiles(traced.output.shape[axis]):
                raise error(BLOCK_SPLITS_REDUCTION, f"block={block} splits the {AXES[axis]} of the output, but "
                            f"this operation reads a value whole along its {AXES[axis]} that another reads block by "
                            "block", op.span,
                            hint=f"leave block[{axis}] as None (the whole extent) or drop block=")
        full |= set(conflicts)


def _needs(traced: Traced, full: set[int]) -> tuple[dict[int, list[str]], dict[int, Op]]:
    needs: dict[int, list[str]] = {}
    conflicts: dict[int, Op] = {}

    def want(op: Any, roles: list[str], by: Op) -> None:
        if not isinstance(op, Op):
            return
        roles = ["one" if op.shape[i] == 1 else ("full" if output_axis(r) in full else r) for i, r in enumerate(roles)]
        old = needs.setdefault(op.index, roles)
        for axis in (0, 1):
            if old[axis] != roles[axis]:
                for role in (old[axis], roles[axis]):  # the output axes the two readers' blocks follow
                    if output_axis(role) is not None:
                        conflicts.setdefault(output_axis(role), by)  # the reader that disagrees

    want(traced.output, ["block0", "block1"], traced.output)
    for op in reversed(traced.ops):
        n = needs.get(op.index)
        if n is None:
            continue
        if op.kind == "reduce":
            want(op.args[0], ["full" if a == op.params["axis"] else n[a] for a in (0, 1)], op)
        elif op.kind == "transpose":
            want(op.args[0], [n[1], n[0]], op)
        elif op.kind == "matmul":
            want(op.args[0], [n[0], "full"], op)
            want(op.args[1], ["full", n[1]], op)
        else:
            for a in op.args:
                want(a, list(n), op)
    return needs, conflicts


class Writer:
    """The single-threaded operation's source, one statement per traced op."""

    def __init__(self, traced: Traced, params: list[str], block: tuple[int, int], needs: dict[int, list[str]],
                 full: set[int]):
        self.traced = traced
        self.needs = needs
        self.block = tuple(tiles(traced.output.shape[a]) if a in full else min(block[a], tiles(traced.output.shape[a]))
                           for a in (0, 1))
        taken = set(params)
        self.out = _fresh("out", taken)
        self.params = params
        self.index = (_fresh("r", taken), _fresh("c", taken))
        self.names: dict[int, str] = {}
        self.lines: list[tuple[str, Span]] = []
        self.taken = taken

    def tile_shape(self, op: Op) -> tuple[int, int]:
        roles = self.needs[op.index]
        return tuple(self.block[output_axis(r)] if output_axis(r) is not None else 1 if r == "one"  # type: ignore
                     else tiles(op.shape[a]) for a, r in enumerate(roles))

    def slice_of(self, roles: list[str], shape: tuple[int, int]) -> str:
        return ", ".join(self.axis_slice(a, r, shape) for a, r in enumerate(roles))

    def axis_slice(self, axis: int, role: str, shape: tuple[int, int]) -> str:
        if output_axis(role) is not None:
            i, b = self.index[output_axis(role)], self.block[output_axis(role)]
            return f"{i} * {b}:({i} + 1) * {b}"
        return f"0:{1 if role == 'one' else tiles(shape[axis])}"

    def k_looped(self) -> dict[int, int]:
        """The matmuls that loop over their contracted extent, with the tiles of each step: those
        whose operands are both inputs nothing else reads (each step loads a K block of each,
        instead of the whole contracted extent at once)."""
        readers: dict[int, int] = {}
        for op in self.traced.ops:
            if op.index in self.needs:
                for a in op.args:
                    if isinstance(a, Op):
                        readers[a.index] = readers.get(a.index, 0) + 1
        out = {}
        for op in self.traced.ops:
            if op.index not in self.needs or op.kind != "matmul":
                continue
            if all(isinstance(a, Op) and a.kind == "input" and readers[a.index] == 1 for a in op.args):
                k_tiles = tiles(op.args[0].shape[1])
                step = max(d for d in range(1, min(4, k_tiles // 2) + 1) if k_tiles % d == 0) if k_tiles > 1 else 0
                if step:
                    out[op.index] = step
        return out

    def k_loop(self, op: Op, name: str, step: int) -> list[str]:
        """``name = 0; for k: name += a[rows, k block] @ b[k block, cols]``."""
        a, b = op.args
        k = _fresh("k", self.taken)
        ks = f"{k} * {step}:({k} + 1) * {step}"
        a_slice = f"{a.name}[{self.axis_slice(0, self.needs[a.index][0], a.shape)}, {ks}]"
        b_slice = f"{b.name}[{ks}, {self.axis_slice(1, self.needs[b.index][1], b.shape)}]"
        return [f"{name} = ttl.block.fill(0, shape={self.tile_shape(op)})",
                f"for {k} in range({tiles(a.shape[1]) // step}):\n        {name} += ttl.math.matmul({a_slice}, {b_slice})"]

    def operand(self, value: Any, at: Op) -> str:
        """``value`` as an operand of ``at``: a number, or a block broadcast to ``at``'s shape."""
        if not isinstance(value, Op):
            return repr(float(value))  # the device takes fp32 scalars (True is 1.0)
        name = self.names[value.index]
        mine, theirs = self.needs[at.index], self.needs[value.index]
        dims = [a - 2 for a in (0, 1) if theirs[a] == "one" and mine[a] != "one"]
        if not dims:
            return name
        return f"ttl.block.broadcast({name}, dims={dims}, shape={self.tile_shape(at)})"

    def expression(self, op: Op) -> str:
        if op.kind == "transpose":  # its operand's roles are its own, swapped: never a broadcast
            return f"ttl.math.transpose({self.names[op.args[0].index]})"
        args = [self.operand(a, op) for a in op.args]
        if op.kind in ("unary", "binary", "where"):
            return f"ttl.math.{op.name}({', '.join(args)})"
        if op.kind == "clamp":
            low, high = op.params["min"], op.params["max"]
            if low is not None and high is not None:
                return f"ttl.math.clamp({args[0]}, min={float(low)!r}, max={float(high)!r})"
            return f"ttl.math.{'max' if low is not None else 'min'}({args[0]}, {float(low if low is not None else high)!r})"
        if op.kind == "matmul":
            return f"ttl.math.matmul({args[0]}, {args[1]})"
        return REDUCTIONS[op.name].format(x=args[0], dims=f"dims=[{op.params['axis'] - 2}]",
                                          scale=repr(1.0 / op.params["extent"]))

    def write(self) -> None:
        looped = self.k_looped()
        inlined = {a.index for op in self.traced.ops if op.index in looped for a in op.args}
        for op in self.traced.ops:
            if op.index not in self.needs or op.index in inlined:
                continue  # computed but never used (torch.fx keeps it), or loaded by a K loop
            if op.index in looped:
                name = _fresh(f"{op.name}_{op.index}", self.taken)
                self.names[op.index] = name
                self.lines += [(line, op.span) for line in self.k_loop(op, name, looped[op.index])]
                continue
            if op.kind == "cast":  # a format change happens where a value meets memory (the store)
                self.names[op.index] = self.operand(op.args[0], op)
                continue
            name = _fresh(f"{op.name}_{op.index}", self.taken)
            self.names[op.index] = name
            if op.kind == "input":
                value = f"{op.name}[{self.slice_of(self.needs[op.index], op.shape)}]"
            else:
                value = self.expression(op)
            self.lines.append((f"{name} = {value}", op.span))
        out = self.traced.output
        store = f"{self.out}[{self.slice_of(self.needs[out.index], out.shape)}] = {self.names[out.index]}"
        self.lines.append((store, out.span))

    def function(self, name: str, first: Span, last_line: int) -> Callable[..., Any]:
        """The operation as a Python function whose source (registered) sits at the user's lines,
        ``first`` (the decorator) to ``last_line``: the lines ``tilecraft show-threads`` replaces."""
        header = Span(first.file, first.line, 1)
        body = [(f"{self.index[0]}, {self.index[1]} = ttl.block_index()", header), *self.lines]
        text = f"def {name}({', '.join([*self.params, self.out])}):\n" + "".join(f"    {t}\n" for t, _ in body)
        module = ast.parse(text)
        fn_node = module.body[0]
        _place(fn_node, header)
        for stmt, (_, span) in zip(fn_node.body, body):
            _place(stmt, span)
        fn_node.end_lineno = max(last_line, *(stmt.end_lineno or 0 for stmt in fn_node.body))
        namespace = {"ttl": sys.modules["tilecraft"], "__builtins__": builtins}
        exec(compile(module, first.file, "exec"), namespace)
        fn = namespace[name]
        register_source(fn.__code__, FunctionSource(fn_node, first.file, 0, 0))
        return fn


def _place(node: ast.AST, span: Span) -> None:
    for n in ast.walk(node):
        if "lineno" in n._attributes:
            n.lineno = n.end_lineno = span.line  # type: ignore[attr-defined]
            n.col_offset = span.col - 1  # type: ignore[attr-defined]
            n.end_col_offset = (span.end_col - 1) if span.end_col else span.col  # type: ignore[attr-defined]


def _fresh(base: str, taken: set[str]) -> str:
    name, i = base, 1
    while name in taken:
        name, i = f"{base}_{i}", i + 1
    taken.add(name)
    return name
