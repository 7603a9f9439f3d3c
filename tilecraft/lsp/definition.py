"""Go to definition, by Jedi: helpers a thread calls (nested, in kernel scope, in the module or
imported from another module), kernel-scope objects, and ``ttl.*`` names into tilecraft.

Jedi resolves Python's scoping and imports statically, without running anything, which is what
an editor needs while the file is half-written (and what a small AST lookup would get wrong for
imported helpers). It is not thread-safe, so calls are serialised.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

import jedi

_lock = threading.Lock()


@dataclass(frozen=True)
class Place:
    path: str
    line: int  # 0-based
    col: int  # 0-based, characters


def definitions(text: str, path: str, line: int, col: int) -> list[Place]:
    """Where the name at 0-based ``line``/``col`` (characters) of ``text`` is defined."""
    with _lock:
        script = jedi.Script(code=text, path=path, project=jedi.Project(Path(path).parent),
                             environment=jedi.InterpreterEnvironment())
        names = script.goto(line + 1, col, follow_imports=True)
    return [Place(str(name.module_path), name.line - 1, name.column)
            for name in names if name.module_path is not None and name.line is not None]
