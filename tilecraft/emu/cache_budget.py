"""The size bound of the emulator's cache: when it grows past it, the least recently used entries go.

Why: everything under ``<cache>/emu`` is keyed by content (the compiler, the flags, tilecraft's own
sources), so every new tilecraft version or build flag adds entries and the old ones are never used
again.
Without a bound a developer's cache reached 24 GB, 23 GB of it the Tensix machine's precompiled
prefixes: 52-58 MB each, five per arch (three TRISCs, two data-movement RISC/NoC pairs) for each
compiler, flag set, machine tree and checkout (their key holds the checkout's path), so every
worktree and every version adds about 275 MB per arch. As ccache does, the cache is kept under a
limit, ``DEFAULT_MAX_SIZE`` unless ``$TILECRAFT_CACHE_MAX_SIZE`` says otherwise, by
removing the entries used longest ago.

What is bounded: an *entry* is a directory or a file directly under ``<cache>/emu/<kind>/``
(``cache.build``'s objects, the machine's include tree, emitted programs, kernel sources). A name
starting with ``.`` is a build's scratch (``user_cache.fill``) or an entry being removed, not an
entry (pruning removes what killed processes left of either); a kind directory that is a symbolic
link belongs to another cache (tests link the session's) and is left to it. Outside ``emu``,
nothing is removed: the unpacked wheels and tutorials are inputs downloaded once per pinned version
(tens of MB that do not grow with builds), and the tuning results are answers a sweep took minutes
to find (``tilecraft tune --cache clear`` removes them).

Last use is the entry's own modification time: publishing an entry (a rename) leaves it at the
build's time, and a lookup calls :func:`mark_used`, which sets it to now when it is older than
``MARK_AFTER_S``, so a busy entry costs one ``utime`` a minute, whatever the lookup rate.

Safe with readers that never lock: :func:`prune` holds a cache-wide lock (``user_cache.locked`` on
``<cache>/emu``, so one process evicts at a time), never removes an entry used in the last
``KEEP_RECENT_S`` (a process that looked one up is about to hand its precompiled header to g++ or
dlopen its object), and removes one by renaming it aside first, so no reader sees half a tree
under its name; an entry looked up between the scan and the rename is put back. A lookup whose
entry is gone finds none and builds it again. Builds check the bound (:func:`after_build`) at most
once per ``CHECK_EVERY_S`` over all processes, so the cache may pass its limit by what is built in
that time until the next check.
"""

from __future__ import annotations

import functools
import math
import os
import re
import shutil
import stat
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ..user_cache import SCRATCH_PREFIX, cache_root, locked

#: the environment variable that sets the limit ("5G", "500M", bytes)
MAX_SIZE_VARIABLE = "TILECRAFT_CACHE_MAX_SIZE"
#: 5 GiB, ccache's default: a checkout's Tensix build of one arch leaves ~0.3 GB (five prefixes, the
#: machine tree, kernels), so the arches, worktrees and versions in use stay cached (a prefix costs
#: ~2 s of g++ to rebuild), while a year of upgrades cannot fill a disk
DEFAULT_MAX_SIZE = 5 * 1024 ** 3
#: a lookup records its use when the last record is older than this (one write a minute per entry)
MARK_AFTER_S = 60.0
#: an entry used this recently is never removed: longer than any compile or load that follows a
#: lookup, plus ``MARK_AFTER_S`` (a lookup may find a mark that old and leave it)
KEEP_RECENT_S = 600.0
#: builds look at the cache's size at most this often (a scan stats every file of the cache)
CHECK_EVERY_S = 60.0
#: the file whose modification time is the last check of any process
CHECKED = ".size-checked"
#: the name prefix of an entry renamed aside to be removed
EVICTING = ".evicting-"
#: a build's scratch directory this old was left by a killed build (a live one holds it minutes)
STALE_SCRATCH_S = 24 * 3600.0

_UNITS = {"": 1, "K": 1024, "M": 1024 ** 2, "G": 1024 ** 3, "T": 1024 ** 4}
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:I?B)?\s*", re.IGNORECASE)

