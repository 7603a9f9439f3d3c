"""Core geometry: how a grid of cores is enumerated, reshaped and cut into ranges.

One definition for every layer that walks cores (the front end, the simulator, the lowering,
the hosts and the cost model), so they all number cores alike. Flattened coordinates are
row-major, the last grid dimension varying fastest: on a (X, Y) grid node (x, y) is ``x * Y + y``
in ``node(dims=1)``, as the published TT-Lang simulator numbers nodes (the seed does not fix the
order). ``dims`` is a positive integer here; the language checks it where the user wrote it.
"""

from __future__ import annotations

from typing import Any


def reshape_sizes(grid: tuple[int, ...], dims: int) -> tuple[int, ...]:
    if dims >= len(grid):
        return tuple(grid) + (1,) * (dims - len(grid))
    flat = 1
    for extent in grid[dims - 1:]:
        flat *= extent
    return tuple(grid[: dims - 1]) + (flat,)


def reshape_coords(coord: tuple[int, ...], grid: tuple[int, ...], dims: int) -> tuple[int, ...]:
    """A core's coordinates in ``dims`` dimensions. Fewer dimensions than the grid's flatten the
    *first* ones into one, row-major, and keep the last ``dims - 1``: node (x, y, z) of an (X, Y, Z)
    grid is ``(x * Y + y, z)`` in ``node(dims=2)``, as the published simulator numbers it (its
    ``grid_size(dims=2)`` is ``(X, Y * Z)`` all the same: see :func:`reshape_sizes`). The seed's
    ``ttl.core`` folds the last ones instead: :func:`fold_last_coords`."""
    if dims >= len(grid):
        return tuple(coord) + (0,) * (dims - len(grid))
    cut = len(grid) - dims + 1
    flat = 0
    for c, extent in zip(coord[:cut], grid[:cut]):
        flat = flat * extent + c
    return (flat,) + tuple(coord[cut:])


def fold_last_coords(coord: tuple[int, ...], grid: tuple[int, ...], dims: int) -> tuple[int, ...]:
    """The seed specification's ``core(dims)``: fewer dimensions than the grid keep the first
    ``dims - 1`` coordinates and fold the *last* ones (``(x, y * Z + z)`` on (X, Y, Z)), as its
    ``grid_size`` folds extents. ``ttl.core`` follows it; ``ttl.node`` follows 1.1.6
    (:func:`reshape_coords`). They differ only on grids of more than ``dims`` > 1 dimensions."""
    if dims >= len(grid) or dims == 1:
        return reshape_coords(coord, grid, dims)
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
