"""Pipes: block transfers between cores (unicast, multicast), and pipe nets to iterate them.

A pipe names a source core and either one destination core (unicast) or a core range
(multicast) whose entries are ints or slices, one per grid dimension. Pipes and nets are built in
kernel scope, or outside any operation (at module scope, in a helper) and captured by it: the
front end then numbers them after the kernel-scope pipes (``CaptureEnv.pipe_index``).
``ttl.copy`` to/from a pipe and ``if_pipe_src``/``if_pipe_dst`` are compiled in threads.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Iterable

from . import scope
from ..ir.grid import reshape_sizes
from .intrinsic import intrinsic
from ..diagnostics import Span, error


def _as_coord(value: Any, what: str, span: Span | None) -> tuple[int, ...]:
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,)
    if isinstance(value, (tuple, list)) and value and all(isinstance(v, int) for v in value):
        return tuple(value)
    raise error("E0203", f"{what} must be a core coordinate (a tuple of ints), got {value!r}", span)


def _as_range(value: Any) -> tuple[Any, ...]:
    """A core range: a tuple with an int or a slice per grid dimension (one slice: a 1-D range)."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def _is_range(value: Any) -> bool:
    """A destination given with a slice in some dimension is a core range."""
    return isinstance(value, slice) or (isinstance(value, (tuple, list)) and any(isinstance(d, slice) for d in value))


def _unfold(folded: tuple[int, ...], grid: tuple[int, ...]) -> tuple[int, ...]:
    """The grid coordinate of a node given in ``len(folded)`` dimensions, numbered as
    ``ttl.node(dims=len(folded))`` numbers it: ``(7,)`` on an (8, 8) grid is node 7 of
    ``node(dims=1)``, i.e. (0, 7). The caller has checked ``folded`` against the folded sizes."""
    k = len(folded)
    if k >= len(grid):
        return tuple(folded[:len(grid)])
    tail, flat = [], folded[-1]
    for extent in reversed(grid[k - 1:]):
        flat, index = divmod(flat, extent)
        tail.append(index)
    return tuple(folded[:-1]) + tuple(reversed(tail))


class Pipe:
    """``ttl.Pipe(src_core=, dst_core=)`` / ``dst_core_range=``; 1.1 spelling ``Pipe(src=, dst=)``.

    ``src`` and ``dst`` are the endpoints as written (the published simulator's attributes).
    Coordinates with fewer (or more) entries than the grid has dimensions name nodes as
    ``ttl.node(dims=n)`` numbers them, so ``Pipe((0,), (slice(1, 4),))`` on a 2-D grid goes from
    linear node 0 to linear nodes 1 to 3.
    """

    def __init__(self, src_core: Any = None, dst_core: Any = None, dst_core_range: Any = None, *,
                 src: Any = None, dst: Any = None):
        span = scope.caller_span(2)
        sc = scope.current()
        src_core = src if src_core is None else src_core
        if dst is not None and dst_core is None and dst_core_range is None:
            dst_core = dst
        if dst_core_range is None and _is_range(dst_core):  # Pipe(src, dst) with a slice: a multicast
            dst_core, dst_core_range = None, dst_core
        if src_core is None or (dst_core is None) == (dst_core_range is None):
            raise error("E0203", "a pipe needs src_core and exactly one of dst_core / dst_core_range", span)
        self.src = src_core
        self.dst = dst_core if dst_core_range is None else dst_core_range
        self.src_spec = _as_coord(src_core, "src_core", span)
        self.multicast = dst_core_range is not None
        self.dst_spec = _as_range(dst_core_range) if self.multicast else _as_coord(dst_core, "dst_core", span)
        self.span = span
        #: the creation order in kernel scope; None for a pipe built outside any operation
        self.index: int | None = None
        if sc is not None:
            self.index = len(sc.pipes)
            sc.pipes.append(self)

    def source(self, grid: tuple[int, ...]) -> tuple[int, ...]:
        """The source core, validated against ``grid``."""
        (core,) = self._cores((self.src_spec,), grid, "src")
        return core

    def destinations(self, grid: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        """Every destination core, in row-major order of the range; validated against ``grid``."""
        self.source(grid)
        axes = []
        for entry in self.dst_spec:
            if isinstance(entry, slice):
                start, stop, step = entry.indices(2**31)
                axes.append(range(start, stop, step))
            elif isinstance(entry, int):
                axes.append(range(entry, entry + 1))
            else:
                raise error("E0203", f"core range entries must be ints or slices, got {entry!r}", self.span)
        dsts = self._cores(tuple(itertools.product(*axes)), grid, "dst")
        if not dsts:
            raise error("E0203", "pipe destination range is empty", self.span)
        return dsts

    def _cores(self, coords: tuple[tuple[int, ...], ...], grid: tuple[int, ...], end: str) -> tuple[tuple[int, ...], ...]:
        """Coordinates of ``len(coord)`` dimensions as grid cores (E0203 outside the grid)."""
        cores = []
        for coord in coords:
            sizes = reshape_sizes(grid, len(coord))
            if not all(0 <= c < g for c, g in zip(coord, sizes)):
                where = f"the grid {grid}" if len(coord) == len(grid) else \
                    f"the grid {grid} numbered in {len(coord)} dimension{'s' if len(coord) > 1 else ''} {sizes}"
                raise error("E0203", f"pipe core {tuple(coord)} ({end}) is outside {where}", self.span)
            cores.append(_unfold(tuple(coord), grid))
        return tuple(cores)

    def __repr__(self) -> str:
        arrow = "=>" if self.multicast else "->"
        return f"Pipe({self.src_spec} {arrow} {self.dst_spec})"


class PipeNet:
    """TT-Lang 1.1: a group of pipes with ``if_src(fn)`` / ``if_dst(fn)`` (compiled in threads)."""

    def __init__(self, pipes: Iterable[Pipe]):
        self.pipes = list(pipes)
        self.span = scope.caller_span(2)
        if not self.pipes or not all(isinstance(p, Pipe) for p in self.pipes):
            raise error("E0203", "ttl.PipeNet takes a non-empty list of ttl.Pipe", self.span)

    def is_src(self) -> bool:
        """Whether the current core is the source of a pipe of this net (kernel scope or thread)."""
        sc = scope.require_scope("PipeNet.is_src()")
        return any(p.source(sc.grid) == sc.core for p in self.pipes)

    def is_dst(self) -> bool:
        """Whether the current core is a destination of a pipe of this net."""
        sc = scope.require_scope("PipeNet.is_dst()")
        return any(sc.core in p.destinations(sc.grid) for p in self.pipes)

    def is_active(self) -> bool:
        """Whether the current core takes part in this net (as a source or a destination)."""
        return self.is_src() or self.is_dst()

    def if_src(self, fn: Callable[[Pipe], None]) -> None:
        raise scope.thread_only("PipeNet.if_src()", "a data movement thread")

    def if_dst(self, fn: Callable[[Pipe], None]) -> None:
        raise scope.thread_only("PipeNet.if_dst()", "a data movement thread")


@intrinsic("if_pipe_src", where="a data movement thread")
def if_pipe_src(pipes: Any, fn: Callable[[Pipe], None]) -> None:
    """Call ``fn(pipe)`` for each pipe whose source is the current core."""


@intrinsic("if_pipe_dst", where="a data movement thread")
def if_pipe_dst(pipes: Any, fn: Callable[[Pipe], None]) -> None:
    """Call ``fn(pipe)`` for each pipe whose destination includes the current core."""
