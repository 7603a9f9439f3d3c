"""The compute emitter's matmul code against what hand-written kernels do, with the emulator as
the judge of the numbers: a Float32 ``y += a @ b`` accumulator stays in DST across its K loop
(one ``matmul_block`` per K step, packed once), a bfloat16 one keeps the per-step rounding the
language defines, and both agree with the language level to the device's precision (the
emulator computes the matrix unit's grouped accumulation, tests/emu/device_precision.py).

Call counts are those the kernels make when they run (``benchmarks.compute_call_counts``, at
the metal level, all cores together).
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
import torch

from benchmarks.compute_call_counts import count_calls
from benchmarks.emit_tools import programs_of
from tests.emu.device_precision import assert_device_precision
from tilecraft import session
from tests.outputs import emit_script
from tilecraft.cli import main
from tilecraft.metal.emit import emit_program

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

pytestmark = pytest.mark.usefixtures("fresh_process_state")

SEEDED_FP32 = '''
import torch
import tilecraft as ttl
import tilecraft.ttnn as ttnn

K_STEPS = 3

@ttl.operation(grid=(1, 1))
def seeded(a: ttnn.Tensor, b: ttnn.Tensor, c: ttnn.Tensor, y: ttnn.Tensor):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(2, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 2), block_count=2)
    c_dfb = ttl.make_dataflow_buffer_like(c, shape=(2, 2), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(2, 2), block_count=1)

    @ttl.datamovement()
    def read():
        with c_dfb.reserve() as cb:
            ttl.copy(c[0:2, 0:2], cb).wait()
        for k in range(K_STEPS):
            with a_dfb.reserve() as ab, b_dfb.reserve() as bb:
                xa = ttl.copy(a[0:2, k], ab)
                xb = ttl.copy(b[k, 0:2], bb)
                xa.wait()
                xb.wait()

    @ttl.compute()
    def mac():
        with y_dfb.reserve() as yb:
            with c_dfb.wait() as cb:
                yb.store(cb)
            for _ in range(K_STEPS):
                with a_dfb.wait() as ab, b_dfb.wait() as bb:
                    yb += ab @ bb

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as yb:
            ttl.copy(yb, y[0:2, 0:2]).wait()

torch.manual_seed(5)
a = ttnn.from_torch(torch.randn(64, 96), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
b = ttnn.from_torch(torch.randn(96, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
c = ttnn.from_torch(torch.randn(64, 64), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((64, 64), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
seeded(a, b, c, y)
'''


def outputs(script: Path, level: str) -> list[torch.Tensor]:
    seen: list[list[torch.Tensor]] = []
    err = io.StringIO()
    with session.using(result_hooks=[lambda program, tensors: seen.append([t.storage.clone() for t in tensors])]), \
            contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        assert main(["run", str(script), "--level", level]) == 0, err.getvalue()[-3000:]
    assert "warning" not in err.getvalue(), err.getvalue()[-3000:]
    return seen[0]


def compute_source(script: Path, tmp_path: Path, name: str) -> str:
    emit_script(script, tmp_path)
    (path,) = tmp_path.glob(f"*/{name}")
    return path.read_text()


def test_float32_accumulator_from_zero_stays_in_dst(tmp_path) -> None:
    """matmul_multicore_accumulate (4 cores, 4 K steps of a 2x2-tile block with BK = 2): before,
    every K step copied the 4 partial tiles in, ran 8 matmul_tiles and packed 4 tiles out, after
    a zero-fill pass, and a final copy pass moved the sum into the output block (384 calls). Now
    the zero-fill is DST's own zero, each K step is two matmul_block calls (one per K tile of the
    block), and the sum is packed once into the output block."""
    counts = count_calls(str(EXAMPLES / "matmul_multicore_accumulate.py"))
    # 4 cores x 4 K steps x 2 K tiles; 4 cores x 4 tiles packed; one acquisition per core
    assert counts == {"matmul_block": 32, "pack_tile": 16, "tile_regs_acquire": 4, "matmul_block_init": 4}
    # the partials buffer the block would pass through is not allocated (2 x 4 fp32 tiles of L1)
    compute_source(EXAMPLES / "matmul_multicore_accumulate.py", tmp_path, "compute.cpp")
    (manifest,) = tmp_path.glob("*/manifest.json")
    assert [cb["name"] for cb in json.loads(manifest.read_text())["circular_buffers"]] == ["a_cb", "b_cb", "y_cb"]


def test_float32_accumulator_seeded_from_a_buffer(tmp_path) -> None:
    """y.store(c) then y += a @ b over K: the seed is copied into DST once, the K steps accumulate
    onto it, and the sum agrees with the language level to the device's precision."""
    script = tmp_path / "seeded.py"
    script.write_text(SEEDED_FP32)
    want, got = outputs(script, "language"), outputs(script, "cpp")
    assert_device_precision(got[3], want[3], sums=True)
    counts = count_calls(str(script))
    # c -> partials: copy 4 + pack 4; partials -> DST: copy 4; 3 K steps of one 2x2 matmul_block; pack 4
    assert (counts["copy_tile"], counts["matmul_block"], counts["pack_tile"]) == (8, 3, 8)
    source = compute_source(script, tmp_path / "out", "mac.cpp")
    loop = source[source.index("for (int32_t _ = 0; _ < 3; _++)"):source.index("tile_regs_commit", source.index(
        "for (int32_t _ = 0; _ < 3; _++)"))]
    assert "matmul_block(cb_a_dfb, cb_b_dfb, 0, 0, 0, 0, 2, 2, 1);" in loop and "pack_tile" not in loop and "copy_tile" not in loop