R = TypeVar("R")


def bounded_root() -> Path:
    """``<cache>/emu``: the part of the user cache that is kept within the limit."""
    return cache_root() / "emu"


def parse_size(text: str, source: str = "--max-size") -> int:
    """``text`` ("5G", "500M", "1.5G", "2048") in bytes; anything else is a ValueError that names
    ``source`` and the accepted forms."""
    match = _SIZE.fullmatch(text)
    if match is None:
        raise ValueError(f"{source} takes a size such as 5G, 500M or 2048 (bytes; K, M, G and T are powers of "
                         f"1024, a trailing B or iB is allowed), not {text!r}")
    return int(float(match[1]) * _UNITS[match[2].upper()])


def format_size(size: float) -> str:
    """``size`` bytes as ``parse_size`` reads them back, to three digits: 812M, 5.0G, 48K."""
    for unit in "TGMK":
        if size >= _UNITS[unit]:
            value = size / _UNITS[unit]
            return f"{value:.1f}{unit}" if value < 10 else f"{value:.0f}{unit}"
    return f"{size:.0f}"


def max_size() -> int:
    """The limit: ``$TILECRAFT_CACHE_MAX_SIZE``, else ``DEFAULT_MAX_SIZE``."""
    text = os.environ.get(MAX_SIZE_VARIABLE, "").strip()
    return parse_size(text, f"${MAX_SIZE_VARIABLE}") if text else DEFAULT_MAX_SIZE


def mark_used(entry: Path) -> bool:
    """Record that ``entry`` is used now (so :func:`prune` keeps it for ``KEEP_RECENT_S``); False
    when it is not there, evicted or never built, and the caller builds it."""
    try:
        if time.time() - entry.lstat().st_mtime > MARK_AFTER_S:
            os.utime(entry, follow_symlinks=False)
    except FileNotFoundError:
        return False
    except OSError:  # a cache this user may read but not write: used, and not recorded
        pass
    return True


def memoized_entry(entry_of: Callable[[R], Path]) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """``functools.cache`` for a function whose result lies in a cache entry (``entry_of(result)``):
    every call marks the entry used, and a call after it was evicted runs the function again."""
    def decorate(function: Callable[..., R]) -> Callable[..., R]:
        memo = functools.cache(function)

        @functools.wraps(function)
        def call(*args, **kwargs):
            result = memo(*args, **kwargs)
            if not mark_used(entry_of(result)):
                memo.cache_clear()
                result = memo(*args, **kwargs)
            return result

        return call
    return decorate


@dataclass(frozen=True)
class Entry:
    path: Path
    kind: str
    #: bytes on disk (allocated blocks, as du counts them)
    size: int
    #: the time of its last use (its modification time, see the module docstring)
    last_use: float


def disk_usage(path: Path | str) -> int:
    """Bytes ``path`` takes on disk, a tree's files included (links not followed); what vanishes
    while it is counted counts nothing."""
    try:
        info = os.lstat(path)
        if not stat.S_ISDIR(info.st_mode):
            return info.st_blocks * 512
        with os.scandir(path) as children:
            listed = list(children)
    except FileNotFoundError:
        return 0
    total = info.st_blocks * 512
    for child in listed:
        try:
            total += (disk_usage(child.path) if child.is_dir(follow_symlinks=False)
                      else child.stat(follow_symlinks=False).st_blocks * 512)
        except FileNotFoundError:
            pass
    return total


def kinds(root: Path) -> list[Path]:
    """The kind directories under ``root`` (the bounded part of a cache) that are this cache's own."""
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if not p.name.startswith(".") and p.is_dir() and not p.is_symlink())


