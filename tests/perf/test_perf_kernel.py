"""The kernel-level cost model (tilecraft/perf/kernel_replay.py): C++ kernels timed from their calls.

Figures (Wormhole, arch/wormhole_b0.py): a bfloat16 tile is 2048 B and unpacks or packs in 32
cycles; an FPU add is 8 cycles per tile; exp on the SFPU is (2 + 12) passes x 32 = 448 cycles
per tile; buffer calls 8 cycles; DRAM 24 B/cycle per bank, 472 cycles of latency; NoC links and
core ports 32 B/cycle.
"""

from __future__ import annotations

import json
import os
import re
import sys

import pytest
import torch

from tests.paths import EXAMPLES
import tilecraft.ttnn as ttnn
from benchmarks import emit_vs_hand
from benchmarks.perf_kernels import eltwise_stream, matmul_k
from tilecraft import session
from tilecraft.cli import main
from tilecraft.emu.codes import Ev, SfpuUnary
from tilecraft.perf import estimate_kernels, estimate_lowered
from tilecraft.perf.capture import programs
from tilecraft.perf.both_levels import both_levels
from tilecraft.scripts import install_modules

TILE = 32
BLOCK = 4  # eltwise_stream's blocks: 1 x 4 tiles


# ---------------------------------------------------------------- calibration against the language level
def tensors(*shapes):
    torch.manual_seed(0)
    return [ttnn.from_torch(torch.randn(s), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT) for s in shapes]


#: docs/performance-model.md, "Calibration": the stated tolerance between the two levels
TOLERANCE = 0.05


@pytest.mark.parametrize("grid, rows, cols", [((1, 1), 2, 256), ((1, 1), 8, 1024), ((2, 2), 8, 1024)],
                         ids=["1_core_small", "1_core_256_tiles", "4_cores_256_tiles"])
def test_eltwise_add_agrees_at_both_levels(grid, rows, cols):
    a, b, y = tensors((rows * TILE, cols), (rows * TILE, cols), (rows * TILE, cols))
    (pair,) = both_levels(lambda: eltwise_stream(grid)(a, b, y))
    assert abs(pair.ratio - 1) <= TOLERANCE, (pair.language.cycles, pair.kernel.cycles)
    assert pair.kernel.dram_read_bytes == pair.language.dram_read_bytes == 2 * rows * cols * TILE * 2
    assert pair.kernel.dram_write_bytes == pair.language.dram_write_bytes


@pytest.mark.parametrize("k", [4, 32])
def test_matmul_agrees_at_both_levels(k):
    a, b, y = tensors((TILE, k * TILE), (k * TILE, TILE), (TILE, TILE))
    (pair,) = both_levels(lambda: matmul_k(k)(a, b, y))
    assert abs(pair.ratio - 1) <= TOLERANCE, (pair.language.cycles, pair.kernel.cycles)
    assert pair.kernel.flops == pair.language.flops == 2 * TILE ** 3 * k
    assert pair.kernel.fidelity == pair.language.fidelity == "HiFi4"


def test_the_lowered_kernels_time_as_their_emitted_cpp():
    """The two sources of kernel-level calls, the metal-level simulation of the lowered IR and the
    emulator running the C++ printed from it, give the replay the same calls: the same cycles."""
    a, b, y = tensors((4 * TILE, 512), (4 * TILE, 512), (4 * TILE, 512))
    add = eltwise_stream((1, 1))
    (pair,) = both_levels(lambda: add(a, b, y))
    with programs() as launched:
        add(a, b, y)
    lowered = estimate_lowered(launched[0])
    assert lowered.cycles == pair.kernel.cycles
    assert lowered.dram_read_bytes == pair.kernel.dram_read_bytes
    # ... but its lines are the TT-Lang program's
    store = next(line for line in lowered.lines if "y_blk.store(a_blk + b_blk)" in line.source)
    assert store.file.endswith("perf_kernels.py")
    waits = next(line for line in lowered.lines if "with a_dfb.wait() as a_blk" in line.source)
    assert waits.stalled_on == "data in 'a_dfb' (CB 0)"


