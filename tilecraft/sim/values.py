"""Values, separated from synchronisation: record a dataflow graph, then evaluate it in batches.

While the scheduler runs the threads (no tensor data involved), every data operation appends a
node to its *site* (the IR operation it comes from): a read of a tensor slice, a block store, a
write to a tensor slice. Values are named by integer ids in creation order; buffers and pipes
carry ids, not data. Because a thread's control flow never depends on tensor values, this graph
is the program's complete dataflow.

The evaluator then computes the graph in windows of consecutive ids, and inside a window all
nodes of one site at one dependency depth as a single batched torch operation (a gather for
reads, one expression evaluation for stores, an index_put for writes). Memory stays bounded:
a value is dropped once its last consumer has run. Reads of a tensor that this launch wrote
cut a window boundary, so every read sees exactly the writes that preceded it.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import torch

from ..numerics import quantize, to_compute

#: elements evaluated per window (bounds peak memory; larger windows batch more)
WINDOW_ELEMENTS = 1 << 24


class ReadSite:
    """``ttl.copy(tensor[slice], blk)``: gathers a block-shaped slice, rounded to the block's format."""

    def __init__(self, index: int, tensor: Any, extents: tuple[int, ...], tiled: bool, fmt: Any,
                 block_elems: tuple[int, ...]):
        self.index = index
        self.tensor = tensor  # runtime TensorRef
        self.extents = extents
        self.tiled = tiled
        self.fmt = fmt
        self.block_elems = block_elems
        self.elems = 1
        for extent in block_elems:
            self.elems *= extent
        self.out: list[int] = []
        self.starts: list[tuple[int, ...]] = []


class WriteSite:
    """``ttl.copy(blk, tensor[slice])``: scatters blocks into a tensor, rounded to its format."""

    def __init__(self, index: int, tensor: Any, extents: tuple[int, ...], tiled: bool):
        self.index = index
        self.tensor = tensor
        self.extents = extents
        self.tiled = tiled
        self.at: list[int] = []
        self.vids: list[int] = []
        self.starts: list[tuple[int, ...]] = []


class ComputeSite:
    """``blk.store(expr)`` / ``blk += expr``: a batched evaluator over the expression's leaves."""

    def __init__(self, index: int, evaluate: Callable[[list[Any]], torch.Tensor], block_leaves: tuple[bool, ...],
                 fmt: Any, elems: int):
        self.index = index
        self.evaluate = evaluate
        self.block_leaves = block_leaves
        self.fmt = fmt
        self.elems = elems
        self.out: list[int] = []
        self.leaves: list[tuple] = []


class TensorRef:
    """A program tensor as the simulator sees it: storage plus a flag for read-after-write."""

    def __init__(self, tensor: Any, decl: Any):
        self.tensor = tensor
        self.decl = decl
        self.storage: torch.Tensor = tensor.storage
        self.unit_shape = decl.unit_shape
        self.dirty = False


class Recorder:
    """Phase 1: the graph. Methods are called from generated thread code, so they stay small."""

    def __init__(self) -> None:
        self.next_vid = 0
        self.depth: list[int] = []
        self.reads: list[ReadSite] = []
        self.writes: list[WriteSite] = []
        self.computes: list[ComputeSite] = []
        self.barriers: list[int] = []
        self.tensors: list[TensorRef] = []

    def read(self, site: ReadSite, starts: tuple[int, ...]) -> int:
        if site.tensor.dirty:
            self.barrier()
        vid = self.next_vid
        self.next_vid = vid + 1
        site.out.append(vid)
        site.starts.append(starts)
        self.depth.append(0)
        return vid

    def write(self, site: WriteSite, vid: int, starts: tuple[int, ...]) -> None:
        site.at.append(self.next_vid)
        site.vids.append(vid)
        site.starts.append(starts)
        site.tensor.dirty = True

    def compute(self, site: ComputeSite, leaves: tuple, depth: int) -> int:
        vid = self.next_vid
        self.next_vid = vid + 1
        site.out.append(vid)
        site.leaves.append(leaves)
        self.depth.append(depth)
        return vid

    def barrier(self) -> None:
        self.barriers.append(self.next_vid)
        for t in self.tensors:
            t.dirty = False


