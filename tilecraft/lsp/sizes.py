"""``# tilecraft: sizes NAME=INT ...``: smaller problem sizes for the editor's runs of a script.

The language server compiles and sanitizes a kernel by running its script's host code, at the
sizes the script uses. When those are too big to simulate while editing, one comment declares
smaller ones::

    M = 4096
    N = 2048
    # tilecraft: sizes M=256 N=128

What it means, precisely:

- every ``NAME`` must be a module-level constant bound by exactly one module-level statement,
  ``NAME = <integer literal>`` or ``NAME: int = <integer literal>`` (anything else is ``E0603``
  at the directive, so a misspelled name never silently runs the full size);
- the language server's compile check and sanitizer run the script with that literal replaced
  by the given value. Everything computed from the constant follows (shapes, grids, loop
  counts); the file on disk, ``tilecraft run`` and the profile (which times the real sizes
  without computing values) are unaffected;
- the override is an edit of the parsed module, so line and column numbers (and with them
  every diagnostic's position) are those of the file as written.

A file holds at most one such comment; items are ``NAME=INT`` separated by spaces or commas.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from ..diagnostics import Diagnostic, Span

#: the directive, on a line of its own: ``# tilecraft: sizes M=256, N=128``
DIRECTIVE = re.compile(r"^\s*#\s*tilecraft:\s*sizes\b(?P<items>.*)$")
_ITEM = re.compile(r"(?P<name>[^\s,=]+)\s*=\s*(?P<value>[^\s,]+)|(?P<bad>[^\s,]+)")
CODE = "E0603"


@dataclass(frozen=True)
class SizeOverride:
    name: str
    value: int
    #: where the item stands in the directive (for errors about it)
    span: Span


class SizesError(Exception):
    """A directive that cannot be applied; carries the diagnostic at the offending item."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _fail(message: str, span: Span, hint: str | None = None) -> SizesError:
    return SizesError(Diagnostic(CODE, message, span, (), hint))


def parse_directive(text: str, path: str) -> list[SizeOverride]:
    """The overrides the file's directive declares (none without a directive)."""
    found: list[SizeOverride] = []
    seen_line = 0
    for number, line in enumerate(text.splitlines(), 1):
        match = DIRECTIVE.match(line)
        if match is None:
            continue
        if seen_line:
            raise _fail(f"a second '# tilecraft: sizes' comment (the first is on line {seen_line})",
                        Span(path, number, 1, len(line.encode()) + 1), hint="merge them into one")
        seen_line = number
        start = match.start("items")
        for item in _ITEM.finditer(match.group("items")):
            col = len(line[:start + item.start()].encode()) + 1
            span = Span(path, number, col, col + len(item.group(0).encode()))
            if item.group("bad") is not None or not item.group("name").isidentifier():
                raise _fail(f"'{item.group(0)}' is not NAME=INTEGER", span,
                            hint="write e.g. '# tilecraft: sizes M=256 N=128'")
            try:
                value = int(item.group("value"))
            except ValueError:
                raise _fail(f"size {item.group('name')} must be an integer, not {item.group('value')!r}",
                            span) from None
            found.append(SizeOverride(item.group("name"), value, span))
        if not found:
            raise _fail("'# tilecraft: sizes' names no constant", Span(path, number, 1, len(line.encode()) + 1),
                        hint="write e.g. '# tilecraft: sizes M=256 N=128'")
    return found


def _binds(stmt: ast.stmt, name: str) -> bool:
    """Whether a module-level statement (re)binds ``name``."""
    targets: list[ast.expr] = []
    if isinstance(stmt, ast.Assign):
        targets = list(stmt.targets)
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
        targets = [stmt.target]
    elif isinstance(stmt, (ast.For, ast.AsyncFor)):
        targets = [stmt.target]
    elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return stmt.name == name
    elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return any((alias.asname or alias.name.split(".")[0]) == name for alias in stmt.names)
    return any(isinstance(node, ast.Name) and node.id == name for t in targets for node in ast.walk(t))


def _literal_int(value: ast.expr | None) -> bool:
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub):
        value = value.operand
    return isinstance(value, ast.Constant) and type(value.value) is int


def apply_sizes(tree: ast.Module, overrides: list[SizeOverride]) -> None:
    """Replace each overridden constant's literal in ``tree`` (in place, positions kept)."""
    for override in overrides:
        binding = [stmt for stmt in tree.body if _binds(stmt, override.name)]
        if not binding:
            raise _fail(f"sizes: '{override.name}' is not assigned at module level in this file", override.span,
                        hint="name a module-level constant such as 'M = 4096'")
        if len(binding) > 1:
            lines = ", ".join(str(stmt.lineno) for stmt in binding)
            raise _fail(f"sizes: '{override.name}' is bound {len(binding)} times at module level (lines {lines})",
                        override.span, hint="an overridden size must be assigned exactly once")
        stmt = binding[0]
        plain = (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)) \
            or (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name))
        value = getattr(stmt, "value", None)
        if not plain or not _literal_int(value):
            raise _fail(f"sizes: '{override.name}' (line {stmt.lineno}) is not assigned an integer literal",
                        override.span, hint=f"write '{override.name} = <integer>' on a line of its own")
        stmt.value = ast.copy_location(ast.Constant(override.value), value)  # type: ignore[union-attr,arg-type]
