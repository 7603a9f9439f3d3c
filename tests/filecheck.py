"""A small FileCheck: ``# CHECK: text`` comments in a kernel file, matched in order in the IR."""

from __future__ import annotations

import re
from pathlib import Path


def checks_in(path: Path) -> list[tuple[int, str, bool]]:
    """(line, pattern, is_not) for every ``# CHECK:`` / ``# CHECK-NOT:`` comment."""
    out = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        m = re.search(r"#\s*CHECK(-NOT)?:\s*(.+)$", line)
        if m:
            out.append((number, m.group(2).strip(), bool(m.group(1))))
    return out


def filecheck(path: Path, output: str) -> None:
    """Every CHECK pattern appears in ``output`` after the previous one; CHECK-NOT never does."""
    pos = 0
    for number, pattern, is_not in checks_in(path):
        if is_not:
            assert pattern not in output, f"{path.name}:{number}: CHECK-NOT '{pattern}' found"
            continue
        found = output.find(pattern, pos)
        assert found >= 0, f"{path.name}:{number}: CHECK '{pattern}' not found after offset {pos}:\n{output}"
        pos = found + len(pattern)