def entries(root: Path | None = None) -> list[Entry]:
    """Every entry under ``root`` (default: this user's ``<cache>/emu``) with its size and last use."""
    found = []
    for kind in kinds(root or bounded_root()):
        for path in sorted(kind.iterdir()):
            if path.name.startswith("."):
                continue
            try:
                last_use = path.lstat().st_mtime
            except FileNotFoundError:
                continue
            found.append(Entry(path, kind.name, disk_usage(path), last_use))
    return found


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def _evict(path: Path, keep_after: float) -> bool:
    """Remove the entry ``path`` by renaming it aside and deleting that; False when it was gone
    already, is being built again (``user_cache.fill`` holds its lock: it replaces a damaged one),
    or was used at ``keep_after`` or later (then it is put back where it was)."""
    aside = path.with_name(f"{EVICTING}{path.name[:40]}-{uuid.uuid4().hex[:12]}")
    with locked(path, wait=False) as free:
        if not free:
            return False
        try:
            path.rename(aside)
        except OSError:  # gone already, or not this user's to move
            return False
        if aside.lstat().st_mtime >= keep_after:  # looked up since the scan: its user may be about to open it
            aside.rename(path)
            return False
    _remove(aside)
    return True


@dataclass(frozen=True)
class Pruned:
    removed: int
    freed: int
    #: the cache's size afterwards; above the limit only when the rest was used too recently
    size: int


def prune(limit: int, wait: bool = True) -> Pruned | None:
    """Remove the least recently used entries until the cache is within ``limit`` bytes, keeping
    every entry used in the last ``KEEP_RECENT_S``. None when ``wait`` is False and another
    process is pruning."""
    return _removing(lambda found: _oldest_first_over(found, limit), wait)


def clear(kind: str | None = None) -> Pruned:
    """Remove every entry (of ``kind``), however recently used: what a user asks for by name."""
    result = _removing(lambda found: [e for e in found if kind in (None, e.kind)], wait=True, keep_after=math.inf)
    assert result is not None
    return result


def _oldest_first_over(found: list[Entry], limit: int) -> list[Entry]:
    """The entries to remove, oldest use first, for the total to fall within ``limit``; none used
    in the last ``KEEP_RECENT_S``."""
    over = sum(e.size for e in found) - limit
    keep_after = time.time() - KEEP_RECENT_S
    chosen = []
    for entry in sorted(found, key=lambda e: e.last_use):
        if over <= 0 or entry.last_use >= keep_after:
            break
        chosen.append(entry)
        over -= entry.size
    return chosen


def _left_by_killed_process(path: Path) -> bool:
    """Whether ``path`` is an eviction's entry renamed aside (seen under the cache-wide lock: its
    evictor is gone) or a build's scratch older than ``STALE_SCRATCH_S``."""
    if path.name.startswith(EVICTING):
        return True
    try:
        return path.name.startswith(SCRATCH_PREFIX) and path.lstat().st_mtime < time.time() - STALE_SCRATCH_S
    except FileNotFoundError:  # its build finished meanwhile
        return False


def _removing(choose: Callable[[list[Entry]], list[Entry]], wait: bool,
              keep_after: float | None = None) -> Pruned | None:
    """Under the cache-wide lock: remove what killed processes left (an eviction's half-deleted
    entry, a build's scratch a day old), then the entries ``choose`` picks from all of them."""
    root = bounded_root()
    with locked(root, wait=wait) as held:
        if not held:
            return None
        for kind in kinds(root):
            for path in kind.iterdir():
                if _left_by_killed_process(path):
                    _remove(path)
        found = entries(root)
        removed = freed = 0
        for entry in choose(found):
            if _evict(entry.path, keep_after if keep_after is not None else time.time() - KEEP_RECENT_S):
                removed, freed = removed + 1, freed + entry.size
        return Pruned(removed, freed, sum(e.size for e in found) - freed)


def after_build() -> None:
    """Keep the cache within ``max_size()`` after a build added an entry; looks at most once per
    ``CHECK_EVERY_S`` over all processes, and never waits for another process's pruning."""
    limit = max_size()
    checked = bounded_root() / CHECKED
    try:
        if time.time() - checked.stat().st_mtime < CHECK_EVERY_S:
            return
    except FileNotFoundError:
        pass
    checked.parent.mkdir(parents=True, exist_ok=True)
    checked.touch()
    prune(limit, wait=False)
