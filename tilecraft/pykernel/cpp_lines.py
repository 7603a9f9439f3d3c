"""PyKernel kernels as C++ whose every line knows the Python line it came from.

The kernel emulator reports what goes wrong at run time (a sanitizer finding, a deadlock, a
compile error) at a line of the C++ it compiled. A PyKernel author wrote Python, so each C++
line is mapped back to the IR operation that printed it, whose span is the user's Python line
and column (the printer records it: ``metal.cpp.print_kernel_mapped``), and the diagnostics are
moved there with the C++ place kept as a note (``emu.source_map.at_source``, which also maps
the kernels ``tilecraft emit`` writes for TT-Lang programs).
"""

from __future__ import annotations

import warnings

from ..diagnostics import DiagnosticWarning, KernelError, Span
from ..emu.source_map import at_source

#: generated C++ file (as the emulator names it in diagnostics) -> C++ line -> Python span
Origins = dict[str, dict[int, Span]]


def remap_error(error: KernelError, origins: Origins) -> KernelError:
    return KernelError(*(at_source(d, origins) for d in error.diagnostics))


def rewarn(caught: list[warnings.WarningMessage], origins: Origins) -> None:
    """Issue again warnings caught while the emulator ran, PyKernel spans mapped to Python."""
    for item in caught:
        message = item.message
        if isinstance(message, DiagnosticWarning):
            diagnostic = at_source(message.diagnostic, origins)
            file, line = (diagnostic.span.file, diagnostic.span.line) if diagnostic.span else ("<kernel>", 0)
            warnings.warn_explicit(DiagnosticWarning(diagnostic), DiagnosticWarning, file, line, registry={})
        else:
            warnings.warn_explicit(message, item.category, item.filename, item.lineno)
