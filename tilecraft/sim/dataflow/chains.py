"""Accumulation chains as large matrix updates: ``y = acc + a @ b`` over every output block at once.

A matmul tutorial's K loop stores ``acc + a @ b`` once per K step for every output block of every
core. At one dataflow level, those stores read the same K strip of ``A`` and ``B`` (block ``(m, k)``
of ``A`` and ``(k, n)`` of ``B`` for many ``(m, n)``), so their tile products are the blocks of
one GEMM ``A[:, k strip] @ B[k strip, :]``. Computing them that way is one large matrix product per
K tile instead of one small product per block.

The language defines the result bit for bit (:func:`tile_math.matmul`): with ``T`` K tiles in the
block, ``s_0 = acc``, ``s_t = fl32(s_{t-1} + P*_t)`` where ``P*_t`` is the exact sum of the 32
products of tile ``t`` rounded once to fp32, and the store rounds ``s_T`` to the block's format.
The fast sequence is the same with ``P^f_t``, a float32 GEMM's sum (its own order), in place of
``P*_t``: the same additions in the same order, so only the products differ.

**The bound.** Per element, with ``u = 2^-24``, ``g = 16u / (1 - 16u)`` and ``S|ab|`` the sum of the
32 absolute products of the tile:

* each fast tile product is two fp32 GEMMs over 16 of the 32 products, added: any order of 16 fp32
  multiply-adds is within ``g`` times its ``S|ab|`` of the real sum (Higham 3.1, FMAs included) and
  their addition adds ``u (1 + g) S|ab|``; the exact mode's fp64 sum is within ``32 * 2^-53 * S|ab|``
  of the real sum and its rounding to fp32 within ``u * S|ab|``. So ``|P^f_t - P*_t| <= d_t =
  (g + u (1 + g) + u + 32 * 2^-53) * S|ab| + FLUSHED * (|a row| + |b column|) + SUBTILE``
  (``SUBTILE`` covers subnormal partial sums; ``FLUSHED`` a library flushing subnormal operands to
  zero, which loses at most ``2^-126 |b_k|`` per product, ``2^-126 sqrt(32) |b column|`` in all). Two
  GEMMs of 16 cost ~30% more than one of 32 and halve ``d_t``, so about half as many elements need
  the exact recomputation below;
* ``S|ab| <= |a row| * |b column| <= max_rows |a row| * |b column|`` per tile (Cauchy-Schwarz), so one
  bound per column of the chunk holds for all its rows: per K tile, the chunk's largest row norm
  times each column's norm, summed over the tiles (one GEMV a chunk). The norms are computed in fp64
  (an fp32 norm's squares underflow to 0 for rows below ``~2^-75``, or overflow), the strip's once
  per level;
* both sequences round each addition to fp32, each rounding off by at most ``u |x_t| + 2^-150``
  where ``x_t`` is the sum before rounding, so ``|s^f_T - s*_T| <= sum_t d_t + 2 T (u X + 2^-150)``
  where ``X`` bounds every ``|x_t|`` of both sequences in the chunk. The fast partial sums are
  measured (one min/max per K tile): ``|x^f_t| <= |s^f_t| / (1 - u)``, and ``|x*_t - x^f_t|`` is at
  most the difference bound so far, ``sum_t d_t + 2 T (u X + 2^-150)``; so with ``2 T u`` far below
  ``2^-12``, ``X = (max_t max|s^f_t| + max sum_t d_t) * MARGIN`` suffices;
* every term is computed in fp64 (the norms, their GEMV) or Python floats (``X`` and the rounding
  term), multiplied by ``MARGIN`` (``1 + 2^-12``), and the bound is rounded to fp32 once, after one more
  ``MARGIN``: that covers the rounding of the bound itself, ``(1 - u)^-1`` and ``1 / (1 - 2 T u)``.

**The check.** With ``D`` that bound (an fp32 number greater than the real difference), the exact
``s*_T`` lies in ``[s^f_T - D, s^f_T + D]``; because it is an fp32 number and rounding to nearest is
monotone, it also lies in ``[fl32(s^f_T - D), fl32(s^f_T + D)]``, and rounding to bfloat16/float16
is monotone too. So where ``q(fl32(s - D)) == q(fl32(s + D))`` the exact mode's bits are that value
(the bound is one value per column, broadcast; then two subtractions/additions rounded to the
store's format as they are written, and one comparison of the 16-bit patterns, four at a time; the
rounded low end is the result). An exact zero of either sign lies strictly inside the interval
(``D`` exceeds the real difference), whose ends then round to values of opposite signs: zeros are
always recomputed. The other elements are recomputed exactly, the way the exact mode computes them
(sampled fp64 products of just those elements, rounded to fp32 per tile, added in K order). A chunk
whose bound is not finite (infinities or NaN among the values, or an overflow) is computed with exact
products; so is a chunk where more than ``REPAIR_SHARE`` of the elements would be recomputed
(element by element costs more than exact products for all), and every chunk of a float32 store (no
rounding hides a difference).

The results are the exact mode's bits (tests/sim/test_sim_chains.py compares them bit for bit), on the
exact mode's own premise that an fp64 sum of 32 tile products is exact.

**The compiled kernel.** Where the host C++ compiler is present (the kernel emulator needs it anyway),
a level's blocks go through :mod:`.fused_chain` instead (:func:`_fused_update`): the same sequence and
the same kind of check, fused per element, with a bound of its own (its tile products are four chains
of eight fp32 multiply-adds added pairwise, so ``12u`` per unit of ``|a row| |b column|`` instead of
this module's ``PRODUCT_ERROR``), carried along the K tiles per element rather than per column of a
chunk; a float32 store gets fp64 tile products there too. What follows is the whole-array engine, the
fallback without a compiler (and on a GPU).

**Cost.** A chunk's sums live in its blocks' own layout (that of the accumulators read and of the
results written), so the accumulators are read once, by the first addition, and the results leave by
a plain copy. Per chunk (about ``CHUNK_ELEMENTS`` outputs, so that its buffers stay in the cache) and
K tile: two GEMMs into reused buffers, their sum, its addition into the chunk's sums (the GEMMs' grid
read in block order) and one min/max; then per chunk the bound (norms and one GEMV), the two rounded
ends, their comparison, the few repairs and one copy out. The buffers are kept from level to level,
and a level may write its results over the accumulators it consumed (``LevelEvaluator.take_slab``).
A leaf's reads at the next level are found as the reads after the last level's (checked), without a
search of every read site.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import torch

from ...dtypes import DataFormat, bfloat16, float16, float32
from ...numerics import quantize, to_compute
from . import fused_chain
from .graph import gather_tiles, take_rows, tile_line

#: elements of one output chunk on the CPU (its fp32 buffers stay within the second-level/last-level cache)
CHUNK_ELEMENTS = 1 << 19
#: elements of one output chunk on a GPU: there a chunk costs kernel launches and synchronisations,
#: not cache misses, so it is a whole level where memory allows (:func:`chunk_elements`)
GPU_CHUNK_ELEMENTS = 1 << 26
#: unit roundoff of fp32
U32 = 2.0 ** -24
#: the bound of any order of summing 16 fp32 products (Higham's gamma_n with n = 16)
GAMMA16 = 16 * U32 / (1 - 16 * U32)
#: |fast tile product - exact tile product| per unit of sum|a||b|: the two GEMMs of 16 (any order each),
#: the rounding of their sum, the exact mode's fp64 sum (32 roundings of 2^-53) and its rounding to fp32
PRODUCT_ERROR = GAMMA16 + U32 * (1 + GAMMA16) + U32 + 32 * 2.0 ** -53
#: absolute error of one tile product from subnormal partial sums (or a GEMM flushing them to zero)
SUBTILE = 2.0 ** -100
#: a GEMM flushing subnormal operands to zero loses at most 2^-126 |b_k| per product of the tile, at most
#: this times the column's norm (Cauchy-Schwarz with the 32 ones), and likewise for the row
FLUSHED = 2.0 ** -126 * 32 ** 0.5
#: absolute error of one fp32 rounding below the normal range
SUBNORMAL = 2.0 ** -149
#: covers the rounding of the bound's own computation
MARGIN = 1 + 2.0 ** -12
#: a batch is computed as a product of strips only when it covers at least this share of the
#: strips' output blocks (otherwise most of the GEMM would be thrown away)
MIN_DENSITY = 0.5
#: above this share of elements to recompute, a chunk's products are all recomputed in fp64 instead
REPAIR_SHARE = 0.05
#: store formats whose rounding hides a GEMM's last-bit difference (checked, then repaired)
CHECKED_FORMATS = (bfloat16.name, float16.name)
#: accumulator formats an fp32 addition widens exactly (others are converted to fp32 first)
WIDENED_EXACTLY = (torch.bfloat16, torch.float16, torch.float32)
#: rows per comparison when a leaf's whole column is checked against a read site's value ids
OFFSET_CHUNK = 1 << 20


class ReadLeaf:
    """One operand of the batch: every row reads a block of one tensor through one read site."""

    def __init__(self, site: Any, rows: np.ndarray, device: torch.device, written: bool):
        self.site = site
        self.starts = take_rows(site.starts_a, rows)
        self.device = device
        self.written = written

    def strips(self, starts: np.ndarray) -> torch.Tensor:
        """The blocks at ``starts`` as ``[len(starts), h, w]`` fp32, rounded to the block's format."""
        tensor = self.site.tensor
        # the same rule as Evaluator.read_blocks: a tensor the launch writes is read from its tile copy
        blocks = None if self.written else tile_line(tensor.storage, starts, self.site.extents)
        if blocks is None:
            source = tensor.tiles() if self.written else tensor.tile_view()
            blocks = gather_tiles(source, tensor.unit_shape, starts, self.site.extents)
        return to_compute(quantize(blocks.to(self.device), self.site.fmt))