def test_the_lowered_kernels_time_without_values_at_any_size():
    """No tensor values are computed for --level metal: a 4096 x 4096 add (16384 tiles) is timed
    from its call skeleton; every byte of a and b enters the core through one port at 32 B/cycle, and
    each 4-tile block waits for its reads (DRAM latency) before the next is issued."""
    n = 4096
    a, b, y = [ttnn.zeros((n, n), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT) for _ in range(3)]
    with programs() as launched:
        eltwise_stream((1, 1))(a, b, y)
    est = estimate_lowered(launched[0])
    assert est.dram_read_bytes == 2 * n * n * 2
    blocks = n // TILE * (n // TILE // BLOCK)
    assert est.cycles >= blocks * (2 * BLOCK * 2048 / 32 + 472)


# ---------------------------------------------------------------- hand-written C++ through generic_op
READER = """
#include "api/dataflow/dataflow_api.h"
void kernel_main() {
    uint32_t src = get_arg_val<uint32_t>(0), tiles = get_arg_val<uint32_t>(1), repeat = get_arg_val<uint32_t>(2);
    constexpr auto args = TensorAccessorArgs<0>();
    const auto s = TensorAccessor(args, src, get_tile_size(0));
    for (uint32_t i = 0; i < tiles; ++i) {
        cb_reserve_back(0, 1);
        for (uint32_t r = 0; r < repeat; ++r) {
            noc_async_read_page(i, s, get_write_ptr(0));
        }
        noc_async_read_barrier();
        cb_push_back(0, 1);
    }
}
"""
COMPUTE = """
#include "api/compute/common.h"
#include "api/compute/tile_move_copy.h"
#include "api/compute/eltwise_unary/eltwise_unary.h"
#include "api/compute/eltwise_unary/exp.h"
void kernel_main() {
    uint32_t tiles = get_arg_val<uint32_t>(0), exps = get_arg_val<uint32_t>(1);
    init_sfpu(0, 16);
    exp_tile_init();
    for (uint32_t i = 0; i < tiles; ++i) {
        cb_wait_front(0, 1);
        cb_reserve_back(16, 1);
        tile_regs_acquire();
        copy_tile(0, 0, 0);
        for (uint32_t e = 0; e < exps; ++e) {
            exp_tile(0);
        }
        tile_regs_commit();
        tile_regs_wait();
        pack_tile(0, 16);
        tile_regs_release();
        cb_pop_front(0, 1);
        cb_push_back(16, 1);
    }
}
"""
WRITER = """
#include "api/dataflow/dataflow_api.h"
void kernel_main() {
    uint32_t dst = get_arg_val<uint32_t>(0), tiles = get_arg_val<uint32_t>(1);
    constexpr auto args = TensorAccessorArgs<0>();
    const auto s = TensorAccessor(args, dst, get_tile_size(16));
    for (uint32_t i = 0; i < tiles; ++i) {
        cb_wait_front(16, 1);
        noc_async_write_page(i, s, get_read_ptr(16));
        noc_async_write_barrier();
        cb_pop_front(16, 1);
    }
}
"""


