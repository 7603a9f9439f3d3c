"""Helpers for ASTs the compiler generates from a user's function (the single-threaded form,
TileLang's prim_func): every generated node carries a user position, so the IR and every
diagnostic point at the user's lines."""

from __future__ import annotations

import ast
import copy
from typing import AbstractSet, Any


def substitute(expr: ast.expr, defs: dict[str, ast.expr], varying: AbstractSet[str] = frozenset(),
               depth: int = 0) -> ast.expr:
    """``expr`` with each name defined once (a scalar) replaced by its definition, recursively."""
    class Sub(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            if node.id in defs and node.id not in varying and depth < 32:
                return substitute(copy.deepcopy(defs[node.id]), defs, varying, depth + 1)
            return node

    return Sub().visit(copy.deepcopy(expr))


def parse_at(text: str, at: ast.AST) -> ast.expr:
    """An expression snippet, placed at ``at``."""
    return place_at(ast.parse(text, mode="eval").body, at)


def place_at(node: Any, at: ast.AST) -> Any:
    """A generated snippet, every node of it placed at ``at`` (reported at the user's line)."""
    for n in ast.walk(node):
        if "lineno" in n._attributes:
            ast.copy_location(n, at)
    return node


def place_missing(node: Any, at: ast.AST) -> Any:
    """A node built around the user's nodes: placed at ``at`` where it has no position of its own."""
    for n in ast.walk(node):
        if "lineno" in n._attributes and not hasattr(n, "lineno"):
            ast.copy_location(n, at)
    return node
