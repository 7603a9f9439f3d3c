"""A TileLang ``@T.prim_func`` as a single-threaded TT-Lang operation (docs/tilelang.md).

TileLang's frontend parses the decorated function's AST rather than running it; so does this one.
The body is rewritten, statement by statement, into the single-threaded form of section 15, whose
compiler then designs the pipeline:

- ``with T.Kernel(gx, gy) as (bx, by)`` -> ``bx, by`` from the flat ``ttl.block_index()``; the
  output blocks are the slices the kernel stores (``over=``/``block=`` metadata), one per program
  instance of the grid, spread over the cores;
- ``T.alloc_shared`` / ``T.alloc_fragment`` -> a block name (the dataflow buffers and DST are the
  compiler's); ``T.copy`` from/to a tensor -> a load/store of a tile slice; ``T.clear``/``T.fill``
  -> ``ttl.block.fill``; ``T.gemm`` -> ``acc += a @ b``; ``T.reduce_*`` -> ``ttl.math.reduce_*``;
- ``T.Pipelined(n, num_stages=s)`` -> ``for k in range(n)`` with ``block_count=max(2, s)``;
- a ``T.Parallel`` body -> block math, each ``buf[i, j]`` read as the whole block (a per-row
  fragment ``m[i]`` broadcast across the row), each tensor index ``base + i`` a tile slice.

Every generated node carries the position of the TileLang line it came from, so diagnostics of the
later stages point there too. Constructs outside the subset are diagnostics E0840-E0847.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from typing import Any, NoReturn

from ..diagnostics import error
from ..frontend.generated_ast import (parse_at as _parse, place_at as _place, place_missing as _at,
                                      substitute as _substitute)
from ..frontend.source import FunctionSource
from .codes import (FRAGMENT_INDEX, KERNEL_SHAPE, LOOP_BOUND, NOT_TILE_ALIGNED, STATEMENT, TENSOR_PARAM, TILE,
                    UNINITIALISED, UNSUPPORTED)
from .elementwise import ParallelBody


DTYPES = {"bfloat16": "bfloat16", "float32": "float32", "float": "float32"}


@dataclass
class TensorParam:
    """A ``T.Tensor((rows, cols), dtype)`` parameter."""

    name: str
    shape: tuple[int, ...]
    dtype: str
    node: ast.AST


@dataclass
class Buffer:
    """A ``T.alloc_shared`` or ``T.alloc_fragment`` buffer: a block name. Which of them lands in a
    dataflow buffer (a load's) and which stays in DST (a computed value) the split decides, by use."""

    name: str
    shape: tuple[int, ...]  # elements
    node: ast.AST

    @property
    def tiles(self) -> tuple[int, ...]:
        """Its block shape in tiles: a 1-D fragment is one value per row (a column of tiles)."""
        if len(self.shape) == 1:
            return (self.shape[0] // TILE, 1)
        return tuple(d // TILE for d in self.shape)


@dataclass
class Translation:
    """The single-threaded operation's function AST and the metadata its decorator takes."""

    function: ast.FunctionDef
    params: list[TensorParam]
    stores: list[str]
    options: dict[str, Any]
    grid: tuple[int, int]


class Translator:
    def __init__(self, source: FunctionSource, namespace: dict[str, Any], module: Any,
                 annotations: dict[str, Any]):
        self.source = source
        self.annotations = annotations
        self.ns = namespace
        self.module = module
        self.buffers: dict[str, Buffer] = {}
        self.has_value: set[str] = set()
        self.index_vars: list[str] = []  # kernel and loop variables (sampled for alignment)
        self.scalars: dict[str, ast.expr] = {}
        self.stores: list[tuple[str, tuple[int, ...], ast.AST]] = []
        self.block_count = 2
        self.params: dict[str, TensorParam] = {}

    # ------------------------------------------------------------------ helpers
    def fail(self, code: str, message: str, node: ast.AST, hint: str) -> NoReturn:
        raise error(code, message, self.source.span(node), hint=hint)

    def construct(self, node: ast.AST) -> str | None:
        """``T.name`` (whatever the script calls the module) -> "name"; else None."""
        if isinstance(node, ast.Call):
            node = node.func
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and self.ns.get(node.value.id) is self.module:
            return node.attr
        return None

    def evaluate(self, expr: ast.expr, what: str, code: str, sample: int = 0) -> Any:
        """A static value: the expression with kernel/loop variables set to a sample."""
        ns = dict(self.ns)
        for i, name in enumerate(self.index_vars):
            ns[name] = 0 if sample == 0 else sample * (2 * i + 3) + 1
        tree = _substitute(expr, self.scalars)
        for n in ast.walk(tree):
            if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) \
                    and (n.value.id in self.buffers or n.value.id in self.params):
                self.fail(code, f"{what} ({ast.unparse(expr)}) reads data: it must be known before the kernel runs",
                          expr, "compute it from shapes, constants and loop variables")
        try:
            return eval(compile(ast.fix_missing_locations(ast.Expression(tree)), self.source.file, "eval"), ns)
        except Exception as exc:  # noqa: BLE001 - any failure: not a static value
            self.fail(code, f"cannot work out {what} ({ast.unparse(expr)}) before the kernel runs "
                      f"({type(exc).__name__}: {exc})", expr, "use shapes, constants and loop variables")

    def static_int(self, expr: ast.expr, what: str, code: str) -> int:
        value = self.evaluate(expr, what, code)
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(code, f"{what} ({ast.unparse(expr)}) is {value!r}, not an int", expr, "use an int")
        return value

    def aligned(self, expr: ast.expr, what: str) -> None:
        """``expr`` is a multiple of 32 for every value of the kernel and loop variables."""
        for sample in range(4):
            value = self.evaluate(expr, what, NOT_TILE_ALIGNED, sample)
            if not isinstance(value, int) or value % TILE:
                self.fail(NOT_TILE_ALIGNED, f"{what} ({ast.unparse(expr)}) is not a multiple of {TILE} for every "
                          f"block (it can be {value!r}): copies move whole {TILE}x{TILE} tiles", expr,
                          f"make block sizes and offsets multiples of {TILE}")

    def buffer(self, node: ast.expr, what: str) -> Buffer:
        if isinstance(node, ast.Name) and node.id in self.buffers:
            return self.buffers[node.id]
        self.fail(UNSUPPORTED, f"{what} must be a buffer from T.alloc_shared or T.alloc_fragment, not "
                  f"{ast.unparse(node)}", node, "copy the data into a buffer first: T.copy(A[...], A_shared)")

    def read(self, name: str, node: ast.AST) -> ast.expr:
        if name not in self.has_value:
            self.fail(UNINITIALISED, f"'{name}' is read before it has a value", node,
                      f"give it one first: T.clear({name}), T.fill({name}, v) or T.copy(..., {name})")
        return _at(ast.Name(id=name, ctx=ast.Load()), node)

    def tiles(self, expr: ast.expr) -> ast.expr:
        """An element offset (already checked to divide by 32) as a tile offset. An offset linear in
        the kernel and loop variables becomes ``c0 + c1 * v1 + ...`` in tiles, which lets the front
        end prove a slice's extent (the emitter needs it); any other is ``(expr) // 32``."""
        tree = _substitute(expr, self.scalars)
        at = {v: 0 for v in self.index_vars}
        c0 = self.value_at(tree, at)
        coefficients = {v: self.value_at(tree, {**at, v: 1}) - c0 for v in self.index_vars}
        probe = {v: 2 * i + 3 for i, v in enumerate(self.index_vars)}
        linear = self.value_at(tree, probe) == c0 + sum(c * probe[v] for v, c in coefficients.items())
        if not linear or any(c % TILE for c in coefficients.values()):
            return _at(ast.BinOp(left=self.rewrite(expr), op=ast.FloorDiv(), right=ast.Constant(TILE)), expr)
        text = " + ".join([str(c0 // TILE)] + [f"{c // TILE} * {v}" for v, c in coefficients.items() if c])
        return _parse(text, expr)

    def value_at(self, tree: ast.expr, values: dict[str, int]) -> Any:
        code = compile(ast.fix_missing_locations(ast.Expression(tree)), self.source.file, "eval")
        return eval(code, {**self.ns, **values})

    def rewrite(self, expr: ast.expr) -> ast.expr:
        """A scalar expression with ``T.ceildiv(a, b)`` spelled in Python and scalars substituted."""
        translator = self

        class Rewrite(ast.NodeTransformer):
            def visit_Call(self, node: ast.Call) -> ast.AST:
                self.generic_visit(node)
                if translator.construct(node) == "infinity":  # T.infinity(dtype): the float's infinity
                    return _at(ast.Constant(math.inf), node)
                if translator.construct(node) == "ceildiv" and len(node.args) == 2:
                    a, b = node.args
                    neg = ast.UnaryOp(op=ast.USub(), operand=a)
                    return _at(ast.UnaryOp(op=ast.USub(), operand=ast.BinOp(left=neg, op=ast.FloorDiv(), right=b)),
                               node)
                return node

        return Rewrite().visit(_substitute(expr, self.scalars))

    # ------------------------------------------------------------------ the function
    def translate(self, fn: ast.FunctionDef) -> Translation:
        for arg in fn.args.args:
            self.params[arg.arg] = self.tensor_param(arg)
        body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        if len(body) != 1 or not isinstance(body[0], ast.With) or len(body[0].items) != 1 \
                or self.construct(body[0].items[0].context_expr) != "Kernel":
            self.fail(KERNEL_SHAPE, f"the body of {fn.name}() must be one `with T.Kernel(...) as (bx, by):` block",
                      body[0] if body else fn, "put the whole program inside with T.Kernel(gx, gy, threads=128) as "
                                               "(bx, by):")
        head, grid = self.kernel(body[0])
        stmts = head + self.block(body[0].body)
        over, block = self.output_blocks(grid, body[0])
        args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=a.arg) for a in fn.args.args], vararg=None,
                             kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
        out = ast.copy_location(ast.FunctionDef(name=fn.name, args=args, body=stmts, decorator_list=[], returns=None,
                                                type_comment=None), fn)
        for a, orig in zip(out.args.args, fn.args.args):
            ast.copy_location(a, orig)
        cores = (min(grid[0], 8), min(grid[1], 8))
        options = {"over": over, "block": block, "block_count": self.block_count}
        return Translation(out, list(self.params.values()), list(dict.fromkeys(s[0] for s in self.stores)),
                           options, cores)

    def tensor_param(self, arg: ast.arg) -> TensorParam:
        ann = arg.annotation
        if not (isinstance(ann, ast.Call) and self.construct(ann) == "Tensor" and ann.args):
            self.fail(TENSOR_PARAM, f"parameter '{arg.arg}' has no T.Tensor((rows, cols), dtype) annotation", arg,
                      f"{arg.arg}: T.Tensor((M, N), \"bfloat16\")")
        dtype_node = ann.args[1] if len(ann.args) > 1 else next((k.value for k in ann.keywords if k.arg == "dtype"), None)
        value = self.annotations.get(arg.arg)  # evaluated where Python defined the function
        if value is not None:
            shape, dtype = value.shape, value.dtype
        else:
            shape = self.evaluate(ann.args[0], "the tensor's shape", TENSOR_PARAM)
            dtype = self.evaluate(dtype_node, "the tensor's dtype", TENSOR_PARAM) if dtype_node is not None \
                else "float32"
        if not (isinstance(shape, (tuple, list)) and len(shape) == 2 and all(isinstance(d, int) for d in shape)):
            self.fail(TENSOR_PARAM, f"T.Tensor shape {shape!r}: tilecraft takes 2-D tensors of static shape",
                      ann, "T.Tensor((M, N), dtype) with int M and N")
        if any(d % TILE for d in shape):
            self.fail(NOT_TILE_ALIGNED, f"T.Tensor shape {tuple(shape)} is not a multiple of {TILE} in every "
                      "dimension", ann, "pad the tensor to whole tiles")
        if dtype not in DTYPES:
            self.fail(TENSOR_PARAM, f"dtype {dtype!r} is not one tilecraft's TileLang takes "
                      f"({', '.join(map(repr, DTYPES))})", dtype_node or ann,
                      "use \"bfloat16\" (Tensix's 16-bit float; it has no IEEE float16 tiles) or \"float32\"")
        return TensorParam(arg.arg, tuple(shape), DTYPES[dtype], arg)

    def kernel(self, stmt: ast.With) -> tuple[list[ast.stmt], tuple[int, int]]:
        item = stmt.items[0]
        call = item.context_expr
        assert isinstance(call, ast.Call)
        if not 1 <= len(call.args) <= 2:
            self.fail(KERNEL_SHAPE, f"T.Kernel with {len(call.args)} grid dimensions: tilecraft maps 1 or 2",
                      call, "T.Kernel(gx, gy, threads=128) as (bx, by)")
        dims = [self.static_int(a, "the kernel grid", KERNEL_SHAPE) for a in call.args]
        target = item.optional_vars
        names = target.elts if isinstance(target, ast.Tuple) else [target] if target is not None else []
        if len(names) != len(dims) or not all(isinstance(n, ast.Name) for n in names):
            self.fail(KERNEL_SHAPE, f"T.Kernel has {len(dims)} grid dimensions; bind as many names", call,
                      "with T.Kernel(gx, gy) as (bx, by):")
        grid = (dims[0], dims[1] if len(dims) > 1 else 1)
        flat = "_tl_block"
        head = [f"{flat} = ttl.block_index()", f"{names[0].id} = {flat} % {grid[0]}"]  # type: ignore[attr-defined]
        if len(names) > 1:
            head.append(f"{names[1].id} = {flat} // {grid[0]}")  # type: ignore[attr-defined]
        self.index_vars += [n.id for n in names]  # type: ignore[attr-defined]
        return [_place(ast.parse(h).body[0], stmt) for h in head], grid

    def output_blocks(self, grid: tuple[int, int], at: ast.AST) -> tuple[str, tuple[int, ...]]:
        if not self.stores:
            self.fail(KERNEL_SHAPE, "the kernel stores nothing", at, "T.copy(C_local, C[by * block_M, bx * block_N])")
        over, block, node = self.stores[0]
        tiles = tuple(d // TILE for d in self.params[over].shape)
        counts = tuple(t // b for t, b in zip(tiles, block))
        if any(t % b for t, b in zip(tiles, block)) or math.prod(counts) != grid[0] * grid[1]:
            self.fail(KERNEL_SHAPE, f"the T.Kernel grid has {grid[0]}x{grid[1]} blocks but the {block[0] * TILE}x"
                      f"{block[1] * TILE} slices of '{over}' it stores make {counts[0]}x{counts[1]} of them: each block "
                      "of the grid must store one output block", node,
                      "size the grid as T.ceildiv(N, block_N), T.ceildiv(M, block_M) over the stored tensor")
        return over, block

    # ------------------------------------------------------------------ statements
    def block(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in stmts:
            out += self.statement(stmt)
        return out

    def statement(self, stmt: ast.stmt) -> list[ast.stmt]:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            return []
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name = self.construct(stmt.value)
            if name in ("alloc_shared", "alloc_fragment"):
                return self.alloc(stmt.targets[0].id, name, stmt.value)  # type: ignore[arg-type]
            if name is not None:
                self.unsupported(stmt.value, name)
            self.scalar_expr(stmt.value)
            self.scalars[stmt.targets[0].id] = stmt.value
            return []
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            name = self.construct(stmt.value)
            handler = getattr(self, f"call_{name}", None) if name else None
            if handler is None:
                self.unsupported(stmt.value, name)
            return handler(stmt.value)
        if isinstance(stmt, ast.For) and not stmt.orelse:
            return self.loop(stmt)
        self.fail(STATEMENT, f"a prim_func body does not take this statement ({type(stmt).__name__.lower()})", stmt,
                  "write the kernel with T.copy, T.gemm, T.Parallel, T.Pipelined and T.serial loops; a "
                  "data-dependent choice is an elementwise T.max/T.min")

    def unsupported(self, node: ast.AST, name: str | None) -> NoReturn:
        what = f"T.{name}" if name else ast.unparse(node.func if isinstance(node, ast.Call) else node)
        hints = {"atomic_add": "give each block of the grid its own output slice and accumulate in a fragment",
                 "alloc_local": "use T.alloc_fragment", "use_swizzle": "drop it: the compiler schedules the grid",
                 "annotate_layout": "drop it: the compiler lays buffers out"}
        self.fail(UNSUPPORTED, f"{what} is outside the TileLang subset tilecraft maps", node,
                  hints.get(name or "", "see docs/tilelang.md for the constructs tilecraft takes"))

    def scalar_expr(self, expr: ast.expr) -> None:
        for n in ast.walk(expr):
            if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) \
                    and (n.value.id in self.buffers or n.value.id in self.params):
                self.fail(FRAGMENT_INDEX, f"indexing '{n.value.id}' outside a T.Parallel body", n,
                          "read buffers whole in T.Parallel bodies (buf[i, j] with the loop's variables)")
            if isinstance(n, ast.Call) and self.construct(n) not in ("ceildiv", "infinity", None):
                self.unsupported(n, self.construct(n))

    def alloc(self, name: str, kind: str, call: ast.Call) -> list[ast.stmt]:
        shape = self.evaluate(call.args[0], "the buffer's shape", NOT_TILE_ALIGNED) if call.args else None
        if isinstance(shape, int):
            shape = (shape,)
        if not (isinstance(shape, (tuple, list)) and len(shape) in (1, 2) and all(isinstance(d, int) for d in shape)) \
                or (len(shape) == 1 and kind == "alloc_shared"):
            self.fail(NOT_TILE_ALIGNED, f"T.{kind}({ast.unparse(call.args[0]) if call.args else ''}): tilecraft "
                      "maps 2-D buffers (and 1-D fragments, one value per row)", call, f"T.{kind}((rows, cols), dtype)")
        if any(d % TILE for d in shape):
            self.fail(NOT_TILE_ALIGNED, f"T.{kind}({tuple(shape)}) is not a multiple of {TILE} in every dimension: "
                      "buffers hold whole tiles", call, f"use multiples of {TILE}")
        self.buffers[name] = Buffer(name, tuple(shape), call)
        return []

    def assign(self, name: str, value: ast.expr, at: ast.AST) -> list[ast.stmt]:
        self.has_value.add(name)
        return [_at(ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=value), at)]

    def call_clear(self, call: ast.Call) -> list[ast.stmt]:
        buf = self.buffer(call.args[0], "T.clear's argument")
        return self.assign(buf.name, _parse(f"ttl.block.fill(0, shape={buf.tiles!r})", call), call)

    def call_fill(self, call: ast.Call) -> list[ast.stmt]:
        buf = self.buffer(call.args[0], "T.fill's first argument")
        self.scalar_expr(call.args[1])
        fill = _parse(f"ttl.block.fill(0, shape={buf.tiles!r})", call)
        fill.args[0] = self.rewrite(call.args[1])  # type: ignore[attr-defined]
        return self.assign(buf.name, fill, call)

    def call_copy(self, call: ast.Call) -> list[ast.stmt]:
        if len(call.args) != 2:
            self.fail(UNSUPPORTED, "T.copy takes a source and a destination", call, "T.copy(A[by * bM, k * bK], A_s)")
        src, dst = call.args
        if isinstance(src, ast.Subscript) and self.is_param(src.value):
            buf = self.buffer(dst, "T.copy's destination (from a tensor)")
            return self.assign(buf.name, self.slice(src, buf.shape, "load"), call)
        if isinstance(dst, ast.Subscript) and self.is_param(dst.value):
            buf = self.buffer(src, "T.copy's source (to a tensor)")
            store = self.slice(dst, buf.shape, "store")
            return [_at(ast.Assign(targets=[store], value=self.read(buf.name, src)), call)]
        a, b = self.buffer(src, "T.copy's source"), self.buffer(dst, "T.copy's destination")
        if a.shape != b.shape:
            self.fail(NOT_TILE_ALIGNED, f"T.copy between buffers of shapes {a.shape} and {b.shape}", call,
                      "copy between buffers of one shape")
        return self.assign(b.name, self.read(a.name, src), call)

    def is_param(self, node: ast.expr) -> bool:
        return isinstance(node, ast.Name) and node.id in self.params

    def slice(self, sub: ast.Subscript, shape: tuple[int, ...], kind: str,
              bases: list[ast.expr] | None = None) -> ast.Subscript:
        """``A[r0, c0]`` (extents from the buffer) or ``A[r0:r1, c0:c1]`` as a tile slice."""
        tensor = sub.value.id  # type: ignore[attr-defined]
        dims = bases if bases is not None else (sub.slice.elts if isinstance(sub.slice, ast.Tuple) else [sub.slice])
        if len(dims) != 2 or len(shape) != 2:
            self.fail(NOT_TILE_ALIGNED, f"a copy between '{tensor}' (2-D) and a {len(shape)}-D buffer, indexed by "
                      f"{len(dims)} coordinates", sub, "index the tensor with two coordinates: A[row, col]")
        out = []
        for dim, extent in zip(dims, shape):
            start = dim
            if isinstance(dim, ast.Slice):
                if dim.step is not None:
                    self.fail(NOT_TILE_ALIGNED, "a tensor slice with a step", dim, "slice contiguous rows and columns")
                start = dim.lower or ast.Constant(0)
                upper = dim.upper or ast.Constant(self.params[tensor].shape[len(out)])
                span = self.evaluate(ast.BinOp(left=upper, op=ast.Sub(), right=start), "the slice's extent",
                                     NOT_TILE_ALIGNED)
                if span != extent:
                    self.fail(NOT_TILE_ALIGNED, f"this slice of '{tensor}' spans {span} elements where the buffer "
                              f"has {extent}", dim, "slice exactly the buffer's shape, or give only its start")
            self.aligned(start, f"the {kind} offset into '{tensor}'")
            lo = self.tiles(start)
            hi = _at(ast.BinOp(left=lo, op=ast.Add(), right=ast.Constant(extent // TILE)), start)
            out.append(_at(ast.Slice(lower=lo, upper=hi), start))
        if kind == "store":
            self.stores.append((tensor, tuple(e // TILE for e in shape), sub))
        return _at(ast.Subscript(value=ast.Name(id=tensor, ctx=ast.Load()), slice=ast.Tuple(elts=out, ctx=ast.Load()),
                                 ctx=ast.Store() if kind == "store" else ast.Load()), sub)

    def call_gemm(self, call: ast.Call) -> list[ast.stmt]:
        if len(call.args) != 3:
            self.fail(UNSUPPORTED, "T.gemm takes A, B and the accumulator C", call, "T.gemm(A_shared, B_shared, C_local)")
        a, b, c = (self.buffer(x, f"T.gemm's {w}") for x, w in zip(call.args, ("A", "B", "C")))
        flags = {k.arg: self.evaluate(k.value, f"T.gemm's {k.arg}", UNSUPPORTED) for k in call.keywords}
        unknown = set(flags) - {"transpose_A", "transpose_B", "clear_accum", "policy", "k_pack", "wg_wait"}
        if unknown:
            self.fail(UNSUPPORTED, f"T.gemm's {', '.join(sorted(unknown))} is outside the subset", call,
                      "T.gemm(A, B, C, transpose_A=..., transpose_B=..., clear_accum=...)")
        left, right = self.read(a.name, call.args[0]), self.read(b.name, call.args[1])
        if flags.get("transpose_A"):
            left = _at(ast.Call(func=_parse("ttl.math.transpose", call), args=[left], keywords=[]), call)
        if flags.get("transpose_B"):
            right = _at(ast.Call(func=_parse("ttl.math.transpose", call), args=[right], keywords=[]), call)
        product = _at(ast.BinOp(left=left, op=ast.MatMult(), right=right), call)
        if flags.get("clear_accum"):
            return self.assign(c.name, product, call)
        self.read(c.name, call.args[2])
        return [_at(ast.AugAssign(target=ast.Name(id=c.name, ctx=ast.Store()), op=ast.Add(), value=product), call)]

    def call_reduce_max(self, call: ast.Call) -> list[ast.stmt]:
        return self.reduce(call, "max")

    def call_reduce_sum(self, call: ast.Call) -> list[ast.stmt]:
        return self.reduce(call, "sum")

    def reduce(self, call: ast.Call, kind: str) -> list[ast.stmt]:
        src = self.buffer(call.args[0], f"T.reduce_{kind}'s source")
        dst = self.buffer(call.args[1] if len(call.args) > 1 else call, f"T.reduce_{kind}'s destination")
        keys = {k.arg: k.value for k in call.keywords}
        dim = self.evaluate(call.args[2] if len(call.args) > 2 else keys.get("dim", ast.Constant(-1)),
                            "the reduced dimension", UNSUPPORTED)
        clear = self.evaluate(keys.get("clear", ast.Constant(True)), "clear=", UNSUPPORTED)
        if len(src.shape) != 2 or dim not in (1, -1) or dst.shape != src.shape[:1]:
            self.fail(UNSUPPORTED, f"T.reduce_{kind} of a {src.shape} buffer along dim={dim} into a {dst.shape} one: "
                      "tilecraft maps the reduction of each row (dim=1) into a 1-D fragment of one value per row",
                      call, f"T.reduce_{kind}(S, row_{kind}, dim=1) with row_{kind} = T.alloc_fragment((rows,), dtype)")
        reduced = _parse(f"ttl.math.reduce_{kind}({src.name}, dims=[-1])", call)
        self.read(src.name, call.args[0])
        if not clear:
            previous = self.read(dst.name, call.args[1])
            reduced = (_at(ast.Call(func=_parse("ttl.math.max", call), args=[previous, reduced], keywords=[]), call)
                       if kind == "max" else _at(ast.BinOp(left=previous, op=ast.Add(), right=reduced), call))
        return self.assign(dst.name, reduced, call)

    # ------------------------------------------------------------------ loops
    def loop(self, stmt: ast.For) -> list[ast.stmt]:
        it = stmt.iter
        name = self.construct(it)
        if name == "Parallel":
            return ParallelBody(self, stmt).translate()
        plain = isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
        if name not in ("Pipelined", "serial") and not plain:
            self.fail(LOOP_BOUND if name is None else UNSUPPORTED,
                      f"a loop over {ast.unparse(it)}: tilecraft maps T.Pipelined, T.serial, range and T.Parallel",
                      it, "for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):")
        assert isinstance(it, ast.Call)
        if not isinstance(stmt.target, ast.Name) or not 1 <= len(it.args) <= 3:
            self.fail(UNSUPPORTED, "a loop takes one variable and range-like bounds", stmt, "for k in T.serial(n):")
        for arg in it.args:
            for sample in range(3):  # a bound known before the kernel runs, for every block
                value = self.evaluate(arg, "the loop's bound", LOOP_BOUND, sample)
                if not isinstance(value, int):
                    self.fail(LOOP_BOUND, f"the loop's bound {ast.unparse(arg)} is {value!r}, not an int", arg,
                              "bound loops by ints computed from shapes and constants")
        if name == "Pipelined":
            stages = next((k.value for k in it.keywords if k.arg == "num_stages"), None)
            if stages is not None:
                self.block_count = max(self.block_count, self.static_int(stages, "num_stages", LOOP_BOUND))
        self.index_vars.append(stmt.target.id)
        call = _at(ast.Call(func=ast.Name(id="range", ctx=ast.Load()), args=[self.rewrite(a) for a in it.args],
                            keywords=[]), it)
        return [ast.copy_location(ast.For(target=stmt.target, iter=call, body=self.block(stmt.body), orelse=[],
                                          type_comment=None), stmt)]