def run_unary(tiles: int, repeat: int = 1, exps: int = 2):
    """A reader (each tile read ``repeat`` times) -> copy, ``exps`` x exp -> writer program on core (0, 0),
    written as a micro-op host would; returns its kernel-level estimate."""
    device = ttnn.open_device(device_id=0)
    try:
        x = ttnn.from_torch(torch.rand(TILE, tiles * TILE), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT,
                            device=device, memory_config=ttnn.DRAM_MEMORY_CONFIG)
        y = ttnn.allocate_tensor_on_device(ttnn.Shape([TILE, tiles * TILE]), ttnn.bfloat16, ttnn.TILE_LAYOUT, device,
                                           ttnn.DRAM_MEMORY_CONFIG)
        cores = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(0, 0))])

        def kernel(source, args, config, ct=()):
            rt = ttnn.RuntimeArgs()
            rt[0][0] = args
            return ttnn.KernelDescriptor(kernel_source=source, source_type=ttnn.KernelDescriptor.SourceType.SOURCE_CODE,
                                         core_ranges=cores, compile_time_args=list(ct), runtime_args=rt, config=config)

        def cb(index):
            fmt = ttnn.CBFormatDescriptor(buffer_index=index, data_format=ttnn.bfloat16, page_size=2048)
            return ttnn.CBDescriptor(total_size=2 * 2048, core_ranges=cores, format_descriptors=[fmt])

        program = ttnn.ProgramDescriptor(
            kernels=[kernel(READER, [x.buffer_address(), tiles, repeat], ttnn.ReaderConfigDescriptor(),
                            ttnn.TensorAccessorArgs(x).get_compile_time_args()),
                     kernel(COMPUTE, [tiles, exps], ttnn.ComputeConfigDescriptor()),
                     kernel(WRITER, [y.buffer_address(), tiles], ttnn.WriterConfigDescriptor(),
                            ttnn.TensorAccessorArgs(y).get_compile_time_args())],
            semaphores=[], cbs=[cb(0), cb(16)])
        seen = []
        with session.using(emulator_hooks=[lambda spec, result: seen.append(estimate_kernels(spec, result.trace))]):
            ttnn.generic_op([x, y], program)
        out = ttnn.to_torch(y).float()
    finally:
        ttnn.close_device(device)
    expected = ttnn.to_torch(x).float()
    for _ in range(exps):
        expected = torch.exp(expected)
    assert torch.allclose(out, expected, rtol=2e-2, atol=2e-2)
    (est,) = seen
    return est


def line_of(source: str, text: str) -> int:
    """1-based line of the first line of ``source`` containing ``text``."""
    return next(i for i, line in enumerate(source.splitlines(), 1) if text in line)


def line_cost(est, source: str, text: str):
    number = line_of(source, text)
    matches = [ln for ln in est.lines if ln.line == number and ln.source.strip() == source.splitlines()[number - 1].strip()]
    assert len(matches) == 1, [(ln.file, ln.line) for ln in est.lines]
    return matches[0]


def test_more_tiles_take_more_cycles():
    few, many = run_unary(8), run_unary(32)
    assert many.cycles > few.cycles
    # compute-bound (two exps, 2 x 448 cycles per tile, beside the writer's ~580-cycle round trip
    # per tile): 24 more tiles cost about 24 x 896 more cycles
    assert many.cycles - few.cycles == pytest.approx(24 * 896, rel=0.05)


def test_the_line_table_charges_the_sfpu_line():
    tiles = 16
    est = run_unary(tiles)
    exp_line = line_cost(est, COMPUTE, "exp_tile(0);")
    # the SFPU is the bottleneck: its line gets its 448 cycles per call, two calls per tile
    assert exp_line.busy_per_core == pytest.approx(tiles * 2 * 448, rel=0.05)
    assert exp_line.critical_share == max(line.critical_share for line in est.lines)
    assert os.path.basename(exp_line.file).endswith(".cpp")
    assert est.bound in ("compute", "synchronisation")
    assert est.evidence[0].startswith("compute: the busiest compute thread")
    # the writer waits for the compute kernel's output, at its cb_wait_front line
    waits = line_cost(est, WRITER, "cb_wait_front(16, 1);")
    assert waits.stall_per_core > tiles * 300 and waits.stalled_on == "data in CB 16"


def test_a_noc_bound_reader_dominates():
    """Each tile read 24 times: 24 x 2048 B through the core's input port at 32 B/cycle = 1536
    cycles per tile, against 40 cycles of copy and pack: the reader's barrier and reads carry the time."""
    tiles = 8
    est = run_unary(tiles, repeat=24, exps=0)
    assert est.cycles >= tiles * 24 * 2048 / 32
    assert est.bound in ("NoC", "DRAM")
    barrier = line_cost(est, READER, "noc_async_read_barrier();")
    assert barrier.stalled_on == "NoC reads"
    compute_lines = [line for line in est.lines if "tile_regs" in line.source or "copy_tile" in line.source]
    assert all(line.critical_share < 0.05 for line in compute_lines)
    assert est.dram_read_bytes == tiles * 24 * 2048


