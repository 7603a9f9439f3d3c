"""Shared resources: DRAM banks, NoC links and core ports, each a timeline of when it is free.

Why timelines: a transfer that needs a resource starts when the resource is free and holds it
for ``bytes / bandwidth`` cycles; later requests queue behind it (first come, first served in
simulated-time order, which the scheduler guarantees for every operation that calls in here).
This is a queueing approximation of the real arbitration: it gets the throughput bounds right
(no bank, link or port moves more than its bandwidth) and adds queueing delay when requests
collide, but it does not model packet interleaving within a link.

* DRAM: tensors are interleaved page by page (a tile, or a row of a row-major tensor)
  round-robin over the banks; a read occupies each bank it touches for its bytes there over
  the bank bandwidth (total / banks) and the reading core's ingress port for all its bytes
  over the link width; the data arrive ``dram_latency + hops x hop`` cycles after the last of
  these ends. Writes are symmetric (egress port, then banks, then the acknowledgement).
* NoC: a pipe transfer follows dimension-order routing (X, then Y) from its source to each
  destination; a multicast occupies the union of those routes once (the tree), plus the
  source's egress and every destination's ingress port. It lands ``hops x hop`` cycles after
  its bytes have crossed the links.
"""

from __future__ import annotations

from typing import Any, Iterable

from ..arch.base import Arch
from ..ir.types import TensorDecl


def xy(core: tuple[int, ...]) -> tuple[int, int]:
    """A core's position on the 2-D mesh (grids of other ranks use their first two coordinates)."""
    return (core[0], core[1] if len(core) > 1 else 0)


