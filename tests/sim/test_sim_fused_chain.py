"""The compiled chain kernel (tilecraft/sim/dataflow/fused_chain.py) gives the exact mode's bits.

Each test computes one K step of ``acc + a @ b`` over many output blocks with the kernel and with
the exact mode's definition (``tile_math.matmul`` block by block, then the store's rounding), on
data chosen to put sums where the kernel's fp32 products alone would round differently: near
rounding boundaries and zero, exactly on ties, in the subnormal range, past fp32's range, with
NaN and infinities; for every store format the chains take (bfloat16, float16, float32) and every
accumulator format they widen (the same three; a bfloat8_b/bfloat4_b accumulator is held as
bfloat16). The whole-array engine (chains._update) is tested against the same definition in
test_sim_chains.py.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.sim.test_sim_chains import bf16, case, exact_blocks
from tilecraft.diagnostics import error
from tilecraft.dtypes import bfloat16, float16, float32
from tilecraft.sim.dataflow import fused_chain

FORMATS = [bfloat16, float16, float32]


@pytest.fixture(autouse=True)
def _kernel() -> None:
    if fused_chain.library() is None:  # the project's CI has g++ (the emulator needs it): a skip would hide a bug
        pytest.fail("the fused chain kernel did not build")


def fused(a: torch.Tensor, b: torch.Tensor, acc: torch.Tensor | None, at_m: np.ndarray, at_n: np.ndarray,
          block: tuple[int, int], fmt, into_acc: bool = False) -> tuple[torch.Tensor, int]:
    """The kernel's blocks (in the order of ``at_m``/``at_n``) and how many elements it repaired;
    ``into_acc``: written over ``acc`` (which must then be in ``fmt``), as a chain's taken slab is."""
    h, w = block
    out = acc if into_acc else torch.empty((len(at_m), h, w), dtype=fmt.torch_dtype)
    repaired = fused_chain.update(a, b, acc, out, np.arange(len(at_m)), at_m * h, at_n * w, threads=1)
    return out, repaired


def assert_same_bits(got: torch.Tensor, want: torch.Tensor) -> None:
    """Equal bits, NaN where NaN (a NaN's payload is not defined: torch's own conversions differ in it)."""
    assert got.dtype == want.dtype
    assert torch.equal(got.isnan(), want.isnan())
    bits = {2: torch.int16, 4: torch.int32}[got.dtype.itemsize]
    assert torch.equal(got.nan_to_num().view(bits), want.nan_to_num().view(bits))


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
@pytest.mark.parametrize("seed, rows_m, cols_n, k_tiles, block, spread, with_acc", [
    (0, 4, 4, 1, 32, 0, True),     # step 1's shape: 1x1-tile blocks, one K tile per store
    (1, 2, 3, 4, 128, 0, True),    # step 4's shape: 4x4-tile blocks, four K tiles per store
    (2, 3, 2, 2, 64, 12, True),    # values over 25 binades
    (3, 2, 2, 3, 64, 6, False),    # a plain product, no accumulator
    (4, 1, 2, 8, 32, 2, True),     # a long K: 256 products per store
])
def test_the_kernel_is_the_exact_mode(fmt, seed, rows_m, cols_n, k_tiles, block, spread, with_acc) -> None:
    a, b, acc, at_m, at_n = case(seed, rows_m, cols_n, k_tiles, block, spread, with_acc)
    got, _ = fused(a, b, acc, at_m, at_n, (block, block), fmt)
    assert_same_bits(got, exact_blocks(a, b, acc, at_m, at_n, (block, block), fmt))


def test_the_check_catches_what_fp32_products_get_wrong() -> None:
    """On this data fp32 products alone round some sums differently from the exact mode: the kernel
    repairs them (and only a small share of the elements of a plain product)."""
    a, b, acc, at_m, at_n = case(4, 8, 8, 1, 32, 0, True)
    want = exact_blocks(a, b, acc, at_m, at_n, (32, 32), bfloat16)
    fp32_only = torch.stack([acc[i] + a[m * 32:(m + 1) * 32] @ b[:, n * 32:(n + 1) * 32]
                             for i, (m, n) in enumerate(zip(at_m.tolist(), at_n.tolist()))])
    assert not torch.equal(fp32_only.to(torch.bfloat16).view(torch.int16), want.view(torch.int16))
    got, repaired = fused(a, b, acc, at_m, at_n, (32, 32), bfloat16)
    assert repaired > 0
    assert_same_bits(got, want)
    a, b, _, at_m, at_n = case(5, 4, 4, 4, 32, 0, False)
    _, repaired = fused(a, b, None, at_m, at_n, (32, 32), bfloat16)
    assert 0 < repaired < 0.05 * len(at_m) * 32 * 32