def test_semaphore_waits_replay_through_the_write_that_released_them():
    """The gather micro-op: 8 senders write their 64 KiB shards into core (5, 4) and each then
    increments its semaphore; the receiver's noc_semaphore_wait waits for the last increment."""
    install_modules()  # the micro-ops import ttnn: tilecraft's, as `tilecraft run` serves it
    sys.path.insert(0, str(EXAMPLES / "microops"))
    try:
        from gather.op import GatherSingleCore
        from shards import core_grid, sharded
    finally:
        sys.path.pop(0)

    device = ttnn.open_device(device_id=0)
    seen = []
    try:
        x = ttnn.from_torch(torch.randn(8 * 128, 256), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                            memory_config=sharded("height", core_grid(0, 0, 3, 1), (128, 256)))
        out = ttnn.from_torch(torch.zeros(8 * 128, 256), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT,
                              device=device, memory_config=sharded("height", core_grid(5, 4, 5, 4), (8 * 128, 256)))
        with session.using(emulator_hooks=[lambda spec, result: seen.append(estimate_kernels(spec, result.trace))]):
            GatherSingleCore.op(x, out)
    finally:
        ttnn.close_device(device)
    (est,) = seen
    source = (EXAMPLES / "microops" / "gather" / "kernels" / "gather_receiver.cpp").read_text()
    wait = line_cost(est, source, "noc_semaphore_wait(arrived")
    assert wait.stalled_on == "a semaphore"
    # all 8 shards (8 x 64 KiB) enter core (5, 4) through its one input port at 32 B/cycle: the last
    # increment cannot arrive before that, and the receiver's wait is the time it stalls
    port_time = 8 * 128 * 256 * 2 / 32
    receiver = next(t for t in est.threads if t.core == (5, 4))
    assert receiver.stall_total >= port_time
    assert est.cycles >= port_time
    assert est.bound == "NoC"


def test_trace_fields_name_the_calls():
    est = run_unary(4)
    events = est.run.kernel_trace.events
    kinds = set(events["kind"].tolist())
    assert {Ev.CB_RESERVE, Ev.NOC_READ, Ev.NOC_BARRIER, Ev.COPY, Ev.SFPU_UNARY, Ev.PACK, Ev.NOC_WRITE} <= kinds
    reads = events[events["kind"] == Ev.NOC_READ]
    assert set(reads["a"].tolist()) == {2048} and set(reads["b"].tolist()) == {1}  # one tile from a DRAM bank
    sfpu = events[events["kind"] == Ev.SFPU_UNARY]
    assert {SfpuUnary(code) for code in sfpu["a"].tolist()} == {SfpuUnary.Exp}


# ---------------------------------------------------------------- benchmarks/emit_vs_hand.py
@pytest.mark.parametrize("example", ["reduce_rows", "broadcast_rows"])
def test_hand_written_kernels_compute_what_the_program_computes(example):
    """The hand-written reference kernels the benchmark times against run on the program's tensors and
    give the language level's values (the benchmark zeroes the output first and compares)."""
    case = next(c for c in emit_vs_hand.CASES if c.example == example)
    row = emit_vs_hand.run_case(case, published=False)
    assert row.hand is not None and "differs" not in row.note, row.note
    (emitted,) = row.emitted
    # the reduce: 64 tile reads, 8 writes; the broadcast: 8 reads of g, 64 of x, 64 writes
    assert row.hand.noc_transactions == {"reduce_rows": 64 + 8, "broadcast_rows": 8 + 64 + 64}[example]
    assert emitted.cycles > 0 and row.hand.cycles > 0


