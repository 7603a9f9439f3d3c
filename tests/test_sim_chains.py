"""Accumulation chains as strip products (tilecraft/sim/chains.py) give the exact mode's bits.

The unit tests build one K step of ``acc + a @ b`` over many output blocks and compare the strip
update with the exact mode's definition, block by block (``tile_math.matmul`` then the store's
rounding), on data chosen to put sums near rounding boundaries: there the fp32 GEMM alone differs
from the exact products (checked, so the tests can fail), and the check and repair must restore
them. The end-to-end tests run the matmul tutorials through both modes and check that the level
evaluator really took the strip path.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from benchmarks.tutorial_sources import matmul_size, resize_source
from tests.outputs import assert_same_bits, launch_outputs
from tilecraft.dtypes import bfloat16, float16, float32
from tilecraft.numerics import quantize
from tilecraft.sim import chains, tile_math


def exact_blocks(a: torch.Tensor, b: torch.Tensor, acc: torch.Tensor | None, at_m: torch.Tensor,
                 at_n: torch.Tensor, block: tuple[int, int], fmt) -> torch.Tensor:
    """The exact mode: each output block as ``tile_math.matmul(a_block, b_block, acc_block)``, rounded."""
    h, w = block
    a_blocks = torch.stack([a[m * h:(m + 1) * h] for m in at_m.tolist()])
    b_blocks = torch.stack([b[:, n * w:(n + 1) * w] for n in at_n.tolist()])
    return quantize(tile_math.matmul(a_blocks, b_blocks, acc), fmt)


def bf16(x: torch.Tensor) -> torch.Tensor:
    return x.to(torch.bfloat16).float()


def case(seed: int, rows_m: int, cols_n: int, k_tiles: int, block: int, spread: float, with_acc: bool):
    """Strips of bf16 values over ``spread`` binades and an accumulator near rounding boundaries."""
    g = torch.Generator().manual_seed(seed)
    a = bf16(torch.randn(rows_m * block, k_tiles * 32, generator=g) *
             torch.exp2(torch.randint(-int(spread), int(spread) + 1, (rows_m * block, k_tiles * 32), generator=g)))
    b = bf16(torch.randn(k_tiles * 32, cols_n * block, generator=g))
    at_m = torch.arange(rows_m).repeat_interleave(cols_n)
    at_n = torch.arange(cols_n).repeat(rows_m)
    acc = None
    if with_acc:  # the negated fp32 product plus a little: results near zero and near boundaries
        approx = torch.stack([a[m * block:(m + 1) * block] @ b[:, n * block:(n + 1) * block]
                              for m, n in zip(at_m.tolist(), at_n.tolist())])
        acc = bf16(-approx + torch.randn(approx.shape, generator=g) * 1e-3)
    return a, b, acc, at_m, at_n


@pytest.mark.parametrize("fmt", [bfloat16, float16, float32], ids=lambda f: f.name)
@pytest.mark.parametrize("seed, rows_m, cols_n, k_tiles, block, spread, with_acc", [
    (0, 4, 4, 1, 32, 0, True),     # step 1's shape: 1x1-tile blocks, one K tile per store
    (1, 2, 3, 4, 128, 0, True),    # step 4's shape: 4x4-tile blocks, four K tiles per store
    (2, 3, 2, 2, 64, 12, True),    # values over 25 binades
    (3, 2, 2, 3, 64, 6, False),    # a plain product, no accumulator
])
def test_strip_update_is_the_exact_mode(fmt, seed, rows_m, cols_n, k_tiles, block, spread, with_acc) -> None:
    a, b, acc, at_m, at_n = case(seed, rows_m, cols_n, k_tiles, block, spread, with_acc)
    got, _ = chains._update(a, chains.Strip(b), acc, at_m, at_n, rows_m, cols_n, (block, block), fmt, checked=True)
    want = exact_blocks(a, b, acc, at_m, at_n, (block, block), fmt)
    assert torch.equal(got.view(torch.int16 if fmt.torch_dtype.itemsize == 2 else torch.int32),
                       want.view(torch.int16 if fmt.torch_dtype.itemsize == 2 else torch.int32))


def test_the_check_catches_what_the_fp32_gemm_gets_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    """On this data the fp32 GEMM alone rounds some sums differently from the exact mode; repaired
    element by element (never falling back to fp64 for the whole chunk), every one is right."""
    a, b, acc, at_m, at_n = case(4, 8, 8, 1, 32, 0, True)
    want = exact_blocks(a, b, acc, at_m, at_n, (32, 32), bfloat16)
    fp32_only = torch.stack([acc[i] + a[m * 32:(m + 1) * 32] @ b[:, n * 32:(n + 1) * 32]
                             for i, (m, n) in enumerate(zip(at_m.tolist(), at_n.tolist()))])
    assert not torch.equal(quantize(fp32_only, bfloat16).view(torch.int16), want.view(torch.int16))
    monkeypatch.setattr(chains, "REPAIR_SHARE", 1.0)
    got, sufficed = chains._update(a, chains.Strip(b), acc, at_m, at_n, 8, 8, (32, 32), bfloat16, checked=True)
    assert sufficed
    assert torch.equal(got.view(torch.int16), want.view(torch.int16))


def test_too_many_repairs_fall_back_to_exact_products(monkeypatch: pytest.MonkeyPatch) -> None:
    a, b, acc, at_m, at_n = case(4, 8, 8, 1, 32, 0, True)
    monkeypatch.setattr(chains, "REPAIR_SHARE", 0.0)
    got, sufficed = chains._update(a, chains.Strip(b), acc, at_m, at_n, 8, 8, (32, 32), bfloat16, checked=True)
    assert not sufficed
    assert torch.equal(got.view(torch.int16), exact_blocks(a, b, acc, at_m, at_n, (32, 32), bfloat16).view(torch.int16))


def test_non_finite_values_are_recomputed() -> None:
    a, b, acc, at_m, at_n = case(5, 2, 2, 1, 32, 0, True)
    a[3, 5], b[7, 40], acc[1, 2, 3] = float("inf"), float("nan"), float("-inf")
    got, _ = chains._update(a, chains.Strip(b), acc, at_m, at_n, 2, 2, (32, 32), bfloat16, checked=True)
    want = exact_blocks(a, b, acc, at_m, at_n, (32, 32), bfloat16)
    assert torch.equal(got.isnan(), want.isnan())
    assert torch.equal(got.nan_to_num().view(torch.int16), want.nan_to_num().view(torch.int16))


def test_sparse_batches_use_only_their_blocks() -> None:
    """Blocks missing from the strips' product (a batch that is not a full grid) are not computed."""
    a, b, acc, at_m, at_n = case(6, 3, 3, 2, 32, 0, True)
    keep = torch.tensor([0, 2, 4, 5, 7])
    got, _ = chains._update(a, chains.Strip(b), acc[keep], at_m[keep], at_n[keep], 3, 3, (32, 32), bfloat16, checked=True)
    want = exact_blocks(a, b, acc[keep], at_m[keep], at_n[keep], (32, 32), bfloat16)
    assert torch.equal(got.view(torch.int16), want.view(torch.int16))


