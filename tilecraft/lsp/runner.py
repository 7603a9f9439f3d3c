"""Run one script from the editor's buffer, in the current process, and report what happened.

This is what a worker's forked child does (``worker.py``). Kernel-scope values (shapes, grids,
buffer sizes) come from the script's host code, so checking a kernel means running the script up
to its launches, from the text being edited (not the file on disk): the text is compiled under
the file's path and put in :mod:`linecache`, so that the front end reads thread sources, and
every span points, into the buffer.

Three modes, one per kind of result:

- ``compile``: build and compile every program the script launches, simulate nothing
  (``RunOptions.simulate=False``). Values are not computed, so whatever the script does with
  its outputs after the first launch (its checks against torch) is not reported.
- ``sanitize``: the full simulation (protocol errors, deadlocks, races, shapes); everything the
  script raises is reported, its own failing checks included.
- ``profile``: like ``compile``, and every launched program is timed by the cost model
  (:func:`tilecraft.perf.estimate`); its per-line costs for this file are reported.

Results are *events* (plain dicts, sent as JSON lines by the worker): ``diagnostic`` (the
diagnostic's JSON form), ``launch`` (where the script launched a program), ``profile`` and
``status``.
"""

from __future__ import annotations

import ast
import dataclasses
import linecache
import os
import sys
import time
import traceback
import types
import warnings
from dataclasses import dataclass
from typing import Any, Callable

from .. import session
from ..scripts import PACKAGE_DIR, install_modules
from ..diagnostics import (Diagnostic, DiagnosticWarning, KernelError, Span, UsageError, calling_user_span,
                           frame_span, user_frame_span)
from ..ir.program_ir import ProgramIR
from ..perf import estimate
from .sizes import SizesError, apply_sizes, parse_directive

#: the script raised an exception of its own (or has a syntax error)
SCRIPT_ERROR = "E0601"
#: tilecraft failed inside itself: a bug, reported at the user's line that called into it
INTERNAL_ERROR = "E0602"

Emit = Callable[[dict[str, Any]], None]


@dataclass(frozen=True)
class RunRequest:
    path: str
    text: str
    mode: str = "compile"
    arch: str = "wormhole_b0"
    fidelity: str = "HiFi4"
    #: how the sanitizer computes block math: "ideal" or "device" (``tilecraft run --numerics``)
    numerics: str = "ideal"


def run(request: RunRequest, emit: Emit) -> None:
    """Run ``request.text`` as the script ``request.path`` and emit what it found."""
    started = time.perf_counter()
    session = _Session(request, emit)
    try:
        code = session.prepare()
    except SizesError as exc:
        session.diagnostic(exc.diagnostic)
        code = None
    if code is not None:
        session.execute(code)
    emit({"event": "status", "status": "done", "elapsed_ms": (time.perf_counter() - started) * 1e3})