# ---------------------------------------------------------------- tilecraft profile
def test_profile_of_a_micro_op_prints_its_kernel_line_table(capsys):
    assert main(["profile", str(EXAMPLES / "microops" / "profile_matmul.py")]) == 0
    out = capsys.readouterr().out
    source = (EXAMPLES / "microops" / "matmul" / "kernels" / "matmul_compute.cpp").read_text()
    number = line_of(source, "matmul_block(")
    row = next(line for line in out.splitlines() if f"matmul_compute.cpp:{number} " in line)
    # 32 matmul_block calls of 4 tile products at HiFi4 (64 cycles each) = 8192 cycles per core
    cycles = int(re.split(r"\s+", row.strip())[1].replace(",", ""))
    assert 8192 <= cycles <= 8192 * 1.05
    assert "program 'kernels matmul_reader.cpp, matmul_compute.cpp, matmul_writer.cpp'" in out
    assert "bound            NoC" in out  # eight cores pull the activation from one core's L1


def test_profile_writes_a_kernel_level_chrome_trace(tmp_path, capsys):
    """One process per core, a track per RISC's kernel, slices named by C++ line, none overlapping; the
    script's timeline (process 0) holds the program as one slice."""
    out = tmp_path / "trace.json"
    assert main(["profile", str(EXAMPLES / "microops" / "profile_matmul.py"), "--trace", str(out)]) == 0
    events = json.loads(out.read_text())["traceEvents"]
    names = {e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name" and e["pid"]}
    assert names == {"matmul_reader.cpp (datamovement)", "matmul_compute.cpp (compute)",
                     "matmul_writer.cpp (datamovement)"}
    assert len({e["pid"] for e in events if e["pid"]}) == 8
    assert [e["cat"] for e in events if e["pid"] == 0 and e["ph"] == "X"] == ["kernel"]
    tracks: dict = {}
    for e in events:
        if e["ph"] == "X":
            tracks.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"]))
    for slices in tracks.values():
        slices.sort()
        assert all(end <= start + 1e-9 for (_, end), (start, _) in zip(slices, slices[1:]))
    assert any("matmul_compute.cpp" in e["name"] and "matmul_block(" in e["name"] for e in events if e["ph"] == "X")


def test_profile_at_the_metal_level_prints_tt_lang_lines(capsys):
    script = EXAMPLES / "compare_matmul.py"
    assert main(["profile", str(script), "--level", "metal", "--no-values"]) == 1  # the example checks its result
    out = capsys.readouterr().out
    assert re.search(r"compare_matmul\.py:\d+ +[\d,]+ .*y_blk\.store\(a_blk @ b_blk\)", out)
    assert "waits on data in 'a_dfb' (CB 0)" in out


@pytest.mark.parametrize("level", ["language", "metal"])
def test_profile_without_values_fails_when_the_scripts_check_fails(level, capsys):
    """``--no-values`` computes no values, so the example's check on its result raises after the
    profile is printed: one E0710 at the check's line and exit 1, as ``tilecraft emit`` does (it
    once exited 0 with a note)."""
    script = EXAMPLES / "compare_matmul.py"
    assert main(["profile", str(script), "--level", level, "--no-values"]) == 1
    captured = capsys.readouterr()
    assert "predicted time" in captured.out
    line = next(i for i, text in enumerate(script.read_text().splitlines(), 1) if text.startswith("assert "))
    assert (f"{script}:{line}:1: error[E0710]: the script raised AssertionError after its programs were profiled by "
            "tilecraft profile --no-values, which computes no values, so checks on results fail") in captured.err
    assert "hint: profile without --no-values to simulate the launches and run the checks" in captured.err
    assert "Traceback" not in captured.err


def test_profile_at_the_kernel_level_times_the_emitted_cpp(capsys):
    script = EXAMPLES / "compare_eltwise_add.py"
    assert main(["profile", str(script), "--level", "cpp"]) == 0
    out = capsys.readouterr().out
    assert "program 'eltwise_add (emitted C++)'" in out  # the TT-Lang program whose C++ ran
    assert re.search(r"compute\.cpp:\d+ +[\d,]+ .*add_tiles\(", out)
    assert "compare_eltwise_add: OK" in out
