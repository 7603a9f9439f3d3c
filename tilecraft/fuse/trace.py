"""Tracing a function of torch tensor operations into a list of block operations (``ttl.fuse``).

The tracer is ``torch.fx`` (``symbolic_trace``'s :class:`torch.fx.Tracer`): it runs the user's
function once on proxies and records every torch function, tensor method and Python operator as a
graph node in the user's own spelling (``torch.exp(x)``, ``x.exp()``, ``x @ w``), needs no example
values and no ``nn.Module``; its ``create_node`` hook records where each node was written. ``torch.export`` would decompose to ATen
operations through fake tensors — more names to map, and no gain for a function of tensor math.

Each node becomes a :class:`Op` with its element shape (rank 2: a 1-D tensor is a row, as torch
broadcasts it) or is refused with a diagnostic at the user's line (``E0830``-``E0835``).
"""

from __future__ import annotations

import operator
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, NoReturn

import torch
import torch.fx as fx

from ..diagnostics import Span, error

UNSUPPORTED = "E0830"      # an operation with no block counterpart
RANK = "E0831"             # a tensor of rank > 2, or a non-tensor result
DTYPE = "E0832"            # a cast to, or an input of, a format other than float32/bfloat16
REDUCTION = "E0833"        # a reduction fuse cannot place (no dim, keepdim=False on rows, ...)
PARTIAL_TILES = "E0834"    # a reduced or contracted extent that is not whole tiles
TORCH_REJECTS = "E0835"    # torch itself rejects the call (shapes that do not broadcast, ...)

#: torch functions, tensor methods and operators of one tensor -> ``ttl.math`` function
UNARY = {
    "exp": "exp", "log": "log", "sqrt": "sqrt", "rsqrt": "rsqrt", "relu": "relu", "gelu": "gelu", "silu": "silu",
    "sigmoid": "sigmoid", "tanh": "tanh", "abs": "abs", "neg": "neg", "negative": "neg", "reciprocal": "recip",
    "square": "square", "sin": "sin", "cos": "cos", "exp2": "exp2", "expm1": "expm1", "log2": "log2",
    "log10": "log10", "log1p": "log1p", "erf": "erf", "floor": "floor", "ceil": "ceil", "trunc": "trunc",
    "sign": "sign", "relu6": "relu6", "softsign": "softsign", "hardsigmoid": "hardsigmoid",
    "hardswish": "hardswish", "selu": "selu", "mish": "mish", "logical_not": "logical_not",
    "isnan": "isnan", "isinf": "isinf", "isfinite": "isfinite",
}
#: elementwise functions of two operands (a tensor and a tensor or a number) -> ``ttl.math`` function
BINARY = {
    "add": "add", "sub": "sub", "subtract": "sub", "mul": "mul", "multiply": "mul", "div": "div",
    "divide": "div", "true_divide": "div", "truediv": "div", "maximum": "max", "minimum": "min", "pow": "pow",
    "gt": "gt", "ge": "ge", "lt": "lt", "le": "le", "eq": "eq", "ne": "ne", "greater": "gt", "less": "lt",
    "greater_equal": "ge", "less_equal": "le", "not_equal": "ne",
}
#: operator-module names (``x + y``, ``-x``) -> the torch name above
OPERATOR = {"add": "add", "sub": "sub", "mul": "mul", "truediv": "div", "pow": "pow", "neg": "neg",
            "gt": "gt", "ge": "ge", "lt": "lt", "le": "le", "eq": "eq", "ne": "ne", "matmul": "matmul"}
REDUCE = {"sum": "sum", "mean": "mean", "amax": "max", "amin": "min", "max": "max", "min": "min"}
CASTS = {"float": torch.float32, "bfloat16": torch.bfloat16}
FORMATS = (torch.float32, torch.bfloat16)
#: how to write common composite operations from supported ones (the hint of their E0830)
COMPOSITES = {
    "softmax": "write it out: e = torch.exp(x - x.amax(dim=-1, keepdim=True)); e / e.sum(dim=-1, keepdim=True)",
    "log_softmax": "write it out: s = x - x.amax(dim=-1, keepdim=True); s - torch.log(torch.exp(s).sum(dim=-1, "
                   "keepdim=True))",
    "layer_norm": "write it out: c = x - x.mean(dim=-1, keepdim=True); c * torch.rsqrt((c * c).mean(dim=-1, "
                  "keepdim=True) + eps) * weight + bias",
}


