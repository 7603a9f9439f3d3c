"""Grid and node coordinates with the specification's flatten/pad rules.

``grid_size(dims)``/``node(dims)`` reshape the grid to ``dims`` dimensions: asking for fewer
keeps the first ``dims - 1`` dimensions and flattens the rest into the last one kept; asking for
more pads the highest-rank dimensions with 1 (sizes) or 0 (coordinates). Flattened coordinates
are row-major, the last grid dimension varying fastest: on a (X, Y) grid node (x, y) is
``x * Y + y`` in ``node(dims=1)``, as the published TT-Lang simulator numbers nodes (the seed
does not fix the order). Every per-node table (runtime arguments, the linear pipe endpoints of
``Pipe(src=3, dst=0)``) uses this numbering.
"""

from __future__ import annotations

from typing import Any

from . import scope
from .intrinsic import intrinsic
from ..diagnostics import error


def reshape_sizes(grid: tuple[int, ...], dims: int) -> tuple[int, ...]:
    _check_dims(dims)
    if dims >= len(grid):
        return tuple(grid) + (1,) * (dims - len(grid))
    flat = 1
    for extent in grid[dims - 1:]:
        flat *= extent
    return tuple(grid[: dims - 1]) + (flat,)


def reshape_coords(coord: tuple[int, ...], grid: tuple[int, ...], dims: int) -> tuple[int, ...]:
    _check_dims(dims)
    if dims >= len(grid):
        return tuple(coord) + (0,) * (dims - len(grid))
    flat = 0
    for c, extent in zip(coord[dims - 1:], grid[dims - 1:]):
        flat = flat * extent + c
    return tuple(coord[: dims - 1]) + (flat,)


def all_cores(grid: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Cores in flat-index order (the last grid dimension varies fastest, as in ``node(dims=1)``)."""
    cores: list[tuple[int, ...]] = [()]
    for extent in grid:
        cores = [c + (i,) for c in cores for i in range(extent)]
    return cores


def range_bounds(spec: Any, grid: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The (starts, stops) of a core range written as an int or a contiguous slice per grid
    dimension; ValueError (with a message for the user) if it is not one or leaves the grid."""
    spec = spec if isinstance(spec, tuple) else (spec,)
    if len(spec) != len(grid):
        raise ValueError(f"core range {spec} needs one entry per dimension of the grid {grid}")
    starts, stops = [], []
    for entry, extent in zip(spec, grid):
        if isinstance(entry, slice):
            if entry.step not in (None, 1) or (entry.stop is not None and entry.stop > extent):
                raise ValueError(f"core range {spec} must be contiguous and inside the grid {grid}")
            a, b, _ = entry.indices(extent)
        elif isinstance(entry, int) and not isinstance(entry, bool):
            a, b = entry, entry + 1
        else:
            raise ValueError(f"core range entries are ints or slices, got {entry!r}")
        starts.append(a)
        stops.append(b)
    if not all(0 <= a < b <= g for a, b, g in zip(starts, stops, grid)):
        raise ValueError(f"core range {spec} does not fit the grid {grid}")
    return tuple(starts), tuple(stops)


def _check_dims(dims: object) -> None:
    if not isinstance(dims, int) or isinstance(dims, bool) or dims < 1:
        raise error("E0201", f"dims must be a positive integer, got {dims!r}", scope.caller_span(4))


def _unwrap(values: tuple[int, ...]) -> int | tuple[int, ...]:
    return values[0] if len(values) == 1 else values


@intrinsic("grid_size", host_ok=True)
def grid_size(dims: int = 2, *, dim: int | None = None) -> int | tuple[int, ...]:
    """Size of the kernel's grid in ``dims`` dimensions (``dim=`` is accepted as a synonym)."""
    s = scope.require_scope("ttl.grid_size")
    return _unwrap(reshape_sizes(s.grid, dim if dim is not None else dims))


@intrinsic("core", host_ok=True)
def core(dims: int = 2, *, dim: int | None = None) -> int | tuple[int, ...]:
    """This core's coordinates in ``dims`` dimensions (per-core value in kernel scope)."""
    s = scope.require_scope("ttl.core")
    s.used_core = True
    return _unwrap(reshape_coords(s.core, s.grid, dim if dim is not None else dims))


node = core