class Evaluator:
    """Phase 2: compute every recorded value, window by window, site by site, depth by depth."""

    def __init__(self, rec: Recorder, exact: bool = False):
        self.rec = rec
        self.exact = exact
        n = rec.next_vid
        self.slab_of = np.full(n, -1, dtype=np.int64)
        self.row_of = np.zeros(n, dtype=np.int64)
        self.slabs: dict[int, torch.Tensor] = {}
        self.slab_last_use: dict[int, int] = {}
        self._slab_counter = 0
        self.depth = np.asarray(rec.depth, dtype=np.int64)
        self.last_use = np.full(n, -1, dtype=np.int64)
        self._arrays()

    # ---------------------------------------------------------------- preparation
    def _arrays(self) -> None:
        for site in self.rec.reads:
            site.out_a = np.asarray(site.out, dtype=np.int64)
            site.starts_a = np.asarray(site.starts, dtype=np.int64).reshape(len(site.out), len(site.extents))
        for site in self.rec.computes:
            site.out_a = np.asarray(site.out, dtype=np.int64)
            site.leaves_a = np.asarray(site.leaves, dtype=np.float64 if not all(site.block_leaves) else np.int64)
            site.leaves_a = site.leaves_a.reshape(len(site.out), len(site.block_leaves))
            for j, is_block in enumerate(site.block_leaves):
                if is_block:
                    np.maximum.at(self.last_use, site.leaves_a[:, j].astype(np.int64), site.out_a)
        for site in self.rec.writes:
            site.at_a = np.asarray(site.at, dtype=np.int64)
            site.vids_a = np.asarray(site.vids, dtype=np.int64)
            site.starts_a = np.asarray(site.starts, dtype=np.int64).reshape(len(site.vids), len(site.extents))
            if len(site.vids):
                np.maximum.at(self.last_use, site.vids_a, site.at_a - 1)

    def windows(self) -> list[tuple[int, int]]:
        n = self.rec.next_vid
        if self.exact:
            bounds = list(range(n + 1))
        else:
            elems = np.zeros(n, dtype=np.int64)
            for site in (*self.rec.reads, *self.rec.computes):
                elems[site.out_a] = site.elems
            cum = np.cumsum(elems)
            cuts = set(np.searchsorted(cum, np.arange(WINDOW_ELEMENTS, int(cum[-1]) if n else 0,
                                                      WINDOW_ELEMENTS), side="right").tolist())
            bounds = sorted({0, n, *cuts, *self.rec.barriers})
        return [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a] or [(0, n)]

    # ---------------------------------------------------------------- evaluation
    def run(self) -> None:
        windows = self.windows()
        for i, (a, b) in enumerate(windows):
            last = i == len(windows) - 1
            self.evaluate_window(a, b, writes_upto=None if last else b)

    def evaluate_window(self, a: int, b: int, writes_upto: int | None) -> None:
        for site in self.rec.reads:
            r0, r1 = np.searchsorted(site.out_a, [a, b])
            if r1 > r0:
                self.gather(site, r0, r1)
        pending = []
        for site in self.rec.computes:
            r0, r1 = np.searchsorted(site.out_a, [a, b])
            if r1 > r0:
                pending.append((site, r0, r1))
        if pending:
            depths = np.unique(np.concatenate([self.depth[s.out_a[r0:r1]] for s, r0, r1 in pending]))
            for d in depths.tolist():
                for site, r0, r1 in pending:
                    rows = r0 + np.nonzero(self.depth[site.out_a[r0:r1]] == d)[0]
                    if len(rows):
                        self.compute(site, rows)
        for site in self.rec.writes:
            lo, hi = np.searchsorted(site.at_a, [a + 1 if a else 0, (writes_upto if writes_upto is not None else 1 << 62) + 1])
            if hi > lo:
                self.scatter(site, lo, hi)
        self.free(b)

    def store(self, vids: np.ndarray, values: torch.Tensor) -> None:
        self._slab_counter += 1
        slab = self._slab_counter
        self.slabs[slab] = values
        self.slab_of[vids] = slab
        self.row_of[vids] = np.arange(len(vids))
        self.slab_last_use[slab] = int(self.last_use[vids].max()) if len(vids) else -1

    def free(self, upto: int) -> None:
        for slab in [s for s, last in self.slab_last_use.items() if last < upto]:
            del self.slabs[slab]
            del self.slab_last_use[slab]

    def values(self, vids: np.ndarray) -> torch.Tensor:
        slabs = self.slab_of[vids]
        rows = torch.from_numpy(self.row_of[vids])
        first = int(slabs[0])
        if (slabs == first).all():
            slab = self.slabs[first]
            if len(vids) == slab.shape[0] and bool((rows == torch.arange(len(vids))).all()):
                return slab
            return slab.index_select(0, rows)
        out = None
        for s in np.unique(slabs).tolist():
            mask = slabs == s
            part = self.slabs[s].index_select(0, rows[torch.from_numpy(mask)])
            if out is None:
                out = torch.empty((len(vids), *part.shape[1:]), dtype=part.dtype)
            out[torch.from_numpy(np.nonzero(mask)[0])] = part
        return out

    # ---------------------------------------------------------------- node kinds
    def gather(self, site: ReadSite, r0: int, r1: int) -> None:
        starts = site.starts_a[r0:r1]
        block = gather_blocks(site.tensor.storage, site.tiled, starts, site.extents)
        block = block.reshape(len(starts), *site.block_elems)
        self.store(site.out_a[r0:r1], quantize(block, site.fmt))

    def compute(self, site: ComputeSite, rows: np.ndarray) -> None:
        leaves: list[Any] = []
        for j, is_block in enumerate(site.block_leaves):
            col = site.leaves_a[rows, j]
            if is_block:
                leaves.append(to_compute(self.values(col.astype(np.int64))))
            else:
                leaves.append(torch.from_numpy(col).to(torch.float32).reshape(-1, 1, 1))
        result = site.evaluate(leaves, len(rows))
        self.store(site.out_a[rows], quantize(result, site.fmt))

    def scatter(self, site: WriteSite, lo: int, hi: int) -> None:
        tensor = site.tensor
        values = quantize(to_compute(self.values(site.vids_a[lo:hi])), tensor.decl.fmt)
        starts = site.starts_a[lo:hi]
        if has_overlap(starts, site.extents):
            for i in range(len(starts)):
                scatter_blocks(tensor.storage, site.tiled, starts[i:i + 1], site.extents, values[i:i + 1])
        else:
            scatter_blocks(tensor.storage, site.tiled, starts, site.extents, values)


