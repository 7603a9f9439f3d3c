"""Chrome-trace JSON of an estimate (opens in ui.perfetto.dev and chrome://tracing).

One process per core, one track (thread) per kernel thread, complete ("X") slices named by the
source line they charge, stall slices named by what they wait on, and one counter track per
buffer and core with the blocks pushed and not yet popped. Times are microseconds of predicted
device time. Adjacent slices of the same line are merged; a thread records at most
``TRACE_LIMIT`` slices and a buffer ``LOG_LIMIT`` occupancy changes (the track name says when a
thread's slices stop early), so that traces of real problem sizes stay openable.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .codegen import TRACE_LIMIT
from .result import Estimate


def trace_events(est: Estimate) -> list[dict[str, Any]]:
    run = est.run
    if not run.trace:
        raise ValueError("estimate(..., trace=True) is needed for a trace")
    us = 1e6 / est.clock_hz
    pids = {core: i + 1 for i, core in enumerate(run.cores)}
    events: list[dict[str, Any]] = []
    for core, pid in pids.items():
        events.append({"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": f"core {core}"}})
    tracks: dict[tuple[int, ...], int] = {}
    for thread in run.threads:
        pid = pids[thread.core]
        tid = tracks[thread.core] = tracks.get(thread.core, 0) + 1
        raw = thread.events or []
        slices = _merged(raw)
        cut = len(raw) >= TRACE_LIMIT
        label = f"{thread.name} ({thread.kind})" + (f", only the first {TRACE_LIMIT} slices" if cut else "")
        events.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": label}})
        for op_id, start, end in slices:
            events.append({"ph": "X", "pid": pid, "tid": tid, "ts": start * us, "dur": (end - start) * us,
                           "cat": "stall" if op_id < 0 else "busy", "name": _slice_name(run, op_id)})
    for (core, cb_index), log in run.occupancy.items():
        name = f"{run.program.cbs[cb_index].name} blocks"
        level = 0
        for t, delta in sorted(log):
            level += delta
            events.append({"ph": "C", "pid": pids[core], "tid": 0, "ts": t * us, "name": name,
                           "args": {"blocks": level}})
    return events


def write_trace(est: Estimate, path: str | os.PathLike) -> Path:
    out = Path(path)
    out.write_text(json.dumps({"traceEvents": trace_events(est), "displayTimeUnit": "ns"}))
    return out


def _merged(events: list[tuple[int, float, float]]) -> list[tuple[int, float, float]]:
    """Drop empty slices; join a slice to the previous one when it is the same op, back to back."""
    out: list[tuple[int, float, float]] = []
    for op_id, start, end in events:
        if end <= start:
            continue
        if out and out[-1][0] == op_id and out[-1][2] == start:
            out[-1] = (op_id, out[-1][1], end)
        else:
            out.append((op_id, start, end))
    return out


def _slice_name(run: Any, op_id: int) -> str:
    stall = op_id < 0
    op = run.ops[~op_id if stall else op_id]
    where = f"{os.path.basename(op.loc.file)}:{op.loc.line}" if op.loc is not None else op.name
    if stall:
        return f"wait {run.stall_labels.get(~op_id, op.name)} ({where})"
    return f"{where} {op.loc.source_line().strip() if op.loc is not None else op.name}"
