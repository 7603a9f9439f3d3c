"""Source text and AST of a thread or helper function, with spans into the user's file."""

from __future__ import annotations

import ast
import copy
import inspect
import linecache
import textwrap
from dataclasses import dataclass
from types import CodeType, FunctionType

from ..diagnostics import Span, error


@dataclass(frozen=True)
class FunctionSource:
    node: ast.FunctionDef
    file: str
    line_offset: int
    col_offset: int

    def span(self, node: ast.AST) -> Span:
        line = getattr(node, "lineno", self.node.lineno) + self.line_offset
        col = getattr(node, "col_offset", 0) + 1 + self.col_offset
        end = getattr(node, "end_col_offset", None)
        end_line = getattr(node, "end_lineno", None)
        end_col = end + 1 + self.col_offset if end is not None and end_line == getattr(node, "lineno", None) else None
        return Span(self.file, line, col, end_col)


#: parsed sources by the identity of their code object (the code is kept in the entry, so its id
#: is never reused). Code objects compare *equal* across files and across functions that differ
#: only in their defaults or constants folded elsewhere, so they must not be keys by value.
_cache: dict[int, tuple[CodeType, FunctionSource]] = {}


def function_source(fn: FunctionType) -> FunctionSource:
    """Parse ``fn``'s source once per code object (threads are compiled once per program)."""
    code = fn.__code__
    cached = _cache.get(id(code))
    if cached is not None and cached[0] is code:
        return cached[1]
    file = code.co_filename
    linecache.checkcache(file)  # a script rewritten since it was last read is read again
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        raise error("E0103", f"cannot read the source of {fn.__name__}(): thread functions must be "
                    "defined in a file", Span(file, code.co_firstlineno, 1)) from None
    raw = "".join(lines)
    dedented = textwrap.dedent(raw)
    first_line = lines[0]
    indent = len(first_line) - len(first_line.lstrip())
    tree = ast.parse(dedented)
    node = next(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    if isinstance(node, ast.AsyncFunctionDef):
        raise error("E0101", "async functions are not supported in kernels", Span(file, first, indent + 1))
    src = FunctionSource(node, file, first - 1, indent)
    _cache[id(code)] = (code, src)
    return src


def register_source(code: CodeType, source: FunctionSource) -> None:
    """Give a function compiled from a generated AST its source (the single-threaded form's
    threads, ``single_thread.py``): its nodes carry the user's positions, so spans need no text."""
    _cache[id(code)] = (code, source)


def absolute(source: FunctionSource) -> FunctionSource:
    """The function's AST with file positions (so code compiled from it and spans agree without
    offsets): what generated code is built from (the single-threaded form, TileLang's prim_func)."""
    tree = copy.deepcopy(source.node)
    ast.increment_lineno(tree, source.line_offset)
    if source.col_offset:
        for n in ast.walk(tree):
            if hasattr(n, "col_offset"):
                n.col_offset += source.col_offset
                if getattr(n, "end_col_offset", None) is not None:
                    n.end_col_offset += source.col_offset
    return FunctionSource(tree, source.file, 0, 0)
