"""A model script's run as one timeline: its ttnn ops and its kernel programs, in the order they ran.

``tilecraft profile`` times each ttnn op with :mod:`.ttnn_ops` and each kernel program with the
language- or kernel-level model; the device runs them one after another, so the script's predicted
time is their sum. :func:`format_table` prints the op-by-op table (op, shape, dtype, fidelity,
predicted µs, bound, model, share of the total); :func:`trace_events` lays the same entries on one
Chrome-trace track (each kernel's per-core tracks follow, at its place on the timeline).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from .result import Estimate
from .trace import trace_events as kernel_trace_events
from .ttnn_ops import OpTime


@dataclass(frozen=True)
class Kernel:
    """A kernel program on the timeline: its estimate and its last tensor (the output, by convention)."""

    estimate: Estimate
    shape: tuple[int, ...]
    dtype: str
    #: "language" (the TT-Lang IR), "kernel" (its lowered or emitted kernels, or hand-written C++)
    level: str


Entry = Union[OpTime, Kernel]


@dataclass(frozen=True)
class Row:
    """One line of the table."""

    op: str
    shape: str
    dtype: str
    fidelity: str
    seconds: float
    bound: str
    model: str


def row(entry: Entry) -> Row:
    if isinstance(entry, OpTime):
        return Row(f"ttnn.{entry.op}", _shape(entry.shape), entry.dtype, entry.fidelity, entry.seconds, entry.bound,
                   entry.model)
    est = entry.estimate
    return Row(est.program, _shape(entry.shape), entry.dtype, est.fidelity, est.seconds, est.bound,
               f"TT-Lang, {entry.level} level" if entry.level == "language" else "kernel-level replay")


def _shape(shape: tuple[int, ...]) -> str:
    return "x".join(str(d) for d in shape) or "scalar"


def total_seconds(entries: list[Entry]) -> float:
    return sum(row(e).seconds for e in entries)


def format_table(entries: list[Entry], arch: str) -> str:
    """The op-by-op table: every ttnn op and kernel program in the order the script ran them."""
    rows = [row(e) for e in entries]
    total = sum(r.seconds for r in rows)
    header = ("#", "op", "shape", "dtype", "fidelity", "predicted us", "bound", "model", "% of total")
    cells = [(str(i + 1), r.op, r.shape, r.dtype, r.fidelity, f"{r.seconds * 1e6:,.2f}", r.bound, r.model,
              f"{r.seconds / total:.1%}" if total else "-") for i, r in enumerate(rows)]
    widths = [max(len(header[c]), *(len(line[c]) for line in cells)) for c in range(len(header))]
    right = {0, 5, 8}

    def line(values: tuple[str, ...]) -> str:
        return "  ".join(v.rjust(w) if c in right else v.ljust(w) for c, (v, w) in enumerate(zip(values, widths)))

    out = [f"the script on {arch}: {len(rows)} ops and kernels, predicted {total * 1e6:,.2f} us of device time "
           "(one after another; host dispatch not counted)", line(header), line(tuple("-" * w for w in widths))]
    out += [line(c).rstrip() for c in cells]
    return "\n".join(out)


#: the timeline's process id in the trace (the kernels' per-core processes follow it)
TIMELINE_PID = 0


def trace_events(entries: list[Entry]) -> list[dict[str, Any]]:
    """Chrome-trace events: one "ttnn ops and kernels" track with a slice per entry, back to back,
    and each kernel's own per-core tracks (:func:`.trace.trace_events`) shifted to its slice."""
    events: list[dict[str, Any]] = [
        {"ph": "M", "name": "process_name", "pid": TIMELINE_PID, "tid": 0, "args": {"name": "ttnn ops and kernels"}},
        {"ph": "M", "name": "thread_name", "pid": TIMELINE_PID, "tid": 1, "args": {"name": "device timeline"}},
    ]
    offset, pid_base = 0.0, TIMELINE_PID
    for entry in entries:
        r = row(entry)
        events.append({"ph": "X", "pid": TIMELINE_PID, "tid": 1, "ts": offset, "dur": r.seconds * 1e6, "name": r.op,
                       "cat": "ttnn" if isinstance(entry, OpTime) else "kernel",
                       "args": {"shape": r.shape, "dtype": r.dtype, "fidelity": r.fidelity, "bound": r.bound,
                                "model": r.model}})
        if isinstance(entry, Kernel) and entry.estimate.run.trace:
            part = kernel_trace_events(entry.estimate)
            for event in part:
                event["pid"] += pid_base
                if "ts" in event:
                    event["ts"] += offset
            events += part
            pid_base += entry.estimate.cores
        offset += r.seconds * 1e6
    return events
