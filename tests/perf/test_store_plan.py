"""The language level charges a store the calls the lowering emits for it (metal/store_plan.py,
perf/store_replay.py; docs/performance-model.md, "How the language level charges a store").

Figures (Wormhole, arch/wormhole_b0.py): a bfloat16 tile unpacks in 2048 / 44 = 46.5 cycles (U); a
copy into DST is 8 cycles of math; exp on the SFPU is (2 + 12) passes of 32 cycles = 448 per tile; a
pack is 2048 / 64 = 32 cycles. With fp32 accumulation DST holds 4 tiles per section.
"""

from __future__ import annotations

import pytest

import tilecraft as ttl
import tilecraft.ttnn as ttnn
from benchmarks.perf_kernels import tile_tensor, unary_pipeline
from tilecraft.ir import ops as ir
from tilecraft.perf import estimate, estimate_lowered
from tilecraft.perf.capture import programs

U = 2048 / 44
EXP = (2 + 12) * 32


def _exp_of_8_tiles():
    with programs() as launched:
        unary_pipeline(1, 8, "exp")(tile_tensor((32, 8 * 32)), tile_tensor((32, 8 * 32)))
    (program,) = launched
    return program


def _store_busy(est) -> float:
    thread = next(t for t in est.threads if t.name == "apply")
    (op_id,) = est.run.store_costs
    return thread.busy[op_id]


def test_a_store_is_charged_its_lowered_calls_per_dst_section():
    est = estimate(_exp_of_8_tiles(), fidelity="HiFi4", fp32_acc=True)
    (plan,) = [p for op, p in est.run.plans.plans.items() if isinstance(op, ir.BlockStore)]
    names = [fn for fn, _ in plan.calls]
    # 8 tiles in two sections of 4: each copies its tiles into DST, takes exp of each, packs them
    assert plan.sections == 2
    assert [names.count(fn) for fn in ("copy_tile", "exp_tile", "pack_tile")] == [8, 8, 8]
    # one execution, after the thread waited for x (the stages start idle). Section 1: four copies
    # one after another on the unpacker (4U), the last one's 8 cycles of math, four exps (4 x 448).
    # Section 2: its first copy unpacks under section 1's exps (the unpacker runs one operation
    # ahead), its math 8; the other three wait for it and unpack in turn (3U); four exps; then the
    # four packs (4 x 32) after the commit.
    section_1 = 4 * U + 8 + 4 * EXP
    section_2 = 8 + 3 * U + 4 * EXP
    assert _store_busy(est) == pytest.approx(section_1 + section_2 + 4 * 32, abs=1e-3)


def test_a_16_bit_dst_keeps_the_expression_trees_figure():
    """The lowering emits fp32 DST only: an estimate with a 16-bit DST times the tree,
    max(unpack 8U, math 8 x 448, pack 8 x 32) + one tile's unpack and pack."""
    est = estimate(_exp_of_8_tiles(), fidelity="HiFi4", fp32_acc=False)
    assert est.run.plans is None
    assert _store_busy(est) == pytest.approx(8 * EXP + U + 32, abs=1e-3)


N_BLOCKS = 4


@ttl.operation(grid=(1, 1))
def _running_locals(x: ttnn.Tensor, y: ttnn.Tensor):
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def load():
        for i in range(N_BLOCKS):
            with x_dfb.reserve() as blk:
                ttl.copy(x[i:i + 1, 0:1], blk).wait()

    @ttl.compute()
    def apply():
        with y_dfb.reserve() as y_blk:
            u = ttl.block.fill(0.0, shape=(1, 1))
            v = ttl.block.fill(1.0, shape=(1, 1))
            for _ in range(N_BLOCKS):
                with x_dfb.wait() as x_blk:
                    e = ttl.math.exp(x_blk)
                    u = u + e
                    v = v * e
            y_blk.store(u + v)

    @ttl.datamovement()
    def save():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0:1, 0:1]).wait()


def _line_cycles(est, text: str) -> float:
    (line,) = [c for c in est.lines if c.source.startswith(text)]
    return line.busy_per_core + line.stall_per_core


def test_a_local_blocks_store_finds_its_current_value_at_the_front():
    """A local block's store packs the next value behind the current one and then drops the current
    one (``if (e_written) { cb_wait_front; cb_pop_front }``): the buffer holds the current value
    between stores, so the drop does not wait for the store's own pack. Each store is then charged
    what the lowered kernel's calls take at the metal level on the same line (the kernel-level
    replay of the same calls): ``u = u + e`` reads ``e`` right after its pack, ``v = v * e`` after
    ``u``'s. Read from the store's calls alone, the drop seemed to wait for the pack, and ``e``'s
    line took the drain that ``u``'s read of ``e`` waits for (flash attention's language-level
    estimate was 5% over its kernels')."""
    with programs() as launched:
        _running_locals(tile_tensor((N_BLOCKS * 32, 32)), tile_tensor((32, 32)))
    (program,) = launched
    est = estimate(program, fidelity="HiFi4", fp32_acc=True)
    plans = [p for op, p in est.run.plans.plans.items() if isinstance(op, ir.LocalStore)]
    # u, v (fill and update) and e: each packs and drops in its own buffer, which holds its one tile
    assert len(plans) == 5
    assert all([pages for _, pages in plan.cycled] == [1] for plan in plans)
    lowered = estimate_lowered(program)
    for text in ("u = ttl.block.fill", "v = ttl.block.fill", "u = u + e", "v = v * e"):
        assert _line_cycles(est, text) == pytest.approx(_line_cycles(lowered, text), abs=0.01), text
