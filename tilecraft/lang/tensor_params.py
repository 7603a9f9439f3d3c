"""Which parameters of a kernel function its body uses as tensors, read from its source.

Why: a kernel may take numbers and other values besides tensors, so the launch cannot demand a
tensor for every argument. But a parameter the body reads as a tensor (``y.shape``, a tensor
slice ``y[r, c]``, a buffer made like ``y``) given ``None`` or an int would fail deep inside the
body (``'NoneType' object has no attribute 'shape'``) or in a thread; knowing the uses, the launch
reports the mistake at the user's call, naming the parameter, what was passed and the use.

A parameter the body rebinds, or tests (``y is None``, ``if y:``), is optional or not a tensor
throughout, and is left alone.
"""

from __future__ import annotations

import ast
import functools
import inspect
import textwrap
from dataclasses import dataclass
from typing import Any, Callable

#: tensor attributes a kernel reads in kernel scope (what the published simulator's tensors have)
TENSOR_ATTRIBUTES = frozenset({"shape", "padded_shape", "dtype", "layout"})
#: kernel-scope functions whose first argument is a tensor
BUFFER_MAKERS = frozenset({"make_dataflow_buffer_like", "make_circular_buffer_like"})


@dataclass(frozen=True)
class TensorUse:
    """The first place a kernel uses a parameter as a tensor (``text`` as written, 1-based ``line``)."""

    text: str
    line: int


def tensor_uses(fn: Callable[..., Any]) -> dict[str, TensorUse]:
    """Parameters of ``fn`` used as tensors in its body (nested threads included), each with its
    first use; empty when the source cannot be read (the launch then checks nothing)."""
    return dict(_uses(fn))


@functools.lru_cache(maxsize=256)
def _uses(fn: Callable[..., Any]) -> tuple[tuple[str, TensorUse], ...]:
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return ()
    defn = tree.body[0]
    if not isinstance(defn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return ()
    params = {a.arg for a in (*defn.args.posonlyargs, *defn.args.args, *defn.args.kwonlyargs)}
    candidates = params - _rebound(defn) - _tested(defn)
    first_line = fn.__code__.co_firstlineno
    found: dict[str, TensorUse] = {}
    for node in ast.walk(defn):
        name = _used_as_tensor(node)
        line = first_line + getattr(node, "lineno", 0) - 1
        if name in candidates and (name not in found or line < found[name].line):
            found[name] = TensorUse(ast.unparse(node) if not isinstance(node, ast.Call) else
                                    f"{ast.unparse(node.func)}({name}, ...)", line)
    return tuple(sorted(found.items(), key=lambda item: item[1].line))


def _used_as_tensor(node: ast.AST) -> str | None:
    """The parameter name ``node`` uses as a tensor, if it does."""
    if isinstance(node, ast.Attribute) and node.attr in TENSOR_ATTRIBUTES and isinstance(node.value, ast.Name):
        return node.value.id
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple) and isinstance(node.value, ast.Name):
        return node.value.id  # a tensor slice t[r, c] (a list or a tuple takes one index)
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name):
        called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        if called in BUFFER_MAKERS:
            return node.args[0].id
    return None


def _rebound(defn: ast.AST) -> set[str]:
    """Names assigned anywhere in ``defn``, or taken as parameters by a function nested in it."""
    names = {n.id for n in ast.walk(defn) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))}
    for node in ast.walk(defn):
        if node is not defn and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            names |= {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)}
    return names


def _tested(defn: ast.AST) -> set[str]:
    """Names compared (``y is None``, ``y == 0``) or used as a condition (``if y:``): optional."""
    names = set()
    for node in ast.walk(defn):
        if isinstance(node, ast.Compare):
            names |= {n.id for n in (node.left, *node.comparators) if isinstance(n, ast.Name)}
        elif isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)) and isinstance(node.test, ast.Name):
            names.add(node.test.id)
        elif isinstance(node, ast.BoolOp):
            names |= {v.id for v in node.values if isinstance(v, ast.Name)}
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) and isinstance(node.operand, ast.Name):
            names.add(node.operand.id)
    return names
