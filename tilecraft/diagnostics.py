"""One diagnostic type for every layer: compile errors, protocol errors, deadlocks, L1 overflow.

A diagnostic is data (code, message, primary span, secondary spans, hint). The CLI renders it
like a compiler (``file:line:col: error[CODE]: message`` with the source line and a caret) or
as JSON for tools; the language server will turn the same spans into LSP ranges. Kernel
mistakes are raised as :class:`KernelError`, which carries the diagnostic, so that no internal
traceback reaches the user.
"""

from __future__ import annotations

import json
import linecache
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Span:
    """A place in the user's source (1-based line, 1-based column)."""

    file: str
    line: int
    col: int = 1
    end_col: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def source_line(self) -> str:
        return linecache.getline(self.file, self.line).rstrip("\n")


@dataclass(frozen=True)
class Note:
    """A secondary span with its own message (a blocked thread, the other end of a pipe)."""

    message: str
    span: Span | None = None


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    span: Span | None = None
    notes: tuple[Note, ...] = ()
    hint: str | None = None
    severity: str = "error"

    def render(self) -> str:
        """Human form: header, source excerpt with caret, notes, hint."""
        where = f"{self.span}: " if self.span else ""
        lines = [f"{where}{self.severity}[{self.code}]: {self.message}"]
        lines += _excerpt(self.span)
        for note in self.notes:
            at = f"{note.span}: " if note.span else ""
            lines.append(f"  note: {at}{note.message}")
            lines += ["    " + line for line in _excerpt(note.span)]
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "span": _span_json(self.span),
            "notes": [{"message": n.message, "span": _span_json(n.span)} for n in self.notes],
            "hint": self.hint,
        }


def _span_json(span: Span | None) -> dict[str, Any] | None:
    if span is None:
        return None
    return {"file": span.file, "line": span.line, "col": span.col, "end_col": span.end_col}


def _excerpt(span: Span | None) -> list[str]:
    if span is None:
        return []
    text = span.source_line()
    if not text:
        return []
    width = max(1, (span.end_col or span.col + 1) - span.col)
    return [f"  {span.line:>4} | {text}", "       | " + " " * (span.col - 1) + "^" * width]


class KernelError(Exception):
    """A mistake in the user's kernel, carrying its diagnostic(s)."""

    def __init__(self, diagnostic: Diagnostic, *more: Diagnostic):
        self.diagnostics = (diagnostic, *more)
        super().__init__(diagnostic.render())

    @property
    def diagnostic(self) -> Diagnostic:
        return self.diagnostics[0]

    @property
    def code(self) -> str:
        return self.diagnostics[0].code


def error(code: str, message: str, span: Span | None = None, *, hint: str | None = None,
          notes: tuple[Note, ...] | list[Note] = ()) -> KernelError:
    """Build the exception for one error diagnostic (callers ``raise error(...)``)."""
    return KernelError(Diagnostic(code, message, span, tuple(notes), hint))


def render_json(diagnostics: list[Diagnostic] | tuple[Diagnostic, ...]) -> str:
    return json.dumps({"diagnostics": [d.to_json() for d in diagnostics]}, indent=2)
