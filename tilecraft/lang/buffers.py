"""Circular (dataflow) buffers: created in kernel scope, acquired and released in threads.

A buffer is "like" a tensor: it takes the tensor's data format and shape unit (a 32x32 tile for
tile layout, a scalar for row-major). ``shape`` is the block shape in those units;
``buffer_factor`` (TT-Lang 1.1: ``block_count``) blocks are allocated in each core's L1. Either
may be relative to L1 (``block_count="max"``, ``shape=(1, "25%")``, see :mod:`.sizing`).
"""

from __future__ import annotations

from typing import Any

from . import scope, sizing
from ..diagnostics import error, type_name
from ..dtypes import DataFormat
from ..ir.types import SCALAR_UNIT, TILE_UNIT, TensorDecl


def is_ttnn_tensor(value: Any) -> bool:
    """A ttnn tensor, told by its ttnn data format (lang does not import ttnn; a torch tensor's
    dtype is a torch.dtype)."""
    return isinstance(getattr(value, "dtype", None), DataFormat)


def is_tile_layout(tensor: Any) -> bool:
    layout = getattr(tensor, "layout", None)
    return getattr(layout, "name", str(layout)).upper().endswith("TILE")


class CircularBuffer:
    """A per-core L1 buffer of ``buffer_factor`` blocks; methods are usable only in threads."""

    #: a TT-Lang 1.1 dataflow buffer: a block a thread acquires and does not release is released
    #: for it at its next acquisition and when it finishes (frontend/auto_release.py)
    releases_held_blocks = False

    def __init__(self, likeness: Any, shape: tuple[int, ...], buffer_factor: int | str, name: str):
        span = scope.caller_span(3)
        sc = scope.require_scope("ttl.make_circular_buffer_like")
        if not is_ttnn_tensor(likeness):
            raise error("E0202", "a circular buffer must be made like a ttnn tensor "
                        f"(got {type_name(likeness)})", span,
                        hint="pass one of the kernel's tensor arguments")
        fmt = likeness.dtype
        shape_request = sizing.parse_shape(shape, span)
        count = sizing.parse_count(buffer_factor, span)
        self.likeness = likeness
        self.fmt = fmt
        self.tiled = is_tile_layout(likeness)
        self.shape = sizing.resolve_shape(shape_request, _unit_extents(likeness, fmt, self.tiled), fmt, self.tiled,
                                          count, sc.arch, span)
        #: the block count as written: an int, or "max" / a share of L1 that the compiler resolves
        self.block_count_request = count
        #: how the buffer was sized relative to L1, for the IR and the tuner (None: explicitly)
        self.sizing = sizing.describe(count, shape_request)
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

    @property
    def buffer_factor(self) -> int | None:
        """The block count, None while a relative count is not resolved (the compiler does it)."""
        count = self.block_count_request
        return count if isinstance(count, int) else None

    def __repr__(self) -> str:
        return f"CircularBuffer({self.name}, shape={self.shape}, buffer_factor={self.buffer_factor})"


def _unit_extents(tensor: Any, fmt: DataFormat, tiled: bool) -> tuple[int, ...]:
    """The tensor's extents in the buffer's shape units (tiles for tile layout, padded up)."""
    return TensorDecl(0, "", tuple(getattr(tensor, "shape", ())), fmt, TILE_UNIT if tiled else SCALAR_UNIT).unit_shape


def make_circular_buffer_like(tensor: Any, shape: tuple[int | str, ...] = (1, 1), buffer_factor: int | str = 2,
                              *, name: str | None = None) -> CircularBuffer:
    """The seed spelling: ``ttl.make_circular_buffer_like(t, shape=, buffer_factor=2)``."""
    sc = scope.require_scope("ttl.make_circular_buffer_like")
    return CircularBuffer(tensor, shape, buffer_factor,
                          name or scope.assigned_name(scope.caller_span(2), f"cb{len(sc.buffers)}"))


def make_dataflow_buffer_like(tensor: Any, shape: tuple[int | str, ...] = (1, 1), block_count: int | str = 2,
                              *, name: str | None = None) -> CircularBuffer:
    """The TT-Lang 1.1 spelling: ``ttl.make_dataflow_buffer_like(t, shape=, block_count=2)``."""
    sc = scope.require_scope("ttl.make_dataflow_buffer_like")
    buffer = CircularBuffer(tensor, shape, block_count,
                            name or scope.assigned_name(scope.caller_span(2), f"dfb{len(sc.buffers)}"))
    buffer.releases_held_blocks = True
    return buffer
