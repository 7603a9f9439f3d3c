"""The on-disk cache of compiled objects, keyed by content.

An entry is a directory ``<cache>/emu/<kind>/<key>/`` holding the shared object and a stamp
(the key and the object's SHA-256), written last. An entry is trusted only when its stamp matches
the object, so a truncated or corrupted object is detected and rebuilt. Entries are written by
``user_cache.fill``: built in a scratch directory beside the entry under the entry's lock and
renamed into place, so a second process wanting the same key waits for the first build and uses
it, and the cache never holds half an object. A lookup marks its entry used and a build checks the
cache's size bound, which removes the least recently used entries (cache_budget.py).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Callable

from ..user_cache import fill
from . import cache_budget

STAMP = "stamp"
OBJECT = "object.so"


def emu_cache() -> Path:
    return cache_budget.bounded_root()


def digest(*parts: str | bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def _file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def lookup(kind: str, key: str) -> Path | None:
    """The cached object for ``key``, if present and intact (and then marked used)."""
    entry = emu_cache() / kind / key
    obj, stamp = entry / OBJECT, entry / STAMP
    if not cache_budget.mark_used(entry):  # never built, or evicted: the caller builds it
        return None
    try:
        expected = stamp.read_text().split()
        if len(expected) == 2 and expected[0] == key and expected[1] == _file_hash(obj):
            return obj
    except OSError:
        return None
    return None


def build(kind: str, key: str, make: Callable[[Path], Path]) -> tuple[Path, bool]:
    """The object for ``key``: from the cache, or built by ``make(scratch_dir) -> object path``.

    Returns (path, built_now); built_now is False also when another process built it meanwhile.
    """
    entry = emu_cache() / kind / key

    def make_entry(staging: Path) -> None:
        made = make(staging)
        if made != staging / OBJECT:
            made.replace(staging / OBJECT)
        (staging / STAMP).write_text(f"{key} {_file_hash(staging / OBJECT)}\n")

    built = fill(entry, lambda _: lookup(kind, key) is not None, make_entry)
    found = lookup(kind, key)
    assert found is not None
    if built:
        cache_budget.after_build()
    return found, built
