"""The ttnn ops' cost rules (tilecraft/perf/ttnn_ops.py) and ``tilecraft profile``'s end-to-end table
and trace of a model script (ttnn ops and a TT-Lang kernel on one timeline)."""

from __future__ import annotations

import json

import pytest
import torch

import tilecraft.ttnn as ttnn
from tests.outputs import op_table
from tests.paths import TESTS
from tilecraft import cli, session
from tilecraft.arch import ARCHS
from tilecraft.dtypes import bfloat16
from tilecraft.perf.ttnn_ops import COSTS, time_op
from tilecraft.perf.network import Resources
from tilecraft.ttnn.layout import Layout, Shape
from tilecraft.ttnn.op_record import OpCall, PlacedTensor

MODEL = TESTS / "perf" / "scripts" / "ttnn_model.py"
WORMHOLE = ARCHS["wormhole_b0"]


def test_every_primitive_has_a_cost_rule():
    assert COSTS.missing() == []


def tiled(*shape: int, dram: bool = True) -> PlacedTensor:
    return PlacedTensor(Shape(shape), bfloat16, Layout.TILE, dram)


def test_unary_sfpu_op_is_the_wheel_programs_steady_state():
    """exp of one tile on each of 16 cores: the reader's DRAM round trip is the slowest stage; the step's other
    stages and the last write's acknowledgement are its fill. Worked out from the Wormhole figures the
    kernel-level model uses (tests/emu/test_wheel_op_costs.py compares it with the replay itself)."""
    figs = WORMHOLE.costs
    net = Resources(WORMHOLE)
    tile = bfloat16.tile_bytes  # 2048
    # reserve, barrier, push around the wait for the page: bank and port, then the DRAM latency
    reader = 3 * 8 + max(16, tile / 32, max(tile * net.bank_cpb, tile / 32) + net.dram_latency)
    unpack = 2 * 8 + tile / figs.unpack_bytes_per_cycle  # wait + pop, copy_tile's unpack
    math = 8 + 8 + 32 * (2 + 12)  # copy_tile's datacopy, exp's init, its SFPU passes (load, store, 12 body)
    pack = 2 * 8 + tile / figs.pack_bytes_per_cycle
    writer = 3 * 8 + max(16, tile / 32)
    last_ack = net.dram_latency  # the writer's final barrier
    one = time_op(OpCall("exp", (tiled(32, 32 * 16),), tiled(32, 32 * 16)), WORMHOLE)  # 16 tiles on 16 cores
    assert one.model == "kernel" and one.cores == 16 and one.bound == "reader (a DRAM round trip per page)"
    assert one.cycles == pytest.approx(reader + unpack + math + pack + writer + last_ack)
    # ten tiles per core: the banks' bandwidth is the bound (640 tiles in and out at 288 GB/s)
    big = time_op(OpCall("exp", (tiled(320, 32 * 64),), tiled(320, 32 * 64)), WORMHOLE)
    assert big.bound == "DRAM"
    assert big.cycles == pytest.approx(640 * 2 * tile / (figs.dram_bytes_per_s / WORMHOLE.clock_hz) + net.dram_latency)


def test_roofline_ops_move_their_bytes_at_the_chips_bandwidth():
    x, out = tiled(1, 64, 32, 128), tiled(1, 128, 32, 64)
    t = time_op(OpCall("permute", (x,), out, {"dims": (0, 3, 2, 1)}), WORMHOLE)
    assert (t.model, t.bound) == ("roofline", "DRAM")
    assert t.cycles == pytest.approx(2 * x.nbytes / (WORMHOLE.costs.dram_bytes_per_s / WORMHOLE.clock_hz))


def test_matmul_fidelity_and_layout_views():
    a, b, out = tiled(1024, 1024), tiled(1024, 1024), tiled(1024, 1024)
    times = {}
    for fid in ttnn.MathFidelity:
        config = ttnn.WormholeComputeKernelConfig(math_fidelity=fid)
        times[fid] = time_op(OpCall("matmul", (a, b), out, {"compute_kernel_config": config}), WORMHOLE)
    assert times[ttnn.MathFidelity.LoFi].fidelity == "LoFi"
    assert [times[f].cycles for f in ttnn.MathFidelity] == sorted(times[f].cycles for f in ttnn.MathFidelity)
    assert times[ttnn.MathFidelity.HiFi4].bound == "math"  # 32 tile rows x 32 tile columns over 64 cores
    view = time_op(OpCall("reshape", (tiled(2, 64, 128),), tiled(128, 128), {"shape": (128, 128)}), WORMHOLE)
    assert (view.cycles, view.model) == (0.0, "view")