MATMUL_STEPS = ["matmul/step_1_single_node_single_tile_block.py", "matmul/step_4_multinode_grid_full.py"]


@pytest.mark.parametrize("tutorial", MATMUL_STEPS)
def test_tutorial_chains_take_the_strip_path(tutorials: Path, tmp_path: Path, tutorial: str,
                                             capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / Path(tutorial).name
    script.write_text(resize_source((tutorials / tutorial).read_text(), matmul_size(256, 512, 256)))
    taken: list[bool] = []
    real = chains.matmul_update

    def spy(*args):
        taken.append(real(*args))
        return taken[-1]

    monkeypatch.setattr("tilecraft.sim.levels.matmul_update", spy)
    fast = launch_outputs(script, capsys)
    assert taken and all(taken)
    assert_same_bits(fast, launch_outputs(script, capsys, "--exact"))


def test_level_batches_cover_all_cores_of_a_k_step(tutorials: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Step 4 on a 4x4 grid: each K step is one batch over the output blocks of every core."""
    script = tmp_path / "step4.py"
    script.write_text(resize_source((tutorials / MATMUL_STEPS[1]).read_text(), matmul_size(512, 256, 512)))
    sizes: list[int] = []
    real = chains.matmul_update

    def spy(evaluator, site, rows, spec):
        sizes.append(len(rows))
        return real(evaluator, site, rows, spec)

    monkeypatch.setattr("tilecraft.sim.levels.matmul_update", spy)
    launch_outputs(script, capsys, "--grid", "4,4")
    assert sizes == [(512 // 128) ** 2] * (256 // 128)