@pytest.mark.parametrize("fmt", [bfloat16, float16], ids=lambda f: f.name)
@pytest.mark.parametrize("acc_dtype", [torch.bfloat16, torch.float16, torch.float32], ids=str)
def test_every_accumulator_format_widens_exactly(fmt, acc_dtype) -> None:
    a, b, acc, at_m, at_n = case(6, 2, 2, 2, 64, 3, True)
    acc = acc.to(acc_dtype)
    got, _ = fused(a, b, acc, at_m, at_n, (64, 64), fmt)
    assert_same_bits(got, exact_blocks(a, b, acc.float(), at_m, at_n, (64, 64), fmt))


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
def test_results_written_over_their_accumulators(fmt) -> None:
    """A chain's level writes its results over the slab of accumulators it consumed (take_slab)."""
    a, b, acc, at_m, at_n = case(7, 3, 2, 2, 32, 4, True)
    acc = acc.to(fmt.torch_dtype)
    want = exact_blocks(a, b, acc.float(), at_m, at_n, (32, 32), fmt)
    got, _ = fused(a, b, acc, at_m, at_n, (32, 32), fmt, into_acc=True)
    assert got is acc
    assert_same_bits(got, want)


def test_blocks_in_any_order_and_rows_land_where_asked() -> None:
    a, b, acc, at_m, at_n = case(8, 3, 4, 1, 32, 0, True)
    order = torch.randperm(len(at_m), generator=torch.Generator().manual_seed(0)).numpy()
    rows = order[:7]  # a sparse batch: some blocks of the grid, written to the given rows
    out = torch.full((len(at_m), 32, 32), 7.0, dtype=torch.bfloat16)
    fused_chain.update(a, b, acc, out, rows, at_m[rows] * 32, at_n[rows] * 32, threads=1)
    want = exact_blocks(a, b, acc[rows], at_m[rows], at_n[rows], (32, 32), bfloat16)
    assert_same_bits(out[rows], want)
    untouched = np.setdiff1d(np.arange(len(at_m)), rows)
    assert bool((out[untouched] == 7.0).all())


def test_threads_split_blocks_without_changing_bits() -> None:
    a, b, acc, at_m, at_n = case(9, 4, 4, 2, 32, 2, True)
    one = torch.empty((16, 32, 32), dtype=torch.bfloat16)
    two = torch.empty_like(one)
    fused_chain.update(a, b, acc, one, np.arange(16), at_m * 32, at_n * 32, threads=1)
    fused_chain.update(a, b, acc, two, np.arange(16), at_m * 32, at_n * 32, threads=3)
    assert torch.equal(one.view(torch.int16), two.view(torch.int16))


@pytest.mark.parametrize("fmt, half_ulp", [(bfloat16, 2.0 ** -8), (float16, 2.0 ** -11)], ids=["bfloat16", "float16"])
def test_sums_exactly_on_a_rounding_tie(fmt, half_ulp) -> None:
    """``acc + a @ b`` exactly halfway between two values of the store's format, or one fp32 step either
    side: ties round to even, the steps off the tie apart."""
    g = torch.Generator().manual_seed(12)
    a, b = torch.zeros(64, 32), torch.zeros(32, 64)
    a[:, 0], b[0, :] = 1.0, half_ulp
    a[:, 1], b[1, :] = torch.randint(-1, 2, (64,), generator=g).float(), 2.0 ** -23
    at_m, at_n = np.arange(2).repeat(2), np.tile(np.arange(2), 2)
    acc = torch.where(torch.rand(4, 32, 32, generator=g) < 0.5, 1.0, 1.0 + 2 * half_ulp).to(fmt.torch_dtype)
    got, repaired = fused(a, b, acc, at_m, at_n, (32, 32), fmt)
    want = exact_blocks(a, b, acc.float(), at_m, at_n, (32, 32), fmt)
    assert repaired > 0
    assert_same_bits(got, want)
    assert len(torch.unique(want)) == 3


@pytest.mark.parametrize("fmt, scale", [(bfloat16, 2.0 ** -65), (float16, 2.0 ** -10), (float32, 2.0 ** -65)],
                         ids=lambda x: getattr(x, "name", ""))
