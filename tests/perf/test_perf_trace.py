"""Chrome-trace output and the ``tilecraft profile`` command."""

from __future__ import annotations

import json
from collections import defaultdict

from tests.paths import EXAMPLES
from benchmarks.perf_kernels import matmul_mcast, tile_tensor
from tilecraft import cli
from tilecraft.perf import estimate
from tilecraft.perf.capture import programs
from tilecraft.perf.trace import write_trace



def test_trace_schema_tracks_and_monotonic_time(tmp_path):
    with programs() as launched:
        matmul_mcast((2, 2), 2, 2, 2)(*[tile_tensor((256, 256)) for _ in range(3)])
    est = estimate(launched[0], trace=True)
    path = write_trace(est, tmp_path / "trace.json")
    doc = json.loads(path.read_text())
    events = doc["traceEvents"]
    assert events and all(e["ph"] in ("M", "X", "C") for e in events)
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e["name"] == "thread_name"}
    processes = {e["pid"] for e in events if e["name"] == "process_name"}
    assert len(processes) == 4  # one per core
    assert len(names) == 4 * 3  # one track per thread of each core
    slices = defaultdict(list)
    for e in events:
        if e["ph"] == "X":
            assert set(e) >= {"name", "pid", "tid", "ts", "dur"}
            assert e["dur"] > 0 and e["ts"] >= 0
            assert (e["pid"], e["tid"]) in names
            slices[(e["pid"], e["tid"])].append(e)
    assert set(slices) == set(names)
    for track in slices.values():  # in order, never overlapping on one thread
        for prev, cur in zip(track, track[1:]):
            assert cur["ts"] >= prev["ts"] + prev["dur"] - 1e-6
    counters = [e for e in events if e["ph"] == "C"]
    assert counters and all(e["args"]["blocks"] >= 0 for e in counters)
    assert any("perf_kernels.py" in e["name"] for e in events if e["ph"] == "X")


def test_profile_command_prints_bound_roofline_and_lines(tmp_path, capsys):
    trace = tmp_path / "t.json"
    code = cli.main(["profile", str(EXAMPLES / "matmul_2_multitile_block.py"), "--trace", str(trace)])
    out = capsys.readouterr().out
    assert code == 0
    assert "predicted time" in out and "bound" in out and "roofline point" in out
    assert "matmul_2_multitile_block.py:" in out  # the line table names the user's lines
    assert "y_blk += a_blk @ b_blk" in out
    assert json.loads(trace.read_text())["traceEvents"]
