"""Accumulation chains as strip products (tilecraft/sim/dataflow/chains.py) give the exact mode's bits.

The unit tests build one K step of ``acc + a @ b`` over many output blocks and compare the strip
update with the exact mode's definition, block by block (``tile_math.matmul`` then the store's
rounding), on data chosen to put sums near rounding boundaries: there the fp32 GEMM alone differs
from the exact products (checked, so the tests can fail), and the check and repair must restore
them. The end-to-end tests run the matmul tutorials through both modes and check that the level
evaluator really took the strip path.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.tutorial_sources import matmul_size, resize_source
from tests.outputs import assert_same_bits, launch_outputs
from tilecraft.dtypes import bfloat16, float16, float32
from tilecraft.numerics import quantize
from tilecraft.sim.dataflow import chains, fused_chain
from tilecraft.sim import tile_math
from tilecraft.sim.dataflow import graph
from tilecraft.sim.dataflow.graph import TensorRef
from tilecraft.sim.dataflow.level_evaluator import LevelEvaluator


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
    at_m = np.arange(rows_m).repeat(cols_n)
    at_n = np.tile(np.arange(cols_n), rows_m)
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
    keep = np.array([0, 2, 4, 5, 7])
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

    monkeypatch.setattr("tilecraft.sim.dataflow.level_evaluator.matmul_update", spy)
    fast = launch_outputs(script, capsys)
    assert taken and all(taken)
    assert_same_bits(fast, launch_outputs(script, capsys, "--exact"))


@pytest.mark.parametrize("tutorial", MATMUL_STEPS)
def test_the_gpu_code_paths_give_the_exact_bits_on_the_cpu(tutorials: Path, tmp_path: Path, tutorial: str,
                                                          capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """What ``--device cuda`` runs differently (torch-only checks, a whole level per chunk), run here:
    CI has no GPU, so these branches are otherwise only checked by benchmarks/gpu_check.sh. The CPU's
    compiled kernel is switched off (a GPU does not take it): this is also the whole-array engine,
    the fallback where no compiler is present, end to end."""
    monkeypatch.setenv(fused_chain.SWITCH, "0")
    script = tmp_path / Path(tutorial).name
    script.write_text(resize_source((tutorials / tutorial).read_text(), matmul_size(256, 512, 256)))
    used: list[str] = []

    def traced(name, fn):
        def call(*args):
            used.append(name)
            return fn(*args)
        return call

    monkeypatch.setattr(chains, "_largest_magnitude", traced("magnitude", chains._largest_magnitude_on_device))
    monkeypatch.setattr(chains, "_differing", traced("differing", chains._differing_on_device))
    monkeypatch.setattr(chains, "chunk_elements", lambda device, cpu, gpu: gpu)
    fast = launch_outputs(script, capsys)
    assert {"magnitude", "differing"} <= set(used)
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

    monkeypatch.setattr("tilecraft.sim.dataflow.level_evaluator.matmul_update", spy)
    launch_outputs(script, capsys, "--grid", "4,4")
    assert sizes == [(512 // 128) ** 2] * (256 // 128)


def fast_and_exact_sums(a: torch.Tensor, b: torch.Tensor, acc: torch.Tensor | None):
    """The fp32 sums before the store's rounding, of the fast sequence (as ``_accumulate`` computes it)
    and of the exact mode (``tile_math.matmul`` on the whole grid: every element is its own sequence)."""
    rows, cols = a.shape[0], b.shape[1]
    whole = chains.Layout(np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64), 1, 1, (rows, cols), a.device)
    flat, product = torch.empty(1, rows, cols), torch.empty(rows, cols)
    largest = chains._accumulate(flat, product, torch.empty_like(product), a, b, None if acc is None else acc[None],
                                 whole, exact=False)
    exact = tile_math.matmul(a, b, acc)
    return flat[0], exact, largest


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2 ** 31), k_tiles=st.integers(1, 4), spread=st.integers(0, 40),
       cancel=st.booleans(), with_acc=st.booleans(), shift=st.sampled_from([0, 0, 80, -80]))
def test_the_difference_bound_holds(seed, k_tiles, spread, cancel, with_acc, shift) -> None:
    """The rigorous bound of chains.difference_bound covers the real difference between the fast fp32
    sums and the exact mode's, element by element: values over up to 80 binades, accumulators that
    cancel the product (sums near zero), one to four K tiles, and rows or columns scaled by 2^+-80
    (their squares under- or overflow fp32: the norms must not)."""
    g = torch.Generator().manual_seed(seed)
    a = bf16(torch.randn(64, k_tiles * 32, generator=g) *
             torch.exp2(torch.randint(-spread, spread + 1, (64, k_tiles * 32), generator=g).float() + shift))
    b = bf16(torch.randn(k_tiles * 32, 96, generator=g) *
             torch.exp2(torch.randint(-spread, spread + 1, (k_tiles * 32, 96), generator=g).float() - shift))
    acc = None
    if with_acc:
        acc = bf16(-(a @ b) if cancel else torch.randn(64, 96, generator=g) * 100)
    fast, exact, largest = fast_and_exact_sums(a, b, acc)
    bound = chains.difference_bound(a, chains.Strip(b), largest)
    assert bound is not None and bound.shape == (96,)
    assert ((fast.double() - exact.double()).abs() <= bound.double()).all()


def test_the_difference_bound_is_tight_enough_to_matter() -> None:
    """On step 1's data the fast sums do differ from the exact ones (the bound guards something), and
    the bound stays a small multiple of the largest real difference."""
    g = torch.Generator().manual_seed(11)
    a, b = bf16(torch.randn(256, 32, generator=g)), bf16(torch.randn(32, 256, generator=g))
    acc = bf16(torch.randn(256, 256, generator=g) * 10)
    fast, exact, largest = fast_and_exact_sums(a, b, acc)
    bound = chains.difference_bound(a, chains.Strip(b), largest)
    assert bound is not None
    worst = (fast.double() - exact.double()).abs().max().item()
    assert 0 < worst <= bound.min().item() * 2 ** 8
    assert bound.max().item() < 1e-3


def test_a_non_finite_bound_falls_back_to_exact_products() -> None:
    """A NaN or an infinity among the sums leaves no finite bound: the chunk is computed exactly."""
    a, b = bf16(torch.randn(32, 32)), bf16(torch.randn(32, 32))
    for bad in (float("nan"), float("inf")):
        flat = a @ b
        flat[3, 4] = bad
        largest = torch.maximum(-flat.min(), flat.max()).item()
        assert chains.difference_bound(a, chains.Strip(b), largest) is None


@pytest.mark.parametrize("fmt", [bfloat16, float16, float32], ids=lambda f: f.name)
def test_sums_near_zero_keep_the_exact_bits(fmt) -> None:
    """Accumulators that cancel the products exactly or nearly: results near zero, signed zeros."""
    a, b, acc, at_m, at_n = case(7, 3, 3, 2, 64, 4, True)
    exact = torch.stack([tile_math.matmul(a[m * 64:(m + 1) * 64], b[:, n * 64:(n + 1) * 64])
                         for m, n in zip(at_m.tolist(), at_n.tolist())])
    acc = -exact.to(fmt.torch_dtype).float()  # every sum is the product's rounding error, or zero
    acc[::2] = bf16(-exact[::2] * (1 + 2 ** -7))
    got, _ = chains._update(a, chains.Strip(b), acc, at_m, at_n, 3, 3, (64, 64), fmt, checked=True)
    want = exact_blocks(a, b, acc, at_m, at_n, (64, 64), fmt)
    bits = torch.int16 if fmt.torch_dtype.itemsize == 2 else torch.int32
    assert torch.equal(got.view(bits), want.view(bits))


def test_overflowing_sums_keep_the_exact_bits() -> None:
    """Finite inputs whose sums overflow fp32 or bfloat16: infinities exactly where the exact mode has them."""
    a, b, acc, at_m, at_n = case(8, 2, 2, 1, 32, 0, True)
    a = a * 2.0 ** 62
    b[:, :20] = b[:, :20] * 2.0 ** 64
    got, _ = chains._update(a, chains.Strip(b), acc, at_m, at_n, 2, 2, (32, 32), bfloat16, checked=True)
    want = exact_blocks(a, b, acc, at_m, at_n, (32, 32), bfloat16)
    assert want.isinf().any()
    assert torch.equal(got.view(torch.int16), want.view(torch.int16))


def test_blocks_in_any_order_land_in_their_rows() -> None:
    """A whole grid whose blocks come in another order than the grid's (the dense copy does not apply)."""
    a, b, acc, at_m, at_n = case(9, 3, 4, 1, 32, 0, True)
    order = torch.randperm(len(at_m), generator=torch.Generator().manual_seed(0)).numpy()
    acc, at_m, at_n = acc[order], at_m[order], at_n[order]
    got, _ = chains._update(a, chains.Strip(b), acc, at_m, at_n, 3, 4, (32, 32), bfloat16, checked=True)
    assert torch.equal(got.view(torch.int16), exact_blocks(a, b, acc, at_m, at_n, (32, 32), bfloat16).view(torch.int16))


