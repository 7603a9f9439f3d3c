"""Diagnostics in generated kernels, reported at the line of the program that generated them.

``tilecraft emit`` (and ``--level cpp``, which runs what it emits) writes a ``manifest.json``
beside the kernels; each kernel's ``source_map`` lists runs ``[first C++ line, last C++ line,
index into source_files, line, column]``: which TT-Lang (or PyKernel) line printed each C++ line.
A compile error, sanitizer finding or deadlock at such a C++ line is reported with that source
line as its primary location and the C++ line as a note, so the user sees the line they wrote;
a note that points into the C++ (a blocked call of a deadlock) moves to the source line the
same way. Kernels without a manifest (hand-written ones) are reported where they are. PyKernel,
which generates its kernels without a manifest, maps its diagnostics with :func:`at_source` too.

The manifest is the emitter's file format, read here as data: the emulator imports nothing of
the emitter (pyproject.toml's layer contracts).
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Iterable, Mapping

from ..diagnostics import Diagnostic, Note, Span
from .program_spec import KernelSpec

MANIFEST = "manifest.json"

#: how diagnostics name a kernel file (KernelSpec.display) -> its C++ line -> the source span
SourceMaps = Mapping[str, Mapping[int, Span]]


def source_maps(kernels: Iterable[KernelSpec]) -> dict[str, dict[int, Span]]:
    """The source map of every kernel that has one (its directory's manifest lists it)."""
    maps: dict[str, dict[int, Span]] = {}
    for kernel in kernels:
        lines = _kernel_lines(kernel.source)
        if lines:
            maps[kernel.display] = lines
    return maps


def _kernel_lines(source: Path) -> dict[int, Span]:
    try:
        manifest = json.loads((source.parent / MANIFEST).read_text())
        files = manifest["source_files"]
        entry = next(k for k in manifest["kernels"] if k["file"] == source.name)
        runs = entry["source_map"]
    except (OSError, ValueError, KeyError, TypeError, StopIteration):
        return {}  # no manifest, or not one of ours: the kernel's own lines are the ones to show
    return {cpp: Span(files[index], line, col)
            for first, last, index, line, col in runs for cpp in range(first, last + 1)}


def at_source(diagnostic: Diagnostic, maps: SourceMaps) -> Diagnostic:
    """``diagnostic`` at the source line of its C++ line (the C++ line becomes the first note)."""
    if not maps:
        return diagnostic
    notes = tuple(_note_at_source(note, maps) for note in diagnostic.notes)
    message = _lines_at_source(diagnostic.message, maps)
    where = _mapped(diagnostic.span, maps)
    if where is None:
        return replace(diagnostic, message=message, notes=notes)
    assert diagnostic.span is not None
    return replace(diagnostic, message=message, span=where,
                   notes=(Note("in the generated C++", diagnostic.span), *notes))


def _note_at_source(note: Note, maps: SourceMaps) -> Note:
    message = _lines_at_source(note.message, maps)
    where = _mapped(note.span, maps)
    if where is None:
        return replace(note, message=message)
    return Note(f"{message} (generated C++: {note.span})", where)


def _lines_at_source(message: str, maps: SourceMaps) -> str:
    """A message that names another C++ line ("a NoC read issued at reader.cpp:18") names its
    source line too."""
    for display in maps:
        def at(match: re.Match[str], display: str = display) -> str:
            span = _mapped(Span(display, int(match[1])), maps)
            return match[0] if span is None else f"{span.file}:{span.line} (generated C++: {match[0]})"
        message = re.sub(re.escape(display) + r":(\d+)(?::\d+)?", at, message)
    return message


def _mapped(span: Span | None, maps: SourceMaps) -> Span | None:
    if span is None or span.file not in maps:
        return None
    lines = maps[span.file]
    if span.line in lines:
        return lines[span.line]
    # a line of the prologue (includes, argument reads): the first operation below it
    later = [n for n in lines if n > span.line]
    return lines[min(later)] if later else None
