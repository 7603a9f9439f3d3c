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


class UsageError(Exception):
    """A mistake in a host-side call (a ttnn function, a kernel launch), made in the user's script.

    Raised by tilecraft's host API where it checks its arguments. It subclasses TypeError or
    ValueError too (see below), so scripts that catch those keep working; ``tilecraft run``
    reports it as a diagnostic at the user's line that made the call (:func:`user_frame_span`),
    never as an internal error.
    """

    code = "E0500"

    def __init__(self, message: str, *, hint: str | None = None):
        super().__init__(message)
        self.hint = hint

    def diagnostic(self, span: Span | None) -> Diagnostic:
        return Diagnostic(self.code, str(self), span, (), self.hint)


class UsageTypeError(UsageError, TypeError):
    """An argument of the wrong type (a torch dtype where a ttnn dtype is expected, ...)."""

    code = "E0501"


class UsageValueError(UsageError, ValueError):
    """An argument of the right type but a wrong value (a negative extent, a closed device, ...)."""

    code = "E0502"


class UsageIndexError(UsageError, IndexError):
    """An index out of range in a host-side object (``shape[1]`` of a 1-D tensor, ...)."""

    code = "E0503"


def user_frame_span(tb: Any, package_dir: str) -> Span | None:
    """The innermost frame of a traceback outside ``package_dir`` (the user's call), as a span
    with the column of the call being executed when Python records it."""
    span = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if not code.co_filename.startswith(package_dir) and not code.co_filename.startswith("<"):
            positions = getattr(code, "co_positions", None)
            line, col, end = tb.tb_lineno, None, None
            if positions is not None:
                for i, pos in enumerate(positions()):
                    if i == tb.tb_lasti // 2:
                        if pos[0] == line and pos[2] is not None:
                            col = pos[2] + 1
                            end = pos[3] + 1 if pos[1] == line and pos[3] is not None else None
                        break
            span = Span(code.co_filename, line, col or 1, end)
        tb = tb.tb_next
    return span


def error(code: str, message: str, span: Span | None = None, *, hint: str | None = None,
          notes: tuple[Note, ...] | list[Note] = ()) -> KernelError:
    """Build the exception for one error diagnostic (callers ``raise error(...)``)."""
    return KernelError(Diagnostic(code, message, span, tuple(notes), hint))


def render_json(diagnostics: list[Diagnostic] | tuple[Diagnostic, ...]) -> str:
    return json.dumps({"diagnostics": [d.to_json() for d in diagnostics]}, indent=2)
