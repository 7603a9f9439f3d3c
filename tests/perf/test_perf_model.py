"""The timing model against hand-computed expectations (Wormhole figures, arch/wormhole_b0.py).

Figures used below: 1 GHz; a bfloat16 tile is 2048 B; each unpacker moves 44 B/cycle, so a bf16
tile takes 2048 / 44 = 46.5 cycles to unpack (UNPACK); the packer moves 64 B/cycle, 32 cycles per
tile; a tile matmul is 16 cycles per fidelity phase;
12 DRAM banks of 288/12 = 24 B/cycle; NoC links and core ports 32 B/cycle; DRAM latency 400
cycles plus (8 + 8) // 2 = 8 hops x 9 cycles = 472 cycles; 16 cycles to issue one tile's NoC
transaction; 8 cycles per buffer call.
"""

from __future__ import annotations

import pytest

import tilecraft as ttl
import tilecraft.ttnn as ttnn
from benchmarks.perf_kernels import column_reader, matmul_k, tile_tensor, unary_pipeline
from tilecraft.perf import estimate
from tilecraft.perf.capture import programs

TILE = 32
#: cycles to unpack one bfloat16 tile on Wormhole (2048 B at 44 B/cycle)
UNPACK = 2048 / 44
#: a store's pipeline fill: one tile unpacked and one packed (32 cycles)
FILL = UNPACK + 32


def build(kernel, *shapes):
    tensors = [tile_tensor(s) for s in shapes]
    with programs() as launched:
        kernel(*tensors)
    (program,) = launched
    return program


def store_line_busy(est, thread_name):
    """Busy cycles of the (only) block.store of ``thread_name`` on core 0."""
    thread = next(t for t in est.threads if t.name == thread_name)
    (op_id,) = est.run.store_costs
    return thread.busy[op_id]


@pytest.mark.parametrize("k", [1, 8, 32])
def test_single_core_matmul_of_k_tiles_at_hifi4(k):
    program = build(matmul_k(k), (TILE, k * TILE), (k * TILE, TILE), (TILE, TILE))
    est = estimate(program, fidelity="HiFi4")
    # math: k tile products x 16 cycles x 4 phases = 64k; unpack: the 1x1 subblock keeps its A tile
    # and streams B, so k tiles of A and k of B on the two unpackers in parallel = 46.5k; pack: one
    # tile = 32; fill: one tile unpacked + packed -> max(46.5k, 64k, 32) + FILL
    assert store_line_busy(est, "mac") == pytest.approx(64 * k + FILL, abs=1e-3)
    assert est.flops == 2 * TILE ** 3 * k
    # LoFi: math 16k is below the unpack 46.5k: the store is unpack-bound at 46.5k + FILL
    lofi = estimate(program, fidelity="LoFi")
    assert store_line_busy(lofi, "mac") == pytest.approx(max(UNPACK * k, 16 * k, 32) + FILL, abs=1e-3)


def test_dram_bound_copy_runs_at_the_bank_bandwidth():
    cores, blocks, rows = 8, 16, 4
    program = build(column_reader(cores, blocks, rows), (cores * blocks * rows * TILE, 12 * TILE))
    est = estimate(program)
    # every tile of column 0 of a 12-tile-wide tensor is in bank 0: 8 cores x 16 blocks x 4 tiles
    # x 2048 B through one bank at 24 B/cycle = 43690.7 cycles; the other costs (one DRAM latency
    # at the end, buffer calls, issue) hide behind the bank's queue except for the last block.
    bank_time = cores * blocks * rows * 2048 / 24
    assert bank_time <= est.cycles <= bank_time + 472 + 200
    assert est.bound == "DRAM"
    assert est.dram_utilisation > 0.95


def pipeline_period(fn, blocks=(8, 16), **kw):
    """Cycles per block in steady state: the slope between two lengths (head and tail cancel)."""
    ends = []
    for n in blocks:
        program = build(unary_pipeline(n, 4, fn, **kw), (n * TILE, 4 * TILE), (n * TILE, 4 * TILE))
        ends.append(estimate(program).cycles)
    return (ends[1] - ends[0]) / (blocks[1] - blocks[0])


