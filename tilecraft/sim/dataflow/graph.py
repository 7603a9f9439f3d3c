"""Values, separated from synchronisation: record a dataflow graph, then evaluate it in batches.

While the scheduler runs the threads (no tensor data involved), every data operation appends a
node to its *site* (the IR operation it comes from): a read of a tensor slice, a block store, a
write to a tensor slice. Values are named by integer ids in creation order; buffers and pipes
carry ids, not data. Because a thread's control flow never depends on tensor values, this graph
is the program's complete dataflow.

Two evaluators compute the graph. :class:`Evaluator` here is the exact mode (``--exact``), the
reference: one value at a time, in program order (a gather for a read, the store's expression for
a compute, an index_copy for a write), each value dropped once its last consumer has run. The
fast mode, :class:`.levels.LevelEvaluator`, batches whole dependency levels and must give the
same bits; it shares the sites, the slabs that hold values and the gathers and scatters here.
"""

from __future__ import annotations

import ctypes
from array import array
from collections import Counter
from typing import Any, Callable

import numpy as np
import torch

from ...diagnostics import error
from ...numerics import quantize, to_compute

#: elements of one batch of writes converted at a time
SCATTER_ELEMENTS = 1 << 21


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
        self.span: Any = None
        self.his: array | None = None
        self.elems = 1
        for extent in block_elems:
            self.elems *= extent
        self.out = int_column()
        self.starts = int_column()

    def release(self) -> None:
        self.out, self.starts, self.his = int_column(), int_column(), None
        forget_arrays(self)


class WriteSite:
    """``ttl.copy(blk, tensor[slice])``: scatters blocks into a tensor, rounded to its format."""

    def __init__(self, index: int, tensor: Any, extents: tuple[int, ...], tiled: bool):
        self.index = index
        self.tensor = tensor
        self.extents = extents
        self.tiled = tiled
        self.span: Any = None
        self.his: array | None = None
        self.at = int_column()
        self.vids = int_column()
        self.starts = int_column()

    def release(self) -> None:
        self.at, self.vids, self.starts, self.his = int_column(), int_column(), int_column(), None
        forget_arrays(self)


class ComputeSite:
    """``blk.store(expr)`` / ``blk += expr``: a batched evaluator over the expression's leaves
    (``evaluate(leaves, n, device)``: the stacked leaves of ``n`` executions, on ``device``)."""

    def __init__(self, index: int, evaluate: Callable[[list[Any], int, torch.device], torch.Tensor],
                 block_leaves: tuple[bool, ...], fmt: Any, elems: int,
                 pack: Callable[[torch.Tensor, Any], torch.Tensor] = quantize):
        self.index = index
        self.evaluate = evaluate
        #: rounds a result into the block's format: ``quantize``, or the device packer (``--numerics device``)
        self.pack = pack
        #: called with each batch of leaves to measure the device's error at each fidelity (``.accuracy``)
        self.audit: Callable[[list[Any], int, torch.device], None] | None = None
        self.block_leaves = block_leaves
        self.fmt = fmt
        self.elems = elems
        self.block_pos = tuple(i for i, b in enumerate(block_leaves) if b)
        self.out = int_column()
        #: every execution's leaves, flat (value ids, and runtime scalars as floats when there are any)
        self.leaves = int_column() if all(block_leaves) else array("d")  # value ids and scalars

    def release(self) -> None:
        self.out, self.leaves = int_column(), array(self.leaves.typecode)
        forget_arrays(self)


