"""Circular (dataflow) buffers: created in kernel scope, acquired and released in threads.

A buffer is "like" a tensor: it takes the tensor's data format and shape unit (a 32x32 tile for
tile layout, a scalar for row-major). ``shape`` is the block shape in those units;
``buffer_factor`` (TT-Lang 1.1: ``block_count``) blocks are allocated in each core's L1.
"""

from __future__ import annotations

from typing import Any

from . import scope
from ..diagnostics import error, type_name
from ..dtypes import DataFormat


def is_tile_layout(tensor: Any) -> bool:
    layout = getattr(tensor, "layout", None)
    return getattr(layout, "name", str(layout)).upper().endswith("TILE")


class CircularBuffer:
    """A per-core L1 buffer of ``buffer_factor`` blocks; methods are usable only in threads."""

    #: a TT-Lang 1.1 dataflow buffer: a block a thread acquires and does not release is released
    #: for it at its next acquisition and when it finishes (frontend/auto_release.py)
    releases_held_blocks = False

    def __init__(self, likeness: Any, shape: tuple[int, ...], buffer_factor: int, name: str):
        span = scope.caller_span(3)
        sc = scope.require_scope("ttl.make_circular_buffer_like")
        fmt = getattr(likeness, "dtype", None)
        if not isinstance(fmt, DataFormat):
            raise error("E0202", "a circular buffer must be made like a ttnn tensor "
                        f"(got {type_name(likeness)})", span,
                        hint="pass one of the kernel's tensor arguments")
        if isinstance(shape, int):
            shape = (shape,)
        if (not isinstance(shape, (tuple, list)) or not shape
                or not all(isinstance(s, int) and s > 0 for s in shape)):
            raise error("E0202", f"buffer shape must be a tuple of positive integers, got {shape!r}", span)
        if not isinstance(buffer_factor, int) or buffer_factor < 1:
            raise error("E0202", f"buffer_factor must be a positive integer, got {buffer_factor!r}", span)
        self.likeness = likeness
        self.fmt = fmt
        self.tiled = is_tile_layout(likeness)
        self.shape = tuple(shape)
        self.buffer_factor = buffer_factor
        self.name = name
        self.span = span
        self.index = len(sc.buffers)
        sc.buffers.append(self)

    # The acquisition/release functions are compiled by the front end inside threads.
    def reserve(self) -> Any:
        raise scope.thread_only("reserve()")

    def wait(self) -> Any:
        raise scope.thread_only("wait()")

    def push(self) -> None:
        raise scope.thread_only("push()")

    def pop(self) -> None:
        raise scope.thread_only("pop()")

    def __repr__(self) -> str:
        return f"CircularBuffer({self.name}, shape={self.shape}, buffer_factor={self.buffer_factor})"


def make_circular_buffer_like(tensor: Any, shape: tuple[int, ...] = (1, 1), buffer_factor: int = 2,
                              *, name: str | None = None) -> CircularBuffer:
    """The seed spelling: ``ttl.make_circular_buffer_like(t, shape=, buffer_factor=2)``."""
    sc = scope.require_scope("ttl.make_circular_buffer_like")
    return CircularBuffer(tensor, shape, buffer_factor,
                          name or scope.assigned_name(scope.caller_span(2), f"cb{len(sc.buffers)}"))


def make_dataflow_buffer_like(tensor: Any, shape: tuple[int, ...] = (1, 1), block_count: int = 2,
                              *, name: str | None = None) -> CircularBuffer:
    """The TT-Lang 1.1 spelling: ``ttl.make_dataflow_buffer_like(t, shape=, block_count=2)``."""
    sc = scope.require_scope("ttl.make_dataflow_buffer_like")
    buffer = CircularBuffer(tensor, shape, block_count,
                            name or scope.assigned_name(scope.caller_span(2), f"dfb{len(sc.buffers)}"))
    buffer.releases_held_blocks = True
    return buffer