# compute per block of 4 tiles: exp is 2 + 12 SFPU passes of 32 cycles = 448 per tile -> 1792;
# unpack 4 x 46.5 = 186, pack 128; fill 78.5 -> store 1870.5; plus 4 buffer calls (wait, reserve,
# push, pop) x 8 = 32 -> 1902.5 cycles per block.
EXP_BLOCK = 4 * 448 + FILL + 4 * 8
# reader per block: reserve 8, then the read: port 4 x 2048 / 32 = 256 cycles (the 4 tiles are
# in 4 banks, 85.3 cycles each, in parallel) + 472 latency = 728 from issue; push 8 -> 744.
READ_BLOCK = 8 + 4 * 2048 / 32 + 472 + 8


def test_pipeline_throughput_is_set_by_its_slowest_stage():
    # compute (1902.5) is slower than the reader (744) and the writer: compute sets the period
    assert pipeline_period("exp") == pytest.approx(EXP_BLOCK, rel=0.01)
    # abs: 2 + 1 passes = 96 per tile -> store 4 x 96 + 78.5 = 462.5, + 32 < 744: the reader
    # (the writer's period equals it) sets the period now
    assert pipeline_period("abs") == pytest.approx(READ_BLOCK, rel=0.02)


def test_double_buffering_hides_the_readers_latency():
    single = pipeline_period("exp", in_factor=1)
    double = pipeline_period("exp", in_factor=2)
    # one slot: the next read starts only after compute pops, so reader and compute alternate:
    # 744 + 1902.5 per block; two slots: the read of block i+1 overlaps compute of block i
    assert single == pytest.approx(READ_BLOCK + EXP_BLOCK, rel=0.02)
    assert double == pytest.approx(EXP_BLOCK, rel=0.01)


@ttl.operation(grid=(1, 1))
def fused_accumulate(a: ttnn.Tensor, b: ttnn.Tensor, c: ttnn.Tensor, y: ttnn.Tensor):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(4, 4), block_count=1)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(4, 4), block_count=1)
    c_dfb = ttl.make_dataflow_buffer_like(c, shape=(4, 4), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(4, 4), block_count=1)

    @ttl.datamovement()
    def load():
        with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk, c_dfb.reserve() as c_blk:
            a_xf = ttl.copy(a[0:4, 0:4], a_blk)
            b_xf = ttl.copy(b[0:4, 0:4], b_blk)
            c_xf = ttl.copy(c[0:4, 0:4], c_blk)
            a_xf.wait()
            b_xf.wait()
            c_xf.wait()

    @ttl.compute()
    def mac():
        with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, c_dfb.wait() as c_blk, y_dfb.reserve() as y_blk:
            y_blk.store(c_blk + a_blk @ b_blk)

    @ttl.datamovement()
    def save():
        with y_dfb.wait() as y_blk:
            ttl.copy(y_blk, y[0:4, 0:4]).wait()


def test_matmul_accumulating_onto_a_block_as_the_step4_tutorial_does():
    program = build(fused_accumulate, *[(128, 128)] * 4)
    # c + a @ b on 4x4-tile blocks at HiFi4: math = 64 products x 64 + c copied into DST, 16 x 8
    # = 4224. Output subblocks of 2 x 4 tiles (half of DST): 2 chunks; each keeps its 2 A tiles and
    # streams a B tile per product for each of the 4 k: A 2 x 4 x 2 = 16 tiles, B 2 x 4 x 8 = 64.
    # srcB gets 64 B tiles = 2979 cycles, srcA 16 (A) + 16 (c) = 32 tiles; pack 16 x 32 = 512;
    # fill 78.5 -> 4224 + 78.5 = 4302.5
    assert store_line_busy(estimate(program), "mac") == pytest.approx(4224 + FILL, abs=1e-3)
