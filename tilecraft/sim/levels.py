"""Phase 2, fast mode: evaluate the whole dataflow graph level by level.

The exact mode (:class:`.values.Evaluator`) computes one value at a time in program order. This evaluator computes, between two read-after-write barriers, every store of one site at
one dependency depth as one batch, however far apart their value ids are: a K loop of depth 256
over 65,536 output blocks is 256 batches of 65,536 blocks (and, for ``acc + a @ b`` fed by tensor
reads, 256 large matrix updates, :mod:`.chains`), not hundreds of thousands of small windows.

Memory stays bounded:

* reads are not evaluated ahead: a read's block is gathered from its tensor when a store (or a
  write) consumes it, so the inputs of a deep chain are never all in memory at once;
* a batch is split into chunks of at most ``CHUNK_ELEMENTS`` elements (``GPU_CHUNK_ELEMENTS`` on a GPU);
* a value is dropped after the last level that consumes it (values written to tensors are kept
  until the barrier segment's writes, which run in program order per tensor); a level that is one
  batch may compute into the slab of values nothing later needs (:meth:`LevelEvaluator.take_slab`);
* no array spans all values but the base class's four (slab, row, last use, last level: int32):
  the read site of a value is looked up in the sites' sorted value ids.

Within a segment no read sees a tensor this launch wrote (the recorder cuts a barrier before such a
read), and the segment's writes land only after its computes, so gathering a read late gives the
value it had when it was recorded; a read still needed after that (by the segment's writes, or by a
later segment) of a tensor the segment writes is gathered just before the writes land.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from .chains import chunk_elements, matmul_update
from .values import Evaluator, Recorder, WriteSite, search_sorted

#: elements evaluated per torch call of a batch (bounds the temporaries of one call), on the CPU
CHUNK_ELEMENTS = 1 << 21
#: the same on a GPU, where each call costs kernel launches (:func:`.chains.chunk_elements`)
GPU_CHUNK_ELEMENTS = 1 << 25
#: "consumed after every level": values written to tensors or kept for printing
LAST = np.iinfo(np.int32).max


class LevelEvaluator(Evaluator):
    """Level-by-level evaluation with late reads; results bit-identical to the exact mode."""

    reads_through_view = True  # batches of reads: a gather from the view costs what one from a copy does

    def __init__(self, rec: Recorder, device: torch.device | None = None):
        super().__init__(rec, device)
        n = rec.next_vid
        #: the deepest level that consumes each value (LAST: a write or a print needs it)
        self.last_level = np.full(n, -1, dtype=np.int32)
        for site in rec.computes:
            depth = self.depth[site.out_a]
            for j, is_block in enumerate(site.block_leaves):
                if is_block:
                    np.maximum.at(self.last_level, site.leaves_a[:, j].astype(np.int64, copy=False), depth)
        for site in rec.writes:
            self.last_level[site.vids_a] = LAST
        self.last_level[np.asarray(rec.keep, dtype=np.int64)] = LAST
        self.slab_last_level: dict[int, int] = {}
        #: the level being computed, and whether one batch is all of it (see :meth:`take_slab`)
        self.level = -1
        self.sole = False
        self.segment_end = 0
        #: work buffers reused from level to level (by :mod:`.chains`), by shape and format
        self.scratch: dict[Any, Any] = {}

    def run(self) -> None:
        n = self.rec.next_vid
        bounds = sorted({0, n, *self.rec.barriers})
        segments = [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a] or [(0, n)]
        for i, (a, b) in enumerate(segments):
            self.segment(a, b, last=i == len(segments) - 1)
        for tensor in self.rec.tensors:
            tensor.flush()
        self.done = True

    # ---------------------------------------------------------------- one barrier segment
    def segment(self, a: int, b: int, last: bool) -> None:
        kept = np.asarray([v for v in self.rec.keep if a <= v < b], dtype=np.int64)
        kept = kept[self.read_rows(kept)[0] >= 0]
        if len(kept):  # printed reads: gathered now, before a later segment's writes change the tensor
            self.store(kept, self.values(kept))
        pending = []  # per site: its rows in the segment sorted by depth (stable: program order within one)
        for site in self.rec.computes:
            r0, r1 = search_sorted(site.out_a, [a, b])
            if r1 > r0:  # narrow types: a site can have tens of millions of rows (int16 depths sort by radix)
                depth = self.depth[site.out_a[r0:r1]]
                depth = depth.astype(np.int16 if int(depth.max()) < (1 << 15) else np.int32)
                order = np.argsort(depth, kind="stable")
                rows = order.astype(np.int32 if r1 < (1 << 31) else np.int64)
                rows += r0
                pending.append((site, rows, depth[order]))
                del order
        levels = np.unique(np.concatenate([d for _, _, d in pending])) if pending else np.zeros(0, np.int64)
        for level in levels.tolist():
            batches = []
            for site, rows, depth in pending:
                lo, hi = search_sorted(depth, [level, level + 1])
                if hi > lo:
                    batches.append((site, rows[lo:hi]))
            self.level, self.sole, self.segment_end = level, len(batches) == 1, b
            for site, rows in batches:
                self.compute_level(site, rows)
            self.free_level(level, b)
        self.write_segment(a, b, last)
        self.free(b)

    def compute_level(self, site: Any, rows: np.ndarray) -> None:
        spec = getattr(site.evaluate, "matmul", None)
        if spec is not None and matmul_update(self, site, rows, spec):
            return
        per_call = max(1, chunk_elements(self.device, CHUNK_ELEMENTS, GPU_CHUNK_ELEMENTS) // max(1, site.elems))
        for i in range(0, len(rows), per_call):
            self.compute(site, rows[i:i + per_call])

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
        for site in self.rec.reads:
            if id(site.tensor) not in written:
                continue
            vids = site.out_a[:search_sorted(site.out_a, b)]
            needed = vids[(self.slab_of[vids] < 0) & ((self.last_use[vids] >= b) | (self.last_level[vids] == LAST))]
            if len(needed):
                self.store(needed, self.values(needed))

    # ---------------------------------------------------------------- values
    def store(self, vids: np.ndarray, values: torch.Tensor) -> None:
        super().store(vids, values)
        self.slab_last_level[self._slab_counter] = int(self.last_level[vids].max()) if len(vids) else -1

    def take_slab(self, vids: np.ndarray, values: torch.Tensor) -> bool:
        """True when ``values`` (the slab holding exactly ``vids``) may be overwritten by the batch being
        computed: it is the level's only batch, no later level, segment, write or print needs ``vids``, and
        it owns its memory (not a broadcast of one block, nor a view of another tensor). An
        accumulation chain then writes each K step over the previous one (chunk by chunk, each read
        before it is written) instead of a new level-sized tensor per step."""
        if not self.sole or not len(vids) or int(self.last_level[vids].max()) > self.level:
            return False
        slab = int(self.slab_of[vids[0]])
        if slab not in self.slabs or self.slabs[slab] is not values or values.shape[0] != len(vids) \
                or not values.is_contiguous() or values._base is not None or self.slab_last_use[slab] >= self.segment_end:
            return False
        memory = values.untyped_storage().data_ptr()  # no other value may live in it (an identity conversion, a view)
        return not any(other.untyped_storage().data_ptr() == memory for s, other in self.slabs.items() if s != slab)

    def free_level(self, level: int, segment_end: int) -> None:
        """Drop the slabs no later level of this segment (nor a later segment) consumes."""
        for slab in [s for s, lvl in self.slab_last_level.items()
                     if lvl <= level and self.slab_last_use.get(s, LAST) < segment_end]:
            del self.slabs[slab]
            del self.slab_last_use[slab]
            del self.slab_last_level[slab]

    def free(self, upto: int) -> None:
        super().free(upto)
        for slab in [s for s in self.slab_last_level if s not in self.slabs]:
            del self.slab_last_level[slab]

    def read_rows(self, vids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each value not in a slab, the index of the read site that made it (-1: not a read, or
        already gathered into a slab) and its row there:
        looked up in the sites' sorted value ids (no array over all values: at the published sizes
        there are tens of millions)."""
        sites = np.full(len(vids), -1, dtype=np.int32)
        rows = np.zeros(len(vids), dtype=np.int64)
        left = np.flatnonzero(self.slab_of[vids] < 0)  # stored values are not (or no longer) reads
        for i, site in enumerate(self.rec.reads):
            out = site.out_a
            if not len(left):
                break
            if not len(out):
                continue
            at = np.minimum(search_sorted(out, vids[left]), len(out) - 1)
            hit = out[at] == vids[left]
            sites[left[hit]] = i
            rows[left[hit]] = at[hit]
            left = left[~hit]
        return sites, rows

    def values(self, vids: np.ndarray) -> torch.Tensor:
        """Computed values from their slabs; reads gathered from their tensors now."""
        sites, read_rows = self.read_rows(vids)
        is_read = (sites >= 0) & (self.slab_of[vids] < 0)
        if not is_read.any():
            return super().values(vids)
        parts: list[tuple[np.ndarray, torch.Tensor]] = []
        if not is_read.all():
            where = np.flatnonzero(~is_read)
            parts.append((where, super().values(vids[where])))
        for s in np.unique(sites[is_read]).tolist():
            where = np.flatnonzero(is_read & (sites == s))
            site = self.rec.reads[s]
            parts.append((where, self.read_blocks(site, site.starts_a[read_rows[where]])))
        if len(parts) == 1 and len(parts[0][0]) == len(vids):
            return parts[0][1]
        first = parts[0][1]
        out = torch.empty((len(vids), *first.shape[1:]), dtype=first.dtype, device=self.device)
        for where, part in parts:
            out[torch.from_numpy(where).to(self.device)] = part.to(first.dtype)
        return out


def evaluator_for(rec: Recorder, exact: bool, device: torch.device | None = None) -> Evaluator:
    """The exact mode's one-value-at-a-time reference, or the level evaluator."""
    return Evaluator(rec, device) if exact else LevelEvaluator(rec, device)