def _recorded_calls() -> list[OpCall]:
    calls: list[OpCall] = []
    with session.using(op_hooks=[calls.append]):
        x = ttnn.from_torch(torch.randn(32, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
        y = ttnn.softmax(ttnn.exp(x), dim=-1)
        ttnn.rms_norm(y, epsilon=1e-5)
    return calls


def test_op_hook_records_each_op_once_with_its_types():
    calls = _recorded_calls()
    assert [c.name for c in calls] == ["exp", "softmax", "rms_norm"]
    assert all(c.output.shape == Shape((32, 64)) and c.output.dtype is bfloat16 and c.inputs[0].in_dram for c in calls)
    assert calls[1].params["dim"] == -1


def test_profile_prints_ttnn_ops_and_kernels_in_order_and_one_trace(tmp_path, capsys):
    trace = tmp_path / "t.json"
    assert cli.main(["profile", str(MODEL), "--trace", str(trace)]) == 0
    out = capsys.readouterr().out
    rows = op_table(out)
    assert [(r[1], r[2], r[3], r[4]) for r in rows] == [
        ("ttnn.to_layout", "32x64", "bfloat16", "-"),
        ("double", "32x64", "bfloat16", "HiFi4"),
        ("ttnn.matmul", "32x128", "bfloat16", "HiFi2"),
        ("ttnn.add", "32x128", "bfloat16", "LoFi"),
        ("ttnn.gelu", "32x128", "bfloat16", "LoFi"),
        ("ttnn.softmax", "32x128", "bfloat16", "LoFi"),
        ("ttnn.to_layout", "32x128", "bfloat16", "-"),
    ]
    assert all(r[7] == "kernel" for i, r in enumerate(rows) if i != 1)
    assert rows[1][7] == "TT-Lang, language level"
    # each ttnn row is its op's cost rule on the recorded types
    row_major, tile = (PlacedTensor(Shape((32, n)), bfloat16, lay, True)
                       for n, lay in ((64, Layout.ROW_MAJOR), (64, Layout.TILE)))
    h, w, b, y = tiled(32, 64), tiled(64, 128), tiled(1, 128), tiled(32, 128)
    hifi2 = ttnn.WormholeComputeKernelConfig(math_fidelity=ttnn.MathFidelity.HiFi2)
    want = [time_op(OpCall("to_layout", (row_major,), tile), WORMHOLE),
            time_op(OpCall("matmul", (h, w), y, {"compute_kernel_config": hifi2}), WORMHOLE),
            time_op(OpCall("add", (y, b), y), WORMHOLE),
            time_op(OpCall("gelu", (y,), y), WORMHOLE),
            time_op(OpCall("softmax", (y,), y, {"dim": -1}), WORMHOLE),
            time_op(OpCall("to_layout", (y,), PlacedTensor(Shape((32, 128)), bfloat16, Layout.ROW_MAJOR, True)),
                    WORMHOLE)]
    ttnn_rows = [r for i, r in enumerate(rows) if i != 1]
    for r, t in zip(ttnn_rows, want):
        assert float(r[5]) == pytest.approx(t.seconds * 1e6, abs=0.006)
        assert r[6] == t.bound
    total = sum(float(r[5]) for r in rows)
    assert sum(float(r[8].rstrip("%")) for r in rows) == pytest.approx(100, abs=0.5)
    stated = float(out.split("ops and kernels, predicted ")[1].split()[0])
    assert stated == pytest.approx(total, abs=0.05)
    # the trace: the same entries back to back on the timeline track, then the kernel's core tracks
    events = json.loads(trace.read_text())["traceEvents"]
    timeline = [e for e in events if e["pid"] == 0 and e["ph"] == "X"]
    assert [e["name"] for e in timeline] == [r[1] for r in rows]
    assert [e["cat"] for e in timeline] == ["ttnn", "kernel", "ttnn", "ttnn", "ttnn", "ttnn", "ttnn"]
    for prev, cur in zip(timeline, timeline[1:]):
        assert cur["ts"] == pytest.approx(prev["ts"] + prev["dur"])
    assert timeline[2]["args"]["fidelity"] == "HiFi2" and timeline[2]["args"]["model"] == "kernel"
    kernel_slices = [e for e in events if e["pid"] > 0 and e["ph"] == "X"]
    assert kernel_slices and all(timeline[1]["ts"] <= e["ts"] <= timeline[1]["ts"] + timeline[1]["dur"] + 1e-6
                                 for e in kernel_slices)


def test_profile_of_a_script_of_ttnn_ops_only(tmp_path, capsys):
    """No kernel program: the table still times the ops; --plot says why it wrote nothing."""
    script = tmp_path / "ops.py"
    script.write_text("import torch\nimport tilecraft.ttnn as ttnn\n"
                      "x = ttnn.from_torch(torch.randn(64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)\n"
                      "y = ttnn.relu(ttnn.add(x, x))\n")
    assert cli.main(["profile", str(script), "--plot", str(tmp_path / "p.png")]) == 0
    captured = capsys.readouterr()
    rows = op_table(captured.out)
    x = tiled(64, 64)
    assert [(r[1], r[7]) for r in rows] == [("ttnn.add", "kernel"), ("ttnn.relu", "kernel")]
    assert float(rows[1][5]) == pytest.approx(time_op(OpCall("relu", (x,), x), WORMHOLE).seconds * 1e6, abs=0.006)
    assert "not written" in captured.err and not (tmp_path / "p.png").exists()


@pytest.mark.parametrize("name", sorted(ttnn.PRIMITIVES))
def test_every_cost_rule_times_a_four_dimensional_call(name):
    """Each rule gives a finite time on [1, 2, 64, 64] operands (the parameters a rule reads supplied)."""
    x = tiled(1, 2, 64, 64)
    t = time_op(OpCall(name, (x, x, x, x), x, {"dim0": -2, "dim1": -1, "dims": (0, 1, 3, 2)}), WORMHOLE)
    assert 0 <= t.cycles < float("inf") and t.model in ("kernel", "roofline", "view")
    assert (t.cycles == 0) == (t.model == "view")
