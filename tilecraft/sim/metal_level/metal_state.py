"""Device state at the TT-Metalium level: page-granular circular buffers in an L1 address map,
the DST register file, and the NoC/semaphore address tokens kernels pass around.

Values are ids in the same dataflow graph as the language level (:mod:`tilecraft.sim.dataflow.graph`), so both
levels are evaluated by one engine and can be compared bit for bit.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from ...diagnostics import error
from ..language.state import Waitable

#: where the first circular buffer starts in the simulated L1 (any base works: addresses are
#: only ever compared with buffer bases)
L1_BASE = 0x20000
ZERO = -2  # a DST tile holding zeros (after release)


class PageCB(Waitable):
    """A circular buffer as Metalium sees it: ``pages`` pages, producer and consumer counters."""

    __slots__ = ("spec", "pages", "page_bytes", "base", "vids", "pushed", "popped", "core", "span_of", "pieces")

    def __init__(self, spec: Any, base: int, core: tuple[int, ...], ready_queue: deque, span_of: Any):
        super().__init__(ready_queue)
        self.spec = spec
        self.pages = spec.pages
        self.page_bytes = spec.page_bytes
        self.base = base
        self.vids = [-1] * spec.pages
        self.pushed = 0
        self.popped = 0
        self.core = core
        self.span_of = span_of
        #: row-major pages are written a row at a time: (page, byte offset) -> value id of the row
        self.pieces: dict[tuple[int, int], int] = {}

    @property
    def end(self) -> int:
        return self.base + self.pages * self.page_bytes

    def free(self) -> int:
        return self.pages - (self.pushed - self.popped)

    def available(self) -> int:
        return self.pushed - self.popped

    def push(self, n: int) -> None:
        self.pushed += n
        self.wake()

    def pop(self, n: int, op: int) -> None:
        if n > self.available():
            raise error("E4101", f"cb_pop_front({self.spec.index}, {n}) pops pages that were never pushed "
                        f"(core {self.core})", self.span_of(op))
        self.popped += n
        self.wake()

    def write_ptr(self) -> int:
        return self.base + (self.pushed % self.pages) * self.page_bytes

    def read_ptr(self) -> int:
        return self.base + (self.popped % self.pages) * self.page_bytes

    def front(self, index: int, op: int) -> int:
        """Value id of page ``index`` after the read pointer (must have been waited for)."""
        if index >= self.available():
            raise error("E4102", f"tile {index} of buffer {self.spec.index} read but only {self.available()} "
                        f"page(s) are at its front (core {self.core})", self.span_of(op))
        vid = self.vids[(self.popped + index) % self.pages]
        if vid < 0:
            raise error("E4103", f"tile {index} of buffer {self.spec.index} read before it was written "
                        f"(core {self.core})", self.span_of(op))
        return vid

    def set_back(self, index: int, vid: int) -> None:
        self.vids[(self.pushed + index) % self.pages] = vid

    def view(self, spec: Any) -> "PageCB":
        """Another buffer index on these pages (``spec.shares``, metal/dst_view.py): what is written
        through either is read through both, and each keeps its own counters."""
        other = PageCB(spec, self.base, self.core, self.ready_queue, self.span_of)
        other.vids, other.pieces = self.vids, self.pieces
        return other


class L1:
    """One core's L1: circular buffers laid out one after another from :data:`L1_BASE`."""

    def __init__(self, cbs: list[PageCB]):
        self.cbs = cbs

    def locate_bytes(self, addr: int, op: int, span_of: Any) -> tuple[PageCB, int, int]:
        """The buffer, page and byte offset in the page of an L1 address."""
        for cb in self.cbs:
            if cb.base <= addr < cb.end:
                page, offset = divmod(addr - cb.base, cb.page_bytes)
                return cb, page, offset
        raise error("E4104", f"L1 address {addr:#x} is not inside any circular buffer", span_of(op))

    def locate(self, addr: int, op: int, span_of: Any) -> tuple[PageCB, int]:
        for cb in self.cbs:
            if cb.base <= addr < cb.end:
                offset = addr - cb.base
                if offset % cb.page_bytes:
                    break
                return cb, offset // cb.page_bytes
        raise error("E4104", f"L1 address {addr:#x} is not the start of a page of any circular buffer",
                    span_of(op))


class SemToken:
    """``get_semaphore(id)`` (local) or a NoC address of a semaphore on one or more cores."""

    __slots__ = ("index", "cores")

    def __init__(self, index: int, cores: tuple[tuple[int, ...], ...] = ()):
        self.index = index
        self.cores = cores


class SemRT(Waitable):
    __slots__ = ("value",)

    def __init__(self, initial: int, ready_queue: deque):
        super().__init__(ready_queue)
        self.value = initial

    def set(self, value: int) -> None:
        self.value = value & 0xFFFFFFFF
        self.wake()
