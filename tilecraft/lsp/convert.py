"""tilecraft diagnostics (their JSON form, as a run reports them) -> LSP diagnostics.

A span is 1-based (line, col, end_col) with columns counted in UTF-8 bytes, as Python's AST
counts them; an LSP range is 0-based, in the position encoding agreed with the client (UTF-16
unless the client offers another). The hint goes into the message; a note with a span becomes
related information (every blocked thread of a deadlock, the other end of a pipe), a note
without one a line of the message. A diagnostic whose place is not in this file (a kernel
imported from another module, a program-wide error) is shown at the line of this file that
launched the program, with its own place in the message.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from lsprotocol import types as lsp
from pygls.uris import from_fs_path, to_fs_path

from ..diagnostics import Span

SOURCE = "tilecraft"
SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}

#: (lines of a file, 0-based line, 0-based column in characters) -> column in the client's units
ToClient = Callable[[list[str], int, int], int]


def path_of(uri: str) -> str:
    return to_fs_path(uri) or uri


def uri_of(path: str) -> str:
    return from_fs_path(path) or path


def span_of(data: dict[str, Any] | None) -> Span | None:
    return None if data is None else Span(data["file"], data["line"], data["col"], data.get("end_col"))


class RangeMaker:
    """Spans of one file -> LSP ranges (the file's text is needed to convert columns)."""

    def __init__(self, path: str, lines: list[str], to_client: ToClient, other_lines: Callable[[str], list[str]]):
        self.path = path
        self.lines = lines
        self.to_client = to_client
        self.other_lines = other_lines

    def range(self, span: Span) -> lsp.Range:
        lines = self.lines if span.file == self.path else self.other_lines(span.file)
        row = min(max(span.line - 1, 0), max(len(lines) - 1, 0))
        text = lines[row].rstrip("\r\n") if lines else ""
        start = _char_col(text, span.col)
        end = _char_col(text, span.end_col) if span.end_col else len(text)
        if end <= start:  # no end given, or a span at the end of its line: cover one character
            end = start + 1 if start < len(text) else start
        return lsp.Range(lsp.Position(row, self.to_client(lines, row, start)),
                         lsp.Position(row, self.to_client(lines, row, end)))


def _char_col(text: str, byte_col: int) -> int:
    """0-based character column of a 1-based UTF-8 byte column of ``text``."""
    return len(text.encode()[:max(byte_col - 1, 0)].decode(errors="ignore"))


def to_lsp(data: dict[str, Any], ranges: RangeMaker, anchor: Span | None) -> lsp.Diagnostic:
    """One diagnostic; ``anchor`` is where to show it when its own span is not in this file."""
    span = span_of(data.get("span"))
    message = data["message"]
    if span is None or span.file != ranges.path:
        if span is not None:
            message += f" (at {span})"
        span = anchor or Span(ranges.path, 1, 1)
    related, extra = [], []
    for note in data.get("notes", ()):
        note_span = span_of(note.get("span"))
        if note_span is None:
            extra.append(f"note: {note['message']}")
        else:
            location = lsp.Location(uri_of(note_span.file), ranges.range(note_span))
            related.append(lsp.DiagnosticRelatedInformation(location, note["message"]))
    if data.get("hint"):
        extra.append(f"hint: {data['hint']}")
    return lsp.Diagnostic(
        range=ranges.range(span), message="\n".join([message, *extra]),
        severity=SEVERITY.get(data.get("severity", "error"), lsp.DiagnosticSeverity.Error),
        code=data["code"], source=SOURCE, related_information=related or None)


def convert_all(diagnostics: list[dict[str, Any]], ranges: RangeMaker, anchor: Span | None) -> list[lsp.Diagnostic]:
    """Each distinct diagnostic once (a warning repeated per launch, the same error seen twice)."""
    seen: set[tuple[Any, ...]] = set()
    out = []
    for data in diagnostics:
        key = (data["code"], data["message"], repr(data.get("span")))
        if key not in seen:
            seen.add(key)
            out.append(to_lsp(data, ranges, anchor))
    return out


def read_lines(path: str) -> list[str]:
    """The lines of a file other than the document (a note's place in an imported module)."""
    try:
        return Path(path).read_text().splitlines()
    except OSError:
        return []
