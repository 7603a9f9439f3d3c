"""``tilecraft cache info|prune|clear``: what the emulator's cache holds, and room made in it.

    tilecraft cache info                   # per kind: entries, size, oldest and newest use; total, limit
    tilecraft cache prune [--max-size 2G]  # remove the least recently used entries down to the limit
    tilecraft cache clear [--kind K]       # remove every entry (of one kind)

The bound and its eviction are tilecraft/emu/cache_budget.py's; builds apply it on their own, so
these commands are for looking, and for making room now. Tuning results are not compiled objects
and keep their own command, ``tilecraft tune --cache list|clear``.
"""

from __future__ import annotations

import argparse
import datetime
import io
import sys

from .emu import cache_budget
from .emu.cache_budget import format_size
from .user_cache import cache_root

#: the columns of ``info``'s table, right-aligned but for the kind
COLUMNS = ("kind", "entries", "size", "oldest use", "newest use")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("cache", help="show the emulator's cache, or remove its least recently used entries")
    actions = p.add_subparsers(dest="action", required=True)
    actions.add_parser("info", help="entries, size and last use per kind, the total and the limit")
    prune = actions.add_parser("prune", help="remove the least recently used entries until the cache is within "
                               f"the limit (entries used in the last {_recent_minutes()} minutes stay)")
    prune.add_argument("--max-size", metavar="SIZE", help=f"the limit for this pruning, e.g. 2G or 500M (default: "
                       f"${cache_budget.MAX_SIZE_VARIABLE}, else {format_size(cache_budget.DEFAULT_MAX_SIZE)})")
    clear = actions.add_parser("clear", help="remove every entry, however recent (rebuilt when next needed)")
    clear.add_argument("--kind", metavar="KIND", help="only this kind's entries (tilecraft cache info lists the kinds)")


def run(args: argparse.Namespace) -> int:
    try:
        if args.action == "info":
            print(info(cache_budget.max_size()), end="")
        elif args.action == "prune":
            limit = (cache_budget.parse_size(args.max_size) if args.max_size is not None
                     else cache_budget.max_size())
            pruned = cache_budget.prune(limit)
            assert pruned is not None  # waited for the lock
            print(_summary(pruned, limit))
        else:
            _check_kind(args.kind)
            cleared = cache_budget.clear(args.kind)
            print(_summary(cleared))
    except ValueError as exc:
        print(f"tilecraft: error: {exc}", file=sys.stderr)
        return 2
    return 0


def _check_kind(kind: str | None) -> None:
    known = [p.name for p in cache_budget.kinds(cache_budget.bounded_root())]
    if kind is not None and kind not in known:
        raise ValueError(f"--kind {kind!r}: the cache at {cache_budget.bounded_root()} has "
                         + (f"the kinds {', '.join(known)}" if known else "no entries"))


def _summary(done: cache_budget.Pruned, limit: int | None = None) -> str:
    """What a prune (against ``limit``) or a clear removed, and what is left."""
    left = f"{format_size(done.size)} left" + ("" if limit is None else f" of the {format_size(limit)} limit")
    if limit is not None and done.size > limit:
        left += f" (the rest was used in the last {_recent_minutes()} minutes)"
    return (f"tilecraft: removed {done.removed} entr{'y' if done.removed == 1 else 'ies'} ({format_size(done.freed)}) "
            f"from {cache_budget.bounded_root()}; {left}")


def _recent_minutes() -> str:
    return f"{cache_budget.KEEP_RECENT_S / 60:.0f}"


def _when(timestamp: float) -> str:
    return datetime.datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M")


def info(limit: int) -> str:
    """The table of ``tilecraft cache info``, the total against ``limit``, and what is not bounded."""
    found = cache_budget.entries()
    rows = []
    for kind in sorted({e.kind for e in found}):
        of_kind = [e for e in found if e.kind == kind]
        uses = [e.last_use for e in of_kind]
        rows.append((kind, str(len(of_kind)), format_size(sum(e.size for e in of_kind)), _when(min(uses)),
                     _when(max(uses))))
    total = sum(e.size for e in found)
    rows.append(("total", str(len(found)), format_size(total), "", ""))
    lines = [f"{cache_budget.bounded_root()}: {format_size(total)} of the {format_size(limit)} limit "
             f"(${cache_budget.MAX_SIZE_VARIABLE}; least recently used entries go first)", _table(rows)]
    root = cache_root()
    others = sorted(p for p in root.iterdir() if p.is_dir() and p.name not in ("emu", "locks")) if root.is_dir() else []
    if others:
        lines.append("not bounded (inputs downloaded once per version, and tuning results: tilecraft tune --cache "
                     "clear): " + ", ".join(f"{p.name} {format_size(cache_budget.disk_usage(p))}" for p in others))
    return "\n".join(lines) + "\n"


def _table(rows: list[tuple[str, ...]]) -> str:
    """``rows`` under ``COLUMNS``: a rich table where rich is installed, aligned columns otherwise."""
    try:
        import rich.console
        import rich.table
    except ImportError:
        widths = [max(len(r[i]) for r in [COLUMNS, *rows]) for i in range(len(COLUMNS))]
        return "\n".join("  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in
                                   enumerate(zip(row, widths))).rstrip() for row in [COLUMNS, *rows])
    table = rich.table.Table()
    for i, column in enumerate(COLUMNS):
        table.add_column(column, justify="left" if i == 0 else "right")
    for i, row in enumerate(rows):
        table.add_row(*row, end_section=i == len(rows) - 2)
    out = io.StringIO()
    rich.console.Console(file=out, width=100, color_system=None, force_terminal=False).print(table)
    return out.getvalue().rstrip("\n")