class TensorRef:
    """A program tensor as the simulator sees it: its storage, a flag for read-after-write, and
    (while values are evaluated, for a tensor the launch writes) a tile-ordered copy so that a batch
    of tile reads or writes is one contiguous ``index_select``/``index_copy_``; other tensors are
    read through :meth:`tile_view`."""

    def __init__(self, tensor: Any, decl: Any):
        self.tensor = tensor
        self.decl = decl
        self.storage: torch.Tensor = tensor.storage
        self.unit_shape = decl.unit_shape
        self.tiled = decl.unit.tiled
        self.dirty = False
        #: where values are evaluated (the tile-ordered copy lives there); None: the storage's device
        self.device: torch.device | None = None
        self._tiles: torch.Tensor | None = None
        self._tiles_written = False

    def tiles(self, for_write: bool = False) -> torch.Tensor:
        """``[tiles, 32, 32]`` in row-major tile order (created on first use in a launch)."""
        if self._tiles is None:
            *lead, h, w = self.storage.shape
            view = self.storage.view(*lead, h // 32, 32, w // 32, 32)
            self._tiles = view.transpose(-3, -2).contiguous().to(self.device or self.storage.device)
        self._tiles_written |= for_write
        return self._tiles.view(-1, 32, 32)

    def tile_view(self) -> torch.Tensor:
        """``[*lead, rows/32, cols/32, 32, 32]``: the storage seen as tiles, a strided view (no copy).
        Reads of a tensor the launch never writes gather from it, so the tensor is never copied whole."""
        *lead, h, w = self.storage.shape
        return self.storage.view(*lead, h // 32, 32, w // 32, 32).transpose(-3, -2)

    def flush(self) -> None:
        """Write the tile-ordered copy back into the tensor's storage and drop it."""
        if self._tiles is not None and self._tiles_written:
            *lead, h, w = self.storage.shape
            self.storage.view(*lead, h // 32, 32, w // 32, 32).copy_(self._tiles.transpose(-3, -2))
        self._tiles = None
        self._tiles_written = False


class Recorder:
    """Phase 1: the graph. Methods are called from generated thread code, so they stay small."""

    def __init__(self) -> None:
        self.next_vid = 0
        self.depth = int_column()
        self.reads: list[ReadSite] = []
        self.writes: list[WriteSite] = []
        self.computes: list[ComputeSite] = []
        self.barriers: list[int] = []
        self.tensors: list[TensorRef] = []
        #: values needed after the evaluation (printed blocks): never dropped
        self.keep: list[int] = []

    def read(self, site: ReadSite, starts: tuple[int, ...]) -> int:
        if site.tensor.dirty:
            self.barrier()
        vid = self.next_vid
        self.next_vid = vid + 1
        site.out.append(vid)
        site.starts.extend(starts)  # flat: numpy converts a flat int list much faster
        self.depth.append(0)
        return vid

    def read_dynamic(self, site: ReadSite, starts: tuple[int, ...], ends: tuple[int, ...]) -> int:
        """A read whose extents the compiler could not prove: the ends are checked in phase 2."""
        site.his.extend(ends)
        return self.read(site, starts)

    def write_dynamic(self, site: WriteSite, vid: int, starts: tuple[int, ...], ends: tuple[int, ...]) -> None:
        site.his.extend(ends)
        self.write(site, vid, starts)

    def write(self, site: WriteSite, vid: int, starts: tuple[int, ...]) -> None:
        site.at.append(self.next_vid)
        site.vids.append(vid)
        site.starts.extend(starts)
        site.tensor.dirty = True

    def store(self, site: ComputeSite, leaves: tuple) -> int:
        """A block store: its depth is one more than its deepest block operand's."""
        depth = self.depth
        d = 0
        for j in site.block_pos:
            x = depth[leaves[j]]
            if x > d:
                d = x
        return self.compute(site, leaves, d + 1)

    def compute(self, site: ComputeSite, leaves: tuple, depth: int) -> int:
        vid = self.next_vid
        self.next_vid = vid + 1
        site.out.append(vid)
        site.leaves.extend(leaves)
        self.depth.append(depth)
        return vid

    def barrier(self) -> None:
        self.barriers.append(self.next_vid)
        for t in self.tensors:
            t.dirty = False

    def columns(self) -> list[tuple[Any, str, str]]:
        """Every recorded column, as ``(owner, attribute, what its entries are)``: ``"ids"`` (value ids,
        or counts of them), ``"operands"`` (a store's leaves with runtime scalars among its value ids)
        or ``"numbers"`` (slice bounds, depths). Phase 1's controllers read and extend them all."""
        out: list[tuple[Any, str, str]] = []
        for site in self.reads:
            out += [(site, "out", "ids"), (site, "starts", "numbers")]
            if site.his is not None:
                out.append((site, "his", "numbers"))
        for site in self.computes:
            out += [(site, "out", "ids"), (site, "leaves", "ids" if site.leaves.typecode != "d" else "operands")]
        for site in self.writes:
            out += [(site, "at", "ids"), (site, "vids", "ids"), (site, "starts", "numbers")]
            if site.his is not None:
                out.append((site, "his", "numbers"))
        out.append((self, "depth", "numbers"))
        return out

    def release(self) -> None:
        """Forget the graph once the launch is over. The runtime's objects refer to one another (the
        generated code holds the sites, the cores hold the runtime), so only the cyclic garbage
        collector frees them, and it may not run for a long while: the host code after a launch
        allocates few objects. At 8192^3 the recording is ~0.9 GB the tutorial's own check would
        otherwise run beside."""
        for site in (*self.reads, *self.writes, *self.computes):
            site.release()
        self.depth = int_column()
        self.keep = []
        return_freed_memory()


class Evaluator:
    """Phase 2, exact mode: compute every recorded value one at a time, in program order."""

    #: read tensors the launch never writes through :meth:`TensorRef.tile_view` (no whole copy) rather
    #: than the tile-ordered copy, whose one-tile reads are cheaper views (the exact mode reads one at a time)
    reads_through_view = False

    def __init__(self, rec: Recorder, device: torch.device | None = None):
        self.rec = rec
        self.device = device or torch.device("cpu")
        for tensor in rec.tensors:
            tensor.device = self.device
        #: where each stored value is (its slab and row), and the slabs by id
        self.slab_of = SlabIndex()
        self.slabs: dict[int, torch.Tensor] = {}
        self.slab_last_use: dict[int, int] = {}
        self._slab_counter = 0
        #: tensors this launch writes (their reads must be copies, never views)
        self.written = {site.tensor for site in rec.writes if site.vids}
        #: written tensors written straight into their storage (:func:`written_in_place`)
        self.written_in_place = written_in_place(rec, self.device)
        self.done = False
        depth = column(rec.depth)
        self._arrays(depth)
        self._plan_frees(depth)
        del depth
        rec.depth = int_column()  # each compute site has its own depths now (reads are all 0)

    # ---------------------------------------------------------------- preparation
    def _arrays(self, depth: np.ndarray) -> None:
        for site in self.rec.reads:
            site.out_a = column(site.out)
            site.starts_a = column(site.starts).reshape(len(site.out), len(site.extents))
            check_slices(site)
            narrow_starts(site)
        narrow = np.int16 if not len(depth) or int(depth.max()) < (1 << 15) else np.int32
        for site in self.rec.computes:
            site.out_a = column(site.out)
            site.leaves_a = column(site.leaves)
            site.leaves_a = site.leaves_a.reshape(len(site.out), len(site.block_leaves))
            # (gathered straight into the narrow type: at 8192^3 a wide copy of step 1's 16.7M depths
            # and its fresh pages cost ~0.1 s)
            site.depth_a = np.take(depth, site.out_a, out=np.empty(len(site.out_a), dtype=narrow))
        for site in self.rec.writes:
            site.at_a = column(site.at)
            site.vids_a = column(site.vids)
            site.starts_a = column(site.starts).reshape(len(site.vids), len(site.extents))
            check_slices(site)
            narrow_starts(site)

    def _plan_frees(self, depth: np.ndarray) -> None:
        """When each value is last needed (``depth``: every value's): here, the last value id any
        consumer of it precedes (an array over all values; the exact mode runs at small sizes)."""
        n = self.rec.next_vid
        self.last_use = np.full(n, -1, dtype=np.int32)
        self.last_use[np.asarray(self.rec.keep, dtype=np.int64)] = n
        for site in self.rec.computes:
            for j, is_block in enumerate(site.block_leaves):
                if is_block:
                    np.maximum.at(self.last_use, site.leaves_a[:, j].astype(np.int64, copy=False), site.out_a)
        for site in self.rec.writes:
            if len(site.vids):
                np.maximum.at(self.last_use, site.vids_a, site.at_a - 1)

    def last_use_of(self, vids: np.ndarray) -> int:
        """The last value id before which any of ``vids`` is consumed (-1: none is)."""
        return int(self.last_use[vids].max()) if len(vids) else -1

    # ---------------------------------------------------------------- evaluation
    def run(self) -> None:
        n = self.rec.next_vid
        windows = [(v, v + 1) for v in range(n)] or [(0, 0)]  # one value each: the reference order
        for i, (a, b) in enumerate(windows):
            last = i == len(windows) - 1
            self.evaluate_window(a, b, writes_upto=None if last else b)
        for tensor in self.rec.tensors:
            tensor.flush()
        self.done = True

    def value(self, vid: int) -> torch.Tensor:
        """One value after the run (only those the recorder kept are still there)."""
        return self.values(np.asarray([vid], dtype=np.int64))[0]

    def evaluate_window(self, a: int, b: int, writes_upto: int | None) -> None:
        for site in self.rec.reads:
            r0, r1 = search_sorted(site.out_a, [a, b])
            if r1 > r0:
                self.gather(site, r0, r1)
        pending = []
        for site in self.rec.computes:
            r0, r1 = search_sorted(site.out_a, [a, b])
            if r1 > r0:
                pending.append((site, r0, r1))
        if pending:
            depths = np.unique(np.concatenate([s.depth_a[r0:r1] for s, r0, r1 in pending]))
            for d in depths.tolist():
                for site, r0, r1 in pending:
                    rows = r0 + np.nonzero(site.depth_a[r0:r1] == d)[0]
                    if len(rows):
                        self.compute(site, rows)
        for site in self.rec.writes:
            lo, hi = search_sorted(site.at_a, [a + 1 if a else 0, (writes_upto if writes_upto is not None else 1 << 62) + 1])
            if hi > lo:
                self.scatter(site, slice(lo, hi))
        self.free(b)

    def store(self, vids: np.ndarray, values: torch.Tensor) -> int:
        """Keep ``values`` (one per value id of ``vids``) as a new slab; returns its id."""
        self._slab_counter += 1
        slab = self._slab_counter
        self.slabs[slab] = values
        self.slab_of.add(slab, vids)
        self.slab_last_use[slab] = self.last_use_of(vids)
        return slab

    def drop(self, slab: int) -> None:
        del self.slabs[slab]
        del self.slab_last_use[slab]
        self.slab_of.remove(slab)

    def free(self, upto: int) -> None:
        for slab in [s for s, last in self.slab_last_use.items() if last < upto]:
            self.drop(slab)

    def values(self, vids: np.ndarray) -> torch.Tensor:
        return self.values_located(vids, *self.slab_of.locate(vids))

    def values_located(self, vids: np.ndarray, slabs: np.ndarray, row_of: np.ndarray) -> torch.Tensor:
        """:meth:`values` of stored ``vids`` whose slabs and rows (``SlabIndex.locate``) are known."""
        first = int(slabs[0])
        if (slabs == first).all():
            slab = self.slabs[first]
            if len(vids) == slab.shape[0] and np.array_equal(row_of, np.arange(len(vids))):
                return slab
            return slab.index_select(0, torch.from_numpy(row_of.astype(np.int64)).to(self.device))
        rows = torch.from_numpy(row_of.astype(np.int64)).to(self.device)
        out = None
        for s in np.unique(slabs).tolist():
            mask = slabs == s
            part = self.slabs[s].index_select(0, rows[torch.from_numpy(mask).to(self.device)])
            if out is None:
                out = torch.empty((len(vids), *part.shape[1:]), dtype=part.dtype, device=self.device)
            out[torch.from_numpy(np.nonzero(mask)[0]).to(self.device)] = part
        return out

    # ---------------------------------------------------------------- node kinds
    def gather(self, site: ReadSite, r0: int, r1: int) -> None:
        self.store(site.out_a[r0:r1], self.read_blocks(site, site.starts_a[r0:r1]))

    def read_blocks(self, site: ReadSite, starts: np.ndarray) -> torch.Tensor:
        """The blocks read at ``starts``, rounded to the block's format, on the evaluation device."""
        tensor = site.tensor
        if site.tiled:
            unwritten = tensor not in self.written
            source = tensor.tile_view() if unwritten and self.reads_through_view else tensor.tiles()
            block = gather_tiles(source, tensor.unit_shape, starts, site.extents, may_alias=unwritten).to(self.device)
        else:
            block = gather_elements(tensor.storage, starts, site.extents).to(self.device)
        return quantize(block.reshape(len(starts), *site.block_elems), site.fmt)

    def compute(self, site: ComputeSite, rows: np.ndarray) -> None:
        self.store(site.out_a[rows], self.computed(site, rows))

    def computed(self, site: ComputeSite, rows: np.ndarray) -> torch.Tensor:
        """Rows ``rows`` of ``site`` evaluated, rounded to the block's format."""
        leaves = self.leaf_values(site, rows)
        if site.audit is not None:
            site.audit(leaves, len(rows), self.device)
        return site.pack(site.evaluate(leaves, len(rows), self.device), site.fmt)

    def leaf_values(self, site: ComputeSite, rows: np.ndarray) -> list[torch.Tensor]:
        """The leaves of rows ``rows`` of ``site``, stacked: blocks in compute precision, scalars ``[N, 1, 1]``."""
        leaves: list[Any] = []
        for j, is_block in enumerate(site.block_leaves):
            col = site.leaves_a[:, j][rows]  # (a column, then its rows: numpy's fast one-index path)
            if is_block:
                leaves.append(to_compute(self.values(col.astype(np.int64))))
            else:
                leaves.append(torch.from_numpy(col).to(self.device, torch.float32).reshape(-1, 1, 1))
        return leaves

    def scatter(self, site: WriteSite, rows: slice | np.ndarray) -> None:
        """Writes ``rows`` of ``site`` (in program order; overlapping ones one by one), converted a
        bounded number of elements at a time (a whole output in fp32 would be its size twice over)."""
        tensor = site.tensor
        rows = np.arange(*rows.indices(len(site.vids_a))) if isinstance(rows, slice) else rows
        starts = take_rows(site.starts_a, rows)
        overlap = has_overlap(starts, site.extents)
        per = max(1, SCATTER_ELEMENTS // (int(np.prod(site.extents)) * (1024 if site.tiled else 1)))
        for i in range(0, len(rows), per):
            values = quantize(to_compute(self.values(site.vids_a[rows[i:i + per]])), tensor.decl.fmt)
            part = starts[i:i + per]
            batches = [(part[j:j + 1], values[j:j + 1]) for j in range(len(part))] if overlap else [(part, values)]
            for at, vals in batches:  # overlapping writes go one by one, in program order
                if site.tiled and tensor in self.written_in_place:
                    scatter_tiles_in_place(tensor.storage, tensor.unit_shape, at, site.extents, vals)
                elif site.tiled:
                    scatter_tiles(tensor.tiles(for_write=True), tensor.unit_shape, at, site.extents, vals)
                else:
                    scatter_elements(tensor.storage, at, site.extents, vals)


class SlabIndex:
    """Where the stored values are: each live slab's value ids, sorted, and their rows in it.

    Why not two arrays over all values (slab and row per value id): at the published sizes there
    are ~50 million values (400 MB as two int32 arrays), of which at most a few levels' worth are
    stored at any time. A lookup searches each live slab (the fast mode holds a few); with many
    (the exact mode stores each value as a slab of one) their ids are merged into one sorted
    array, kept until the next change."""

    #: with more live slabs than this, lookups search one merged array
    MERGE_ABOVE = 8

    def __init__(self) -> None:
        #: per slab: its value ids sorted, and the row of each (None: sorted already)
        self._slabs: dict[int, tuple[np.ndarray, np.ndarray | None]] = {}
        self._merged: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        #: the slabs of one value, by value id (the exact mode's: a dict beats numpy for a few ids)
        self._single: dict[int, int] = {}

    def add(self, slab: int, vids: np.ndarray) -> None:
        vids = np.asarray(vids, dtype=np.int64).reshape(-1)
        if len(vids) > 1 and bool((vids[1:] < vids[:-1]).any()):
            order = np.argsort(vids, kind="stable")
            self._slabs[slab] = (vids[order], order)
        else:
            self._slabs[slab] = (vids, None)
        if len(vids) == 1:
            self._single[int(vids[0])] = slab
        self._merged = None

    def remove(self, slab: int) -> None:
        keys, _ = self._slabs.pop(slab)
        if len(keys) == 1 and self._single.get(int(keys[0])) == slab:
            del self._single[int(keys[0])]
        self._merged = None

    def __getitem__(self, vids: Any) -> Any:
        """The slab of each value id (-1: not stored); an int for one id."""
        if np.ndim(vids) == 0:
            return int(self.locate(np.asarray([vids]))[0][0])
        return self.locate(vids)[0]

    def locate(self, vids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The slab (-1: not stored) and the row of each value id."""
        vids = np.asarray(vids, dtype=np.int64).reshape(-1)
        if len(vids) <= self.MERGE_ABOVE and len(self._single) == len(self._slabs):
            found = [self._single.get(v, -1) for v in vids.tolist()]
            return np.asarray(found, dtype=np.int64), np.zeros(len(vids), dtype=np.int64)
        slabs = np.full(len(vids), -1, dtype=np.int64)
        rows = np.zeros(len(vids), dtype=np.int64)
        if len(self._slabs) > self.MERGE_ABOVE:
            keys, key_slabs, key_rows = self._merged_keys()
            hit, at = find_sorted(keys, vids)
            slabs[hit], rows[hit] = key_slabs[at[hit]], key_rows[at[hit]]
            return slabs, rows
        if self._slabs:  # a chain's next level asks for the newest slab whole, in order: no search
            slab, (keys, order) = next(reversed(self._slabs.items()))
            if order is None and np.array_equal(keys, vids):
                return np.full(len(vids), slab, dtype=np.int64), np.arange(len(vids), dtype=np.int64)
        left = np.arange(len(vids))
        for slab, (keys, order) in reversed(self._slabs.items()):  # the newest first: usually the one asked for
            if not len(left):
                break
            hit, at = find_sorted(keys, vids[left])
            slabs[left[hit]] = slab
            rows[left[hit]] = at[hit] if order is None else order[at[hit]]
            left = left[~hit]
        return slabs, rows

    def _merged_keys(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self._merged is None:
            parts = list(self._slabs.items())
            keys = np.concatenate([k for _, (k, _) in parts])
            key_slabs = np.concatenate([np.full(len(k), s, dtype=np.int64) for s, (k, _) in parts])
            key_rows = np.concatenate([np.arange(len(k)) if o is None else o for _, (k, o) in parts])
            order = np.argsort(keys, kind="stable")
            self._merged = keys[order], key_slabs[order], key_rows[order]
        return self._merged


def take_rows(array: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``array[rows]`` for a 2-D array (a site's starts): ``np.take`` copies whole rows, where numpy's
    fancy indexing goes element by element, ~3x slower (1.4-1.8 ms against 0.5 for a level's 65,536
    rows at 8192^3, several times a level)."""
    return np.take(array, rows, axis=0)


def find_sorted(keys: np.ndarray, vids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which ``vids`` are in the sorted ``keys``, and where."""
    if not len(keys):
        return np.zeros(len(vids), dtype=bool), np.zeros(len(vids), dtype=np.int64)
    at = np.minimum(search_sorted(keys, vids), len(keys) - 1)
    return keys[at] == vids, at


def narrow_starts(site: Any) -> None:
    """A site's checked slice starts in 16 bits where the tensor's shape allows (at 8192^3 the matmul
    tutorial's two read sites hold 67 MB of them that way instead of 134 MB).

    Narrowed in place, front to back into the first half of the recorded column's own buffer, which
    then shrinks: a new array of them cost ~0.25 s of CPU at 8192^3, nearly all of it the kernel
    handing out and zeroing its fresh pages."""
    if not len(site.starts_a) or max(site.tensor.unit_shape) >= (1 << 15):
        return
    shape, entries = site.starts_a.shape, site.starts_a.size
    wide = site.starts_a.reshape(-1)
    narrow = np.frombuffer(site.starts, dtype=np.int16, count=entries)
    for lo in range(0, entries, SCATTER_ELEMENTS):  # each part's bytes are read before any later part's are written
        np.copyto(narrow[lo:lo + SCATTER_ELEMENTS], wide[lo:lo + SCATTER_ELEMENTS], casting="unsafe")
    del wide, narrow
    site.starts_a = None  # (its buffer exported: the column could not shrink)
    del site.starts[(entries + 1) // 2:]
    site.starts_a = np.frombuffer(site.starts, dtype=np.int16, count=entries).reshape(shape)


def narrow_depths(depth: np.ndarray) -> np.ndarray:
    """Depths in 16 bits where they fit (a site can have tens of millions of rows; int16 sorts by radix)."""
    small = not len(depth) or int(depth.max()) < (1 << 15)
    return depth.astype(np.int16 if small else np.int32)


def int_column() -> array:
    """A growing column of integers for phase 1: 4 bytes an entry (a list of ints costs ~36). Value
    ids, tile coordinates and depths fit: a launch with 2^31 values would not fit in memory anyway."""
    return array("i")


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        return ctypes.CDLL(None).malloc_trim  # glibc
    except (AttributeError, OSError, TypeError):  # another C library (or Windows, where CDLL needs a name)
        return None


_MALLOC_TRIM = _malloc_trim()


def return_freed_memory() -> None:
    """Hand the memory freed so far back to the system. glibc keeps freed heap memory for reuse (the
    blocks of a few MB a level allocates come from its heap, not from their own mappings), so after a
    large launch hundreds of MB stayed resident through the host code that follows (at 4096^3 the
    matmul tutorial's resident set after the launch varied between +14 and +230 MB from run to run)."""
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


def forget_arrays(site: Any) -> None:
    """Drop the arrays an evaluator derived from a site's columns (they pin the columns' memory)."""
    for name in [name for name, value in vars(site).items() if isinstance(value, np.ndarray)]:
        delattr(site, name)


def append_entries(col: array, entries: np.ndarray) -> None:
    """Append ``entries`` (of the column's own type) to a recorder column, copied once: straight from
    their buffer, not through a ``bytes`` copy (``array.frombytes`` takes only a buffer of bytes)."""
    col.frombytes(np.ascontiguousarray(entries).reshape(-1).view(np.uint8))


def column(values: array) -> np.ndarray:
    """A recorded column as a numpy array of its own type, without copying it."""
    dtype = np.dtype(values.typecode)
    return np.frombuffer(values, dtype=dtype) if len(values) else np.zeros(0, dtype=dtype)


def search_sorted(haystack: np.ndarray, needles: Any) -> np.ndarray:
    """``np.searchsorted(haystack, needles)`` (left side) with the needles in the haystack's own
    integer type. Given wider needles (int64 arrays, Python ints, lists of them), numpy converts the
    whole haystack to their type first: a copy of a 16.7M-row int32 column on every search, which
    cost most of phase 2 at 8192^3. Needles outside the type's range insert at the ends."""
    keys = np.asarray(needles)
    if keys.dtype == haystack.dtype:
        return np.searchsorted(haystack, keys)
    info = np.iinfo(haystack.dtype)
    at = np.searchsorted(haystack, np.clip(keys, info.min, info.max).astype(haystack.dtype))
    return np.where(keys > info.max, len(haystack), np.where(keys < info.min, 0, at))


def check_slices(site: Any) -> None:
    """Bounds (and, where the compiler could not prove them, extents) of every recorded slice."""
    if not len(site.starts_a):
        return
    shape = np.asarray(site.tensor.unit_shape, dtype=np.int64)
    extents = np.asarray(site.extents, dtype=np.int64)
    units = "tiles" if site.tiled else "elements"
    if site.his is not None:
        his = column(site.his).reshape(site.starts_a.shape)
        for at in range(0, len(his), SCATTER_ELEMENTS):  # in parts: int64 differences of every slice would be large
            bad = np.nonzero(((his[at:at + SCATTER_ELEMENTS] - site.starts_a[at:at + SCATTER_ELEMENTS]) != extents)
                             .any(axis=1))[0]
            if len(bad):
                lo, hi = site.starts_a[at + bad[0]], his[at + bad[0]]
                raise error("E0106", f"tensor slice [{_slice_text(lo, hi)}] has extent {tuple((hi - lo).tolist())} "
                            f"but the block has shape {site.extents} (in {units})", site.span,
                            hint="a slice must cover exactly one block")
    columns = [site.starts_a[:, j] for j in range(len(extents))]  # per column: numpy reduces axis 0 slowly
    if all(int(c.min()) >= 0 and int(c.max()) + e <= n for c, e, n in zip(columns, extents.tolist(), shape.tolist())):
        return  # a few reductions; only a failing site looks for its first bad row
    bad = np.nonzero(((site.starts_a < 0) | (site.starts_a + extents > shape)).any(axis=1))[0]
    lo = site.starts_a[bad[0]]
    raise error("E1107", f"tensor slice [{_slice_text(lo, lo + extents)}] is outside tensor "
                f"'{site.tensor.decl.name}' of shape {tuple(shape.tolist())} (in {units})", site.span,
                hint="check the loop bounds and the per-core offsets of the slice")


def _slice_text(lo: np.ndarray, hi: np.ndarray) -> str:
    return ", ".join(f"{a}:{b}" for a, b in zip(lo.tolist(), hi.tolist()))


def _unit_indices(starts: np.ndarray, extents: tuple[int, ...]) -> list[np.ndarray]:
    """Per-dimension unit indices broadcasting to ``[M, e0, e1, ...]``."""
    n = len(extents)
    out = []
    for d, extent in enumerate(extents):
        shape = [1] * n
        shape[d] = extent
        out.append(starts[:, d].reshape(-1, *([1] * n)) + np.arange(extent).reshape(shape))
    return out


def _flat_tile_index(unit_shape: tuple[int, ...], starts: np.ndarray, extents: tuple[int, ...]) -> torch.Tensor:
    flat = np.ravel_multi_index(tuple(np.broadcast_arrays(*_unit_indices(starts, extents))), unit_shape)
    return torch.from_numpy(np.ascontiguousarray(flat).reshape(-1))


#: [M, e..., 32, 32] -> [M, e_lead..., eR, 32, eC, 32] and back
def _tile_perm(n: int) -> list[int]:
    return [0, *range(1, n - 1), n - 1, n + 1, n, n + 2]


def tile_line(storage: torch.Tensor, starts: np.ndarray, extents: tuple[int, ...]) -> torch.Tensor | None:
    """The 2-D blocks at ``starts`` (tile units) of ``storage`` as :func:`gather_tiles` returns them
    (``[M, rows, cols]``), as a strided view without a gather, when they lie side by side in one block
    column (one start column, start rows one block apart, in order) or one block row; None otherwise.
    A K loop's strip of ``a`` or ``b`` is such a line: torch's two-index gather of it cost ~0.6 ms a
    strip at 4096^3, two strips a level."""
    if storage.dim() != 2 or len(extents) != 2 or not len(starts):
        return None
    (e0, e1), (r0, c0), m = extents, starts[0].tolist(), len(starts)
    if _one_apart(starts[:, 0], e0) and bool((starts[:, 1] == c0).all()):
        return storage[r0 * 32:(r0 + m * e0) * 32, c0 * 32:(c0 + e1) * 32].view(m, e0 * 32, e1 * 32)
    if _one_apart(starts[:, 1], e1) and bool((starts[:, 0] == r0).all()):
        line = storage[r0 * 32:(r0 + e0) * 32, c0 * 32:(c0 + m * e1) * 32]
        return line.view(e0 * 32, m, e1 * 32).transpose(0, 1)
    return None


def _one_apart(starts: np.ndarray, step: int) -> bool:
    """Whether ``starts`` go up by ``step`` from one to the next."""
    return int(starts[-1]) - int(starts[0]) == step * (len(starts) - 1) and bool((np.diff(starts) == step).all())


def gather_tiles(tiles: torch.Tensor, unit_shape: tuple[int, ...], starts: np.ndarray,
                 extents: tuple[int, ...], may_alias: bool = False) -> torch.Tensor:
    """Blocks of tiles starting at ``starts`` (tile units), as ``[M, ..., rows, cols]`` elements, from
    ``tiles``: the tile-ordered copy (``[tiles, 32, 32]``) or a strided tile view
    (:meth:`TensorRef.tile_view`, ``[*unit_shape, 32, 32]``).

    With ``may_alias`` (the tensor is never written by this launch), a batch reading consecutive
    tiles of the copy in order (a row-major sweep, the common case) is a view, not a copy.
    """
    if tiles.dim() == len(unit_shape) + 2:
        got = tiles[tuple(torch.from_numpy(i).to(tiles.device) for i in _unit_indices(starts, extents))]
    else:
        flat = _flat_tile_index(unit_shape, starts, extents)
        count = len(flat)
        if may_alias and count and int(flat[-1]) - int(flat[0]) == count - 1 and bool((flat[1:] > flat[:-1]).all()):
            got = tiles.narrow(0, int(flat[0]), count)
        else:
            got = tiles.index_select(0, flat.to(tiles.device))
    m, n = len(starts), len(extents)
    if all(e == 1 for e in extents):
        return got.reshape(m, *([1] * (n - 2)), 32, 32)
    got = got.reshape(m, *extents, 32, 32).permute(*_tile_perm(n))
    return got.reshape(m, *extents[:-2], extents[-2] * 32, extents[-1] * 32)


def written_in_place(rec: Recorder, device: torch.device) -> set[TensorRef]:
    """The tensors the launch writes but never reads, whose memory no other tensor of the launch shares
    and whose storage is on the evaluation device: their writes may land in their storage as they come
    (:func:`scatter_tiles_in_place`). The others are written into a tile-ordered copy on the device, which
    the launch's reads see and which is written back at the end (:meth:`TensorRef.flush`)."""
    read = {site.tensor for site in rec.reads}
    memory = Counter(tensor.storage.untyped_storage().data_ptr() for tensor in rec.tensors)
    return {site.tensor for site in rec.writes if site.tensor not in read and site.tensor.storage.device == device
            and memory[site.tensor.storage.untyped_storage().data_ptr()] == 1}


def scatter_tiles(tiles: torch.Tensor, unit_shape: tuple[int, ...], starts: np.ndarray,
                  extents: tuple[int, ...], values: torch.Tensor) -> None:
    tiles.index_copy_(0, _flat_tile_index(unit_shape, starts, extents).to(tiles.device),
                      _as_tiles(values, len(starts), extents).to(tiles.dtype))


def scatter_tiles_in_place(storage: torch.Tensor, unit_shape: tuple[int, ...], starts: np.ndarray,
                           extents: tuple[int, ...], values: torch.Tensor) -> None:
    """:func:`scatter_tiles` straight into a tensor's storage, through its strided view as tiles: for a
    tensor the launch writes but never reads, which then needs no tile-ordered copy made and written
    back (at 8192x8192 bfloat16 two transposing copies of 128 MB, ~0.15 s, and the copy's fresh pages)."""
    rows, cols = storage.shape[-2] // 32, storage.shape[-1] // 32
    view = storage.view(-1, rows, 32, cols, 32).transpose(-3, -2)  # [lead, rows, cols, 32, 32]
    flat = _flat_tile_index(unit_shape, starts, extents).to(storage.device)
    view[flat // (rows * cols), flat // cols % rows, flat % cols] = \
        _as_tiles(values, len(starts), extents).to(storage.device, storage.dtype)


def _as_tiles(values: torch.Tensor, m: int, extents: tuple[int, ...]) -> torch.Tensor:
    """``m`` blocks of ``extents`` tiles as ``[tiles, 32, 32]`` in the order of :func:`_flat_tile_index`."""
    blocks = values.reshape(m, *extents[:-2], extents[-2], 32, extents[-1], 32)
    perm = _tile_perm(len(extents))
    return blocks.permute(*[perm.index(i) for i in range(len(perm))]).reshape(-1, 32, 32)


def gather_elements(storage: torch.Tensor, starts: np.ndarray, extents: tuple[int, ...]) -> torch.Tensor:
    """Row-major blocks (element units)."""
    return storage[tuple(torch.from_numpy(i) for i in _unit_indices(starts, extents))]


def scatter_elements(storage: torch.Tensor, starts: np.ndarray, extents: tuple[int, ...], values: torch.Tensor) -> None:
    idx = tuple(torch.from_numpy(i) for i in _unit_indices(starts, extents))
    storage[idx] = values.reshape(len(starts), *extents).to(storage.device, storage.dtype)


def has_overlap(starts: np.ndarray, extents: tuple[int, ...]) -> bool:
    """True when two blocks of one scatter batch cover a common unit (then order matters)."""
    if len(starts) < 2:
        return False
    if all(e == 1 for e in extents):
        return len(np.unique(starts, axis=0)) < len(starts)
    cells = np.stack(np.meshgrid(*[np.arange(e) for e in extents], indexing="ij"), -1).reshape(-1, len(extents))
    covered = (starts[:, None, :] + cells[None, :, :]).reshape(-1, len(extents))
    return len(np.unique(covered, axis=0)) < len(covered)

