"""PyKernel kernels as C++ whose every line knows the Python line it came from.

The kernel emulator reports what goes wrong at run time (a sanitizer finding, a deadlock, a
compile error) at a line of the C++ it compiled. A PyKernel author wrote Python, so each C++
line is mapped back to the IR operation that printed it, whose span is the user's Python line
and column; :func:`remap` rewrites a diagnostic's spans through that map and keeps the C++
place as a note.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import replace

from ..diagnostics import Diagnostic, DiagnosticWarning, KernelError, Note, Span
from ..ir import ops as ir
from ..metal import kir
from ..metal.cpp import KernelPrinter

#: generated C++ file (as the emulator names it in diagnostics) -> C++ line -> Python span
Origins = dict[str, dict[int, Span]]


class MappedKernelPrinter(KernelPrinter):
    """The project's C++ printer, remembering the operation behind each printed line."""

    def __init__(self, program: kir.MetalProgram, kernel: kir.Kernel):
        super().__init__(program, kernel)
        self.origin: dict[int, Span] = {}

    def body(self, ops: list[ir.Op]) -> None:
        for op in ops:
            start = len(self.lines)
            super().body([op])  # nested bodies come back through here first, so inner lines keep theirs
            if op.loc is not None:
                for index in range(start, len(self.lines)):
                    self.origin.setdefault(index + 1, op.loc)


def print_mapped(program: kir.MetalProgram, kernel: kir.Kernel) -> tuple[str, dict[int, Span]]:
    """The kernel's C++ and, for each of its lines, the Python span it came from."""
    printer = MappedKernelPrinter(program, kernel)
    return printer.print(), printer.origin


def remap(diagnostic: Diagnostic, origins: Origins) -> Diagnostic:
    """``diagnostic`` with spans in generated C++ moved to the Python lines they came from (and
    places the message names, ``kernel.cpp:24``, too)."""
    span, note = _python_span(diagnostic.span, origins)
    notes = tuple(Note(_remap_text(n.message, origins), _python_span(n.span, origins)[0]) for n in diagnostic.notes)
    if note is not None:
        notes += (note,)
    return replace(diagnostic, message=_remap_text(diagnostic.message, origins), span=span, notes=notes)


def _remap_text(text: str, origins: Origins) -> str:
    for file in origins:
        def python_place(match: re.Match) -> str:
            found, _ = _python_span(Span(file, int(match.group(1))), origins)
            return f"{found.file}:{found.line}" if found is not None else match.group(0)
        text = re.sub(re.escape(file) + r":(\d+)", python_place, text)
    return text


def _python_span(span: Span | None, origins: Origins) -> tuple[Span | None, Note | None]:
    if span is None or span.file not in origins:
        return span, None
    lines = origins[span.file]
    python = lines.get(span.line)
    if python is None:  # a line of the prologue (headers, argument reads): the nearest operation below
        later = [n for n in lines if n > span.line]
        python = lines[min(later)] if later else None
    if python is None:
        return span, None
    return python, Note(f"in the generated C++ at {span.file}:{span.line}", None)


def remap_error(error: KernelError, origins: Origins) -> KernelError:
    return KernelError(*(remap(d, origins) for d in error.diagnostics))


def rewarn(caught: list[warnings.WarningMessage], origins: Origins) -> None:
    """Issue again warnings caught while the emulator ran, PyKernel spans mapped to Python."""
    for item in caught:
        message = item.message
        if isinstance(message, DiagnosticWarning):
            diagnostic = remap(message.diagnostic, origins)
            file, line = (diagnostic.span.file, diagnostic.span.line) if diagnostic.span else ("<kernel>", 0)
            warnings.warn_explicit(DiagnosticWarning(diagnostic), DiagnosticWarning, file, line, registry={})
        else:
            warnings.warn_explicit(message, item.category, item.filename, item.lineno)