def test_bfloat16_accumulator_rounds_every_step(tmp_path) -> None:
    """matmul_2_multitile_block accumulates into a bfloat16 block: the language rounds each
    ``+=`` to bfloat16 (docs/numerics.md section 4), so each K step still packs the partial sum
    and copies it back (a DST-resident fp32 sum would give other bits); the product itself is
    one matmul_block per K tile of the block instead of matmul_tiles per output tile."""
    counts = count_calls(str(EXAMPLES / "matmul_2_multitile_block.py"))
    assert counts["matmul_block"] == 24 and counts["matmul_tiles"] == 0
    # 4 output blocks of 4 tiles: the seed c and 2 of the 3 K steps pass through the partials
    # buffer (4 x 3 x 4 copies in, packs out); the last K step packs into the output block
    # itself (4 x 4 packs), where a final pass used to copy the partials buffer over (16 + 16)
    assert counts["copy_tile"] == 64 and counts["pack_tile"] == 64


FROM_ZERO = '''
import torch
import tilecraft as ttl
import tilecraft.ttnn as ttnn

K_STEPS, BM, BN, N_BLOCKS = {k_steps}, {bm}, {bn}, 2


@ttl.operation(grid=(1, 1))
def from_zero(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(BM, 2), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(2, BN), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(BM, BN), block_count=1)

    @ttl.datamovement()
    def read():
        for nb in range(N_BLOCKS):
            for k in range(K_STEPS):
                with a_dfb.reserve() as ab, b_dfb.reserve() as bb:
                    xa = ttl.copy(a[0:BM, 2 * k:2 * k + 2], ab)
                    xb = ttl.copy(b[2 * k:2 * k + 2, nb * BN:(nb + 1) * BN], bb)
                    xa.wait()
                    xb.wait()

    @ttl.compute()
    def mac():
        for _ in range(N_BLOCKS):
            with y_dfb.reserve() as yb:
                yb.store(ttl.block.fill(0.0, shape=yb.shape))
                for _ in range(K_STEPS):
                    with a_dfb.wait() as ab, b_dfb.wait() as bb:
                        yb += ab @ bb

    @ttl.datamovement()
    def write():
        for nb in range(N_BLOCKS):
            with y_dfb.wait() as yb:
                ttl.copy(yb, y[0:BM, nb * BN:(nb + 1) * BN]).wait()


torch.manual_seed(11)
a = ttnn.from_torch(torch.randn(BM * 32, K_STEPS * 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
b = ttnn.from_torch(torch.randn(K_STEPS * 64, N_BLOCKS * BN * 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((BM * 32, N_BLOCKS * BN * 32), dtype=ttnn.{dtype}, layout=ttnn.TILE_LAYOUT)
from_zero(a, b, y)
'''


