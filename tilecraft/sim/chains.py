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
  (g + u (1 + g) + u + 32 * 2^-53) * S|ab| + SUBTILE`` (``SUBTILE`` covers the absolute error of
  subnormal operands, or of a library flushing them to zero). Two GEMMs of 16 cost ~30% more than
  one of 32 and halve ``d_t``, so about half as many elements need the exact recomputation below;
* ``S|ab| <= |a row| * |b column|`` per tile (Cauchy-Schwarz; the norms of every row and column of
  the strips are computed once, and the per-element sum over the tiles is one small GEMM);
* both sequences round each addition to fp32, each rounding off by at most ``u |x_t| + 2^-150``
  where ``x_t`` is the sum before rounding, so ``|s^f_T - s*_T| <= sum_t d_t + 2 T (u X + 2^-150)``
  where ``X`` bounds every ``|x_t|`` of both sequences in the chunk. The fast partial sums are
  measured (one min/max per K tile): ``|x^f_t| <= |s^f_t| / (1 - u)``, and ``|x*_t - x^f_t|`` is at
  most the difference bound so far, ``sum_t d_t + 2 T (u X + 2^-150)``; so with ``2 T u`` far below
  ``2^-12``, ``X = (max_t max|s^f_t| + sum_t max d_t) * MARGIN`` suffices;
* every term is computed in fp32 and multiplied by ``MARGIN`` (``1 + 2^-12``), which covers the
  rounding of the bound itself (a norm of 32 values is within ``~20u``, the small GEMM within
  ``(T + 1) u``), ``(1 - u)^-1`` and ``1 / (1 - 2 T u)``.

**The check.** With ``D`` that bound (an fp32 number at least the real difference), the exact
``s*_T`` lies in ``[s^f_T - D, s^f_T + D]``; because it is an fp32 number and rounding to nearest is
monotone, it also lies in ``[fl32(s^f_T - D), fl32(s^f_T + D)]``, and rounding to bfloat16/float16
is monotone too. So where ``q(fl32(s - D)) == q(fl32(s + D))`` the exact mode's bits are that value
(``D`` per element is one small GEMM of the norms; then two subtractions/additions, two roundings
and one 16-bit comparison per element, and the rounded low end is the result); the other elements
are recomputed exactly, the way the exact mode computes them (sampled fp64 products of just those
elements, rounded to fp32 per tile, added in K order). A chunk whose bound is
not finite (infinities or NaN among the values, or an overflow) is computed with exact products;
so is a chunk where more than ``REPAIR_SHARE`` of the elements would be recomputed (element by
element costs more than exact products for all), and every chunk of a float32 store (no rounding
hides a difference).

The results are the exact mode's bits (tests/test_sim_chains.py compares them bit for bit), on the
exact mode's own premise that an fp64 sum of 32 tile products is exact.

**Cost.** Per chunk (about ``CHUNK_ELEMENTS`` outputs, so that its buffers stay in the cache) and K
tile: two GEMMs into reused buffers, two in-place adds and one min/max; then per chunk one copy of
the accumulator in, the bound (one small GEMM), the two rounded ends and their comparison, and one
copy out into the level's block order. The buffers are kept from level to level, and a level may
write its results over the accumulators it consumed (``LevelEvaluator.take_slab``).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import torch

from ..dtypes import DataFormat, bfloat16, float16, float32
from ..numerics import quantize, to_compute
from .values import gather_tiles

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
#: absolute error of one tile product from subnormal operands (or a GEMM flushing them to zero)
SUBTILE = 2.0 ** -100
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


