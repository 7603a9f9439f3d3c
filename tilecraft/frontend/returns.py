"""``return`` inside branches of a helper: moved to the end of every path.

A helper written as ``if c: return a`` followed by more statements returns early on some paths.
Moving the statements after such an ``if`` into its branches that fall through makes every
``return`` the last statement of its path, so the front end can compile a return in a runtime
branch as an assignment of the helper's result (see ``StmtMixin.stmt_Return``). Statements moved
into two branches are compiled twice, like an unrolled loop body; they keep their source lines.
"""

from __future__ import annotations

import ast
import copy

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def tail_returns(body: list[ast.stmt]) -> list[ast.stmt]:
    """``body`` with the statements after each ``if`` that returns on some path moved into the
    branches of that ``if`` that do not always return."""
    out: list[ast.stmt] = []
    for i, stmt in enumerate(body):
        if isinstance(stmt, ast.If) and returns_inside(stmt):
            rest = body[i + 1:]
            moved = copy.copy(stmt)
            moved.body = tail_returns(stmt.body + ([] if always_returns(stmt.body) else rest))
            moved.orelse = tail_returns(stmt.orelse + ([] if always_returns(stmt.orelse) else rest))
            out.append(moved)
            return out
        out.append(stmt)
    return out


def returns_inside(node: ast.AST) -> bool:
    """Whether a ``return`` of this function is nested in ``node`` (nested functions excluded)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Return) or (not isinstance(child, _SCOPES) and returns_inside(child)):
            return True
    return False


def always_returns(body: list[ast.stmt]) -> bool:
    """Whether every path through ``body`` ends in a ``return``."""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, ast.Return):
        return True
    return isinstance(last, ast.If) and always_returns(last.body) and always_returns(last.orelse)