def hops(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    """Mesh hops between two cores (the X-then-Y route's length)."""
    (x0, y0), (x1, y1) = xy(a), xy(b)
    return abs(x1 - x0) + abs(y1 - y0)


def route(src: tuple[int, int], dst: tuple[int, int]) -> list[tuple[int, int, str]]:
    """Links (x, y, direction) of the X-then-Y route from ``src`` to ``dst``."""
    links = []
    x, y = src
    while x != dst[0]:
        step = 1 if dst[0] > x else -1
        links.append((x, y, "E" if step > 0 else "W"))
        x += step
    while y != dst[1]:
        step = 1 if dst[1] > y else -1
        links.append((x, y, "S" if step > 0 else "N"))
        y += step
    return links


class Resources:
    """Every shared timeline of one program run, and the traffic counters the report reads."""

    def __init__(self, arch: Arch):
        figs = arch.costs
        assert figs is not None
        self.figs = figs
        self.nbanks = figs.dram_banks
        #: cycles per byte of one bank, and of one NoC link
        self.bank_cpb = figs.dram_banks * arch.clock_hz / figs.dram_bytes_per_s
        self.link_cpb = 1.0 / figs.noc_link_bytes_per_cycle
        # DRAM controllers sit at the edges of the chip's mesh: on average half its extent away
        w, h = arch.compute_grid
        self.dram_hops = (w + h) // 2
        self.dram_latency = figs.dram_latency_cycles + self.dram_hops * figs.noc_hop_cycles
        self.bank_free = [0.0] * self.nbanks
        self.bank_busy = [0.0] * self.nbanks
        #: link or port key -> cycle it is free again / cycles it was busy
        self.free: dict[Any, float] = {}
        self.busy: dict[Any, float] = {}
        self.dram_read_bytes = 0
        self.dram_write_bytes = 0
        self.noc_bytes = 0
        #: when the bytes of the latest transfer had left their source (for writes-flushed waits)
        self.last_sent = 0.0
        self._holds: dict[tuple, tuple[tuple[tuple[int, float], ...], float, float]] = {}

    # ---------------------------------------------------------------- DRAM
    def dram(self, decl: TensorDecl, lo: tuple[int, ...], ext: tuple[int, ...], t: float, port: Any,
             write: bool) -> float:
        """Cycle at which a read has landed (or a write is acknowledged), issued at ``t``. The
        (bank, bytes) a slice touches are cached: the same slices recur on many cores."""
        key = (decl.index, lo, ext)
        holds = self._holds.get(key)
        if holds is None:
            holds = self._holds[key] = self.page_holds(_bank_bytes(decl, lo, ext, self.nbanks))
        return self._dram_holds(holds, t, port, write)

    def dram_pages(self, pages: Iterable[tuple[int, float]], t: float, port: Any, write: bool) -> float:
        """``dram`` for (bank, bytes) pairs given directly (the kernel-level model knows the banks)."""
        return self._dram_holds(self.page_holds(pages), t, port, write)

    def page_holds(self, pages: Iterable[tuple[int, float]]) -> tuple[tuple[tuple[int, float], ...], float, float]:
        """(bank, cycles it is held) per page group, the bytes in all and the cycles they hold the
        core's port: what a transfer of these pages costs, computed once per slice (the same slices
        recur on every core and in every loop iteration)."""
        total = 0.0
        holds = []
        for bank, nbytes in pages:
            total += nbytes
            holds.append((bank, nbytes * self.bank_cpb))
        return tuple(holds), total, total * self.link_cpb

    def _dram_holds(self, holds: tuple[tuple[tuple[int, float], ...], float, float], t: float, port: Any,
                    write: bool) -> float:
        bank_free, bank_busy = self.bank_free, self.bank_busy
        banks, total, port_hold = holds
        done = t
        for bank, hold in banks:
            start = bank_free[bank]
            if start < t:
                start = t
            end = bank_free[bank] = start + hold
            bank_busy[bank] += hold
            if end > done:
                done = end
        end = self._hold(port, t, port_hold)
        self.last_sent = end  # the bytes have left the core (what a flush waits for)
        if write:
            self.dram_write_bytes += total
        else:
            self.dram_read_bytes += total
        return (end if end > done else done) + self.dram_latency

    def _hold(self, key: Any, t: float, hold: float) -> float:
        start = self.free.get(key, 0.0)
        if start < t:
            start = t
        end = self.free[key] = start + hold
        self.busy[key] = self.busy.get(key, 0.0) + hold
        return end

    # ---------------------------------------------------------------- NoC
    def noc_transfer(self, links: Iterable[Any], hops: int, nbytes: int, t: float) -> float:
        """Cycle at which ``nbytes`` sent at ``t`` over ``links`` (held together) have landed."""
        links = tuple(links)
        free = self.free
        start = t
        for key in links:
            f = free.get(key, 0.0)
            if f > start:
                start = f
        hold = nbytes * self.link_cpb
        for key in links:
            free[key] = start + hold
            self.busy[key] = self.busy.get(key, 0.0) + hold
        self.noc_bytes += nbytes
        self.last_sent = start + hold
        return start + hold + hops * self.figs.noc_hop_cycles

    def pipe_links(self, src: tuple[int, ...], dsts: Iterable[tuple[int, ...]], noc: int) -> tuple[tuple, int]:
        """The links (and ports) a pipe holds and its longest route in hops."""
        s = xy(src)
        tree: dict[tuple, None] = {("out", s, noc): None}
        hops = 0
        for dst in dsts:
            d = xy(dst)
            path = route(s, d)
            hops = max(hops, len(path))
            for link in path:
                tree[(noc, *link)] = None
            tree[("in", d, noc)] = None
        return tuple(tree), hops

    def max_link_utilisation(self, cycles: float) -> tuple[float, Any]:
        """The busiest NoC link (ports excluded, they are the DRAM path too) and its busy share."""
        links = [(busy, key) for key, busy in self.busy.items() if key[0] not in ("in", "out")]
        if not links or cycles <= 0:
            return 0.0, None
        busy, key = max(links, key=lambda item: item[0])
        return busy / cycles, key

    def max_port_utilisation(self, cycles: float) -> tuple[float, Any]:
        ports = [(busy, key) for key, busy in self.busy.items() if key[0] in ("in", "out")]
        if not ports or cycles <= 0:
            return 0.0, None
        busy, key = max(ports, key=lambda item: item[0])
        return busy / cycles, key


def page_strides(decl: TensorDecl) -> tuple[int, ...]:
    """Pages are tiles (tile layout) or rows (row-major), numbered row-major: the page number of a
    slice start is the dot product of its last dimensions with these strides (one per dimension
    that numbers pages: all of a tiled tensor's, all but the last of a row-major one's)."""
    shape = decl.unit_shape
    page_dims = len(shape) if decl.unit.tiled else len(shape) - 1
    strides = [1] * page_dims
    for d in range(page_dims - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    return tuple(strides)


def _bank_bytes(decl: TensorDecl, lo: tuple[int, ...], ext: tuple[int, ...], nbanks: int) -> tuple[tuple[int, float], ...]:
    """The bytes a slice puts on each bank: bank = page % banks (:func:`page_strides`)."""
    rank = len(decl.unit_shape)
    lo = tuple(lo)[-rank:]
    ext = tuple(ext)[-rank:]
    if decl.unit.tiled:
        run, page_bytes, first = ext[-1], decl.fmt.tile_bytes, lo[-1]
    else:
        run, page_bytes, first = 1, decl.fmt.bytes_for(ext[-1]), 0
    strides = page_strides(decl)
    lead = len(strides) - 1 if decl.unit.tiled else len(strides)
    counts = [0] * nbanks
    bases = [first]
    for d in range(lead):
        bases = [b + (lo[d] + i) * strides[d] for b in bases for i in range(ext[d])]
    full, rem = divmod(run, nbanks)
    for base in bases:
        if full:
            for bank in range(nbanks):
                counts[bank] += full
        start = base % nbanks
        for j in range(rem):
            counts[(start + j) % nbanks] += 1
    return tuple((bank, float(c * page_bytes)) for bank, c in enumerate(counts) if c)
