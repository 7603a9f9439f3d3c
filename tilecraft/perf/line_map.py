"""A kernel-level line table moved to the lines the C++ was generated from (PyKernel kernels).

The emulator records each call at the C++ line it was compiled from; a PyKernel author wrote Python,
and every printed C++ line knows the Python span it came from (``pykernel.cpp_lines``: the same map
the emulator's diagnostics go through). Rows of the table that fall on one Python line are merged:
their cycles add up, the stall label is that of the row that stalled longest.
"""

from __future__ import annotations

import os
from typing import Mapping

from ..diagnostics import Span
from .result import LineCost


def to_source_lines(lines: list[LineCost], origins: Mapping[str, Mapping[int, Span]]) -> list[LineCost]:
    """``lines`` with every row in a mapped C++ file replaced by its origin's (file, line)."""
    by_path = {os.path.realpath(file): spans for file, spans in origins.items()}
    merged: dict[tuple[str, int], LineCost] = {}
    worst: dict[tuple[str, int], float] = {}
    out: list[LineCost] = []
    for row in lines:
        span = by_path.get(os.path.realpath(row.file), {}).get(row.line)
        if span is None:
            out.append(row)
            continue
        key = (span.file, span.line)
        found = merged.get(key)
        if found is None:
            found = merged[key] = LineCost(span.file, span.line, span.source_line().strip(), 0.0, 0.0, 0.0, "")
            out.append(found)
        found.busy_per_core += row.busy_per_core
        found.critical_share += row.critical_share
        found.stall_per_core += row.stall_per_core
        if row.stall_per_core > worst.get(key, 0.0):
            worst[key] = row.stall_per_core
            found.stalled_on = row.stalled_on
    return sorted(out, key=lambda r: (r.file, r.line))