def _index_arrays(starts: np.ndarray, extents: tuple[int, ...]) -> list[torch.Tensor]:
    """Per-dimension index tensors broadcasting to [M, e0, e1, ...]."""
    n = len(extents)
    out = []
    for d, extent in enumerate(extents):
        shape = [len(starts)] + [1] * n
        shape[1 + d] = extent
        idx = torch.from_numpy(starts[:, d]).reshape(-1, *([1] * n)) + torch.arange(extent).reshape(shape[1:])
        out.append(idx.reshape(shape))
    return out


def _tiled_view(storage: torch.Tensor) -> torch.Tensor:
    *lead, h, w = storage.shape
    return storage.view(*lead, h // 32, 32, w // 32, 32)


def gather_blocks(storage: torch.Tensor, tiled: bool, starts: np.ndarray, extents: tuple[int, ...]) -> torch.Tensor:
    """Blocks ``storage[starts[i] : starts[i] + extents]`` (in shape units) stacked on dim 0."""
    idx = _index_arrays(starts, extents)
    if not tiled:
        return storage[tuple(idx)]
    view = _tiled_view(storage)
    got = view[(*idx[:-2], idx[-2], slice(None), idx[-1], slice(None))]
    # advanced indices separated by a slice move to the front: [M, e..., 32, 32]
    m, *ext = got.shape[:-2]
    n = len(extents)
    perm = [0, *range(1, n - 1), n - 1, n + 1, n, n + 2]
    got = got.permute(*perm)
    return got.reshape(m, *ext[:-2], ext[-2] * 32, ext[-1] * 32)


def scatter_blocks(storage: torch.Tensor, tiled: bool, starts: np.ndarray, extents: tuple[int, ...],
                   values: torch.Tensor) -> None:
    idx = _index_arrays(starts, extents)
    if not tiled:
        storage[tuple(idx)] = values.reshape(len(starts), *extents).to(storage.dtype)
        return
    n = len(extents)
    m = values.shape[0]
    blocks = values.reshape(m, *extents[:-2], extents[-2], 32, extents[-1], 32)
    perm = [0, *range(1, n - 1), n - 1, n + 1, n, n + 2]
    inverse = [perm.index(i) for i in range(len(perm))]
    blocks = blocks.permute(*inverse)
    view = _tiled_view(storage)
    view[(*idx[:-2], idx[-2], slice(None), idx[-1], slice(None))] = blocks.to(storage.dtype)


def has_overlap(starts: np.ndarray, extents: tuple[int, ...]) -> bool:
    """True when two blocks of one scatter batch cover a common unit (then order matters)."""
    if len(starts) < 2:
        return False
    if all(e == 1 for e in extents):
        return len(np.unique(starts, axis=0)) < len(starts)
    cells = np.stack(np.meshgrid(*[np.arange(e) for e in extents], indexing="ij"), -1).reshape(-1, len(extents))
    covered = (starts[:, None, :] + cells[None, :, :]).reshape(-1, len(extents))
    return len(np.unique(covered, axis=0)) < len(covered)