def test_subnormal_values(fmt, scale) -> None:
    a, b, acc, at_m, at_n = case(13, 2, 2, 2, 32, 4, True)
    a, b, acc = bf16(a * scale), bf16(b * scale), (acc * scale * scale).to(fmt.torch_dtype)
    got, _ = fused(a, b, acc, at_m, at_n, (32, 32), fmt)
    want = exact_blocks(a, b, acc.float(), at_m, at_n, (32, 32), fmt)
    assert (want.float().abs() < torch.finfo(fmt.torch_dtype).tiny).float().mean() > 0.5
    assert_same_bits(got, want)


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
def test_overflow_infinities_and_nan(fmt) -> None:
    """Finite sums past fp32's (or the format's) range, and infinities and NaN in the operands and
    the accumulator: infinities exactly where the exact mode has them, NaN where it has NaN."""
    a, b, acc, at_m, at_n = case(14, 2, 2, 2, 32, 0, True)
    a[:8] *= 2.0 ** 62
    b[:, :20] *= 2.0 ** 64
    a[40, 3], b[5, 50], acc[1, 2, 3], acc[2, 0, 0] = float("inf"), float("nan"), float("-inf"), float("inf")
    acc = acc.to(fmt.torch_dtype)
    got, _ = fused(a, b, acc, at_m, at_n, (32, 32), fmt)
    want = exact_blocks(a, b, acc.float(), at_m, at_n, (32, 32), fmt)
    assert want.isinf().any() and want.isnan().any()
    assert_same_bits(got, want)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2 ** 31), fmt=st.sampled_from(FORMATS), acc_dtype=st.sampled_from(
    [None, torch.bfloat16, torch.float16, torch.float32]), k_tiles=st.integers(1, 4), block=st.sampled_from([32, 64]),
       spread=st.integers(0, 40), shift=st.sampled_from([0, 0, 60, -60, -120]), cancel=st.booleans())
def test_random_blocks_are_the_exact_mode(seed, fmt, acc_dtype, k_tiles, block, spread, shift, cancel) -> None:
    """Random bf16 operands over up to 80 binades, scaled towards overflow or the subnormals, with an
    accumulator of any float format that may cancel the product (sums near zero)."""
    g = torch.Generator().manual_seed(seed)
    rows_m, cols_n = 2, 2
    a = bf16(torch.randn(rows_m * block, k_tiles * 32, generator=g) * torch.exp2(
        torch.randint(-spread, spread + 1, (rows_m * block, k_tiles * 32), generator=g).float() + shift / 2))
    b = bf16(torch.randn(k_tiles * 32, cols_n * block, generator=g) * 2.0 ** (shift / 2))
    at_m, at_n = np.arange(rows_m).repeat(cols_n), np.tile(np.arange(cols_n), rows_m)
    acc = None
    if acc_dtype is not None:
        acc = torch.randn(len(at_m), block, block, generator=g) * 2.0 ** shift
        if cancel:
            acc = -torch.stack([a[m * block:(m + 1) * block] @ b[:, n * block:(n + 1) * block]
                                for m, n in zip(at_m.tolist(), at_n.tolist())])
        acc = acc.to(acc_dtype)
    got, _ = fused(a, b, acc, at_m, at_n, (block, block), fmt)
    want = exact_blocks(a, b, None if acc is None else acc.float(), at_m, at_n, (block, block), fmt)
    assert_same_bits(got, want)


def test_without_a_compiler_the_chains_use_whole_array_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    """No C++ compiler (or the switch off): library() is None and the chains take the torch path."""
    def missing():
        raise error("E5004", "the kernel emulator needs a C++20 compiler and found none")

    fused_chain._built.cache_clear()
    monkeypatch.setattr(fused_chain, "compiler", missing)
    monkeypatch.setattr(fused_chain.shutil, "which", lambda name: None)  # (nor a clang++)
    try:
        assert fused_chain.library() is None
        assert not fused_chain.supports(torch.bfloat16, None, torch.device("cpu"))
    finally:
        fused_chain._built.cache_clear()
    monkeypatch.undo()
    assert fused_chain.library() is not None
    monkeypatch.setenv(fused_chain.SWITCH, "0")
    assert fused_chain.library() is None


def test_every_compiler_builds_the_same_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    """clang++ is preferred where installed (a faster build), g++ otherwise: both give the exact mode's bits,
    on data where the check repairs some elements."""
    compilers = fused_chain._compilers()
    if len(compilers) < 2:
        pytest.skip("one C++ compiler on this machine: nothing to compare")
    a, b, acc, at_m, at_n = case(4, 4, 4, 2, 32, 0, True)
    want = exact_blocks(a, b, acc, at_m, at_n, (32, 32), bfloat16)
    for chosen in compilers:
        fused_chain._built.cache_clear()
        monkeypatch.setattr(fused_chain, "_compilers", lambda chosen=chosen: [chosen])
        out, repaired = fused(a, b, acc, at_m, at_n, (32, 32), bfloat16)
        assert repaired > 0
        assert_same_bits(out, want)
    fused_chain._built.cache_clear()


def test_blocks_outside_the_strips_are_refused() -> None:
    """The kernel checks every block's place in ``a`` and ``b`` (a wrong index would read past them)."""
    a, b, acc, at_m, at_n = case(15, 2, 2, 1, 32, 0, True)
    out = torch.empty((4, 32, 32), dtype=torch.bfloat16)
    for row_m, col_n in (([0, 0, 0, 64], [0, 32, 0, 32]), ([0, 0, 0, 0], [0, 40, 0, 0]), ([0, 0, 0, 0], [0, 48, 0, 0])):
        with pytest.raises(ValueError, match="unsupported shapes"):
            fused_chain.update(a, b, acc, out, np.arange(4), np.array(row_m), np.array(col_n), threads=1)
