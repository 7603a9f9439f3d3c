"""What ``tilecraft tune`` shows: a progress bar while it runs, then tables and a JSON record.

The tables hold only what does not depend on where or in which order candidates ran (the
ranking, the pruned candidates and their reasons, the counts), so a serial sweep and a Dask sweep
print the same tables; how long it took and on what is printed above them. rich (the ``tune``
extra) draws them; it is imported when a table or a progress bar is asked for.
"""

from __future__ import annotations

import io
import sys
from typing import Any

from .evaluate import FAILED, LOST, PRUNED, BufferSize, Outcome
from .sweep import SweepResult

#: rows of pruned / failed candidates shown (the JSON record has all of them)
MAX_ROWS = 30
TABLE_WIDTH = 150


class RichUnavailable(RuntimeError):
    """rich is not installed (the ``tune`` extra)."""


def _rich() -> Any:
    try:
        import rich.console
        import rich.progress
        import rich.table
    except ImportError:
        raise RichUnavailable("tables and progress bars need rich: pip install 'tilecraft[tune]'") from None
    return rich


def heading(result: SweepResult) -> str:
    req = result.request
    return (f"{req.program}({req.key}) on {req.arch} at {req.fidelity}: {len(result.outcomes)} candidates in "
            f"{result.elapsed_s:.1f} s, {result.runner}")


def render_tables(result: SweepResult, width: int = TABLE_WIDTH) -> str:
    """The ranking, the pruned and the failed candidates, and the counts, as text."""
    rich = _rich()
    out = io.StringIO()
    console = rich.console.Console(file=out, width=width, color_system=None, force_terminal=False)
    names = param_names(result.outcomes)
    kept = result.kept
    title = (f"every estimated configuration ({len(kept)})" if result.exhaustive
             else f"best {len(kept)} configuration{'s' * (len(kept) != 1)}")
    best = rich.table.Table(title=title, title_justify="left")
    best.add_column("#", justify="right")
    for name in names:
        best.add_column(name, justify="right")
    for column in ("predicted", "bound", "utilisation", "TFLOP/s", "L1 use"):
        best.add_column(column, justify="right" if column != "bound" else "left")
    measured = any(o.error is not None for o in kept)
    if measured:
        best.add_column(f"error at {result.request.fidelity}", justify="right")
    sized = any(b.sizing for o in kept for b in o.buffers)
    if sized:
        best.add_column("sized buffers (blocks x shape)")
    notes = any(o.reason for o in kept)
    if notes:
        best.add_column("note")
    for rank, o in enumerate(kept, 1):
        row = [str(rank), *(format_value(o.params.get(n)) for n in names), _time(o.seconds), o.bound,
               _pct(o.utilisation), f"{(o.flops_per_s or 0) / 1e12:.1f}", _l1(o)]
        if measured:
            row.append("-" if o.error is None else f"{o.error:.3%}")
        if sized:
            row.append(", ".join(_buffer(b) for b in o.buffers if b.sizing))
        if notes:
            row.append(o.reason)
        best.add_row(*row)
    console.print(best)
    for status, title in ((PRUNED, "pruned at compile time"), (FAILED, "failed"), (LOST, "lost (worker died)")):
        rows = result.with_status(status)
        if not rows:
            continue
        table = rich.table.Table(title=f"{title} ({len(rows)})", title_justify="left")
        for name in names:
            table.add_column(name, justify="right")
        table.add_column("reason", overflow="fold")
        for o in rows[:MAX_ROWS]:
            table.add_row(*(format_value(o.params.get(n)) for n in names), o.reason)
        if len(rows) > MAX_ROWS:
            table.add_row(*([""] * len(names)), f"... and {len(rows) - MAX_ROWS} more (--json has every one)")
        console.print(table)
    console.print(summary(result))
    return out.getvalue()


def summary(result: SweepResult) -> str:
    estimated = len(result.ranked) + len(result.with_status("slower"))
    kept = len(result.kept)
    slower = f", {result.slower} slower than the top {kept}" if result.slower else ""
    return (f"{len(result.outcomes)} candidates: {estimated} estimated ({kept} ranked{slower}), "
            f"{len(result.with_status(PRUNED))} pruned, {len(result.with_status(FAILED))} failed, "
            f"{len(result.with_status(LOST))} lost")


def to_json(result: SweepResult) -> dict[str, Any]:
    """The sweep as a JSON-ready record (only what a serial and a Dask sweep share)."""
    req = result.request
    best = result.best
    return {
        "program": req.program, "key": req.key, "arch": req.arch, "grid": list(req.grid or ()),
        "fidelity": req.fidelity, "top": result.top, "exhaustive": result.exhaustive,
        "candidates": len(result.outcomes), "best": None if best is None else _jsonable(best.params),
        "ranked": [{"rank": i, **_outcome_json(o)} for i, o in enumerate(result.kept, 1)],
        "slower": result.slower,
        **{status: [{"params": _jsonable(o.params), "reason": o.reason} for o in result.with_status(status)]
           for status in (PRUNED, FAILED, LOST)},
    }


def print_result(result: SweepResult, file: Any = None) -> None:
    file = file or sys.stdout
    print(heading(result), file=file)
    print(render_tables(result), file=file, end="", flush=True)


class RichProgress:
    """A progress bar per phase (compiling, estimating) on stderr; cleared when the sweep ends."""

    def __init__(self, name: str):
        rich = _rich()
        columns = (rich.progress.TextColumn("{task.description}"), rich.progress.BarColumn(),
                   rich.progress.MofNCompleteColumn(), rich.progress.TimeElapsedColumn())
        self.name = name
        self.bar = rich.progress.Progress(*columns, console=rich.console.Console(stderr=True), transient=True)
        self.bar.start()
        self.task: Any = None

    def phase(self, name: str, total: int | None) -> None:
        if self.task is not None:
            self.bar.remove_task(self.task)
        self.task = self.bar.add_task(f"{self.name}: {name}", total=total)

    def advance(self) -> None:
        self.bar.advance(self.task)

    def close(self) -> None:
        self.bar.stop()


def param_names(outcomes: list[Outcome]) -> list[str]:
    names: dict[str, None] = {}
    for o in outcomes:
        names.update(dict.fromkeys(o.params))
    return list(names)


def _outcome_json(o: Outcome) -> dict[str, Any]:
    return {"params": _jsonable(o.params), "predicted_s": o.seconds, "cycles": o.cycles, "bound": o.bound,
            "utilisation": o.utilisation, "flops_per_s": o.flops_per_s, "l1_bytes": o.l1_bytes,
            "l1_available": o.l1_available, "note": o.reason, "error": o.error,
            "buffers": [{"name": b.name, "shape": list(b.shape), "blocks": b.count, "bytes": b.nbytes,
                         "sized": b.sizing} for b in o.buffers]}


def _jsonable(params: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in params.items()}


def format_value(value: Any) -> str:
    if value is None:
        return "-"
    return "x".join(map(str, value)) if isinstance(value, tuple) else str(value)


def _time(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1e6:,.1f} us"


def _pct(share: float | None) -> str:
    return "-" if share is None else f"{share:.0%}"


def _l1(o: Outcome) -> str:
    if not o.l1_available:
        return "-"
    return f"{o.l1_bytes / 1024:,.0f} KiB ({o.l1_bytes / o.l1_available:.0%})"


def _buffer(b: BufferSize) -> str:
    return f"{b.name} {b.count} x {'x'.join(map(str, b.shape))}"
