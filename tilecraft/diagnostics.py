"""One diagnostic type for every layer: compile errors, protocol errors, deadlocks, L1 overflow.

A diagnostic is data (code, message, primary span, secondary spans, hint). The CLI renders it
like a compiler (``file:line:col: error[CODE]: message`` with the source line and a caret) or
as JSON for tools; the language server will turn the same spans into LSP ranges. Kernel
mistakes are raised as :class:`KernelError`, which carries the diagnostic, so that no internal
traceback reaches the user.
"""

from __future__ import annotations

import difflib
import itertools
import json
import linecache
import sys
import warnings
from dataclasses import dataclass
from typing import Any, Iterable


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
    """A mistake in the user's kernel, carrying its diagnostic(s).

    The diagnostics are the exception's ``args`` (rendered by ``str``), so the error survives
    pickling: a Dask worker of ``tilecraft tune`` or a pytest-xdist worker sends it back whole."""

    def __init__(self, diagnostic: Diagnostic, *more: Diagnostic):
        self.diagnostics = (diagnostic, *more)
        super().__init__(diagnostic, *more)

    def __str__(self) -> str:
        return self.diagnostics[0].render()

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


class UsageAttributeError(UsageError, AttributeError):
    """A name the simulated ttnn does not have: a ttnn function tilecraft does not simulate, or no
    ttnn function at all (``ttnn.conv2d``, ``ttnn.nonexistent_op``)."""

    code = "E0540"


def user_frame_span(tb: Any, package_dir: str) -> Span | None:
    """The innermost frame of a traceback outside ``package_dir`` (the user's call), as a span
    with the column of the call being executed when Python records it."""
    span = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if not code.co_filename.startswith(package_dir) and not code.co_filename.startswith("<"):
            span = frame_span(code, tb.tb_lineno, tb.tb_lasti)
        tb = tb.tb_next
    return span


class DiagnosticWarning(UserWarning):
    """A warning diagnostic, raised through Python's :mod:`warnings` so that users can filter it
    as any warning; ``tilecraft run`` renders it like an error diagnostic (text or JSON)."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic)  # args hold the diagnostic: rebuilt whole when unpickled
        self.diagnostic = diagnostic

    def __str__(self) -> str:
        return self.diagnostic.render()


#: where each warning location was already reported (one report per source location, like
#: Python's "default" warning action, but keyed by the user's line rather than tilecraft's)
_warned: dict[Any, Any] = {}


def warn(code: str, message: str, span: Span | None, *, hint: str | None = None) -> None:
    """Report a warning diagnostic at ``span`` (once per location)."""
    diagnostic = Diagnostic(code, message, span, (), hint, "warning")
    file, line = (span.file, span.line) if span is not None else ("<tilecraft>", 0)
    warnings.warn_explicit(DiagnosticWarning(diagnostic), DiagnosticWarning, file, line, registry=_warned)


def calling_user_span() -> Span | None:
    """Where the user's code called into tilecraft: the innermost frame on the stack that is not
    tilecraft's own (with the column of the call when Python records it)."""
    frame = sys._getframe(1)
    while frame is not None and is_tilecraft_module(frame.f_globals.get("__name__", "")):
        frame = frame.f_back
    return None if frame is None else frame_span(frame.f_code, frame.f_lineno, frame.f_lasti)


def is_tilecraft_module(module: str) -> bool:
    """Whether a module name (a frame's ``__name__``) is tilecraft's own."""
    return module == "tilecraft" or module.startswith("tilecraft.")


def frame_span(code: Any, line: int, lasti: int) -> Span:
    """The span of the instruction at ``lasti`` in ``code``: its columns where Python records
    them (3.11+), else the whole line."""
    positions = getattr(code, "co_positions", None)
    if positions is not None:
        pos_line, end_line, col, end = next(itertools.islice(positions(), lasti // 2, None), (None,) * 4)
        if pos_line == line and col is not None:
            return Span(code.co_filename, line, col + 1, end + 1 if end_line == line and end is not None else None)
    return Span(code.co_filename, line, 1)


def error(code: str, message: str, span: Span | None = None, *, hint: str | None = None,
          notes: tuple[Note, ...] | list[Note] = ()) -> KernelError:
    """Build the exception for one error diagnostic (callers ``raise error(...)``)."""
    return KernelError(Diagnostic(code, message, span, tuple(notes), hint))


def did_you_mean(name: str, known: Iterable[str]) -> str | None:
    """The hint for a misspelt name: the (at most three) known names closest to it, best first,
    as ``did you mean 'a' or 'b'?``; None when none is close. Every "unknown name" diagnostic
    (PyKernel's API calls, ``ttl.math`` functions, ...) suggests through this one rule."""
    near = difflib.get_close_matches(name, list(known), n=3, cutoff=0.6)
    return f"did you mean {' or '.join(repr(n) for n in near)}?" if near else None


def render_json(diagnostics: list[Diagnostic] | tuple[Diagnostic, ...]) -> str:
    return json.dumps({"diagnostics": [d.to_json() for d in diagnostics]}, indent=2)


def type_name(value: Any) -> str:
    """The type of ``value`` as a user spells it in a script: ``torch.Tensor``, ``ttnn.Tensor``,
    ``int`` (a bare class name is ambiguous where torch and ttnn both have a ``Tensor``)."""
    cls = type(value)
    if cls.__module__ == "builtins":
        return cls.__qualname__
    if cls.__module__.startswith("tilecraft.ttnn"):
        return f"ttnn.{cls.__qualname__}"
    if cls.__module__.startswith("tilecraft."):
        return f"ttl.{cls.__qualname__}"
    return f"{cls.__module__.split('.')[0]}.{cls.__qualname__}"
