"""Where the tests find the repository's files: its root, ``examples/`` and ``tests/`` itself.

Test files live in directories that mirror tilecraft's packages (``tests/sim/``, ``tests/metal/``, ...),
so a path computed from a test file's own location (``Path(__file__).parents[n]``) would change each
time a file moves; these do not.
"""

from __future__ import annotations

from pathlib import Path

#: ``tests/``: the data directories the tests share (``misuse/``, ``published/``, ``ir/``, ...) are under it
TESTS = Path(__file__).resolve().parent
#: the repository's root (``pyproject.toml``, ``tilecraft/``, ``editors/``)
ROOT = TESTS.parent
#: the example programs every layer is tested on
EXAMPLES = ROOT / "examples"
