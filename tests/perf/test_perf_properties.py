"""Properties any sound timing model has, checked over small sweeps."""

from __future__ import annotations

import pytest

from benchmarks.perf_kernels import eltwise_stream, matmul_mcast, tile_tensor, unary_pipeline
from tilecraft.perf import estimate, resolve_arch
from tilecraft.perf.capture import programs

TILE = 32
FIDELITIES = ("LoFi", "HiFi2", "HiFi3", "HiFi4")


def build(kernel, *shapes, dtype=None):
    tensors = [tile_tensor(s, dtype) for s in shapes]
    with programs() as launched:
        kernel(*tensors)
    (program,) = launched
    return program


def test_more_cores_help_until_dram_bandwidth_binds():
    rows, cols = 64, 32  # tiles: 2048 x 1024 elements, 3 x 4 MiB moved
    times, last = [], None
    for grid in ((1, 1), (2, 1), (4, 1), (8, 1), (8, 2), (8, 4), (8, 8)):
        program = build(eltwise_stream(grid), *[(rows * TILE, cols * TILE)] * 3)
        last = estimate(program)
        times.append(last.cycles)
    assert all(b <= a * 1.001 for a, b in zip(times, times[1:])), times
    assert times[0] / times[1] > 1.8  # one core -> two: nearly twice as fast
    assert times[-2] / times[-1] < 1.3  # 32 -> 64 cores: the banks are (nearly) saturated
    assert last.bound == "DRAM"


@pytest.mark.parametrize("dtype", ["bfloat16", "bfloat8_b"])
def test_higher_fidelity_never_makes_matmul_faster(dtype):
    import tilecraft.ttnn as ttnn
    fmt = getattr(ttnn, dtype)
    program = build(matmul_mcast((2, 2), 2, 2, 2), (256, 256), (256, 256), (256, 256), dtype=fmt)
    cycles = [estimate(program, fidelity=f).cycles for f in FIDELITIES]
    assert all(b >= a for a, b in zip(cycles, cycles[1:])), cycles
    assert cycles[-1] > cycles[0]


@pytest.mark.parametrize("fn", ["exp", "abs"])
def test_bigger_buffer_factor_never_makes_a_program_slower(fn):
    cycles = []
    for factor in (1, 2, 3, 4):
        program = build(unary_pipeline(12, 4, fn, in_factor=factor, out_factor=factor),
                        (12 * TILE, 4 * TILE), (12 * TILE, 4 * TILE))
        cycles.append(estimate(program).cycles)
    assert all(b <= a for a, b in zip(cycles, cycles[1:])), cycles
    assert cycles[1] < cycles[0]


def test_fp32_accumulation_never_makes_matmul_faster_and_hifi4_is_compute_bound():
    program = build(matmul_mcast((2, 2), 4, 4, 4), (512, 512), (512, 512), (512, 512))
    for fidelity in FIDELITIES:
        # fp32 accumulation halves DST: smaller output subblocks unpack more operand tiles
        assert estimate(program, fidelity=fidelity, fp32_acc=True).cycles >= \
            estimate(program, fidelity=fidelity).cycles
    hifi4 = estimate(program, fidelity="HiFi4")
    assert hifi4.bound == "compute" and hifi4.compute_utilisation > 0.8


@pytest.mark.parametrize("board", ["n150", "n300", "p100", "p150"])
def test_streaming_kernel_reaches_each_boards_dram_bandwidth(board):
    arch = resolve_arch(board)
    with programs(arch.name, arch.compute_grid) as launched:
        eltwise_stream(arch.compute_grid, (1, 8))(*[tile_tensor((4096, 2048)) for _ in range(3)])
    est = estimate(launched[0], arch)
    # 3 x 4096 x 2048 x 2 B = 48 MiB at the board's figure (288 GB/s n150/n300 per chip, 448 GB/s
    # p100 = 7 of the p150's 8 banks, 512 GB/s p150) plus one DRAM latency: >= 99% of peak
    assert est.bound == "DRAM"
    assert 0.99 <= est.dram_bytes_per_s / arch.costs.dram_bytes_per_s <= 1.0
