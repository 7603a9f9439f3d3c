"""Accumulation chains as large matrix updates: ``y = acc + a @ b`` over every output block at once.

A matmul tutorial's K loop stores ``acc + a @ b`` once per K step for every output block of every
core. At one dataflow level, those stores read the same K strip of ``A`` and ``B`` (block ``(m, k)``
of ``A`` and ``(k, n)`` of ``B`` for many ``(m, n)``), so their tile products are the blocks of
one GEMM ``A[:, k strip] @ B[k strip, :]``. Computing them that way is one large matrix product per
K tile instead of one small product per block.

The language defines the result bit for bit (:func:`tile_math.matmul`): each 32x32x32 tile product
is its exact sum rounded once to fp32, added in K order in fp32, and the store rounds to the
block's format. A float32 GEMM sums in its own order, so it can differ from the exact product in the
last fp32 bits; a bfloat16/float16 store hides that difference unless the sum lies within the
GEMM's error bound of a rounding boundary of the store's format. So:

* the products are fp32 GEMMs (exact products for bf16 inputs, fast on every device);
* a rigorous bound of how far the result can be from the exact sequence is computed per element
  (Cauchy-Schwarz on the row and column norms, ``gamma_32`` for any order of 32 fp32 sums, one fp32
  rounding per addition);
* where rounding ``result - bound`` and ``result + bound`` to the store's format differ (or the
  result is not finite), the element is recomputed exactly, the way the exact mode computes it;
* when more than ``REPAIR_SHARE`` of a chunk's elements would be recomputed (the bound is a worst
  case, typically tens of times the real difference, so small sums near zero trip it), the chunk's
  tile products are all computed as the exact mode does: fp64 GEMMs rounded once to fp32 (as
  fast as recomputing that many elements one by one); so are those of a float32 store, which has
  no rounding to hide a difference.

The results are the exact mode's bits (tests/test_sim_chains.py compares them bit for bit), on the
exact mode's own premise that an fp64 sum of 32 tile products is exact.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from ..dtypes import DataFormat, bfloat16, float16, float32
from ..numerics import quantize, to_compute
from .values import gather_tiles

#: elements of one output chunk (the work and temporaries of one update stay within a few of these)
CHUNK_ELEMENTS = 1 << 20
#: unit roundoff of fp32
U32 = 2.0 ** -24
#: the bound of any order of summing 32 fp32 products (Higham's gamma_n with n = 32)
GAMMA32 = 32 * U32 / (1 - 32 * U32)
#: more than the absolute error of 32 fp32 operations on subnormal numbers (2^-149 each)
SUBNORMAL = 2.0 ** -140
#: a batch is computed as a product of strips only when it covers at least this share of the
#: strips' output blocks (otherwise most of the GEMM would be thrown away)
MIN_DENSITY = 0.5
#: above this share of elements to recompute, a chunk's products are all recomputed in fp64 instead
REPAIR_SHARE = 0.02
#: store formats whose rounding hides a GEMM's last-bit difference (checked, then repaired)
CHECKED_FORMATS = (bfloat16.name, float16.name)


class ReadLeaf:
    """One operand of the batch: every row reads a block of one tensor through one read site."""

    def __init__(self, site: Any, rows: np.ndarray):
        self.site = site
        self.starts = site.starts_a[rows]

    def strips(self, starts: np.ndarray) -> torch.Tensor:
        """The blocks at ``starts`` as ``[len(starts), h, w]`` fp32, rounded to the block's format."""
        tensor = self.site.tensor
        blocks = gather_tiles(tensor.tiles(), tensor.unit_shape, starts, self.site.extents)
        return to_compute(quantize(blocks, self.site.fmt))


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
    for k0 in np.unique(lhs.starts[:, 1]).tolist():
        members = np.nonzero(lhs.starts[:, 1] == k0)[0]
        mu, mi = np.unique(lhs.starts[members, 0], return_inverse=True)
        nu, ni = np.unique(rhs.starts[members, 1], return_inverse=True)
        cells = mi.reshape(-1) * len(nu) + ni.reshape(-1)
        if len(members) < MIN_DENSITY * len(mu) * len(nu) or len(np.unique(cells)) != len(cells):
            return False
        groups.append((k0, members, mu, mi.reshape(-1), nu, ni.reshape(-1)))
    acc_vids = site.leaves_a[rows, spec[2]].astype(np.int64) if spec[2] is not None else None
    device = evaluator.device
    out = torch.empty((len(rows), bm * 32, bn * 32), dtype=fmt.torch_dtype, device=device)
    checked = fmt.name in CHECKED_FORMATS
    for k0, members, mu, mi, nu, ni in groups:
        a = lhs.strips(np.stack([mu, np.full_like(mu, k0)], 1)).reshape(-1, bk * 32)
        b = rhs.strips(np.stack([np.full_like(nu, k0), nu], 1))
        strip = Strip(b.permute(1, 0, 2).reshape(bk * 32, -1))
        per_chunk = max(1, CHUNK_ELEMENTS // (bm * 32 * strip.b.shape[1]))
        by_m = np.argsort(mi, kind="stable")
        cuts = np.searchsorted(mi[by_m], np.arange(0, len(mu) + per_chunk, per_chunk))
        for m0, lo, hi in zip(range(0, len(mu), per_chunk), cuts, cuts[1:]):
            m1 = min(m0 + per_chunk, len(mu))
            sel = by_m[lo:hi]
            if not len(sel):
                continue
            at_m = torch.from_numpy(mi[sel] - m0).to(device)
            at_n = torch.from_numpy(ni[sel]).to(device)
            acc = None
            if acc_vids is not None:
                acc = to_compute(evaluator.values(acc_vids[members[sel]]))
            a_chunk = a[m0 * bm * 32:m1 * bm * 32]
            result, checked = _update(a_chunk, strip, acc, at_m, at_n, m1 - m0, len(nu), (bm * 32, bn * 32), fmt,
                                      checked)  # once a chunk needs exact products, so do the level's next
            where = members[sel]
            if where[-1] - where[0] == len(where) - 1 and (np.diff(where) == 1).all():
                out[int(where[0]):int(where[-1]) + 1] = result  # the usual order: a plain copy
            else:
                out[torch.from_numpy(where).to(device)] = result
    evaluator.store(site.out_a[rows], out)
    return True


class Strip:
    """The right-hand strip ``b`` of one K step (``[K, N]`` fp32) and what the check and the repair of
    every chunk need of it, computed once: its column norms and its columns as rows."""

    def __init__(self, b: torch.Tensor):
        self.b = b
        self.norm = b.norm(dim=0)
        self._columns: torch.Tensor | None = None

    def columns(self) -> torch.Tensor:
        """``b`` transposed, contiguous: a repair gathers a column at a time (in fp32: half the
        bytes of fp64)."""
        if self._columns is None:
            self._columns = self.b.T.contiguous()
        return self._columns


def _read_leaf(evaluator: Any, site: Any, rows: np.ndarray, leaf: int) -> ReadLeaf | None:
    """The operand ``leaf`` when every row reads it from one 2-D tiled tensor through one read site."""
    vids = site.leaves_a[rows, leaf].astype(np.int64)
    sites = evaluator.read_site_of[vids]
    first = int(sites[0])
    if first < 0 or not (sites == first).all() or (evaluator.slab_of[vids] >= 0).any():
        return None  # not all from one read site, or some gathered early (the tensor has changed since)
    read = evaluator.rec.reads[first]
    if not read.tiled or len(read.extents) != 2 or read.fmt.is_block_float or read.fmt.is_integer:
        return None
    return ReadLeaf(read, evaluator.read_row_of[vids])


def _update(a: torch.Tensor, strip: "Strip", acc: torch.Tensor | None, at_m: torch.Tensor, at_n: torch.Tensor,
            rows_m: int, cols_n: int, block: tuple[int, int], fmt: DataFormat,
            checked: bool) -> tuple[torch.Tensor, bool]:
    """``acc + a @ b`` (``b``: ``strip.b``) for the blocks at ``(at_m, at_n)`` of the strips' product,
    rounded to ``fmt``, and whether the fp32 products (``checked``) sufficed."""
    b = strip.b
    h, w = block
    full = torch.zeros((rows_m, h, cols_n, w), dtype=torch.float32, device=a.device)
    blocks = full.permute(0, 2, 1, 3)  # [rows_m, cols_n, h, w], a view
    dense = len(at_m) == rows_m * cols_n and bool((at_m * cols_n + at_n == torch.arange(
        len(at_m), device=at_m.device)).all())
    if acc is not None:
        if dense:
            blocks.copy_(acc.view(rows_m, cols_n, h, w))
        else:
            blocks[at_m, at_n] = acc
    flat = full.view(rows_m * h, cols_n * w)
    start = flat.clone() if checked and acc is not None else None
    result = None
    if checked:
        _accumulate(flat, a, b, first=acc is None, exact=False)
        result = _checked(flat, start, a, strip, fmt)
    sufficed = result is not None
    if result is None:  # a float32 store, or too many sums near a rounding boundary: exact products
        if start is not None:
            flat.copy_(start)
        _accumulate(flat, a, b, first=acc is None, exact=True)
        result = quantize(flat, fmt)
    result = result.view(rows_m, h, cols_n, w).permute(0, 2, 1, 3)
    return (result.reshape(-1, h, w) if dense else result[at_m, at_n]), sufficed


def _accumulate(flat: torch.Tensor, a: torch.Tensor, b: torch.Tensor, first: bool, exact: bool) -> None:
    """Add the tile products of ``a @ b`` to ``flat`` one K tile at a time, in K order, in fp32;
    ``exact``: each tile product as the exact mode computes it (fp64, rounded once to fp32)."""
    for k0 in range(0, a.shape[1], 32):
        if exact:
            product = (a[:, k0:k0 + 32].double() @ b[k0:k0 + 32].double()).float()
        else:
            product = a[:, k0:k0 + 32] @ b[k0:k0 + 32]
        if first and k0 == 0:
            flat.copy_(product)  # the first product is the value itself (0 + -0 would be +0)
        else:
            flat.add_(product)


def _checked(flat: torch.Tensor, start: torch.Tensor | None, a: torch.Tensor, strip: "Strip",
             fmt: DataFormat) -> torch.Tensor | None:
    """``flat`` rounded to ``fmt``, with every element whose rounding the GEMM's error could change
    recomputed exactly (the exact mode's sequence: fp64 tile sums rounded to fp32, fp32 additions);
    None when so many are that the caller should recompute the whole chunk exactly."""
    tiles = a.shape[1] // 32
    # |exact - fast| <= (gamma_32 + u) * sum|a||b| per tile product (any summation order, plus the
    # exact mode's one rounding) plus two roundings per addition of at most |result| + 2 sum|a||b|;
    # sum|a||b| <= |a row| |b column| (Cauchy-Schwarz); 4u|result| and 1% slack cover the rounding
    # of the bound and of result -/+ bound themselves; SUBNORMAL covers sums below fp32's normal range
    per_sum = 2 * tiles * U32 * (1 + GAMMA32)
    bound = flat.abs().mul_((per_sum + 4 * U32) * 1.01).add_(SUBNORMAL * tiles)
    bound.addr_(a.norm(dim=1), strip.norm, alpha=(GAMMA32 + U32 + 2 * per_sum) * 1.01)
    finite = bool(bound.sum().isfinite())  # a NaN or an infinity anywhere: those are recomputed
    low = quantize(flat - bound, fmt)
    # both formats are 16-bit: comparing the bits as int16 is several times faster than as floats
    unsafe = low.view(torch.int16) - quantize(flat.add_(bound), fmt).view(torch.int16)
    if not finite:
        unsafe = torch.where(torch.isfinite(bound), unsafe, 1)
    rows, cols = torch.nonzero(unsafe, as_tuple=True)
    if not len(rows):
        return low
    if len(rows) > REPAIR_SHARE * flat.numel():
        return None  # recomputing these one by one would cost more than exact products for all
    b_columns = strip.columns()
    step = max(1, CHUNK_ELEMENTS // a.shape[1])
    for i in range(0, len(rows), step):
        r, c = rows[i:i + step], cols[i:i + step]
        # each tile product's exact sum (fp64), rounded once to fp32, added in K order in fp32
        products = a.index_select(0, r).double().mul_(b_columns.index_select(0, c))
        products = products.view(len(r), tiles, 32).sum(2).float()
        value = start[r, c] if start is not None else None
        for t in range(tiles):
            value = products[:, t] if value is None else value + products[:, t]
        low[r, c] = quantize(value, fmt)
    return low