@pytest.mark.parametrize("dtype, bm, bn", [("bfloat16", 2, 2), ("float32", 2, 4)])
@pytest.mark.parametrize("k_steps", [1, 3])
def test_accumulator_from_zero_skips_the_fill_and_the_final_copy(tmp_path, dtype, bm, bn, k_steps) -> None:
    """``y.store(fill(0)); for k: y += a @ b`` with ``y`` passing through its partials buffer (a
    bfloat16 block, rounded at each step; a Float32 one too big for DST): no zero-fill pass, the
    first K step starts from the cleared DST instead of copying zeros in, and the last K step packs
    into the output block instead of a final pass copying the partials buffer there, as
    hand-written kernels do (compute_matmul_block.cpp). The results agree with the language level
    to the device's precision, for one K step and for several."""
    script = tmp_path / "from_zero.py"
    script.write_text(FROM_ZERO.format(k_steps=k_steps, bm=bm, bn=bn, dtype=dtype))
    want, got = outputs(script, "language"), outputs(script, "cpp")
    assert_device_precision(got[2], want[2], sums=True)
    a, b = (t.float() for t in want[:2])
    golden = a @ b
    assert torch.allclose(want[2].float(), golden, rtol=2e-2, atol=2e-2 * float(golden.abs().max()))

    tiles, blocks = bm * bn, 2
    counts = count_calls(str(script))
    assert counts["fill_tile"] == 0 and counts["fill_tile_init"] == 0
    # only the steps after the first read the block back; every step packs it once, the last
    # one into the output block
    assert counts["copy_tile"] == blocks * (k_steps - 1) * tiles
    assert counts["pack_tile"] == blocks * k_steps * tiles
    # the matmul configuration is set once, and again only after a copy into DST
    assert counts["matmul_block_init"] == 1 + counts["copy_init"]
    source = compute_source(script, tmp_path / "out", "mac.cpp")
    assert "fill_tile" not in source
    after_loop = source[source.rindex("cb_pop_front(cb_b_dfb,"):]  # after the K loop's last operand pop
    assert "copy_tile" not in after_loop and "pack_tile" not in after_loop


@pytest.mark.parametrize("dtype, bm, bn", [("bfloat16", 2, 2), ("float32", 2, 4)])
def test_one_step_accumulator_from_zero_has_no_partials_buffer(tmp_path, dtype, bm, bn) -> None:
    """``y.store(fill(0)); for k in range(1): y += a @ b`` through the general path: the only K
    step starts from the cleared DST and packs into the output block, so nothing is ever stored in
    the partials buffer; the program allocates none, and the kernel has no branch that would read
    it back (``if (written)``) nor pop it. The language level's result to the device's precision."""
    script = tmp_path / "from_zero.py"
    script.write_text(FROM_ZERO.format(k_steps=1, bm=bm, bn=bn, dtype=dtype))
    want, got = outputs(script, "language"), outputs(script, "cpp")
    assert_device_precision(got[2], want[2], sums=True)
    (program,) = programs_of(script)
    metal = emit_program(program).program
    assert [cb.name for cb in metal.cbs] == ["a_dfb", "b_dfb", "y_dfb"]
    source = compute_source(script, tmp_path / "out", "mac.cpp")
    assert "partial" not in source and "if (y_dfb_blk_written)" not in source
    assert "copy_tile" not in source and source.count("pack_tile(") == 1


def test_local_accumulator_too_big_for_dst_starts_from_zero(tmp_path) -> None:
    """matmul_local_accumulator with 2 x 4-tile blocks (8 fp32 tiles, twice what DST holds per
    acquisition): ``acc = fill(0); for k: acc += a @ b`` goes through its local buffer, yet no
    zero-fill pass runs and the first K step copies nothing in; the language level's result to the
    device's precision."""
    source = (EXAMPLES / "matmul_local_accumulator.py").read_text()
    assert "BM, BK, BN = 2, 2, 1\n" in source
    script = tmp_path / "local_wide.py"
    script.write_text(source.replace("BM, BK, BN = 2, 2, 1\n", "BM, BK, BN = 2, 2, 4\n"))
    want, got = outputs(script, "language"), outputs(script, "cpp")
    assert_device_precision(got[2], want[2], sums=True)
    counts = count_calls(str(script))
    # 2 x 3 output blocks (two per node on three of the four nodes), 3 K steps of 8 tiles each:
    # copies in on the 2 steps after the first, one relu pass copying the sum out
    assert counts["fill_tile"] == 0
    assert counts["copy_tile"] == 6 * 2 * 8 + 6 * 8
    assert counts["pack_tile"] == 6 * 3 * 8 + 6 * 8