@dataclass
class Op:
    """One traced operation: ``kind`` (``input``, ``unary``, ``binary``, ``where``, ``cast``, ``reduce``,
    ``matmul``, ``clamp``), its ``ttl.math`` function, operands (Ops or numbers), element shape."""

    kind: str
    name: str
    args: list[Any]
    shape: tuple[int, int]
    span: Span
    params: dict[str, Any] = field(default_factory=dict)
    index: int = 0


@dataclass
class Traced:
    """The function as block operations, in program order, and what its output is in torch."""

    ops: list[Op]
    output: Op
    out_shape: tuple[int, ...]
    out_dtype: torch.dtype


class _Tracer(fx.Tracer):
    """``torch.fx``'s tracer, keeping for each node the innermost frame of the user's function that
    made it (its line and columns: diagnostics point at the expression, not at the function)."""

    def __init__(self, code: Any):
        super().__init__()
        self.code = code
        self.frames: dict[str, Span] = {}

    def create_node(self, *args: Any, **kwargs: Any) -> fx.Node:
        node = super().create_node(*args, **kwargs)
        frame = sys._getframe(1)
        while frame is not None and frame.f_code is not self.code:
            frame = frame.f_back
        if frame is not None:  # the instruction being run: its line and columns
            line, end_line, col, end_col = list(frame.f_code.co_positions())[frame.f_lasti // 2]
            if line is not None:
                self.frames[node.name] = Span(self.code.co_filename, line, (col or 0) + 1,
                                              end_col + 1 if end_col is not None and end_line == line else None)
        return node


def trace(fn: Callable[..., Any], tensors: dict[str, tuple[tuple[int, ...], torch.dtype]],
          constants: dict[str, Any]) -> Traced:
    """Trace ``fn`` with ``tensors`` (name -> shape, dtype) as inputs and ``constants`` fixed."""
    code = fn.__code__
    fallback = Span(code.co_filename, code.co_firstlineno, 1)
    tracer = _Tracer(code)
    try:
        graph = tracer.trace(fn, concrete_args=constants or None)
    except Exception as exc:  # noqa: BLE001 - data-dependent control flow, unsupported Python
        raise error(UNSUPPORTED, f"torch.fx cannot trace {fn.__name__}(): {type(exc).__name__}: {exc}", fallback,
                    hint="write the function as straight-line torch tensor operations (no if/for on tensor "
                         "values)") from None
    return _Converter(graph, tensors, tracer.frames, fallback).convert()


class _Converter:
    def __init__(self, graph: fx.Graph, tensors: dict[str, tuple[tuple[int, ...], torch.dtype]],
                 frames: dict[str, Span], fallback: Span):
        self.graph = graph
        self.tensors = tensors
        self.frames = frames
        self.fallback = fallback
        self.ops: dict[fx.Node, Op] = {}
        self.meta: dict[fx.Node, Any] = {}

    def span(self, node: fx.Node) -> Span:
        return self.frames.get(node.name, self.fallback)

    def fail(self, code: str, message: str, node: fx.Node, hint: str) -> NoReturn:
        raise error(code, message, self.span(node), hint=hint)

    def convert(self) -> Traced:
        out_node = None
        constant: set[fx.Node] = set()
        for node in self.graph.nodes:
            if node.op == "output":
                out_node = node.args[0]
                continue
            if node.op == "placeholder" and node.target not in self.tensors \
                    or any(n in constant for n in node.all_input_nodes):
                constant.add(node)  # a constant argument (torch.fx inlines its value) and its guards
                continue
            self.meta[node] = self.evaluate(node)
            if node.op == "get_attr":
                self.fail(UNSUPPORTED, f"'{node.target}' is a module attribute", node, "pass tensors as arguments")
            op = self.op(node)
            if op is not None:
                op.index = len(self.ops)
                self.ops[node] = op
        if not isinstance(out_node, fx.Node) or out_node not in self.ops:
            raise error(RANK, "a fused function returns one tensor computed from its inputs", self.fallback,
                        hint="return a single tensor (call the function once per result)")
        for node, op in self.ops.items():  # a load is reported where its tensor is first read
            first_reader = next((user for user in node.users if user in self.ops), None)
            if op.kind == "input" and first_reader is not None:
                op.span = self.span(first_reader)
        result = self.meta[out_node]
        out = self.ops[out_node]
        for node, op in self.ops.items():
            if op.params.get("drops_rows") and node is not out_node:
                self.fail(REDUCTION, "a reduction over the last dim with keepdim=False, used by a later operation "
                          "(torch would broadcast the result along the columns)", node,
                          "write keepdim=True")
        return Traced(list(self.ops.values()), out, tuple(result.shape), result.dtype)

    # ---------------------------------------------------------------- torch's view of each node
    def evaluate(self, node: fx.Node) -> Any:
        """The node on zero tensors: its shape and dtype, and torch's own checks of the call (meta
        tensors would say the same but import torch's compiler stack, seconds, on first use)."""
        if node.op == "placeholder":
            shape, dtype = self.tensors[node.target]
            return torch.zeros(shape, dtype=dtype)
        args = fx.node.map_arg(node.args, lambda n: self.meta[n])
        kwargs = fx.node.map_arg(node.kwargs, lambda n: self.meta[n])
        try:
            if node.op == "call_function":
                return node.target(*args, **kwargs)
            if node.op == "call_method":
                return getattr(args[0], node.target)(*args[1:], **kwargs)
        except Exception as exc:  # noqa: BLE001 - torch's message says what is wrong
            self.fail(TORCH_REJECTS, f"torch rejects this operation: {exc}".splitlines()[0], node,
                      "the fused function must run as written on torch tensors of these shapes")
        self.fail(UNSUPPORTED, f"{node.op} '{node.target}' has no block counterpart", node,
                  "use torch functions and tensor methods on the arguments")

    # ---------------------------------------------------------------- node -> Op
    def op(self, node: fx.Node) -> Op | None:
        value = self.meta[node]
        if not isinstance(value, torch.Tensor):
            self.fail(RANK, f"'{_name(node)}' gives a {type(value).__name__}, not a tensor", node,
                      "use tensor-valued operations (amax instead of max(dim), which also gives indices)")
        if value.dim() > 2:
            self.fail(RANK, f"'{_name(node)}' gives a {value.dim()}-D tensor; fused functions work on 1-D and "
                      "2-D tensors", node, "reshape to 2-D outside the fused function")
        if value.dtype not in FORMATS and value.dtype != torch.bool:
            self.fail(DTYPE, f"'{_name(node)}' gives a {value.dtype} tensor; fused functions compute in "
                      "float32 and bfloat16", node, "cast to torch.float32 or torch.bfloat16")
        shape = rank2(tuple(value.shape))
        span = self.span(node)
        if node.op == "placeholder":
            return Op("input", str(node.target), [], shape, span)
        name = _name(node)
        args = [self.ops.get(a, a) if isinstance(a, fx.Node) else a for a in node.args]
        kwargs = {k: (self.ops.get(v, v) if isinstance(v, fx.Node) else v) for k, v in node.kwargs.items()}
        if node.op == "call_method" and name in ("to", "type", *CASTS):
            return self.cast(node, name, args, kwargs, shape, span)
        if kwargs.get("inplace"):
            self.fail(UNSUPPORTED, f"'{name}' in place: a fused function computes new tensors", node,
                      "drop inplace=True")
        kwargs.pop("inplace", None)
        if name in UNARY and len(args) == 1 and not kwargs.keys() - {"approximate"}:
            if kwargs.get("approximate", "none") != "none":
                self.fail(UNSUPPORTED, "gelu(approximate='tanh'): the block gelu is the erf form", node,
                          "use gelu(x) (approximate='none')")
            return Op("unary", UNARY[name], args, shape, span)
        if name in BINARY and len(args) == 2 and not kwargs:
            if not any(isinstance(a, Op) for a in args):
                self.fail(UNSUPPORTED, f"'{name}' of two numbers", node, "compute constants outside")
            return Op("binary", BINARY[name], args, shape, span)
        if name == "where" and len(args) == 3:
            return Op("where", "where", args, shape, span)
        if name in ("matmul", "mm") and len(args) == 2 and all(isinstance(a, Op) for a in args):
            if args[0].shape[1] % 32:
                self.fail(PARTIAL_TILES, f"the contracted extent {args[0].shape[1]} is not a whole number of "
                          "32-wide tiles", node, "pad the inner dimension to a multiple of 32")
            return Op("matmul", "matmul", args, shape, span)
        if self.swaps_axes(node, name, args, kwargs):
            return Op("transpose", "transpose", args[:1], shape, span)
        if name in ("clamp", "clip"):
            low = kwargs.get("min", args[1] if len(args) > 1 else None)
            high = kwargs.get("max", args[2] if len(args) > 2 else None)
            if isinstance(low, Op) or isinstance(high, Op):
                self.fail(UNSUPPORTED, "clamp with tensor bounds", node, "use torch.maximum/torch.minimum")
            return Op("clamp", "clamp", args[:1], shape, span, {"min": low, "max": high})
        if name in ("max", "min") and len(args) == 2 and isinstance(args[1], Op) and not kwargs:
            return Op("binary", name, args, shape, span)  # torch.max(x, y): elementwise
        if name in REDUCE:  # max(dim=) gave values and indices: refused above (not a tensor)
            return self.reduce(node, name, args, kwargs, shape, span)
        self.fail(UNSUPPORTED, f"'{name}' has no block counterpart in ttl.fuse", node,
                  COMPOSITES.get(name, "see the table of supported operations in docs/language.md (section 16)"))

    def swaps_axes(self, node: fx.Node, name: str, args: list[Any], kwargs: dict[str, Any]) -> bool:
        """``x.T``, ``x.mT``, ``x.t()``, ``x.transpose(0, 1)`` (or -2, -1) of a 2-D tensor: the block
        transpose (every tile transposed, the tiles swapped)."""
        if not args or not isinstance(args[0], Op) or self.meta[node.args[0]].dim() != 2:
            return False
        if name == "getattr":
            return args[1:] in (["T"], ["mT"])
        if name in ("t", "T"):
            return len(args) == 1 and not kwargs
        if name in ("transpose", "swapaxes", "swapdims"):
            dims = [*args[1:], *kwargs.values()]
            return len(dims) == 2 and all(isinstance(d, int) for d in dims) and {d % 2 for d in dims} == {0, 1}
        return False

    def cast(self, node: fx.Node, name: str, args: list[Any], kwargs: dict[str, Any], shape: tuple[int, int],
             span: Span) -> Op:
        target = CASTS.get(name) or kwargs.get("dtype") or next((a for a in args[1:] if isinstance(a, torch.dtype)),
                                                              None)
        if target not in FORMATS:
            self.fail(DTYPE, f"a cast to {target}: fused functions compute in float32 and bfloat16", node,
                      "cast to torch.float32 or torch.bfloat16")
        return Op("cast", "cast", args[:1], shape, span, {"dtype": target})

    def reduce(self, node: fx.Node, name: str, args: list[Any], kwargs: dict[str, Any], shape: tuple[int, int],
               span: Span) -> Op:
        x = args[0]
        dim = kwargs.get("dim", args[1] if len(args) > 1 else None)
        keepdim = kwargs.get("keepdim", args[2] if len(args) > 2 else False)
        if isinstance(dim, (tuple, list)) and len(dim) == 1:
            dim = dim[0]
        rank = self.meta[node.args[0]].dim()
        if not isinstance(dim, int) or rank != 2:
            self.fail(REDUCTION, f"{name}() over {'all dims' if dim is None else dim} of a {rank}-D tensor: fused "
                      "reductions run over the rows or the columns of a 2-D tensor", node,
                      "give dim=-1 (along each row) or dim=-2 (down each column), with keepdim=True")
        axis = dim % 2
        extent = x.shape[axis]
        if extent % 32:
            self.fail(PARTIAL_TILES, f"{name}() over an extent of {extent}, not a whole number of 32-wide tiles",
                      node, "pad the reduced dimension to a multiple of 32")
        internal = (x.shape[0], 1) if axis == 1 else (1, x.shape[1])
        return Op("reduce", REDUCE[name], [x], internal, span,
                  {"axis": axis, "extent": extent, "drops_rows": axis == 1 and not keepdim})


def _name(node: fx.Node) -> str:
    target = node.target
    if isinstance(target, str):
        return target
    if getattr(operator, getattr(target, "__name__", ""), None) is target:
        return OPERATOR.get(target.__name__, target.__name__)
    return getattr(target, "__name__", str(target))


def rank2(shape: tuple[int, ...]) -> tuple[int, int]:
    return tuple([1] * (2 - len(shape)) + list(shape))  # type: ignore[return-value]
