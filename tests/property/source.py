"""Generated programs as tagged lines of source text.

A generated program is Python source, but the property tests must also know *where* things
are: the line of the copy into a block, the first statement of a thread, the loop header of the
compute thread. Each line can carry tags naming such sites (with a little data: the block or
buffer named there), so that a mutation can edit one site of any program, whatever its kind,
and the test knows the line the diagnostic must point at.
"""

from __future__ import annotations

import hashlib
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Iterator

INDENT = "    "


@dataclass(frozen=True)
class Line:
    depth: int
    text: str
    #: site name -> detail (a variable named there, or "")
    tags: tuple[tuple[str, str], ...] = ()

    def tag(self, name: str) -> str | None:
        return next((detail for tag, detail in self.tags if tag == name), None)

    def render(self) -> str:
        return INDENT * self.depth + self.text if self.text else ""


@dataclass
class Source:
    """Lines being written, with the current indentation."""

    lines: list[Line] = field(default_factory=list)
    depth: int = 0

    def add(self, text: str = "", **tags: str) -> None:
        self.lines.append(Line(self.depth, text, tuple(tags.items())))

    def extend(self, text: str) -> None:
        """Several untagged lines, indented relative to the current depth."""
        for raw in text.strip("\n").splitlines():
            stripped = raw.lstrip(" ")
            self.lines.append(Line(self.depth + (len(raw) - len(stripped)) // len(INDENT), stripped))

    @contextmanager
    def block(self, header: str, **tags: str) -> Iterator[None]:
        self.add(header, **tags)
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1

    def text(self) -> str:
        return "\n".join(line.render() for line in self.lines) + "\n"

    # ------------------------------------------------------------------ sites
    def sites(self, name: str) -> list[int]:
        """0-based indices of the lines tagged ``name``."""
        return [i for i, line in enumerate(self.lines) if line.tag(name) is not None]

    def copy(self) -> "Source":
        return Source(list(self.lines), self.depth)

    def insert(self, index: int, depth: int, text: str, **tags: str) -> None:
        self.lines.insert(index, Line(depth, text, tuple(tags.items())))

    def insert_before(self, index: int, text: str, **tags: str) -> None:
        """A new statement at the indentation of line ``index``."""
        self.insert(index, self.lines[index].depth, text, **tags)

    def insert_after(self, index: int, text: str, **tags: str) -> None:
        """A new statement after line ``index``, at its indentation."""
        self.insert(index + 1, self.lines[index].depth, text, **tags)

    def replace_text(self, index: int, text: str, **tags: str) -> None:
        line = self.lines[index]
        self.lines[index] = replace(line, text=text, tags=line.tags + tuple(tags.items()))


def file_name(kind: str, text: str) -> str:
    """A file name that is a function of the program text: the same program, the same file."""
    return f"{kind}_{hashlib.sha1(text.encode()).hexdigest()[:12]}.py"
