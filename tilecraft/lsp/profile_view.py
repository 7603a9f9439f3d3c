"""The profile in the editor: cycles and stall share per line (inlay hints), and each program's
predicted time and bound on its ``@ttl.operation`` / ``@ttl.kernel`` line (a code lens).

The numbers are the per-line table of ``tilecraft profile`` (``perf.result.LineCost``), computed
on save by a profile run (``runner.py``); nothing is re-estimated here. The text changes between
saves, so each number is anchored to the text of its line: it is shown on the line that still
reads the same, looked for near where it was, and dropped when no line does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lsprotocol import types as lsp

from .convert import span_of

#: how far (in lines) an anchored line is looked for from where it was when profiled
SEARCH = 200
#: the VS Code extension's command that writes the Chrome trace and opens it in Perfetto
OPEN_TRACE = "tilecraft.openTrace"


@dataclass(frozen=True)
class LineCost:
    line: int  # 1-based, when profiled
    source: str
    busy: float  # cycles per core
    critical: float  # share of the critical core's time
    stall: float  # stall cycles per core
    stalled_on: str


@dataclass(frozen=True)
class ProgramTiming:
    program: str
    line: int  # 1-based line of the decorator, when profiled
    source: str
    arch: str
    cores: int
    cycles: float
    seconds: float
    bound: str
    launches: int
    lines: tuple[LineCost, ...]

    def stall_share(self, cost: LineCost) -> float:
        return cost.stall / self.cycles if self.cycles else 0.0


def collect(events: list[dict[str, Any]], path: str) -> list[ProgramTiming]:
    """One timing per kernel of this file: its first launch, and how many launches there were."""
    first: dict[tuple[str, int], dict[str, Any]] = {}
    launches: dict[tuple[str, int], int] = {}
    for event in events:
        span = span_of(event.get("span"))
        if event.get("event") != "profile" or span is None or span.file != path:
            continue
        key = (event["program"], span.line)
        first.setdefault(key, event)
        launches[key] = launches.get(key, 0) + 1
    return [ProgramTiming(e["program"], key[1], e["source"], e["arch"], e["cores"], e["cycles"], e["seconds"],
                          e["bound"], launches[key],
                          tuple(LineCost(c["line"], c["source"], c["busy"], c["critical"], c["stall"], c["stalled_on"])
                                for c in e["lines"]))
            for key, e in first.items()]


def locate(lines: list[str], line: int, source: str) -> int | None:
    """0-based index of the line that reads ``source`` (stripped), nearest to 1-based ``line``."""
    start = line - 1
    for distance in range(SEARCH + 1):
        for row in {start - distance, start + distance}:
            if 0 <= row < len(lines) and lines[row].strip() == source:
                return row
    return None


def _share(value: float) -> str:
    return "<1%" if 0 < value < 0.005 else f"{value:.0%}"


def hint_label(timing: ProgramTiming, cost: LineCost) -> str:
    """``6,912 cycles (42% of time), stall 9%``: busy cycles per core, share of the critical core's
    time, and the share of the program's time its operations stall."""
    label = f"{cost.busy:,.0f} cycles ({_share(cost.critical)} of time)"
    if cost.stall:
        label += f", stall {_share(timing.stall_share(cost))}"
    return label


def hint_tooltip(timing: ProgramTiming, cost: LineCost) -> str:
    text = (f"program '{timing.program}' on {timing.arch}: this line keeps a core busy {cost.busy:,.0f} cycles "
            f"(average over {timing.cores} cores), {cost.critical:.1%} of the critical core's time")
    if cost.stall:
        text += (f"; its operations stall {cost.stall:,.0f} cycles per core, "
                 f"{timing.stall_share(cost):.1%} of the program's {timing.cycles:,.0f} cycles")
        if cost.stalled_on:
            text += f", waiting on {cost.stalled_on}"
    return text


def inlay_hints(timings: list[ProgramTiming], lines: list[str], first: int, last: int) -> list[lsp.InlayHint]:
    """Hints at the end of every profiled line between 0-based rows ``first`` and ``last``."""
    hints = []
    for timing in timings:
        for cost in timing.lines:
            row = locate(lines, cost.line, cost.source)
            if row is None or not first <= row <= last:
                continue
            end = len(lines[row].rstrip("\r\n"))
            hints.append(lsp.InlayHint(position=lsp.Position(row, end), label=hint_label(timing, cost),
                                       tooltip=hint_tooltip(timing, cost), padding_left=True))
    return hints


def lens_title(timing: ProgramTiming) -> str:
    title = (f"{timing.program}: {timing.seconds * 1e6:,.1f} us predicted ({timing.cycles:,.0f} cycles on "
             f"{timing.cores} core{'s' if timing.cores != 1 else ''}, {timing.arch}), bound: {timing.bound}")
    if timing.launches > 1:
        title += f" (first of {timing.launches} launches)"
    return title


def code_lenses(timings: list[ProgramTiming], lines: list[str], uri: str) -> list[lsp.CodeLens]:
    lenses = []
    for timing in timings:
        row = locate(lines, timing.line, timing.source)
        if row is not None:
            command = lsp.Command(title=lens_title(timing), command=OPEN_TRACE, arguments=[uri])
            lenses.append(lsp.CodeLens(lsp.Range(lsp.Position(row, 0), lsp.Position(row, 0)), command))
    return lenses
