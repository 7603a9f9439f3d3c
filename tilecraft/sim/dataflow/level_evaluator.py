"""Phase 2, fast mode: evaluate the whole dataflow graph level by level.

The exact mode (:class:`.values.Evaluator`) computes one value at a time in program order. This evaluator computes, between two read-after-write barriers, every store of one site at
one dependency depth as one batch, however far apart their value ids are: a K loop of depth 256
over 65,536 output blocks is 256 batches of 65,536 blocks (and, for ``acc + a @ b`` fed by tensor
reads, 256 large matrix updates, :mod:`.chains`), not hundreds of thousands of small windows.

Memory stays bounded:

* reads are not evaluated ahead: a read's block is gathered from its tensor when a store (or a
  write) consumes it, so the inputs of a deep chain are never all in memory at once;
* a batch is split into chunks of at most ``CHUNK_ELEMENTS`` elements (``GPU_CHUNK_ELEMENTS`` on a GPU);
* a value is computed at the level just before its shallowest consumer, not at its own depth when a
  consumer is further away (:func:`defer_to_consumers`: flash attention's scores of every key block
  would otherwise all be computed at level 1 and held);
* a value is dropped after the last level that consumes it (values written to tensors are kept
  until the barrier segment's writes, which run in program order per tensor); a level that is one
  batch may compute into the slab of values nothing later needs (:meth:`LevelEvaluator.take_slab`);
* no array spans all values (at the published sizes there are ~50 million): where a stored value
  is comes from the live slabs' own value ids (:class:`.values.SlabIndex`), the read site of a
  value from the sites' sorted value ids, a compute's depth from its site's own column; when a
  slab may go is known from the deepest consumer of its site's values at its depth
  (:func:`consumer_horizons`), the values written or printed, and the few consumed in a later
  segment than their own (:func:`later_segment_uses`).

Within a segment no read sees a tensor this launch wrote (the recorder cuts a barrier before such a
read), and the segment's writes land only after its computes, so gathering a read late gives the
value it had when it was recorded; a read still needed after that (by the segment's writes, or by a
later segment) of a tensor the segment writes is gathered just before the writes land.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from ..accuracy import SAMPLE_BLOCKS
from .chains import chunk_elements, matmul_update
from .graph import Evaluator, Recorder, WriteSite, find_sorted, narrow_depths, search_sorted, take_rows

#: elements evaluated per torch call of a batch (bounds the temporaries of one call), on the CPU
CHUNK_ELEMENTS = 1 << 21
#: the same on a GPU, where each call costs kernel launches (:func:`.chains.chunk_elements`)
GPU_CHUNK_ELEMENTS = 1 << 25
#: "consumed after every level": values written to tensors or kept for printing
LAST = np.iinfo(np.int32).max
#: rows sorted, or scanned, per numpy call (bounds the temporaries over a site of tens of millions)
SORT_CHUNK = 1 << 20
#: cells of the table :func:`maximum_at` marks (above it, ``np.maximum.at``)
TABLE_CELLS = 1 << 24


class LevelEvaluator(Evaluator):
    """Level-by-level evaluation with late reads; results bit-identical to the exact mode."""

    reads_through_view = True  # batches of reads: a gather from the view costs what one from a copy does

    def __init__(self, rec: Recorder, device: torch.device | None = None):
        super().__init__(rec, device)
        self.slab_last_level: dict[int, int] = {}
        #: the level being computed, the site computing it (None: a store of reads), and whether one
        #: batch is all of it (see :meth:`take_slab`)
        self.level = -1
        self.site: Any = None
        self.sole = False
        self.segment_end = 0
        #: work buffers reused from level to level (by :mod:`.chains`), by shape and format
        self.scratch: dict[Any, Any] = {}
        #: the slabs stored outside a compute batch: the only ones that can hold reads (:meth:`holds_reads`)
        self.read_slabs: set[int] = set()
        #: per compute site (by id): whether any of its values is written or printed (:meth:`makes_final`)
        self.sites_making_final: dict[int, bool] = {}

    def _plan_frees(self, depth: np.ndarray) -> None:
        """What freeing needs, without an array over all values: the values written or printed
        (needed after every level), those consumed in a later segment than their own (and where),
        and per compute site and depth the deepest level that consumes its values."""
        rec = self.rec
        n = rec.next_vid
        self.bounds = np.asarray(sorted({0, n, *rec.barriers}), dtype=np.int64)
        kept = np.asarray(rec.keep, dtype=np.int64)
        self.final = np.unique(np.concatenate([kept, *(site.vids_a.astype(np.int64) for site in rec.writes)]))
        self.escapes = later_segment_uses(rec, self.bounds, kept, n)
        early = consumer_horizons(rec, depth)
        if len(early) and defer_to_consumers(rec, depth, early):
            consumer_horizons(rec, depth)

    def last_uses(self, vids: np.ndarray) -> np.ndarray:
        """Per value id, the last value id its consumers precede when one is in a later segment (or
        it is printed); -1 otherwise (within its segment is all that freeing asks)."""
        keys, last = self.escapes
        if not len(keys):
            return np.full(len(vids), -1, dtype=np.int64)
        hit, at = find_sorted(keys, np.asarray(vids, dtype=np.int64))
        return np.where(hit, last[at], -1)

    def last_use_of(self, vids: np.ndarray) -> int:
        return int(self.last_uses(vids).max()) if len(vids) else -1

    def is_final(self, vids: np.ndarray) -> np.ndarray:
        """Which values are written to a tensor or printed."""
        return find_sorted(self.final, np.asarray(vids, dtype=np.int64))[0]

    def run(self) -> None:
        n = self.rec.next_vid
        bounds = self.bounds.tolist()
        segments = [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a] or [(0, n)]
        for i, (a, b) in enumerate(segments):
            self.segment(a, b, last=i == len(segments) - 1)
        for tensor in self.rec.tensors:
            tensor.flush()
        self.done = True

    # ---------------------------------------------------------------- one barrier segment
    def segment(self, a: int, b: int, last: bool) -> None:
        self.site = None
        kept = np.asarray([v for v in self.rec.keep if a <= v < b], dtype=np.int64)
        kept = kept[self.read_rows(kept)[0] >= 0]
        if len(kept):  # printed reads: gathered now, before a later segment's writes change the tensor
            self.store(kept, self.values(kept))
        pending = []  # per site: its rows in the segment by depth (program order within one)
        for site in self.rec.computes:
            r0, r1 = search_sorted(site.out_a, [a, b])
            if r1 > r0:
                pending.append((site, DepthOrder(site.depth_a, r0, r1)))
        levels = np.unique(np.concatenate([order.levels() for _, order in pending])) if pending else []
        for level in np.asarray(levels).tolist():
            batches = [(site, rows) for site, order in pending if len(rows := order.rows_at(level))]
            self.level, self.sole, self.segment_end = level, len(batches) == 1, b
            for site, rows in batches:
                self.site = site
                self.compute_level(site, rows)
            self.site = None
            self.free_level(level, b)
        del pending
        self.write_segment(a, b, last)
        self.free(b)

    def compute_level(self, site: Any, rows: np.ndarray) -> None:
        spec = getattr(site.evaluate, "matmul", None)
        if spec is not None and site.audit is not None:  # the large-GEMM path below evaluates no leaves
            sample = rows[:SAMPLE_BLOCKS]
            site.audit(self.leaf_values(site, sample), len(sample), self.device)
        if spec is not None and matmul_update(self, site, rows, spec):
            return
        per_call = max(1, chunk_elements(self.device, CHUNK_ELEMENTS, GPU_CHUNK_ELEMENTS) // max(1, site.elems))
        if len(rows) <= per_call:
            self.compute(site, rows)
            return
        level = None  # one slab for the level: a chain's next level reads it whole and may write over it
        for i in range(0, len(rows), per_call):
            part = self.computed(site, rows[i:i + per_call])
            if level is None:
                level = torch.empty((len(rows), *part.shape[1:]), dtype=part.dtype, device=part.device)
            level[i:i + len(part)] = part
        self.store(site.out_a[rows], level)

    def write_segment(self, a: int, b: int, last: bool) -> None:
        """The segment's writes, per tensor in program order (runs of one site batched)."""
        by_tensor: dict[int, list[tuple[WriteSite, np.ndarray]]] = {}
        for site in self.rec.writes:
            lo, hi = search_sorted(site.at_a, [a + 1 if a else 0, (self.rec.next_vid if last else b) + 1])
            if hi > lo:
                by_tensor.setdefault(id(site.tensor), []).append((site, np.arange(lo, hi)))
        self.gather_before_writes(by_tensor, b)
        for writes in by_tensor.values():
            if len(writes) == 1:
                self.scatter(*writes[0])
                continue
            at = np.concatenate([site.at_a[rows] for site, rows in writes])
            which = np.concatenate([np.full(len(rows), i) for i, (_, rows) in enumerate(writes)])
            row = np.concatenate([rows for _, rows in writes])
            order = np.argsort(at, kind="stable")
            which, row = which[order], row[order]
            cuts = np.flatnonzero(np.diff(which)) + 1
            for lo, hi in zip([0, *cuts.tolist()], [*cuts.tolist(), len(which)]):
                self.scatter(writes[int(which[lo])][0], row[lo:hi])

    def gather_before_writes(self, by_tensor: dict[int, list[tuple[WriteSite, np.ndarray]]], b: int) -> None:
        """Reads are gathered when consumed; a read still needed after this segment's computes (by its
        writes, or later) of a tensor the segment writes is gathered now, before any write lands, so
        it holds the value it had when it was read."""
        written = {id(site.tensor) for writes in by_tensor.values() for site, _ in writes}
        keys, last = self.escapes
        wanted = np.union1d(keys[last >= b], self.final)  # needed after the computes: later, or by a write
        wanted = wanted[wanted < b]
        for site in self.rec.reads:
            if id(site.tensor) not in written:
                continue
            needed = wanted[find_sorted(site.out_a, wanted)[0]]
            needed = needed[self.slab_of[needed] < 0]
            if len(needed):
                self.store(needed, self.values(needed))

    # ---------------------------------------------------------------- values
    def store(self, vids: np.ndarray, values: torch.Tensor) -> int:
        slab = super().store(vids, values)
        self.slab_last_level[slab] = self.last_level_of(vids)
        if self.site is None:  # reads gathered early: printed, or before a segment's writes
            self.read_slabs.add(slab)
        return slab

    def holds_reads(self, vids: np.ndarray) -> bool:
        """Whether any of ``vids`` (values of read sites) was gathered into a slab early. Reads are stored
        only outside a compute batch, so without such a slab nothing is searched (a chain's two leaves
        asked it every level: ~0.4 ms a level at 4096^3)."""
        return bool(self.read_slabs) and bool((self.slab_of[vids] >= 0).any())

    def last_level_of(self, vids: np.ndarray) -> int:
        """The deepest level that consumes any of ``vids`` (a batch of the site and level being
        computed; LAST: a write or a print needs one, or they are reads): the deepest consumer of
        any value of that site at that depth, an upper bound that is exact for a level computed
        whole."""
        if not len(vids):
            return -1
        if self.site is None or (self.makes_final(self.site) and bool(self.is_final(vids).any())):
            return LAST
        return int(self.site.horizon[self.level - self.site.depth_lo])

    def makes_final(self, site: Any) -> bool:
        """Whether any value of compute site ``site`` is written to a tensor or printed, found once per
        site (a chain's accumulators never are; searching every level's values cost ~2 ms a level at
        8192^3)."""
        if id(site) not in self.sites_making_final:
            made = bool(find_sorted(site.out_a, self.final)[0].any()) if len(site.out_a) else False
            self.sites_making_final[id(site)] = made
        return self.sites_making_final[id(site)]

    def take_slab(self, slab: int, values: torch.Tensor) -> bool:
        """True when ``values`` (slab ``slab``, all of it) may be overwritten by the batch being
        computed: it is the level's only batch, no later level, segment, write or print needs its
        values, and it owns its memory (not a broadcast of one block, nor a view of another tensor). An
        accumulation chain then writes each K step over the previous one (chunk by chunk, each read
        before it is written) instead of a new level-sized tensor per step."""
        if not self.sole or slab not in self.slabs or self.slabs[slab] is not values \
                or self.slab_last_level[slab] > self.level or not values.is_contiguous() or values._base is not None \
                or self.slab_last_use[slab] >= self.segment_end:
            return False
        memory = values.untyped_storage().data_ptr()  # no other value may live in it (an identity conversion, a view)
        return not any(other.untyped_storage().data_ptr() == memory for s, other in self.slabs.items() if s != slab)

    def free_level(self, level: int, segment_end: int) -> None:
        """Drop the slabs no later level of this segment (nor a later segment) consumes."""
        for slab in [s for s, lvl in self.slab_last_level.items()
                     if lvl <= level and self.slab_last_use.get(s, LAST) < segment_end]:
            self.drop(slab)

    def drop(self, slab: int) -> None:
        super().drop(slab)
        del self.slab_last_level[slab]
        self.read_slabs.discard(slab)

    def read_rows(self, vids: np.ndarray, slabs: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """For each value not in a slab, the index of the read site that made it (-1: not a read, or
        already gathered into a slab) and its row there:
        looked up in the sites' sorted value ids (no array over all values: at the published sizes
        there are tens of millions). ``slabs``: the values' slabs when the caller has them."""
        sites = np.full(len(vids), -1, dtype=np.int32)
        rows = np.zeros(len(vids), dtype=np.int64)
        slabs = self.slab_of[vids] if slabs is None else slabs
        left = np.flatnonzero(slabs < 0)  # stored values are not (or no longer) reads
        for i, site in enumerate(self.rec.reads):
            out = site.out_a
            if not len(left):
                break
            if not len(out):
                continue
            hit, at = find_sorted(out, vids[left])
            sites[left[hit]] = i
            rows[left[hit]] = at[hit]
            left = left[~hit]
        return sites, rows

    def values(self, vids: np.ndarray) -> torch.Tensor:
        """Computed values from their slabs; reads gathered from their tensors now."""
        slabs, row_of = self.slab_of.locate(vids)
        sites, read_rows = self.read_rows(vids, slabs)
        is_read = sites >= 0
        if not is_read.any():
            return self.values_located(vids, slabs, row_of)
        parts: list[tuple[np.ndarray, torch.Tensor]] = []
        if not is_read.all():
            where = np.flatnonzero(~is_read)
            parts.append((where, self.values_located(vids[where], slabs[where], row_of[where])))
        for s in np.unique(sites[is_read]).tolist():
            where = np.flatnonzero(is_read & (sites == s))
            site = self.rec.reads[s]
            parts.append((where, self.read_blocks(site, take_rows(site.starts_a, read_rows[where]))))
        if len(parts) == 1 and len(parts[0][0]) == len(vids):
            return parts[0][1]
        first = parts[0][1]
        out = torch.empty((len(vids), *first.shape[1:]), dtype=first.dtype, device=self.device)
        for where, part in parts:
            out[torch.from_numpy(where).to(self.device)] = part.to(first.dtype)
        return out


class DepthOrder:
    """One compute site's rows of a segment by depth: each level's rows in program order, as a
    stable sort by depth gives them. Sorted in chunks (argsort's int64 order of a whole site of
    tens of millions of rows would be 8 bytes a row): a level's rows are the concatenation of each
    chunk's run of that depth."""

    def __init__(self, depth: np.ndarray, r0: int, r1: int):
        self.rows = np.empty(r1 - r0, dtype=np.int32 if r1 < (1 << 31) else np.int64)
        self.depth = np.empty(r1 - r0, dtype=depth.dtype)
        self.cuts = [*range(0, r1 - r0, SORT_CHUNK), r1 - r0]
        for lo, hi in zip(self.cuts, self.cuts[1:]):
            part = depth[r0 + lo:r0 + hi]
            order = np.argsort(part, kind="stable")
            self.depth[lo:hi] = part[order]
            self.rows[lo:hi] = order + (r0 + lo)

    def levels(self) -> np.ndarray:
        return np.unique(np.concatenate([np.unique(self.depth[lo:hi]) for lo, hi in zip(self.cuts, self.cuts[1:])]))

    def rows_at(self, level: int) -> np.ndarray:
        parts = []
        for lo, hi in zip(self.cuts, self.cuts[1:]):
            i, j = search_sorted(self.depth[lo:hi], [level, level + 1])
            if j > i:
                parts.append(self.rows[lo + i:lo + j])
        return parts[0] if len(parts) == 1 else np.concatenate(parts) if parts else self.rows[:0]


def consumer_horizons(rec: Recorder, depth: np.ndarray) -> np.ndarray:
    """Per compute site, ``horizon[d - depth_lo]``: the deepest level that consumes a value the site
    computed at depth ``d`` (-1: none does). Found through a passing array of each value's compute
    site (one or two bytes a value), chunk by chunk. Returns the computed values some consumer of
    which is more than one level deeper (sorted; see :func:`defer_to_consumers`)."""
    sites = rec.computes
    site_of = np.full(rec.next_vid, -1, dtype=np.int8 if len(sites) < (1 << 7) else np.int32)
    offsets = np.zeros(len(sites) + 1, dtype=np.int64)
    for i, site in enumerate(sites):
        site_of[site.out_a] = i
        site.depth_lo = int(site.depth_a.min()) if len(site.depth_a) else 0
        top = int(site.depth_a.max()) if len(site.depth_a) else -1
        offsets[i + 1] = offsets[i] + top - site.depth_lo + 1
    horizon = np.full(int(offsets[-1]), -1, dtype=np.int32)
    lows = np.asarray([site.depth_lo for site in sites], dtype=np.int64)
    early = []
    for site in sites:
        for j in np.flatnonzero(site.block_leaves).tolist():
            for lo in range(0, len(site.out_a), SORT_CHUNK):
                # (numpy indexes with the narrow columns as they are: no int64 copies of 1M rows,
                # except an "operands" column, whose value ids are doubles beside runtime scalars)
                leaves = site.leaves_a[lo:lo + SORT_CHUNK, j]
                if leaves.dtype.kind == "f":
                    leaves = leaves.astype(np.int64)
                producer = site_of[leaves]
                computed = producer >= 0
                if not computed.any():
                    continue  # an operand read from a tensor (a matmul's a and b)
                consumed = site.depth_a[lo:lo + SORT_CHUNK]
                if not computed.all():
                    producer, leaves, consumed = producer[computed], leaves[computed], consumed[computed]
                made = depth[leaves]
                first = int(producer[0])
                if int(producer.min()) == int(producer.max()):  # one producing site (a chain's acc): no gathers
                    keys = made + int(offsets[first] - lows[first])
                else:
                    keys = offsets[producer] + made - lows[producer]
                maximum_at(horizon, keys, consumed)
                early.append(leaves[consumed > made + 1].astype(np.int64))
    del site_of
    for i, site in enumerate(sites):
        site.horizon = horizon[offsets[i]:offsets[i + 1]]
    return np.unique(np.concatenate(early)) if early else np.zeros(0, dtype=np.int64)


def maximum_at(out: np.ndarray, keys: np.ndarray, values: np.ndarray) -> None:
    """``np.maximum.at(out, keys, values)`` for non-negative integer ``values``. Where the table of
    ``len(out)`` keys by the values' range is small (a level count by a depth range: a matmul chain's
    few hundred levels), by marking that table and taking each row's last mark: ``np.maximum.at``
    costs ~80 ns an element, two thirds of the evaluator's construction at 4096^3."""
    if not len(keys):
        return
    lo, hi = int(values.min()), int(values.max())
    width = hi - lo + 1
    if len(out) * width > TABLE_CELLS:
        np.maximum.at(out, keys, values)
        return
    seen = np.zeros((len(out), width), dtype=bool)
    seen[keys, values - lo] = True
    last = (width - 1 + lo) - np.argmax(seen[:, ::-1], axis=1)
    np.maximum(out, np.where(seen.any(axis=1), last, out), out=out)


def defer_to_consumers(rec: Recorder, depth: np.ndarray, early: np.ndarray) -> bool:
    """Compute each value of ``early`` (computed values some consumer of which is more than one level
    deeper) at the level just before its shallowest consumer instead of at its own depth; True when
    any moved (then ``depth`` and the sites' ``depth_a`` are updated, and the horizons are stale).

    Why: a level computes every value of its depth at once, and a value that depends on nothing
    carried around a loop has the depth of its operands, however late the loop consumes it. Flash
    attention's scores ``q @ k^T`` of every key block have depth 1 (their operands are reads), so
    level 1 computed the whole attention matrix (S x S fp32: 64 MiB at S=4096) and held each block
    until its step of the online softmax. Any level from the value's own depth to one before its
    shallowest consumer gives the same bits (a value's arithmetic does not depend on its batch);
    deferring does not move a consumer earlier, so every consumer still comes after it."""
    latest = np.full(len(early), np.iinfo(np.int64).max, dtype=np.int64)
    for site in rec.computes:
        for j in np.flatnonzero(site.block_leaves).tolist():
            for lo in range(0, len(site.out_a), SORT_CHUNK):
                hit, at = find_sorted(early, site.leaves_a[lo:lo + SORT_CHUNK, j].astype(np.int64))
                np.minimum.at(latest, at[hit], site.depth_a[lo:lo + SORT_CHUNK][hit].astype(np.int64) - 1)
    moved = latest > depth[early]  # (every early value has a consumer, so latest is finite)
    if not moved.any():
        return False
    depth[early[moved]] = latest[moved]
    for site in rec.computes:
        site.depth_a = narrow_depths(depth[site.out_a])
    return True


def later_segment_uses(rec: Recorder, bounds: np.ndarray, kept: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The values consumed in a later barrier segment than their own, or printed (``n``), sorted,
    with the last value id any of their consumers precedes (a write lands after the value before it)."""
    found = [(kept, np.full(len(kept), n, dtype=np.int64))]
    if len(bounds) > 2:
        consumers = [(site.leaves_a[:, j], site.out_a) for site in rec.computes
                     for j in np.flatnonzero(site.block_leaves).tolist()]
        consumers += [(site.vids_a, site.at_a - 1) for site in rec.writes]
        for vids, at in consumers:
            for lo in range(0, len(vids), SORT_CHUNK):
                v = vids[lo:lo + SORT_CHUNK].astype(np.int64)
                c = at[lo:lo + SORT_CHUNK].astype(np.int64)
                later = np.searchsorted(bounds, v, "right") < np.searchsorted(bounds, c, "right")
                found.append((v[later], c[later]))
    vids = np.concatenate([v for v, _ in found])
    last = np.concatenate([c for _, c in found])
    order = np.lexsort((last, vids))
    vids, last = vids[order], last[order]
    final = np.r_[vids[1:] != vids[:-1], True] if len(vids) else np.zeros(0, dtype=bool)
    return vids[final], last[final]


def evaluator_for(rec: Recorder, exact: bool, device: torch.device | None = None) -> Evaluator:
    """The exact mode's one-value-at-a-time reference, or the level evaluator."""
    return Evaluator(rec, device) if exact else LevelEvaluator(rec, device)
