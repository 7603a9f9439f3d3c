"""The kernel-level cost model: replay each RISC's kernel API calls with cycle costs.

Input is what a kernel-level program did, call by call (:class:`tilecraft.emu.trace.KernelTrace`:
the emulator records it for any C++ program, hand-written or emitted). The replay uses the
language-level model's parts unchanged: the event loop (:class:`.timed_state.Clock`, the thread
with the smallest clock runs next and yields before claiming a shared resource while another
thread is behind it), the shared timelines of DRAM banks, NoC links and core ports
(:class:`.network.Resources`), and the same blocking rules, in pages instead of blocks:

* a circular buffer records the cycle each page was pushed and popped, so ``cb_reserve_back(n)``
  completes when the page ``capacity`` places back was popped and ``cb_wait_front(n)`` when the
  n-th waited page was pushed: times fixed by the program's order of operations;
* a semaphore wait completes when the write that released it in the emulator (the trace names it)
  has arrived (``hops x hop`` after a remote write was issued);
* NoC reads and writes complete at their bank/link timeline's end plus latency; barriers wait for
  the outstanding ones of their RISC.

The compute RISC is three stages (unpack, math, pack) with a clock each, as the three TRISCs run
concurrently on the device: an operation's math starts when its operands are unpacked (and the
unpacker runs at most one unpacking operation ahead, the source registers being double-buffered;
SFPU and configuration calls between them do not hold it back), ``pack_tile``
runs after ``tile_regs_wait`` saw the section committed, and ``tile_regs_acquire`` waits for the DST
half the packer released two sections back (one with ``dst_full_sync_en``). ``cb_wait_front`` and
``cb_pop_front`` are the unpacker's, ``cb_reserve_back`` and ``cb_push_back`` the packer's. Cycles are
charged to the call's source line as the advance of the thread's latest stage, so a line's cycles
add up to the thread's time.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Iterator

import numpy as np

from ..arch.base import Arch
from ..diagnostics import Span
from ..emu import trace as tr
from ..emu.codes import Ev
from ..emu.program_spec import TRISC, ProgramSpec
from ..ir.grid import all_cores
from ..ir.program_ir import COMPUTE, DATAMOVEMENT
from ..metal import kir
from ..sim.metal_level.metal_trace import SLOTS
from .event_loop import ThreadTimes, run_threads
from .kernel_costs import CallCosts
from .network import Resources, xy
from .timed_state import Clock, Waitable

#: the emulator's trace slot -> the kernel processor it runs
PROCESSORS = {slot: processor for processor, slot in SLOTS.items()}
#: barrier kinds that wait for reads, for write acknowledgements, for written data to leave L1
_READ_BARRIERS = {0, 5}
_WRITE_BARRIERS = {1, 4, 5}
_FLUSHES = {2, 3}


@dataclass(frozen=True)
class CallSite:
    """One call at one kernel source line: what the line table and the trace name."""

    name: str
    loc: Span


class PageRing(Waitable):
    """A circular buffer of ``capacity`` pages with the push and pop cycle of each page."""

    __slots__ = ("capacity", "pushed", "popped", "push_t", "pop_t")

    def __init__(self, clock: Clock, capacity: int):
        super().__init__(clock)
        self.capacity = max(1, capacity)
        self.pushed = self.popped = 0
        self.push_t = [0.0] * self.capacity
        self.pop_t = [0.0] * self.capacity

    def reservable(self, n: int) -> bool:
        return self.pushed + n - self.popped <= self.capacity

    def reserve_time(self, n: int) -> float:
        """When page ``pushed + n - 1`` is free: the pop of the page ``capacity`` places back."""
        last = self.pushed + n - 1 - self.capacity
        return self.pop_t[last % self.capacity] if last >= 0 else 0.0

    def available(self, n: int) -> bool:
        return self.pushed - self.popped >= n

    def wait_time(self, n: int) -> float:
        return self.push_t[(self.popped + n - 1) % self.capacity]

    def push(self, n: int, t: float) -> None:
        for i in range(self.pushed, self.pushed + n):
            self.push_t[i % self.capacity] = t
        self.pushed += n
        self.wake()

    def pop(self, n: int, t: float) -> None:
        for i in range(self.popped, self.popped + n):
            self.pop_t[i % self.capacity] = t
        self.popped += n
        self.wake()


@dataclass
class KernelLayout:
    """What the replay needs of a program besides its calls: every circular buffer's pages per core,
    and the compute configuration (fidelity as tt-metal's MathFidelity value, fp32 accumulation,
    full-sync DST per core)."""

    pages: dict[tuple[tuple[int, int], int], int]
    fidelity_value: int = 4
    fp32_acc: bool = False
    full_sync: dict[tuple[int, int], bool] = field(default_factory=dict)
    #: buffer names by CB index, where the program has them (stall labels)
    names: dict[int, str] = field(default_factory=dict)

    @classmethod
    def of_spec(cls, program: ProgramSpec) -> "KernelLayout":
        """A program the emulator ran (``generic_op``, PyKernel, emitted C++)."""
        pages = {(core, f.index): cb.total_size // max(1, f.page_size)
                 for cb in program.cbs for f in cb.formats for core in cb.cores}
        compute = [k for k in program.kernels if k.compute is not None]
        first = compute[0].compute if compute else None
        return cls(pages, first.math_fidelity if first else 4, bool(first and first.fp32_dest_acc),
                   {core: k.compute.dst_full_sync for k in compute for core in k.cores})

    @classmethod
    def of_metal(cls, program: kir.MetalProgram) -> "KernelLayout":
        """A lowered program (``--level metal``): every buffer on every core of its grid."""
        cores = [xy(core) for core in all_cores(program.grid)]
        pages = {(core, cb.index): cb.pages for cb in program.cbs for core in cores}
        fidelity = {"LoFi": 0, "HiFi2": 2, "HiFi3": 3, "HiFi4": 4}.get(program.math_fidelity, 4)
        return cls(pages, fidelity, program.fp32_dest_acc_en, names={cb.index: cb.name for cb in program.cbs})


class KernelRun:
    """One traced program on one architecture: replay every RISC, keep every thread's times.

    It offers what :func:`.result.summarise`, :func:`.report.format_estimate` and
    :func:`.trace.trace_events` read from a language-level :class:`.engine.TimingRun`.
    """

    def __init__(self, layout: KernelLayout, trace: tr.KernelTrace, arch: Arch, name: str, keep_slices: bool):
        if arch.costs is None:
            raise ValueError(f"architecture {arch.name!r} has no cost figures")
        self.arch = arch
        self.figs = arch.costs
        self.trace = keep_slices
        self.kernel_trace = trace
        self.program = SimpleNamespace(name=name, cbs=[])
        self.clock = Clock()
        self.res = Resources(arch)
        self.occupancy: dict[tuple, list] = {}
        self.stall_labels: dict[int, str] = {}
        self.ops: list[CallSite] = []
        self._site_ids: dict[tuple[int, int, int], int] = {}
        self.flops_total = 0
        self.fidelity_value = layout.fidelity_value
        self.phases = max(1, self.fidelity_value)
        self.fp32_acc = layout.fp32_acc
        self.costs = CallCosts(self.figs, self.phases)
        self.full_sync = layout.full_sync
        self.rings = {key: PageRing(self.clock, pages) for key, pages in layout.pages.items()}
        self.cb_names = {i: f"'{name}' (CB {i})" for i, name in layout.names.items()}
        #: semaphore write event -> arrival cycle per destination core; waiters per event
        self.arrivals: dict[int, dict[tuple[int, int], float]] = {}
        self.sem_waits: dict[int, Waitable] = {}
        self.threads: list[ThreadTimes] = []
        self.cores: dict[tuple[int, int], None] = {}
        self._prepare()

    @property
    def flops(self) -> int:
        return self.flops_total

    # ---------------------------------------------------------------- setup
    def _site(self, file_id: int, line: int, kind: int) -> int:
        key = (file_id, line, kind)
        found = self._site_ids.get(key)
        if found is None:
            found = self._site_ids[key] = len(self.ops)
            self.ops.append(CallSite(tr.KIND_NAMES.get(kind, "call"), Span(self.kernel_trace.files[file_id], line)))
        return found

    def _prepare(self) -> None:
        ev = self.kernel_trace.events
        keys = ev["core"].astype(np.int64) * 4 + ev["slot"]
        order = np.argsort(keys, kind="stable")
        sites = [self._site(int(f), int(line), int(k)) for f, line, k in zip(ev["file"], ev["line"], ev["kind"])]
        rows = list(zip(range(len(ev)), ev["kind"].tolist(), sites, ev["a"].tolist(), ev["b"].tolist(),
                        ev["c"].tolist(), ev["d"].tolist(), ev["ref"].tolist()))
        sorted_keys = keys[order]
        bounds = np.flatnonzero(np.diff(sorted_keys)) + 1
        groups = np.split(order, bounds) if len(order) else []
        for idx in sorted(groups, key=lambda g: int(keys[g[0]])):
            first = int(idx[0])
            core = self.kernel_trace.core(int(ev["core"][first]))
            slot = int(ev["slot"][first])
            self.cores[core] = None
            processor = PROCESSORS[slot]
            kind = COMPUTE if processor.is_compute else DATAMOVEMENT
            name = os.path.basename(self.kernel_trace.kernels.get((int(ev["core"][first]), slot), processor.value))
            times = ThreadTimes(core, name, kind, [], [], [] if self.trace else None)  # sized below
            calls = [rows[i] for i in idx.tolist()]
            times.gen = (self._compute(times, calls) if slot == TRISC else self._movement(times, calls))
            self.threads.append(times)
        n = len(self.ops)
        for times in self.threads:
            times.busy = [0.0] * n
            times.stall = [0.0] * n

    # ---------------------------------------------------------------- running
    def run(self, stop_after: float = float("inf")) -> None:
        for times in self.threads:
            self.clock.ready(times, 0.0)
        run_threads(self.clock, self.threads, stop_after,
                    "the trace does not replay (a wait released by a plain L1 write, not an API call?)")

    def _stall(self, th: ThreadTimes, site: int, t: float, ready: float, label: str) -> float:
        """``max(t, ready)``, the difference charged to ``site`` as a stall on ``label``."""
        if ready <= t:
            return t
        self.stall_labels[site] = label
        th.stall[site] += ready - t
        if th.events is not None:
            th.events.append((~site, t, ready))
        return ready

    def _sem_event(self, ref: int) -> Waitable:
        found = self.sem_waits.get(ref)
        if found is None:
            found = self.sem_waits[ref] = Waitable(self.clock)
        return found

    def _arrive(self, gid: int, arrivals: dict[tuple[int, int], float]) -> None:
        self.arrivals[gid] = arrivals
        waiting = self.sem_waits.get(gid)
        if waiting is not None:
            waiting.wake()

    def _rect(self, packed: int) -> list[tuple[int, int]]:
        x0, y0, x1, y1 = packed & 0xFF, (packed >> 8) & 0xFF, (packed >> 16) & 0xFF, (packed >> 24) & 0xFF
        return [(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)]

    def _hops(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        return abs(a[0] - b[0]) + abs(a[1] - b[1])

    # ---------------------------------------------------------------- data-movement RISCs
    def _movement(self, th: ThreadTimes, calls: list[tuple]) -> Iterator[tuple[float, Any]]:
        figs, res, heap, core = self.figs, self.res, self.clock.heap, th.core
        busy, slices = th.busy, th.events
        hop = figs.noc_hop_cycles
        here = xy(core)
        t = 0.0
        reads = writes = sent = 0.0
        for gid, kind, site, a, b, c, d, ref in calls:
            if kind == Ev.CB_RESERVE or kind == Ev.CB_WAIT:
                ring = self.rings.get((core, a))
                if ring is not None:
                    if kind == Ev.CB_RESERVE:
                        while not ring.reservable(b):
                            yield t, ring
                        ready = ring.reserve_time(b)
                        label = f"space in {self.cb_names.get(a, f'CB {a}')}"
                    else:
                        while not ring.available(b):
                            yield t, ring
                        ready = ring.wait_time(b)
                        label = f"data in {self.cb_names.get(a, f'CB {a}')}"
                    t = self._stall(th, site, t, ready, label)
                cost = figs.cb_call_cycles
            elif kind == Ev.CB_PUSH or kind == Ev.CB_POP:
                cost = figs.cb_call_cycles
                ring = self.rings.get((core, a))
                if ring is not None:
                    (ring.push if kind == Ev.CB_PUSH else ring.pop)(b, t + cost)
            elif kind in (Ev.NOC_READ, Ev.NOC_WRITE, Ev.NOC_MCAST):
                if heap and heap[0][0] < t:
                    yield t, None  # claim the shared timelines in simulated-time order
                noc = d & 1
                if kind == Ev.NOC_MCAST:
                    dsts = [dst for dst in self._rect(c) if dst != core] or [core]
                    links, hops = res.pipe_links(core, dsts, noc)
                    done = res.noc_transfer(links, hops, a, t)
                elif b == 1:  # a DRAM bank
                    port = ("in" if kind == Ev.NOC_READ else "out", here, noc)
                    done = res.dram_pages(((c % res.nbanks, float(a)),), t, port, kind == Ev.NOC_WRITE)
                else:  # another core's L1 (or this one's)
                    other = self.kernel_trace.core(c)
                    src, dst = (other, core) if kind == Ev.NOC_READ else (core, other)
                    links, hops = res.pipe_links(src, [dst], noc)
                    done = res.noc_transfer(links, hops, a, t)
                    if kind == Ev.NOC_READ:
                        done += hops * hop  # the request travels there first
                if kind == Ev.NOC_READ:
                    reads = max(reads, done)
                else:
                    writes = max(writes, done)
                    sent = max(sent, res.last_sent)
                cost = figs.noc_issue_cycles
            elif kind == Ev.NOC_BARRIER:
                if a in _FLUSHES:  # the data have left this core's L1; the acknowledgements may still come
                    ready, label = sent, "NoC writes leaving L1"
                else:
                    ready = max(reads if a in _READ_BARRIERS else 0.0, writes if a in _WRITE_BARRIERS else 0.0)
                    label = "NoC reads" if a == 0 else "NoC writes" if a != 5 else "NoC transfers"
                t = self._stall(th, site, t, ready, label)
                cost = figs.cb_call_cycles
            elif kind == Ev.SEM_WAIT:
                if ref >= 0:
                    while ref not in self.arrivals:
                        yield t, self._sem_event(ref)
                    t = self._stall(th, site, t, self.arrivals[ref].get(core, t), "a semaphore")
                cost = figs.cb_call_cycles
            elif kind == Ev.SEM_SET:
                cost = figs.cb_call_cycles
                self._arrive(gid, {core: t + cost})
            elif kind == Ev.SEM_REMOTE or kind == Ev.SEM_MCAST:
                if heap and heap[0][0] < t:
                    yield t, None
                cost = figs.noc_issue_cycles
                targets = [self.kernel_trace.core(a)] if kind == Ev.SEM_REMOTE else self._rect(c)
                self._arrive(gid, {dst: t + cost + self._hops(core, dst) * hop for dst in targets})
            else:  # polls and anything a data-movement RISC calls that costs only the call
                cost = figs.scalar_op_cycles
            busy[site] += cost
            t += cost
            if slices is not None:
                slices.append((site, t - cost, t))
        return t

    # ---------------------------------------------------------------- the compute RISC (three stages)
    def _compute(self, th: ThreadTimes, calls: list[tuple]) -> Iterator[tuple[float, Any]]:
        figs, core = self.figs, th.core
        busy, stall, slices = th.busy, th.stall, th.events
        costs = self.costs
        sections = 1 if self.full_sync.get(core, False) else 2
        u = m = p = 0.0
        # when the math of the previous operation that unpacked began: the source registers are
        # double-buffered, so the unpacker fills one bank while that operation reads the other; SFPU and
        # configuration calls read no source register and do not hold the unpacker back
        math_started = 0.0
        commits: list[float] = []
        releases: list[float] = []
        acquires = waits = 0
        cache: dict[tuple, Any] = {}
        for gid, kind, site, a, b, c, d, ref in calls:
            front = max(u, m, p)
            waited = 0.0
            label = ""
            if kind == Ev.CB_WAIT or kind == Ev.CB_RESERVE:
                ring = self.rings.get((core, a))
                if ring is not None:
                    if kind == Ev.CB_WAIT:
                        while not ring.available(b):
                            yield u, ring
                        ready, label = ring.wait_time(b), f"data in {self.cb_names.get(a, f'CB {a}')}"
                        if ready > u:
                            waited, u = ready - u, ready
                        u += figs.cb_call_cycles
                    else:
                        while not ring.reservable(b):
                            yield p, ring
                        ready, label = ring.reserve_time(b), f"space in {self.cb_names.get(a, f'CB {a}')}"
                        if ready > p:
                            waited, p = ready - p, ready
                        p += figs.cb_call_cycles
            elif kind == Ev.CB_POP:
                u += figs.cb_call_cycles
                ring = self.rings.get((core, a))
                if ring is not None:
                    ring.pop(b, u)
            elif kind == Ev.CB_PUSH:
                p += figs.cb_call_cycles
                ring = self.rings.get((core, a))
                if ring is not None:
                    ring.push(b, p)
            elif kind == Ev.ACQUIRE:
                if acquires >= sections and releases[acquires - sections] > m:
                    ready, label = releases[acquires - sections], "DST released by the packer"
                    waited, m = ready - m, ready
                acquires += 1
            elif kind == Ev.COMMIT:
                commits.append(m)
            elif kind == Ev.REGS_WAIT:
                ready = commits[waits] if waits < len(commits) else m
                waits += 1
                if ready > p:
                    waited, p, label = ready - p, ready, "DST committed by math"
            elif kind == Ev.RELEASE:
                releases.append(p)
            else:
                key = (kind, a, b, c, d)
                cost = cache.get(key)
                if cost is None:
                    cost = cache[key] = costs.compute(kind, a, b, c, d)
                self.flops_total += cost.flops
                if cost.unpack:
                    start = max(u, math_started)
                    u = start + cost.unpack
                    m = max(m, u)
                    math_started = m
                if cost.math:
                    m += cost.math
                if cost.pack:
                    p = max(p, m if kind != Ev.PACK else p) + cost.pack
            after = max(u, m, p)
            advance = after - front
            if advance > 0:
                if waited:
                    stalled = min(waited, advance)
                    self.stall_labels[site] = label
                    stall[site] += stalled
                    busy[site] += advance - stalled
                else:
                    busy[site] += advance
                if slices is not None:
                    slices.append((site, front, after))
        return max(u, m, p)