class ReadLeaf:
    """One operand of the batch: every row reads a block of one tensor through one read site."""

    def __init__(self, site: Any, rows: np.ndarray, device: torch.device, written: bool):
        self.site = site
        self.starts = site.starts_a[rows]
        self.device = device
        self.written = written

    def strips(self, starts: np.ndarray) -> torch.Tensor:
        """The blocks at ``starts`` as ``[len(starts), h, w]`` fp32, rounded to the block's format."""
        tensor = self.site.tensor
        source = tensor.tiles() if self.written else tensor.tile_view()  # the same rule as Evaluator.read_blocks
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
    if lhs is None or rhs is None:
        return False
    (bm, bk), (bk2, bn) = lhs.site.extents, rhs.site.extents
    if bk != bk2 or not np.array_equal(lhs.starts[:, 1], rhs.starts[:, 0]):
        return False
    groups = []
    for k0 in _unique_inverse(lhs.starts[:, 1])[0].tolist():
        members = np.nonzero(lhs.starts[:, 1] == k0)[0]
        mu, mi = _unique_inverse(lhs.starts[members, 0])
        nu, ni = _unique_inverse(rhs.starts[members, 1])
        cells = mi.reshape(-1) * len(nu) + ni.reshape(-1)
        if len(members) < MIN_DENSITY * len(mu) * len(nu) or int(np.bincount(cells).max()) > 1:
            return False
        groups.append((k0, members, mu, mi.reshape(-1), nu, ni.reshape(-1), cells))
    device = evaluator.device
    # the accumulators in their stored format, all at once (usually the previous level's slab itself)
    acc_vids = site.leaves_a[rows, spec[2]].astype(np.int64) if spec[2] is not None else None
    acc_all = evaluator.values(acc_vids) if acc_vids is not None else None
    shape = (len(rows), bm * 32, bn * 32)
    if acc_all is not None and acc_all.shape == shape and acc_all.dtype == fmt.torch_dtype \
            and evaluator.take_slab(acc_vids, acc_all):
        out = acc_all  # each chunk reads its accumulators before it writes its results over them
    else:
        out = torch.empty(shape, dtype=fmt.torch_dtype, device=device)
    checked = fmt.name in CHECKED_FORMATS
    for k0, members, mu, mi, nu, ni, cells in groups:
        a = lhs.strips(np.stack([mu, np.full_like(mu, k0)], 1)).reshape(-1, bk * 32)
        b = rhs.strips(np.stack([np.full_like(nu, k0), nu], 1))
        strip = Strip(b.permute(1, 0, 2).reshape(bk * 32, -1))
        per_chunk = max(1, chunk_elements(device, CHUNK_ELEMENTS, GPU_CHUNK_ELEMENTS) // (bm * 32 * strip.b.shape[1]))
        buffers = Buffers.reused(evaluator.scratch, min(per_chunk, len(mu)) * bm * 32, strip.b.shape[1], fmt, device)
        # each chunk's blocks in grid order (usually already so: the whole grid, a plain copy)
        by_m = np.arange(len(cells)) if bool((np.diff(cells) > 0).all()) else np.argsort(cells)
        cuts = np.searchsorted(mi[by_m], np.arange(0, len(mu) + per_chunk, per_chunk))
        for m0, lo, hi in zip(range(0, len(mu), per_chunk), cuts, cuts[1:]):
            m1 = min(m0 + per_chunk, len(mu))
            sel = by_m[lo:hi]
            if not len(sel):
                continue
            where = members[sel]
            span = _span(where)
            at = span if span is not None else torch.from_numpy(where).to(device)
            acc = acc_all[at] if acc_all is not None else None
            target = out[span] if span is not None else None
            result, checked = _update(a[m0 * bm * 32:m1 * bm * 32], strip, acc, torch.from_numpy(mi[sel] - m0).to(device),
                                      torch.from_numpy(ni[sel]).to(device), m1 - m0, len(nu), (bm * 32, bn * 32), fmt,
                                      checked, into=target, buffers=buffers)
            if result is not target:  # once a chunk needs exact products, so do the level's next (above)
                out[at] = result
    evaluator.store(site.out_a[rows], out)
    return True


def chunk_elements(device: torch.device, cpu: int, gpu: int) -> int:
    """Elements per chunk on ``device``: ``cpu`` on the CPU; on a GPU ``gpu``, at most what a
    thirty-second of its free memory holds in fp32 (a chunk's work buffers and temporaries)."""
    if device.type != "cuda":
        return cpu
    free, _ = torch.cuda.mem_get_info(device)
    return max(cpu, min(gpu, free // (32 * 4)))


def _unique_inverse(coords: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(coords, return_inverse=True)`` for tile coordinates (small non-negative integers):
    a count and a running sum instead of a sort of tens of thousands of values per K step."""
    if not len(coords) or int(coords.min()) < 0 or int(coords.max()) > 4 * len(coords) + 1024:
        return np.unique(coords, return_inverse=True)
    present = np.bincount(coords) > 0
    rank = np.cumsum(present) - 1
    return np.flatnonzero(present), rank[coords]


def _span(where: np.ndarray) -> slice | None:
    """``where`` as a slice when it is a run of consecutive rows in order (the usual case)."""
    if where[-1] - where[0] == len(where) - 1 and (np.diff(where) == 1).all():
        return slice(int(where[0]), int(where[-1]) + 1)
    return None


class Strip:
    """The right-hand strip ``b`` of one K step (``[K, N]`` fp32) and what the check and the repair of
    every chunk need of it, computed once: per K tile its column norms, and its fp64 copy."""

    def __init__(self, b: torch.Tensor):
        self.b = b
        self.tiles = b.shape[0] // 32
        self.norm = b.view(self.tiles, 32, -1).norm(dim=1)  # [tiles, N]: per K tile, each column's norm
        self.largest_norm = self.norm.amax(1)
        self._double: torch.Tensor | None = None

    def double(self) -> torch.Tensor:
        """``b`` in fp64, for the exact recomputation of single elements (made on first use)."""
        if self._double is None:
            self._double = self.b.double()
        return self._double


class Buffers:
    """The fp32 and rounded work buffers of one level's chunks, allocated once and reused (views of
    the first ``rows`` rows for a smaller chunk)."""

    def __init__(self, rows: int, cols: int, fmt: DataFormat, device: torch.device):
        self.sum = torch.empty((rows, cols), dtype=torch.float32, device=device)
        self.product = torch.empty_like(self.sum)
        self.bound = torch.empty_like(self.sum)
        self.low = torch.empty((rows, cols), dtype=fmt.torch_dtype, device=device)
        self.high = torch.empty_like(self.low)

    @classmethod
    def reused(cls, cache: dict[Any, Any], rows: int, cols: int, fmt: DataFormat, device: torch.device) -> "Buffers":
        """The buffers of this shape from ``cache`` (the evaluator's, kept from level to level: a
        buffer first touched again every level costs its page faults every level), else new ones."""
        key = (rows, cols, fmt.torch_dtype, device)
        if key not in cache:
            cache.clear()
            cache[key] = cls(rows, cols, fmt, device)
        return cache[key]

    def take(self, rows: int) -> tuple[torch.Tensor, ...]:
        return self.sum[:rows], self.product[:rows], self.bound[:rows], self.low[:rows], self.high[:rows]


def _read_leaf(evaluator: Any, site: Any, rows: np.ndarray, leaf: int) -> ReadLeaf | None:
    """The operand ``leaf`` when every row reads it from one 2-D tiled tensor through one read site."""
    vids = site.leaves_a[rows, leaf].astype(np.int64)
    sites, read_rows = evaluator.read_rows(vids, guide=rows)
    first = int(sites[0])
    if first < 0 or not (sites == first).all() or (evaluator.slab_of[vids] >= 0).any():
        return None  # not all from one read site, or some gathered early (the tensor has changed since)
    read = evaluator.rec.reads[first]
    if not read.tiled or len(read.extents) != 2 or read.fmt.is_block_float or read.fmt.is_integer:
        return None
    return ReadLeaf(read, read_rows, evaluator.device, read.tensor in evaluator.written)


def _update(a: torch.Tensor, strip: Strip, acc: torch.Tensor | None, at_m: torch.Tensor, at_n: torch.Tensor,
            rows_m: int, cols_n: int, block: tuple[int, int], fmt: DataFormat, checked: bool,
            into: torch.Tensor | None = None, buffers: Buffers | None = None) -> tuple[torch.Tensor, bool]:
    """``acc + a @ b`` (``b``: ``strip.b``; ``acc`` in any float format) for the blocks at ``(at_m, at_n)``
    of the strips' product, rounded to ``fmt``, and whether the fp32 products (``checked``) sufficed.
    ``into``: where the blocks go when they are the whole grid in order (returned), else a new tensor."""
    h, w = block
    buffers = buffers or Buffers(rows_m * h, cols_n * w, fmt, a.device)
    flat, product, bound, low, high = buffers.take(rows_m * h)
    dense = len(at_m) == rows_m * cols_n and bool((at_m * cols_n + at_n == torch.arange(
        len(at_m), device=at_m.device)).all())
    rounded = None
    if checked:
        _load(flat, acc, at_m, at_n, dense, rows_m, cols_n, block)
        largest = _accumulate(flat, product, a, strip.b, first=acc is None, exact=False, half=bound)
        rounded = _checked(flat, low, high, acc, at_m, at_n, rows_m, cols_n, block, a, strip, fmt, largest,
                           product, bound)
    sufficed = rounded is not None
    if rounded is None:  # a float32 store, or too many sums near a rounding boundary: exact products
        _load(flat, acc, at_m, at_n, dense, rows_m, cols_n, block)
        _accumulate(flat, product, a, strip.b, first=acc is None, exact=True)
        rounded = low.copy_(flat) if fmt.torch_dtype != torch.float32 else flat
    blocks = rounded.view(rows_m, h, cols_n, w).permute(0, 2, 1, 3)
    if not dense:
        return blocks[at_m, at_n], sufficed
    if into is None:
        return blocks.reshape(-1, h, w), sufficed
    into.view(rows_m, cols_n, h, w).copy_(blocks)
    return into, sufficed


def _load(flat: torch.Tensor, acc: torch.Tensor | None, at_m: torch.Tensor, at_n: torch.Tensor, dense: bool,
          rows_m: int, cols_n: int, block: tuple[int, int]) -> None:
    """The accumulators into the row-major grid ``flat`` (widened to fp32 by the copy)."""
    if acc is None:
        return  # the first product is written over it
    h, w = block
    blocks = flat.view(rows_m, h, cols_n, w).permute(0, 2, 1, 3)  # [rows_m, cols_n, h, w], a view
    if dense:
        blocks.copy_(acc.view(rows_m, cols_n, h, w))
    else:
        flat.zero_()
        blocks[at_m, at_n] = to_compute(acc)


def _accumulate(flat: torch.Tensor, product: torch.Tensor, a: torch.Tensor, b: torch.Tensor, first: bool,
                exact: bool, half: torch.Tensor | None = None) -> torch.Tensor | None:
    """Add the tile products of ``a @ b`` to ``flat`` one K tile at a time, in K order, in fp32;
    ``exact``: each tile product as the exact mode computes it (fp64, rounded once to fp32). Otherwise
    each tile product is two fp32 GEMMs of 16 (the second into ``half``) and their sum, which halves
    the GEMM's error bound; returns the largest magnitude of every partial sum then (NaN if any is)."""
    largest = None
    for k0 in range(0, a.shape[1], 32):
        into = flat if first and k0 == 0 else product  # the first product is the value itself (0 + -0 would be +0)
        if exact:
            into.copy_(a[:, k0:k0 + 32].double() @ b[k0:k0 + 32].double())
        else:
            torch.mm(a[:, k0:k0 + 16], b[k0:k0 + 16], out=into)
            into.add_(torch.mm(a[:, k0 + 16:k0 + 32], b[k0 + 16:k0 + 32], out=half))
        if into is product:
            flat.add_(product)
        if not exact:
            low, high = torch.aminmax(flat)
            partial = torch.maximum(-low, high)
            largest = partial if largest is None else torch.maximum(largest, partial)
    return largest


def difference_bound(a: torch.Tensor, strip: Strip, largest: torch.Tensor, out: torch.Tensor) -> bool:
    """Into ``out`` (like the chunk), per element a bound of how far the exact mode's fp32 sum can be
    from the fast one, given the ``largest`` magnitude of the fast partial sums (the module docstring
    derives it); False when the bound is not finite everywhere."""
    tiles = strip.tiles
    row_norm = a.view(a.shape[0], tiles, 32).norm(dim=2)  # [rows, tiles]
    largest_product = row_norm.amax(0).mul_(strip.largest_norm)  # [tiles]: >= sum|a||b| of any element
    errors = largest_product.sum().mul_(PRODUCT_ERROR).add_(SUBTILE * tiles)  # >= sum_t d_t anywhere
    sums = (largest + errors).mul_(MARGIN)  # X: every |x_t| of both sequences
    rounding = sums.mul_(2 * tiles * U32).add_(2 * tiles * SUBNORMAL + SUBTILE * tiles).mul_(MARGIN)
    if not bool(rounding.isfinite()) or not bool(row_norm.isfinite().all()) or not bool(strip.norm.isfinite().all()):
        return False
    # sum_t d_t per element: |a row| |b column| per tile (Cauchy-Schwarz), summed over the tiles by a GEMM
    torch.addmm(rounding, row_norm.mul_(PRODUCT_ERROR * MARGIN), strip.norm, out=out)
    return True


def _checked(flat: torch.Tensor, low: torch.Tensor, high: torch.Tensor, acc: torch.Tensor | None,
             at_m: torch.Tensor, at_n: torch.Tensor, rows_m: int, cols_n: int, block: tuple[int, int],
             a: torch.Tensor, strip: Strip, fmt: DataFormat, largest: torch.Tensor, scratch: torch.Tensor | None = None,
             bound: torch.Tensor | None = None) -> torch.Tensor | None:
    """``flat`` rounded to ``fmt`` (in ``low``), with every element whose rounding the GEMM's error could
    change recomputed exactly (the exact mode's sequence: fp64 tile sums rounded to fp32, fp32
    additions); None when the bound is not finite or so many elements need it that the caller should
    recompute the whole chunk exactly."""
    bound = torch.empty_like(flat) if bound is None else bound
    if not difference_bound(a, strip, largest, bound):
        return None
    # monotone roundings: equal roundings of the two ends pin the exact mode's value (module docstring)
    scratch = torch.empty_like(flat) if scratch is None else scratch
    low.copy_(torch.sub(flat, bound, out=scratch))
    high.copy_(torch.add(flat, bound, out=scratch))
    unsafe = _differing(low, high)
    if not len(unsafe):
        return low
    if len(unsafe) > REPAIR_SHARE * flat.numel():
        return None  # recomputing these one by one would cost more than exact products for all
    h, w = block
    cols = flat.shape[1]
    rows_at = torch.div(unsafe, cols, rounding_mode="floor")
    cols_at = unsafe - rows_at * cols
    start = None
    if acc is not None:  # each element's accumulator: its block's row of acc, then its place in the block
        slot = torch.full((rows_m * cols_n,), -1, dtype=torch.int64, device=flat.device)
        slot[at_m * cols_n + at_n] = torch.arange(len(at_m), device=flat.device)
        which = slot[torch.div(rows_at, h, rounding_mode="floor") * cols_n + torch.div(cols_at, w, rounding_mode="floor")]
        if not bool((which >= 0).all()):  # elements of blocks outside the batch are not needed
            present = which >= 0
            unsafe, rows_at, cols_at, which = unsafe[present], rows_at[present], cols_at[present], which[present]
        start = to_compute(acc.reshape(-1)[(which * h + rows_at % h) * w + cols_at % w])
    low.view(-1)[unsafe] = quantize(_exact_elements(a, strip, rows_at, cols_at, start), fmt)
    return low


def _differing(low: torch.Tensor, high: torch.Tensor) -> torch.Tensor:
    """Flat indices (int64) where two 16-bit tensors differ; on the CPU through numpy, whose compare and
    bool nonzero are several times faster than torch's there."""
    if low.is_cpu:
        return torch.from_numpy(np.flatnonzero(low.view(torch.int16).numpy() != high.view(torch.int16).numpy()))
    return torch.nonzero((low.view(torch.int16) != high.view(torch.int16)).view(-1)).view(-1)


def _exact_elements(a: torch.Tensor, strip: Strip, rows: torch.Tensor, cols: torch.Tensor,
                    start: torch.Tensor | None) -> torch.Tensor:
    """Elements ``(rows, cols)`` (sorted by row) of ``start + a @ b`` as the exact mode computes them: each
    tile product's exact sum (fp64) rounded once to fp32, added in K order in fp32. The products are
    sampled fp64 GEMMs (only the elements asked for, no gathered copies of rows and columns)."""
    a64, b64 = a.double(), strip.double()
    crow = torch.zeros(a.shape[0] + 1, dtype=torch.int64, device=a.device)
    crow[1:] = torch.bincount(rows, minlength=a.shape[0]).cumsum(0)
    value = start
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # torch: "sparse CSR tensor support is in beta state"
        pattern = torch.sparse_csr_tensor(crow, cols, torch.zeros(len(rows), dtype=torch.float64, device=a.device),
                                          size=(a.shape[0], b64.shape[1]), check_invariants=False)
        for k0 in range(0, a.shape[1], 32):
            product = torch.sparse.sampled_addmm(pattern, a64[:, k0:k0 + 32], b64[k0:k0 + 32], beta=0).values()
            value = product.float() if value is None else value + product.float()
    return value