def matmul_update(evaluator: Any, site: Any, rows: np.ndarray, spec: tuple[int, int, int | None]) -> bool:
    """Compute rows ``rows`` of compute site ``site`` (an ``acc + a @ b`` store whose ``a`` and ``b``
    come straight from tensor reads) as strip products and store them; False (nothing done) when the
    batch is not of that form, so the caller evaluates it block by block."""
    fmt: DataFormat = site.fmt
    if fmt.name not in (*CHECKED_FORMATS, float32.name):
        return False
    lhs = _read_leaf(evaluator, site, rows, spec[0])
    rhs = _read_leaf(evaluator, site, rows, spec[1])
    if lhs is None or rhs is None or len(lhs.site.extents) != 2 or len(rhs.site.extents) != 2:
        return False  # (a batched matmul: block by block)
    (bm, bk), (bk2, bn) = lhs.site.extents, rhs.site.extents
    if bk != bk2 or not np.array_equal(lhs.starts[:, 1], rhs.starts[:, 0]):
        return False
    groups = []
    ks = lhs.starts[:, 1]
    one_strip = bool((ks == ks[0]).all())  # the usual case: one K strip for the whole level
    for k0 in [int(ks[0])] if one_strip else np.unique(ks).tolist():
        members = np.arange(len(ks)) if one_strip else np.flatnonzero(ks == k0)
        grid = _grid(evaluator, site, lhs.starts[members, 0] if not one_strip else lhs.starts[:, 0],
                     rhs.starts[members, 1] if not one_strip else rhs.starts[:, 1])
        if grid is None:
            return False
        groups.append((k0, members, *grid))
    device = evaluator.device
    # the accumulators in their stored format, all at once (usually the previous level's slab itself)
    acc_all, acc_slab = _accumulators(evaluator, site, rows, spec[2]) if spec[2] is not None else (None, -1)
    shape = (len(rows), bm * 32, bn * 32)
    if acc_all is not None and acc_all.shape == shape and acc_all.dtype == fmt.torch_dtype \
            and evaluator.take_slab(acc_slab, acc_all):
        out = acc_all  # each chunk reads its accumulators before it writes its results over them
    else:
        out = torch.empty(shape, dtype=fmt.torch_dtype, device=device)
    if _fused_update(lhs, rhs, groups, acc_all, out):
        _stored(evaluator, site, rows, spec[2], out)
        return True
    checked = fmt.name in CHECKED_FORMATS
    for k0, members, mu, mi, nu, ni, by_m in groups:
        a = lhs.strips(np.stack([mu, np.full_like(mu, k0)], 1)).reshape(-1, bk * 32)
        b = rhs.strips(np.stack([np.full_like(nu, k0), nu], 1))
        strip = Strip(b.permute(1, 0, 2).reshape(bk * 32, -1))
        per_chunk = max(1, chunk_elements(device, CHUNK_ELEMENTS, GPU_CHUNK_ELEMENTS) // (bm * 32 * strip.b.shape[1]))
        buffers = Buffers.reused(evaluator.scratch, min(per_chunk, len(mu)), len(nu), (bm * 32, bn * 32), fmt, device)
        cuts = np.searchsorted(mi[by_m], np.arange(0, len(mu) + per_chunk, per_chunk))
        ordered = members[by_m]
        increasing = bool((np.diff(ordered) > 0).all())  # then a chunk's rows are a run where its ends say so
        for m0, lo, hi in zip(range(0, len(mu), per_chunk), cuts, cuts[1:]):
            m1 = min(m0 + per_chunk, len(mu))
            sel = by_m[lo:hi]
            if not len(sel):
                continue
            where = ordered[lo:hi]
            span = _span(where, increasing)
            at = span if span is not None else torch.from_numpy(where).to(device)
            acc = acc_all[at] if acc_all is not None else None
            target = out[span] if span is not None else None
            result, checked = _update(a[m0 * bm * 32:m1 * bm * 32], strip, acc, mi[sel] - m0, ni[sel], m1 - m0, len(nu),
                                      (bm * 32, bn * 32), fmt, checked, into=target, buffers=buffers)
            if result is not target:  # once a chunk needs exact products, so do the level's next (above)
                out[at] = result
    _stored(evaluator, site, rows, spec[2], out)
    return True


def _accumulators(evaluator: Any, site: Any, rows: np.ndarray, leaf: int) -> tuple[torch.Tensor, int]:
    """The accumulators of ``rows`` (operand ``leaf``) in their stored format, and the slab they are
    all of, in its order (-1: they are not)."""
    slab = _chained_slab(evaluator, site, rows, leaf)
    if slab >= 0:
        return evaluator.slabs[slab], slab
    vids = _leaf_vids(site, rows, leaf)
    values = evaluator.values(vids)
    slab = evaluator.slab_of[int(vids[0])] if len(vids) else -1
    return values, slab if slab in evaluator.slabs and evaluator.slabs[slab] is values else -1


def _chained_slab(evaluator: Any, site: Any, rows: np.ndarray, leaf: int) -> int:
    """The slab this site stored at the last level, when it holds exactly the accumulators of ``rows``, in
    order; -1 otherwise. That is so when each row's operand ``leaf`` is the value of the row before it
    (a K loop's ``acc`` is the last step's store: checked once per site and leaf over the whole column,
    :func:`_chain_breaks`) and the last level's rows were ``rows - 1``. Then the accumulators' value ids
    are neither read nor searched for in the slabs: at 8192^3 that cost ~2 ms a level."""
    last = evaluator.scratch.get("chain", {}).get((id(site), leaf))
    if last is None:
        return -1
    last_rows, slab = last
    if slab not in evaluator.slabs or len(last_rows) != len(rows) or not np.array_equal(rows - 1, last_rows):
        return -1
    return -1 if evaluator.level in _chain_breaks(evaluator, site, leaf) else slab


def _chain_breaks(evaluator: Any, site: Any, leaf: int) -> set[int]:
    """The levels (depths) of the rows of ``site`` whose operand ``leaf`` is not the value of the row
    before them (a chain's first step), found once per site and leaf, in chunks over the whole column."""
    found = evaluator.scratch.setdefault("chain breaks", {})
    if (id(site), leaf) not in found:
        column, out, depth = site.leaves_a[:, leaf], site.out_a, site.depth_a
        levels: set[int] = set()
        for lo in range(0, len(column), OFFSET_CHUNK):
            hi = min(lo + OFFSET_CHUNK, len(column))
            broken = column[max(lo, 1):hi] != out[max(lo, 1) - 1:hi - 1]
            if lo == 0:
                broken = np.r_[True, broken][:hi]  # (row 0 has no row before it)
            levels.update(np.unique(depth[lo:hi][broken]).tolist())
        found[id(site), leaf] = levels
    return found[id(site), leaf]


def _stored(evaluator: Any, site: Any, rows: np.ndarray, leaf: int | None, out: torch.Tensor) -> None:
    """Store a level's results, and remember their rows and slab for the next level's accumulators."""
    slab = evaluator.store(site.out_a[rows], out)
    if leaf is not None:
        evaluator.scratch.setdefault("chain", {})[id(site), leaf] = (rows.copy(), slab)  # (a view would pin the level order)


def _fused_update(lhs: ReadLeaf, rhs: ReadLeaf, groups: list[tuple[Any, ...]], acc: torch.Tensor | None,
                  out: torch.Tensor) -> bool:
    """The level's blocks through the compiled kernel (:mod:`.fused_chain`: the same bits, without the
    whole-array passes and their chunks), when it is built and takes these formats; False otherwise."""
    if acc is not None and acc.shape != out.shape:
        return False
    if not fused_chain.supports(out.dtype, None if acc is None else acc.dtype, out.device):
        return False
    acc = None if acc is None else acc.contiguous()  # (a taken slab is: then out is acc itself)
    (bm, bk), (_, bn) = lhs.site.extents, rhs.site.extents
    for k0, members, mu, mi, nu, ni, _ in groups:
        a = lhs.strips(np.stack([mu, np.full_like(mu, k0)], 1)).reshape(-1, bk * 32)
        b = rhs.strips(np.stack([np.full_like(nu, k0), nu], 1)).permute(1, 0, 2).reshape(bk * 32, -1)
        fused_chain.update(a, b, acc, out, members, mi * bm * 32, ni * bn * 32)
    return True


def _grid(evaluator: Any, site: Any, m: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, ...] | None:
    """``(mu, mi, nu, ni, by_m)`` of blocks at block rows ``m`` and block columns ``n``: the distinct rows
    and each block's index among them, the same for columns, and the blocks in grid order (rows, then
    columns); None when they are too sparse for strip products, or a block comes twice. A chain's
    levels have the same blocks one K strip apart: the last level's answer is kept per site and
    reused when ``m`` and ``n`` are the same (two comparisons instead of ~2 ms a level at 8192^3)."""
    kept = evaluator.scratch.get("grid")
    if kept is not None and kept[0] == id(site) and np.array_equal(kept[1], m) and np.array_equal(kept[2], n):
        return kept[3]
    mu, mi = _codes(m)
    nu, ni = _codes(n)
    if len(m) < MIN_DENSITY * len(mu) * len(nu):
        return None
    # each chunk's blocks in grid order (usually the whole grid, in order already); no block twice
    at_cell = np.full(len(mu) * len(nu), -1, dtype=np.int64)
    at_cell[mi * len(nu) + ni] = np.arange(len(m))
    by_m = at_cell[at_cell >= 0]
    if len(by_m) != len(m):
        return None
    evaluator.scratch["grid"] = (id(site), m.copy(), n.copy(), (mu, mi, nu, ni, by_m))
    return mu, mi, nu, ni, by_m


def _codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_inverse=True)`` for block coordinates (small non-negative integers), in
    linear time: a level has tens of thousands of blocks, and a sort of each coordinate costs more."""
    present = np.zeros(int(values.max()) + 1, dtype=bool)
    present[values] = True
    return np.flatnonzero(present), (np.cumsum(present) - 1)[values]


def chunk_elements(device: torch.device, cpu: int, gpu: int) -> int:
    """Elements per chunk on ``device``: ``cpu`` on the CPU; on a GPU ``gpu``, at most what a
    thirty-second of its free memory holds in fp32 (a chunk's work buffers and temporaries)."""
    if device.type != "cuda":
        return cpu
    free, _ = torch.cuda.mem_get_info(device)
    return max(cpu, min(gpu, free // (32 * 4)))


def _span(where: np.ndarray, increasing: bool) -> slice | None:
    """``where`` as a slice when it is a run of consecutive rows in order (the usual case);
    ``increasing``: ``where`` is known to be strictly increasing, so its ends decide."""
    if where[-1] - where[0] == len(where) - 1 and (increasing or (np.diff(where) == 1).all()):
        return slice(int(where[0]), int(where[-1]) + 1)
    return None


class Strip:
    """The right-hand strip ``b`` of one K step (``[K, N]`` fp32) and what the check and the repair of
    every chunk need of it, computed once: per K tile its column norms, and its fp64 columns."""

    def __init__(self, b: torch.Tensor):
        self.b = b
        self.tiles = b.shape[0] // 32
        # [tiles, N] in fp64: an fp32 norm of fp32 values can underflow to 0 (or overflow) in its squares
        norm = torch.linalg.vector_norm(b.view(self.tiles, 32, -1), dim=1, dtype=torch.float64)
        #: per K tile and column, d_t per unit of the largest row norm (Cauchy-Schwarz: the row norm times
        #: the column's, times PRODUCT_ERROR, and what flushing subnormal rows would lose), with MARGIN
        self.weights = norm.mul(PRODUCT_ERROR).add_(FLUSHED).mul_(MARGIN).t().contiguous()  # [N, tiles]
        #: per column, the rest of sum_t d_t: flushed subnormals of the column, subnormal sums
        self.base = norm.sum(0).mul_(FLUSHED).add_(SUBTILE * self.tiles).mul_(MARGIN)  # [N]
        self._columns: torch.Tensor | None = None

    def double_columns(self) -> torch.Tensor:
        """Per K tile, ``b``'s columns (``[tiles, N, 32]``) in fp64, for the exact recomputation of single
        elements (made on first use: the sampled GEMM reads its second operand this way, and would copy
        it on every call otherwise)."""
        if self._columns is None:
            columns = self.b.view(self.tiles, 32, -1).transpose(1, 2)
            self._columns = columns.to(torch.float64, memory_format=torch.contiguous_format)
        return self._columns


class Layout:
    """Where a chunk's output blocks lie in the strips' product: block ``i`` of the chunk (the order of
    its accumulators and results) is block ``(at_m[i], at_n[i])`` of a grid of ``rows_m x cols_n``
    blocks of ``h x w``. ``dense``: the blocks are the whole grid in row-major order (the usual case),
    so the grid's blocks are a view and need no gather. Index arithmetic is numpy's (a chunk's few
    hundred repairs would cost more in torch calls than in work), gathers are torch's on ``device``."""

    def __init__(self, at_m: np.ndarray, at_n: np.ndarray, rows_m: int, cols_n: int, block: tuple[int, int],
                 device: torch.device):
        self.at_m, self.at_n, self.rows_m, self.cols_n, self.block = at_m, at_n, rows_m, cols_n, block
        self.dense = len(at_m) == rows_m * cols_n and np.array_equal(at_m * cols_n + at_n, np.arange(len(at_m)))
        if not self.dense:
            self._at_m, self._at_n = torch.from_numpy(at_m).to(device), torch.from_numpy(at_n).to(device)

    def blocks(self, grid: torch.Tensor) -> torch.Tensor:
        """The chunk's blocks of a row-major ``[rows_m * h, cols_n * w]`` grid, in the chunk's order and
        shaped like :meth:`shaped`: a view when dense, else a gathered copy."""
        h, w = self.block
        view = grid.view(self.rows_m, h, self.cols_n, w).permute(0, 2, 1, 3)
        return view if self.dense else view[self._at_m, self._at_n]

    def shaped(self, blocks: torch.Tensor) -> torch.Tensor:
        """``[blocks, h, w]`` in the chunk's order, as ``[rows_m, cols_n, h, w]`` when dense."""
        return blocks.reshape(self.rows_m, self.cols_n, *self.block) if self.dense else blocks

    def columns(self, per_column: torch.Tensor) -> torch.Tensor:
        """A value per column of the grid (``[cols_n * w]``), broadcast over the chunk's blocks."""
        by_block = per_column.view(self.cols_n, 1, self.block[1])
        return by_block.unsqueeze(0) if self.dense else by_block[self._at_n]

    def positions(self, flat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For flat indices into ``[blocks, h, w]``: each element's row and column in the grid."""
        h, w = self.block
        block, within = np.divmod(flat, h * w)
        i, j = np.divmod(within, w)
        return self.at_m[block] * h + i, self.at_n[block] * w + j


class Buffers:
    """The work buffers of one level's chunks, allocated once and reused (the first rows or blocks of
    each for a smaller chunk): the GEMM's row-major tile products (``product``, ``half``), and in the
    chunk's block layout, that of its accumulators and results, the fp32 sums and their two rounded
    ends (``sum``, ``low``, ``high``)."""

    def __init__(self, rows_m: int, cols_n: int, block: tuple[int, int], fmt: DataFormat, device: torch.device):
        h, w = block
        self.h = h
        self.product = torch.empty((rows_m * h, cols_n * w), dtype=torch.float32, device=device)
        self.half = torch.empty_like(self.product)
        self.sum = torch.empty((rows_m * cols_n, h, w), dtype=torch.float32, device=device)
        self.low = torch.empty((rows_m * cols_n, h, w), dtype=fmt.torch_dtype, device=device)
        self.high = torch.empty_like(self.low)

    @classmethod
    def reused(cls, cache: dict[Any, Any], rows_m: int, cols_n: int, block: tuple[int, int], fmt: DataFormat,
               device: torch.device) -> "Buffers":
        """The buffers of this shape from ``cache`` (the evaluator's, kept from level to level: a
        buffer first touched again every level costs its page faults every level), else new ones."""
        key = (rows_m, cols_n, block, fmt.torch_dtype, device)
        held = cache.get("buffers")
        if held is None or held[0] != key:
            cache["buffers"] = held = (key, cls(rows_m, cols_n, block, fmt, device))
        return held[1]

    def take(self, rows_m: int, blocks: int) -> tuple[torch.Tensor, ...]:
        """``product``, ``half`` for ``rows_m`` block rows; ``sum``, ``low``, ``high`` for ``blocks`` blocks."""
        rows = rows_m * self.h
        return self.product[:rows], self.half[:rows], self.sum[:blocks], self.low[:blocks], self.high[:blocks]


def _read_leaf(evaluator: Any, site: Any, rows: np.ndarray, leaf: int) -> ReadLeaf | None:
    """The operand ``leaf`` when every row reads it from one 2-D tiled tensor through one read site."""
    known = evaluator.scratch.setdefault("reads", {})  # per compute site and leaf: the last level's reads
    proven = evaluator.scratch.setdefault("read offsets", {})  # per compute site and leaf: see _read_offset
    if proven.get((id(site), leaf)) is not None:
        site_index, offset = proven[id(site), leaf]
        found = site_index, rows + offset
        # (the value ids are read only when some reads were gathered early: the check needs them)
        if evaluator.read_slabs and evaluator.holds_reads(_leaf_vids(site, rows, leaf)):
            return None
    else:
        vids = _leaf_vids(site, rows, leaf)
        found = _next_reads(evaluator, known.get((id(site), leaf)), vids)
        if found is None:
            sites, read_rows = evaluator.read_rows(vids)
            found = int(sites[0]), read_rows
            if found[0] < 0 or not (sites == found[0]).all():
                return None  # not all from one read site
        if evaluator.holds_reads(vids):
            return None  # some gathered early (the tensor has changed since)
        if (id(site), leaf) not in proven:
            proven[id(site), leaf] = _read_offset(site, leaf, evaluator.rec.reads[found[0]], rows, found)
        known[id(site), leaf] = found
    read = evaluator.rec.reads[found[0]]
    if not read.tiled or len(read.extents) != 2 or read.fmt.is_block_float or read.fmt.is_integer:
        return None
    return ReadLeaf(read, found[1], evaluator.device, read.tensor in evaluator.written)


def _leaf_vids(site: Any, rows: np.ndarray, leaf: int) -> np.ndarray:
    """The value ids of operand ``leaf`` at ``rows`` of compute site ``site``."""
    return site.leaves_a[:, leaf][rows].astype(np.int64)  # (a column's rows: numpy's fast one-index path)


def _read_offset(site: Any, leaf: int, read: Any, rows: np.ndarray, found: tuple[int, np.ndarray]) -> tuple[int, int] | None:
    """``(read site, offset)`` when every row ``r`` of compute site ``site`` (not only this level's) has as
    its operand ``leaf`` row ``r + offset`` of read site ``read`` (a K loop reading its operands in the
    order it consumes them, as the matmul tutorials do); None otherwise. Checked once per site and
    leaf over the whole column, in chunks (a chunk's temporaries, not the column's), so the later levels
    find their reads as ``rows + offset`` without reading their value ids: at 8192^3 reading and
    checking them cost ~1.7 s of step 1's CPU, the whole-column check ~0.1 s."""
    offset = int(found[1][0]) - int(rows[0])
    column, out = site.leaves_a[:, leaf], read.out_a
    if offset < 0 or offset + len(column) > len(out) or not (found[1] - rows == offset).all():
        return None
    for lo in range(0, len(column), OFFSET_CHUNK):
        hi = min(lo + OFFSET_CHUNK, len(column))
        if not np.array_equal(column[lo:hi], out[lo + offset:hi + offset]):
            return None
    return found[0], offset


def _next_reads(evaluator: Any, last: tuple[int, np.ndarray] | None, vids: np.ndarray) -> tuple[int, np.ndarray] | None:
    """``(read site, rows)`` of ``vids`` when each is the read after the one the same leaf had at the last
    level (a K loop reads its strips in order), checked value by value; None otherwise. The general lookup
    (:meth:`.levels.LevelEvaluator.read_rows`) is a binary search in every read site's value ids, ~10 ms a
    level at 8192^3."""
    if last is None or len(last[1]) != len(vids):
        return None
    site, rows = last[0], last[1] + 1
    out = evaluator.rec.reads[site].out_a
    if int(rows.max()) >= len(out) or not np.array_equal(out[rows], vids):
        return None
    return site, rows


def _update(a: torch.Tensor, strip: Strip, acc: torch.Tensor | None, at_m: np.ndarray, at_n: np.ndarray,
            rows_m: int, cols_n: int, block: tuple[int, int], fmt: DataFormat, checked: bool,
            into: torch.Tensor | None = None, buffers: Buffers | None = None) -> tuple[torch.Tensor, bool]:
    """``acc + a @ b`` (``b``: ``strip.b``; ``acc``: ``[blocks, h, w]`` in any float format) for the blocks at
    ``(at_m, at_n)`` of the strips' product, rounded to ``fmt``, and whether the fp32 products
    (``checked``) sufficed. The blocks go into ``into`` when given (it may be ``acc`` itself: each
    accumulator is read before the results are written), else into a new tensor."""
    layout = Layout(at_m, at_n, rows_m, cols_n, block, a.device)
    buffers = buffers or Buffers(rows_m, cols_n, block, fmt, a.device)
    product, half, flat, low, high = buffers.take(rows_m, len(at_m))
    if acc is not None and acc.dtype not in WIDENED_EXACTLY:
        acc = to_compute(acc)
    rounded = None
    if checked:
        largest = _accumulate(flat, product, half, a, strip.b, acc, layout, exact=False)
        rounded = _checked(flat, low, high, acc, layout, a, strip, fmt, largest)
    sufficed = rounded is not None
    if rounded is None:  # a float32 store, or too many sums near a rounding boundary: exact products
        _accumulate(flat, product, half, a, strip.b, acc, layout, exact=True)
        rounded = low.copy_(flat) if fmt.torch_dtype != torch.float32 else flat
    if into is None:
        return rounded.clone(), sufficed
    return into.copy_(rounded), sufficed


def _accumulate(flat: torch.Tensor, product: torch.Tensor, half: torch.Tensor, a: torch.Tensor, b: torch.Tensor,
                acc: torch.Tensor | None, layout: Layout, exact: bool) -> float | None:
    """Into ``flat`` (the chunk's blocks), ``acc`` plus the tile products of ``a @ b``, one K tile at a time
    in K order, in fp32 (the first tile's addition reads the accumulators, widened exactly). ``exact``:
    each tile product as the exact mode computes it (fp64, rounded once to fp32). Otherwise each is two
    fp32 GEMMs of 16 (into ``product`` and ``half``) and their sum, which halves the GEMM's error bound;
    returns the largest magnitude of every partial sum then (NaN if any is)."""
    sums = layout.shaped(flat)
    largest = []
    for k0 in range(0, a.shape[1], 32):
        if exact:
            product.copy_(a[:, k0:k0 + 32].double() @ b[k0:k0 + 32].double())
        else:
            torch.mm(a[:, k0:k0 + 16], b[k0:k0 + 16], out=product)
            product.add_(torch.mm(a[:, k0 + 16:k0 + 32], b[k0 + 16:k0 + 32], out=half))
        tile = layout.blocks(product)
        if k0:
            sums.add_(tile)
        elif acc is None:
            sums.copy_(tile)  # the first product is the value itself (0 + -0 would be +0)
        else:
            torch.add(tile, layout.shaped(acc), out=sums)
        if not exact:
            largest.append(_largest_magnitude(flat))
    return float(np.max(largest)) if largest else None


def _largest_magnitude(flat: torch.Tensor) -> float:
    """``max |flat|`` (NaN if any element is); on the CPU through numpy, whose min and max are about
    twice as fast as torch's aminmax there."""
    if flat.is_cpu:
        values = flat.numpy()
        return float(np.maximum(-values.min(), values.max()))
    return _largest_magnitude_on_device(flat)


def _largest_magnitude_on_device(flat: torch.Tensor) -> float:
    """:func:`_largest_magnitude` in torch alone (a GPU's tensors; the tests run it on the CPU too)."""
    low, high = torch.aminmax(flat)
    return float(torch.maximum(-low, high))


def difference_bound(a: torch.Tensor, strip: Strip, largest: float) -> torch.Tensor | None:
    """Per column of the chunk (``[N]``, for each of its rows), a bound of how far the exact mode's fp32
    sum can be from the fast one, given the ``largest`` magnitude of the fast partial sums (the module
    docstring derives it); None when it is not finite."""
    tiles = strip.tiles
    # the chunk's largest row norm per K tile (fp64, as the columns'), then sum_t d_t per column (fp64)
    row_norm = torch.linalg.vector_norm(a.view(a.shape[0], tiles, 32), dim=2, dtype=torch.float64).amax(0)
    errors = torch.addmv(strip.base, strip.weights, row_norm)
    sums = (largest + float(errors.max())) * MARGIN  # X: every |x_t| of both sequences
    rounding = 2 * tiles * (U32 * sums + SUBNORMAL) * MARGIN
    if not math.isfinite(rounding):  # NaN or infinite values, or an overflow
        return None
    return errors.add_(rounding).mul_(MARGIN).float()  # rounded to fp32 by less than MARGIN


def _checked(flat: torch.Tensor, low: torch.Tensor, high: torch.Tensor, acc: torch.Tensor | None, layout: Layout,
             a: torch.Tensor, strip: Strip, fmt: DataFormat, largest: float) -> torch.Tensor | None:
    """``flat`` rounded to ``fmt`` (in ``low``), with every element whose rounding the GEMM's error could
    change recomputed exactly (the exact mode's sequence: fp64 tile sums rounded to fp32, fp32
    additions); None when the bound is not finite or so many elements need it that the caller should
    recompute the whole chunk exactly."""
    bound = difference_bound(a, strip, largest)
    if bound is None:
        return None
    # monotone roundings: equal roundings of the two ends pin the exact mode's value (module docstring);
    # each is one pass, fl32(s -/+ D) rounded to fmt as it is written
    sums, bound = layout.shaped(flat), layout.columns(bound)
    torch.sub(sums, bound, out=layout.shaped(low))
    torch.add(sums, bound, out=layout.shaped(high))
    unsafe = _differing(low, high)
    if not len(unsafe):
        return low
    if len(unsafe) > REPAIR_SHARE * flat.numel():
        return None  # recomputing these one by one would cost more than exact products for all
    rows, cols = layout.positions(unsafe)
    # by row, as the repair's sampling pattern lists them (16-bit keys: numpy's stable sort is then a radix sort)
    order = np.argsort(rows.astype(np.int16 if a.shape[0] <= 1 << 15 else np.int64), kind="stable")
    unsafe, rows, cols = unsafe[order], rows[order], cols[order]
    at = torch.from_numpy(unsafe).to(flat.device)
    start = to_compute(acc.reshape(-1)[at]) if acc is not None else None  # acc: the chunk's blocks, in order
    low.view(-1)[at] = quantize(_exact_elements(a, strip, rows, cols, start), fmt)
    return low


def _differing(low: torch.Tensor, high: torch.Tensor) -> np.ndarray:
    """Flat indices (ascending) where two contiguous 16-bit tensors differ. On the CPU through numpy,
    whose compare and nonzero are several times faster than torch's there, four elements at a time
    (as int64) and then the lanes of the few groups that differ."""
    if not low.is_cpu:
        return _differing_on_device(low, high)
    lows, highs = low.view(torch.int16).numpy().reshape(-1), high.view(torch.int16).numpy().reshape(-1)
    if len(lows) % 4:
        return np.flatnonzero(lows != highs)
    lows, highs = lows.view(np.int64), highs.view(np.int64)
    groups = np.flatnonzero(lows != highs)
    lanes = np.flatnonzero((lows[groups] ^ highs[groups]).view(np.int16))  # the differing elements of those groups
    return groups[lanes >> 2] * 4 + (lanes & 3)


def _differing_on_device(low: torch.Tensor, high: torch.Tensor) -> np.ndarray:
    """:func:`_differing` in torch alone (a GPU's tensors; the tests run it on the CPU too)."""
    return torch.nonzero((low.view(torch.int16) != high.view(torch.int16)).view(-1)).view(-1).cpu().numpy()


def _exact_elements(a: torch.Tensor, strip: Strip, rows: np.ndarray, cols: np.ndarray,
                    start: torch.Tensor | None) -> torch.Tensor:
    """Elements ``(rows, cols)`` (sorted by row) of ``start + a @ b`` as the exact mode computes them: each
    tile product's exact sum (fp64) rounded once to fp32, added in K order in fp32. The products are
    sampled fp64 GEMMs (only the elements asked for, no gathered copies of rows and columns)."""
    device = a.device
    a64, columns = a.double().view(a.shape[0], strip.tiles, 32).transpose(0, 1).contiguous(), strip.double_columns()
    crow = np.zeros(a.shape[0] + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=a.shape[0]), out=crow[1:])
    value = start
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # torch: "sparse CSR tensor support is in beta state"
        pattern = torch.sparse_csr_tensor(torch.from_numpy(crow).to(device), torch.from_numpy(cols).to(device),
                                          torch.zeros(len(rows), dtype=torch.float64, device=device),
                                          size=(a.shape[0], columns.shape[1]), check_invariants=False)
        for t in range(strip.tiles):
            product = torch.sparse.sampled_addmm(pattern, a64[t], columns[t].t(), beta=0)
            part = product.values().float()
            value = part if value is None else value + part
    return value