class _Session:
    def __init__(self, request: RunRequest, emit: Emit):
        self.request = request
        self.emit = emit
        self.launches = 0
        self.path = os.path.abspath(request.path)

    def diagnostic(self, diagnostic: Diagnostic) -> None:
        self.emit({"event": "diagnostic", "diagnostic": diagnostic.to_json()})

    def prepare(self) -> types.CodeType | None:
        """The buffer's text, parsed, with the declared sizes applied, compiled under its path."""
        text = self.request.text
        lines = text.splitlines(keepends=True)
        # mtime None: linecache.checkcache keeps the entry (the buffer is newer than the disk)
        linecache.cache[self.path] = (len(text), None, lines, self.path)
        try:
            tree = ast.parse(text, self.path)
        except SyntaxError as exc:
            self.diagnostic(_syntax_diagnostic(exc, self.path, lines))
            return None
        if self.request.mode != "profile":  # the profile times the real sizes (no values)
            apply_sizes(tree, parse_directive(text, self.path))
        return compile(tree, self.path, "exec")

    def execute(self, code: types.CodeType) -> None:
        request = self.request
        install_modules()
        module = types.ModuleType("__main__")
        module.__file__ = self.path
        sys.modules["__main__"] = module
        sys.argv = [self.path]
        sys.path.insert(0, os.path.dirname(self.path))
        with warnings.catch_warnings(), session.using(arch=request.arch, simulate=request.mode == "sanitize",
                                                      numerics=request.numerics, program_hooks=[self.on_launch]):
            warnings.simplefilter("default", DiagnosticWarning)
            warnings.showwarning = self.on_warning
            try:
                exec(code, module.__dict__)  # noqa: S102 - running the user's script is the point
            except KernelError as exc:
                for diagnostic in exc.diagnostics:
                    self.diagnostic(diagnostic)
            except UsageError as exc:
                self.diagnostic(exc.diagnostic(user_frame_span(exc.__traceback__, PACKAGE_DIR)))
            except SystemExit:
                pass
            except MemoryError:
                self.emit({"event": "status", "status": "memory"})
            except Exception as exc:  # noqa: BLE001 - the script's own error, or a tilecraft bug
                self.on_exception(exc)

    def on_launch(self, program: ProgramIR) -> None:
        """Program hook: note where the script launched it (and time it, when profiling)."""
        self.launches += 1
        span = calling_user_span()
        self.emit({"event": "launch", "program": program.name, "span": _span_json(span)})
        if self.request.mode == "profile":
            est = estimate(program, self.request.arch, self.request.fidelity)
            self.emit(_profile_event(program, est, self.path))

    def on_warning(self, message: Any, category: Any, filename: str, lineno: int, file: Any = None,
                   line: Any = None) -> None:
        if isinstance(message, DiagnosticWarning):
            self.diagnostic(message.diagnostic)

    def on_exception(self, exc: Exception) -> None:
        if self.launches and self.request.mode != "sanitize":
            return  # values were not computed: the script's checks after a launch mean nothing
        frames = traceback.extract_tb(exc.__traceback__)
        text = "".join(traceback.format_exception_only(exc)).strip()
        if frames and frames[-1].filename.startswith(PACKAGE_DIR):
            span = user_frame_span(exc.__traceback__, PACKAGE_DIR)
            self.diagnostic(Diagnostic(INTERNAL_ERROR, f"internal error in tilecraft: {text}", span, (),
                                       "this is a bug in tilecraft; `tilecraft run` on the file shows the "
                                       "traceback to report"))
            return
        self.diagnostic(Diagnostic(SCRIPT_ERROR, f"the script raised {text}", _innermost_span(exc, self.path)))


def _span_json(span: Span | None) -> dict[str, Any] | None:
    return None if span is None else dataclasses.asdict(span)


def _innermost_span(exc: BaseException, path: str) -> Span | None:
    """The innermost frame of the traceback in the script itself (where its error shows)."""
    span = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == path:
            span = frame_span(tb.tb_frame.f_code, tb.tb_lineno, tb.tb_lasti)
        tb = tb.tb_next
    return span


def _syntax_diagnostic(exc: SyntaxError, path: str, lines: list[str]) -> Diagnostic:
    """A syntax error at its place; Python counts its columns in characters, spans in bytes."""
    line = exc.lineno or 1
    text = lines[line - 1] if 0 < line <= len(lines) else ""

    def byte_col(char_col: int | None) -> int | None:
        return None if char_col is None else len(text[:max(char_col - 1, 0)].encode()) + 1

    end = byte_col(exc.end_offset) if exc.end_lineno in (None, line) else None
    col = byte_col(exc.offset) or 1
    span = Span(path, line, col, end if end and end > col else None)
    return Diagnostic(SCRIPT_ERROR, f"syntax error: {exc.msg}", span)


def _profile_event(program: ProgramIR, est: Any, path: str) -> dict[str, Any]:
    return {
        "event": "profile", "program": program.name, "span": _span_json(program.span),
        "source": program.span.source_line().strip() if program.span is not None else "",
        "arch": est.arch, "cores": est.cores, "cycles": est.cycles, "seconds": est.seconds, "bound": est.bound,
        "evidence": est.evidence,
        "lines": [{"line": c.line, "source": c.source, "busy": c.busy_per_core, "critical": c.critical_share,
                   "stall": c.stall_per_core, "stalled_on": c.stalled_on}
                  for c in est.lines if os.path.abspath(c.file) == path],
    }
