"""Layouts and shapes: how a tensor's logical shape maps to the storage the simulator sees.

ttnn reports two shapes. ``shape`` is the logical one the user asked for; ``padded_shape`` is
what the device stores. Tile layout stores whole 32x32 tiles, so the last two dimensions are
rounded up to multiples of 32, and (as tt-metal does) a rank-0 or rank-1 tensor is first seen as
a single row, so its padded shape has rank 2. Row-major layout stores the logical shape as is.
"""

from __future__ import annotations

import math
import operator
from enum import Enum
from typing import Iterable, SupportsIndex

from tilecraft.diagnostics import Span, UsageIndexError, UsageTypeError, UsageValueError, calling_user_span

#: edge of a square tile, in elements
TILE_SIZE = 32
#: a tile's (rows, columns), as the published TT-Lang simulator's ttnn spells it
TILE_SHAPE = (TILE_SIZE, TILE_SIZE)


class Layout(Enum):
    """How a tensor's elements are laid out in device memory."""

    ROW_MAJOR = 0
    TILE = 1

    def __repr__(self) -> str:  # ttnn prints Layout.TILE
        return f"Layout.{self.name}"

    __str__ = __repr__


TILE_LAYOUT = Layout.TILE
ROW_MAJOR_LAYOUT = Layout.ROW_MAJOR


def given_or_default(layout: object) -> tuple[Layout, Span | None]:
    """The layout a creation function makes, and where the user left it out (None if given).

    Without ``layout=``, tensors are made in tile layout, as the published TT-Lang simulator
    makes them, so that scripts written for it compute the same here; real ttnn makes them
    row-major. The call site is kept so that a kernel launched on such a tensor can say so
    (warning W0501, :func:`tilecraft.frontend.build_program.build_program`).
    """
    if layout is None:
        return Layout.TILE, calling_user_span()
    if not isinstance(layout, Layout):
        raise UsageTypeError(f"layout must be ttnn.TILE_LAYOUT or ttnn.ROW_MAJOR_LAYOUT, got {layout!r}")
    return layout, None


class Shape(tuple):
    """A tensor shape: a tuple of non-negative ints that prints the way ttnn prints it.

    It is a tuple so that user code can index, unpack, slice and compare it with tuples and
    ``torch.Size`` freely; comparing with a list works too, as it does in ttnn.
    """

    def __new__(cls, dims: Iterable[SupportsIndex] = ()) -> "Shape":
        try:
            values = tuple(operator.index(d) for d in dims)
        except TypeError:
            raise UsageTypeError(f"a shape is a sequence of ints, got {dims!r}") from None
        if any(d < 0 for d in values):
            raise UsageValueError(f"shape dimensions must be non-negative, got {list(values)}")
        return super().__new__(cls, values)

    @property
    def rank(self) -> int:
        return len(self)

    def volume(self) -> int:
        """Number of elements (1 for rank 0)."""
        return math.prod(self)

    def __getitem__(self, key):  # type: ignore[override]
        try:
            item = super().__getitem__(key)
        except IndexError:
            raise UsageIndexError(f"dimension {key} of a rank-{len(self)} shape {list(self)} does not exist",
                                  hint="index dimensions from 0 to rank - 1, or from -rank to -1") from None
        return Shape(item) if isinstance(key, slice) else item

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (tuple, list)):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = tuple.__hash__

    def __repr__(self) -> str:
        return f"Shape({list(self)})"

    __str__ = __repr__


def as_shape(value: Iterable[SupportsIndex] | SupportsIndex) -> Shape:
    """Accept what ttnn accepts for a shape argument: a Shape, tuple, list, torch.Size or one int."""
    if isinstance(value, Shape):
        return value
    if isinstance(value, Iterable):
        return Shape(value)
    return Shape((value,))


def normalize_dim(dim: int, rank: int, context: str = "") -> int:
    """``dim`` as a non-negative index into a shape of ``rank`` (negative dims count from the end).

    Shape rules leave ``context`` empty: the primitive prefixes its own name to their errors.
    """
    if not isinstance(dim, int) or isinstance(dim, bool) or not -rank <= dim < rank:
        prefix = f"{context}: " if context else ""
        raise UsageValueError(f"{prefix}dim {dim!r} is out of range for a tensor of rank {rank}")
    return dim % rank


def _tile_view(shape: Shape) -> Shape:
    """The logical shape as tile layout sees it: rank 0 and 1 become one row (rank 2)."""
    return Shape((1,) * max(0, 2 - shape.rank) + tuple(shape))


def padded_shape(shape: Shape, layout: Layout) -> Shape:
    """The storage shape of a tensor of logical ``shape`` in ``layout``."""
    if layout is Layout.ROW_MAJOR:
        return shape
    *batch, height, width = _tile_view(shape)
    return Shape((*batch, _round_up(height), _round_up(width)))


def storage_region(shape: Shape, layout: Layout) -> tuple[slice, ...]:
    """Where the logical values sit in the storage: its leading corner (as one row for rank < 2 tiles)."""
    region = _tile_view(shape) if layout is Layout.TILE else shape
    return tuple(slice(0, n) for n in region)


def _round_up(n: int) -> int:
    return -(-n // TILE_SIZE) * TILE_SIZE