@pytest.mark.parametrize("k_tiles", [1, 4])
def test_single_elements_are_recomputed_as_the_exact_mode(k_tiles) -> None:
    """The repair's sampled fp64 products, rounded per tile and added in K order, give the exact mode's sums."""
    g = torch.Generator().manual_seed(k_tiles)
    a, b = bf16(torch.randn(64, k_tiles * 32, generator=g)), bf16(torch.randn(k_tiles * 32, 96, generator=g))
    start = bf16(torch.randn(64, 96, generator=g))
    flat_idx = torch.randperm(64 * 96, generator=g)[:500].sort().values
    rows, cols = flat_idx // 96, flat_idx % 96
    got = chains._exact_elements(a, chains.Strip(b), rows.numpy(), cols.numpy(), start[rows, cols])
    assert torch.equal(got, tile_math.matmul(a, b, start)[rows, cols])
    assert torch.equal(chains._exact_elements(a, chains.Strip(b), rows.numpy(), cols.numpy(), None),
                       tile_math.matmul(a, b)[rows, cols])


def test_a_chain_writes_each_step_over_the_previous_one(tutorials: Path, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Step 1's K steps reuse one slab (take_slab), and the results stay the exact mode's bits (the
    example matmul_local_accumulator, whose first accumulator is a broadcast block, must not)."""
    script = tmp_path / "step1.py"
    script.write_text(resize_source((tutorials / MATMUL_STEPS[0]).read_text(), matmul_size(128, 256, 128)))
    taken: list[bool] = []
    real = LevelEvaluator.take_slab

    def spy(self, slab, values):
        taken.append(real(self, slab, values))
        if taken[-1]:
            assert values.is_contiguous() and values.stride(0) > 0
        return taken[-1]

    monkeypatch.setattr(LevelEvaluator, "take_slab", spy)
    fast = launch_outputs(script, capsys)
    assert len(taken) == 256 // 32 and all(taken)
    assert_same_bits(fast, launch_outputs(script, capsys, "--exact"))


def test_a_chains_later_levels_take_the_last_levels_slab_without_value_ids(tutorials: Path, tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str],
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Step 1's accumulators after the first K step are the last level's slab, found without reading
    their value ids (only the first level reads the ids of a, b and acc), with the exact mode's bits."""
    script = tmp_path / "step1.py"
    script.write_text(resize_source((tutorials / MATMUL_STEPS[0]).read_text(), matmul_size(128, 256, 128)))
    read: list[int] = []
    real = chains._leaf_vids

    def spy(site, rows, leaf):
        read.append(leaf)
        return real(site, rows, leaf)

    monkeypatch.setattr(chains, "_leaf_vids", spy)
    fast = launch_outputs(script, capsys)
    assert sorted(read) == [0, 1, 2]
    assert_same_bits(fast, launch_outputs(script, capsys, "--exact"))


@pytest.mark.parametrize("shape, extents", [((128, 192), (2, 3)), ((3, 64, 96), (1, 2, 1)), ((64, 64), (1, 1))])
def test_reads_from_the_tile_view_match_the_tile_ordered_copy(shape, extents) -> None:
    """A tensor the launch never writes is read through a strided view of its storage: the same blocks
    as from the tile-ordered copy."""
    storage = torch.randn(shape).to(torch.bfloat16)
    ref = TensorRef(SimpleNamespace(storage=storage),
                    SimpleNamespace(unit_shape=(*shape[:-2], shape[-2] // 32, shape[-1] // 32),
                                    unit=SimpleNamespace(tiled=True)))
    g = torch.Generator().manual_seed(0)
    starts = torch.stack([torch.randint(0, u - e + 1, (7,), generator=g)
                          for u, e in zip(ref.unit_shape, extents)], 1).numpy()
    want = graph.gather_tiles(ref.tiles(), ref.unit_shape, starts, extents)
    got = graph.gather_tiles(ref.tile_view(), ref.unit_shape, starts, extents)
    assert torch.equal(got.view(torch.int16), want.view(torch.int16))


@pytest.mark.parametrize("shape, extents", [((128, 192), (2, 3)), ((3, 64, 96), (1, 2, 1)), ((64, 64), (1, 1))])
def test_writes_into_the_storage_match_writes_into_the_tile_ordered_copy(shape, extents) -> None:
    """A tensor the launch writes but never reads is written straight into its storage: the same
    bits as written into the tile-ordered copy and flushed (NaN payloads and negative zeros included)."""
    unit_shape = (*shape[:-2], shape[-2] // 32, shape[-1] // 32)
    g = torch.Generator().manual_seed(1)
    starts = np.asarray([[0] * len(extents), [u - e for u, e in zip(unit_shape, extents)]])  # two blocks apart
    values = torch.randn((len(starts), *(e * (32 if i >= len(extents) - 2 else 1) for i, e in enumerate(extents))),
                         generator=g).to(torch.bfloat16)
    values.view(torch.int16).view(-1)[:3] = torch.tensor([0x7FC1, -0x8000, -0x3F], dtype=torch.int16)  # NaNs, -0
    copied = TensorRef(SimpleNamespace(storage=torch.randn(shape, generator=g).to(torch.bfloat16)),
                       SimpleNamespace(unit_shape=unit_shape, unit=SimpleNamespace(tiled=True)))
    in_place = copied.storage.clone()
    graph.scatter_tiles(copied.tiles(for_write=True), unit_shape, starts, extents, values)
    copied.flush()
    graph.scatter_tiles_in_place(in_place, unit_shape, starts, extents, values)
    assert torch.equal(in_place.view(torch.int16), copied.storage.view(torch.int16))


@pytest.mark.parametrize("extents", [(1, 1), (2, 3)])
def test_a_line_of_blocks_is_a_view_with_the_gathered_blocks(extents: tuple[int, int]) -> None:
    """graph.tile_line: a block column (one start column, rows one block apart) or a block row of an
    unwritten tensor is read as a view of its storage with the blocks gather_tiles gives; blocks not
    side by side in order, or in two columns, are left to the gather (None)."""
    storage = torch.randn(6 * 32, 12 * 32).to(torch.bfloat16)
    ref = TensorRef(SimpleNamespace(storage=storage),
                    SimpleNamespace(unit_shape=(6, 12), unit=SimpleNamespace(tiled=True)))
    e0, e1 = extents
    column = np.stack([np.arange(3) * e0, np.full(3, 3)], 1)
    row = np.stack([np.full(3, 1), 1 + np.arange(3) * e1], 1)
    for starts in (column, row, column[:1]):
        got = graph.tile_line(storage, starts, extents)
        assert got is not None and got.untyped_storage().data_ptr() == storage.untyped_storage().data_ptr()
        want = graph.gather_tiles(ref.tile_view(), ref.unit_shape, starts, extents)
        assert torch.equal(got.view(torch.int16), want.view(torch.int16))
    assert graph.tile_line(storage, column[::-1].copy(), extents) is None  # not in order
    assert graph.tile_line(storage, column * np.array([[2, 1]]), extents) is None  # a block apart, not one
    assert graph.tile_line(storage, np.stack([np.arange(3) * e0, np.arange(3)], 1), extents) is None  # a diagonal


@pytest.mark.parametrize("fmt", [bfloat16, float16], ids=lambda f: f.name)
@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")])
def test_non_finite_accumulators_keep_the_exact_bits(fmt, bad) -> None:
    """A NaN or an infinity already in the accumulator (not in the operands) leaves no finite bound
    either: the chunk falls back to exact products, NaN and infinities where the exact mode has them."""
    a, b, acc, at_m, at_n = case(10, 2, 2, 2, 32, 0, True)
    acc[1, 4, 5], acc[3, 0, 0] = bad, -bad
    got, sufficed = chains._update(a, chains.Strip(b), acc.to(fmt.torch_dtype), at_m, at_n, 2, 2, (32, 32), fmt,
                                   checked=True)
    want = exact_blocks(a, b, acc.to(fmt.torch_dtype).float(), at_m, at_n, (32, 32), fmt)
    assert not sufficed
    assert torch.equal(got.isnan(), want.isnan())
    assert torch.equal(got.nan_to_num().view(torch.int16), want.nan_to_num().view(torch.int16))


@pytest.mark.parametrize("fmt, half_ulp", [(bfloat16, 2.0 ** -8), (float16, 2.0 ** -11)], ids=["bfloat16", "float16"])
def test_sums_exactly_on_a_rounding_tie_keep_the_exact_bits(fmt, half_ulp, monkeypatch: pytest.MonkeyPatch) -> None:
    """Products that are exact small numbers put ``acc + a @ b`` exactly halfway between two values of
    the store's format, or one fp32 step either side of it: the check sends them to the exact
    recomputation (all of them: more than the usual share), which rounds the ties to even."""
    g = torch.Generator().manual_seed(12)
    a, b = torch.zeros(64, 32), torch.zeros(32, 64)
    a[:, 0], b[0, :] = 1.0, half_ulp  # each product: half an ulp of the store's format at 1.0
    a[:, 1], b[1, :] = torch.randint(-1, 2, (64,), generator=g).float(), 2.0 ** -23  # an fp32 step down, up or none
    at_m, at_n = np.arange(2).repeat(2), np.tile(np.arange(2), 2)
    acc = torch.where(torch.rand(4, 32, 32, generator=g) < 0.5, 1.0, 1.0 + 2 * half_ulp)  # even and odd last bits
    monkeypatch.setattr(chains, "REPAIR_SHARE", 1.0)
    got, sufficed = chains._update(a, chains.Strip(b), acc.to(fmt.torch_dtype), at_m, at_n, 2, 2, (32, 32), fmt,
                                   checked=True)
    want = exact_blocks(a, b, acc, at_m, at_n, (32, 32), fmt)
    assert sufficed
    assert torch.equal(got.view(torch.int16), want.view(torch.int16))
    assert len(torch.unique(want)) == 3  # 1, 1 + ulp, 1 + 2 ulp: ties to even both ways, steps off the tie apart


@pytest.mark.parametrize("fmt, scale", [(bfloat16, 2.0 ** -65), (float16, 2.0 ** -10), (float32, 2.0 ** -65)],
                         ids=lambda x: getattr(x, "name", ""))
def test_subnormal_values_keep_the_exact_bits(fmt, scale) -> None:
    """Operands scaled so that products, sums and results fall in the subnormal range of the store's
    format (for bfloat16 and float32, of fp32 itself)."""
    a, b, acc, at_m, at_n = case(13, 2, 2, 2, 32, 4, True)
    a, b, acc = bf16(a * scale), bf16(b * scale), (acc * scale * scale).to(fmt.torch_dtype)
    got, _ = chains._update(a, chains.Strip(b), acc, at_m, at_n, 2, 2, (32, 32), fmt, checked=True)
    want = exact_blocks(a, b, acc.float(), at_m, at_n, (32, 32), fmt)
    bits = torch.int16 if fmt.torch_dtype.itemsize == 2 else torch.int32
    assert (want.float().abs() < torch.finfo(fmt.torch_dtype).tiny).float().mean() > 0.5  # really subnormal
    assert torch.equal(got.view(bits), want.view(bits))


def test_a_chain_finds_its_next_reads_without_a_search(tutorials: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """At its first K step, each operand's reads are found by a search and proven, once for the whole
    site, to be the read site's rows at a fixed offset from the site's (chains._read_offset); the later
    levels use that offset without reading their value ids, and the results stay the exact mode's bits."""
    script = tmp_path / "step1.py"
    script.write_text(resize_source((tutorials / MATMUL_STEPS[0]).read_text(), matmul_size(128, 256, 128)))
    searched: list[bool] = []
    proofs: list[tuple[int, int] | None] = []
    real_next, real_offset = chains._next_reads, chains._read_offset

    def next_spy(evaluator, last, vids):  # type: ignore[no-untyped-def]
        searched.append(real_next(evaluator, last, vids) is None)
        return real_next(evaluator, last, vids)

    def offset_spy(*args):  # type: ignore[no-untyped-def]
        proofs.append(real_offset(*args))
        return proofs[-1]

    monkeypatch.setattr(chains, "_next_reads", next_spy)
    monkeypatch.setattr(chains, "_read_offset", offset_spy)
    fast = launch_outputs(script, capsys)
    assert searched == [True, True]  # the first level only: the later ones take the proven offsets
    assert len(proofs) == 2 and all(proof is not None for proof in proofs)
    assert_same_bits(fast, launch_outputs(script, capsys, "--exact"))


def test_a_read_offset_is_proven_over_the_whole_column_or_not_at_all(monkeypatch: pytest.MonkeyPatch) -> None:
    """chains._read_offset: the offset holds for every row of the site (several comparison chunks), and
    one row anywhere in the column that reads another value (a row the level being computed does not
    contain), or a level whose reads are not at one offset, leaves the chain to the per-level check."""
    monkeypatch.setattr(chains, "OFFSET_CHUNK", 16)
    out = np.arange(100, 200, dtype=np.int64)  # the read site's value ids
    leaves = np.stack([np.arange(50, dtype=np.int32), out[3:53].astype(np.int32)], 1)
    site, read = SimpleNamespace(leaves_a=leaves), SimpleNamespace(out_a=out)
    rows = np.arange(0, 50, 10)
    assert chains._read_offset(site, 1, read, rows, (7, rows + 3)) == (7, 3)
    assert chains._read_offset(site, 1, read, rows, (7, rows + np.arange(5) % 2 + 3)) is None
    leaves[41, 1] = 99  # not a row of this level
    assert chains._read_offset(site, 1, read, rows, (7, rows + 3)) is None
