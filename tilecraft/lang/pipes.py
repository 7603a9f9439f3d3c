"""Pipes: block transfers between cores (unicast, multicast), and pipe nets to iterate them.

A pipe names a source core and either one destination core (unicast) or a core range
(multicast) whose entries are ints or slices, one per grid dimension. Pipes are built in kernel
scope; ``ttl.copy`` to/from a pipe and ``if_pipe_src``/``if_pipe_dst`` are compiled in threads.
"""

from __future__ import annotations

import itertools
import math
from typing import Any, Callable, Iterable

from . import scope
from ..ir.grid import all_cores
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


def _unflatten(coord: tuple[int, ...], grid: tuple[int, ...]) -> tuple[int, ...]:
    """A linear core index (TT-Lang 1.1 allows ``Pipe(src=3, dst=0)``) as a grid coordinate,
    numbered as ``ttl.core(dims=1)`` numbers the cores; anything else is returned unchanged."""
    if len(coord) != 1 or len(grid) == 1 or not 0 <= coord[0] < math.prod(grid):
        return coord
    return all_cores(grid)[coord[0]]


def _is_range(value: Any) -> bool:
    """A destination given with a slice in some dimension is a core range."""
    return isinstance(value, slice) or (isinstance(value, (tuple, list)) and any(isinstance(d, slice) for d in value))


class Pipe:
    """``ttl.Pipe(src_core=, dst_core=)`` / ``dst_core_range=``; 1.1 spelling ``Pipe(src=, dst=)``."""

    def __init__(self, src_core: Any = None, dst_core: Any = None, dst_core_range: Any = None, *,
                 src: Any = None, dst: Any = None):
        span = scope.caller_span(2)
        sc = scope.require_scope("ttl.Pipe")
        src_core = src if src_core is None else src_core
        if dst is not None and dst_core is None and dst_core_range is None:
            dst_core = dst
        if dst_core_range is None and _is_range(dst_core):  # Pipe(src, dst) with a slice: a multicast
            dst_core, dst_core_range = None, dst_core
        if src_core is None or (dst_core is None) == (dst_core_range is None):
            raise error("E0203", "a pipe needs src_core and exactly one of dst_core / dst_core_range", span)
        self.src = _unflatten(_as_coord(src_core, "src_core", span), sc.grid)
        self.multicast = dst_core_range is not None
        self.dst_spec = (_as_range(dst_core_range) if self.multicast
                         else _unflatten(_as_coord(dst_core, "dst_core", span), sc.grid))
        self.span = span
        self.index = len(sc.pipes)
        sc.pipes.append(self)

    def destinations(self, grid: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        """Every destination core, in row-major order of the range; validated against ``grid``."""
        if len(self.src) != len(grid) or len(self.dst_spec) != len(grid):
            raise error("E0203", f"pipe coordinates must have {len(grid)} dimensions to match the grid "
                        f"{grid}: src {self.src}, dst {self.dst_spec}", self.span)
        axes = []
        for entry, extent in zip(self.dst_spec, grid):
            if isinstance(entry, slice):
                start, stop, step = entry.indices(extent)
                if entry.stop is not None and entry.stop > extent:
                    stop = entry.stop
                axes.append(range(start, stop, step))
            elif isinstance(entry, int):
                axes.append(range(entry, entry + 1))
            else:
                raise error("E0203", f"core range entries must be ints or slices, got {entry!r}", self.span)
        for coord in (self.src, *itertools.product(*axes)):
            if not all(0 <= c < g for c, g in zip(coord, grid)):
                raise error("E0203", f"pipe core {tuple(coord)} is outside the grid {grid}", self.span)
        dsts = tuple(tuple(c) for c in itertools.product(*axes))
        if not dsts:
            raise error("E0203", "pipe destination range is empty", self.span)
        return dsts

    def __repr__(self) -> str:
        arrow = "=>" if self.multicast else "->"
        return f"Pipe({self.src} {arrow} {self.dst_spec})"


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
        return any(p.src == sc.core for p in self.pipes)

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
