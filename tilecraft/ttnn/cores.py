"""Core coordinates and core sets, as ttnn names the Tensix cores of one chip.

Sharded memory configs and grid queries speak in these terms; ranges are inclusive at both
ends, and ``x`` is the column, ``y`` the row, as in tt-metal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Union

from tilecraft.diagnostics import UsageTypeError, UsageValueError


@dataclass(frozen=True, order=True)
class CoreCoord:
    """One core: column ``x``, row ``y``."""

    x: int
    y: int

    def __post_init__(self) -> None:
        if not (isinstance(self.x, int) and isinstance(self.y, int)) or self.x < 0 or self.y < 0:
            raise UsageValueError(f"core coordinates are non-negative ints, got ({self.x!r}, {self.y!r})")

    def __repr__(self) -> str:
        return f"(x={self.x},y={self.y})"


@dataclass(frozen=True)
class CoreRange:
    """The rectangle of cores from ``start`` to ``end``, both included."""

    start: CoreCoord
    end: CoreCoord

    def __post_init__(self) -> None:
        if not (isinstance(self.start, CoreCoord) and isinstance(self.end, CoreCoord)):
            raise UsageTypeError(f"CoreRange takes two CoreCoords, got {self.start!r} and {self.end!r}")
        if self.end.x < self.start.x or self.end.y < self.start.y:
            raise UsageValueError(f"CoreRange end {self.end} lies before its start {self.start}")

    def grid_size(self) -> CoreCoord:
        """Width and height of the rectangle, as a CoreCoord (ttnn's convention)."""
        return CoreCoord(self.end.x - self.start.x + 1, self.end.y - self.start.y + 1)

    def num_cores(self) -> int:
        size = self.grid_size()
        return size.x * size.y

    def contains(self, other: Union[CoreCoord, "CoreRange"]) -> bool:
        if isinstance(other, CoreRange):
            return self.contains(other.start) and self.contains(other.end)
        return self.start.x <= other.x <= self.end.x and self.start.y <= other.y <= self.end.y

    def intersects(self, other: "CoreRange") -> bool:
        return not (other.end.x < self.start.x or self.end.x < other.start.x
                    or other.end.y < self.start.y or self.end.y < other.start.y)

    def __repr__(self) -> str:
        return f"CoreRange(start={self.start!r}, end={self.end!r})"


class CoreRangeSet:
    """A set of disjoint core ranges (the cores a sharded tensor or a program occupies).

    A list or tuple of ranges keeps its order (ttnn's vector constructor, and the published
    simulator, do the same); a Python set is ordered by the ranges' first cores, row by row.
    """

    def __init__(self, ranges: Union[CoreRange, Iterable[CoreRange]]) -> None:
        items = [ranges] if isinstance(ranges, CoreRange) else list(ranges)
        if not all(isinstance(r, CoreRange) for r in items):
            raise UsageTypeError(f"CoreRangeSet takes CoreRanges, got {items!r}")
        if not isinstance(ranges, (CoreRange, list, tuple)):
            items.sort(key=lambda r: (r.start.y, r.start.x))
        for i, first in enumerate(items):
            for second in items[i + 1:]:
                if first.intersects(second):
                    raise UsageValueError(f"core ranges in a CoreRangeSet must not overlap: {first} and {second}")
        self._ranges = tuple(items)

    def ranges(self) -> list[CoreRange]:
        return list(self._ranges)

    def num_cores(self) -> int:
        return sum(r.num_cores() for r in self._ranges)

    def bounding_box(self) -> CoreRange:
        """The smallest CoreRange holding every core of the set."""
        if not self._ranges:
            raise UsageValueError("an empty CoreRangeSet has no bounding box")
        start = CoreCoord(min(r.start.x for r in self._ranges), min(r.start.y for r in self._ranges))
        end = CoreCoord(max(r.end.x for r in self._ranges), max(r.end.y for r in self._ranges))
        return CoreRange(start, end)

    def contains(self, other: Union[CoreCoord, CoreRange, "CoreRangeSet"]) -> bool:
        """Whether every core of ``other`` is in the set."""
        if isinstance(other, CoreCoord):
            return any(r.contains(other) for r in self._ranges)
        ranges = other.ranges() if isinstance(other, CoreRangeSet) else [other]
        return all(self.contains(CoreCoord(x, y))
                   for r in ranges
                   for y in range(r.start.y, r.end.y + 1)
                   for x in range(r.start.x, r.end.x + 1))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CoreRangeSet) and self._ranges == other._ranges

    def __hash__(self) -> int:
        return hash(self._ranges)

    def __repr__(self) -> str:
        return f"CoreRangeSet({{{', '.join(map(repr, self._ranges))}}})"


@dataclass(frozen=True)
class CoreGrid:
    """A rectangle of ``y`` rows by ``x`` columns of cores from core (0, 0), as ttnn's sharding
    helpers take it (``ttnn.CoreGrid(y=2, x=4)``)."""

    y: int
    x: int

    def __post_init__(self) -> None:
        if not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in (self.x, self.y)):
            raise UsageValueError(f"a CoreGrid has positive int sides, got y={self.y!r}, x={self.x!r}")

    @property
    def num_cores(self) -> int:
        return self.x * self.y

    def core_range_set(self) -> CoreRangeSet:
        """The grid's cores: the range from (0, 0) to (x - 1, y - 1)."""
        return CoreRangeSet([CoreRange(CoreCoord(0, 0), CoreCoord(self.x - 1, self.y - 1))])


def core_range_set_to_core_grid(core_ranges: CoreRangeSet) -> CoreGrid:
    """The CoreGrid as large as the set's bounding box (what sharding helpers are given)."""
    if not isinstance(core_ranges, CoreRangeSet):
        raise UsageTypeError(f"core_range_set_to_core_grid takes a CoreRangeSet, got {core_ranges!r}")
    box = core_ranges.bounding_box().grid_size()
    return CoreGrid(y=box.y, x=box.x)
