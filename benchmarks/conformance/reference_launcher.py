"""Launch the published simulator (tt-lang-sim 1.1.6) with its error messages restored.

The 1.1.6 wheel formats its kernel errors (unsupported copy patterns, deadlocks, state-machine
violations) through ``ttl/ttl/diagnostics.py``, a file the wheel does not ship: every such error
ends in a ``FileNotFoundError`` and its message is lost. This launcher gives the simulator a
stand-in for that one module, which prints ``file:line:col: error: message`` and the source
line, so the harness can report why the reference rejected a program. Nothing else changes.

With ``$CONFORMANCE_COVERAGE`` set, it also records which names of the simulator's public
surface (``surface.py``) the program itself calls, directly from its own code, and writes them
to that file as a JSON list: the evidence the API table of docs/language.md is built from.

Run with the reference's interpreter, exactly like ``tt-lang-sim``:

    /tmp/ref/venv/bin/python -m benchmarks.conformance.reference_launcher script.py [options]
"""

from __future__ import annotations

import json
import os
import sys
import types
from typing import Any, Optional

COVERAGE_VARIABLE = "CONFORMANCE_COVERAGE"


class TTLangCompileError(Exception):
    """What the simulator builds from a message and a location, then ``format()``s."""

    def __init__(self, message: str, source_file: Optional[str] = None, line: int = 0, col: int = 1) -> None:
        super().__init__(message)
        self.message, self.source_file, self.line, self.col = message, source_file, line, col

    def format(self) -> str:
        return SourceDiagnostic(_read_lines(self.source_file), self.source_file).format_error(
            self.line, self.col, self.message)


class SourceDiagnostic:
    """Formats a message at a line of a source file (``label`` is ``error`` or ``warning``)."""

    def __init__(self, source_lines: list[str], source_file: Optional[str]) -> None:
        self.source_lines, self.source_file = source_lines, source_file

    def format_error(self, line: int, col: int, message: str, label: str = "error") -> str:
        text = f"{self.source_file}:{line}:{col}: {label}: {message}"
        if 0 < line <= len(self.source_lines):
            text += f"\n    {line} | {self.source_lines[line - 1]}"
        return text


def _read_lines(path: Optional[str]) -> list[str]:
    try:
        with open(path or "") as source:
            return source.read().splitlines()
    except OSError:
        return []


class CallRecorder:
    """A profile hook noting every surface name called from the program's own file."""

    def __init__(self, program: str) -> None:
        from .surface import code_index

        self.program = os.path.abspath(program)
        self.index = code_index()
        self.called: set[str] = set()

    def __call__(self, frame: types.FrameType, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code in self.index and frame.f_back is not None \
                and os.path.abspath(frame.f_back.f_code.co_filename) == self.program:
            self.called.update(c.name for c in self.index[frame.f_code] if c.called_by(frame))

    def write(self, path: str) -> None:
        with open(path, "w") as file:
            json.dump(sorted(self.called), file)


def main() -> None:
    from ttl.sim import diagnostics
    from ttl.sim.ttlang_sim import main as simulator_main

    stand_in = types.ModuleType("ttl.diagnostics")
    stand_in.TTLangCompileError = TTLangCompileError  # type: ignore[attr-defined]
    stand_in.SourceDiagnostic = SourceDiagnostic  # type: ignore[attr-defined]
    diagnostics.lazy_import_diagnostics = lambda: stand_in
    sys.argv[0] = "tt-lang-sim"
    coverage = os.environ.get(COVERAGE_VARIABLE)
    if not coverage or len(sys.argv) < 2:
        simulator_main()
        return
    recorder = CallRecorder(sys.argv[1])
    sys.setprofile(recorder)
    try:
        simulator_main()
    finally:
        sys.setprofile(None)
        recorder.write(coverage)


if __name__ == "__main__":
    main()
