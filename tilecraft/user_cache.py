"""tilecraft's per-user cache: where it is, and how an entry is filled when processes race for it.

Why the care: the cache (``$TILECRAFT_CACHE_DIR``, else ``~/.cache/tilecraft``) is shared by every
tilecraft process of a user, and the test suite runs in parallel (pytest-xdist workers), so two
processes often want the same entry (an unpacked wheel, a compiled kernel) at the same moment.
``fill`` is the one way entries are written, and its rules are why that is safe:

* An entry is built in a scratch directory of its own beside the entry and appears by one
  ``rename`` (atomic within a file system), so a reader sees no entry or a whole one; whether it
  is whole is the caller's check (a marker or stamp written last).
* The builder holds the entry's lock (``fcntl.flock`` on a file under ``<cache>/locks``) from its
  second look to the rename, so a second process waits for the first instead of repeating the
  download or the compile, and a complete entry is never moved aside by a process that looked
  before it was published. The lock is advisory and the kernel releases it when its holder dies:
  a killed build leaves at most a scratch directory (a later build ignores it), never a stuck lock.
  Readers never lock.

The compiled objects under ``<cache>/emu`` are kept within a size limit by removing the least
recently used (emu/cache_budget.py), so a reader there treats a missing entry as one to build.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


#: the name prefix of a builder's scratch directory beside its entry
SCRATCH_PREFIX = ".build-"


def cache_root() -> Path:
    """$TILECRAFT_CACHE_DIR, else the XDG cache's ``tilecraft`` directory."""
    explicit = os.environ.get("TILECRAFT_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "tilecraft"


def lock_path(entry: Path) -> Path:
    """The lock file of ``entry``: under ``<cache>/locks`` (so a directory of entries lists entries
    only), named by the entry's path; an entry outside the cache locks beside itself."""
    root, where = cache_root().resolve(), entry.resolve()
    name = f"{entry.name[:40]}-{hashlib.sha256(str(where).encode()).hexdigest()[:24]}.lock"
    return (root / "locks" if where.is_relative_to(root) else where.parent) / name


@contextmanager
def locked(entry: Path, wait: bool = True) -> Iterator[bool]:
    """Hold ``entry``'s lock, waiting while another process (or thread) holds it; yields True.
    With ``wait=False`` a held lock is not waited for: the block runs at once, holding nothing,
    and gets False (the cache's eviction leaves the work to the process already doing it)."""
    path = lock_path(entry)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:  # each open is its own lock holder, also within one process
        try:
            fcntl.flock(handle, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def fill(entry: Path, is_complete: Callable[[Path], bool], make: Callable[[Path], None]) -> bool:
    """Make ``entry`` complete unless it is; return whether this call built it.

    ``make(staging)`` fills the empty directory ``staging`` (which becomes the entry) and writes
    whatever ``is_complete`` checks last; ``staging.parent`` is the builder's scratch space, removed
    afterwards. An incomplete ``entry`` already there (damaged, or of an older layout) is renamed
    aside under a unique name and removed, so no reader sees a half-deleted tree under its name.
    """
    if is_complete(entry):
        return False
    entry.parent.mkdir(parents=True, exist_ok=True)
    with locked(entry):
        if is_complete(entry):  # another process built it while this one waited
            return False
        with tempfile.TemporaryDirectory(dir=entry.parent, prefix=f"{SCRATCH_PREFIX}{entry.name[:40]}-") as scratch:
            staging = Path(scratch) / "entry"
            staging.mkdir()
            make(staging)
            if entry.exists():
                aside = Path(scratch) / "stale"
                entry.rename(aside)  # removed with the scratch directory
            staging.rename(entry)
    return True
