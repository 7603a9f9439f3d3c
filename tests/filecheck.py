"""A small FileCheck: ``# CHECK: text`` (or ``// CHECK:``) comments in a kernel or IR file, matched
in order in the output of a command run on it. Another prefix (``// METAL: text``) checks the output
of another command on the same file, as LLVM's ``--check-prefix`` does. ``PREFIX-COUNT-n: text``
says the whole output holds ``text`` exactly n times (how often a lowering evaluates something)."""

from __future__ import annotations

import re
from pathlib import Path


def checks_in(text: str, first_line: int = 1, prefix: str = "CHECK") -> list[tuple[int, str, bool]]:
    """(line, pattern, is_not) for every ``PREFIX:`` / ``PREFIX-NOT:`` comment of ``text``."""
    out = []
    for number, line in enumerate(text.splitlines(), first_line):
        m = re.search(rf"(?:#|//)\s*{re.escape(prefix)}(-NOT)?:\s*(.+)$", line)
        if m:
            out.append((number, m.group(2).strip(), bool(m.group(1))))
    return out


def counts_in(text: str, first_line: int = 1, prefix: str = "CHECK") -> list[tuple[int, str, int]]:
    """(line, pattern, count) for every ``PREFIX-COUNT-n:`` comment of ``text``."""
    out = []
    for number, line in enumerate(text.splitlines(), first_line):
        m = re.search(rf"(?:#|//)\s*{re.escape(prefix)}-COUNT-(\d+):\s*(.+)$", line)
        if m:
            out.append((number, m.group(2).strip(), int(m.group(1))))
    return out


def filecheck(path: Path, output: str, text: str | None = None, first_line: int = 1, prefix: str = "CHECK") -> None:
    """Every ``prefix`` pattern of ``text`` (the file's text by default) appears in ``output`` after the
    previous one; ``prefix``-NOT never does."""
    pos = 0
    source = path.read_text() if text is None else text
    for number, pattern, is_not in checks_in(source, first_line, prefix):
        if is_not:
            assert pattern not in output, f"{path.name}:{number}: {prefix}-NOT '{pattern}' found"
            continue
        found = output.find(pattern, pos)
        assert found >= 0, f"{path.name}:{number}: {prefix} '{pattern}' not found after offset {pos}:\n{output}"
        pos = found + len(pattern)
    for number, pattern, count in counts_in(source, first_line, prefix):
        found = output.count(pattern)
        assert found == count, f"{path.name}:{number}: {prefix}-COUNT-{count} '{pattern}' found {found} times:\n{output}"
