"""grid_size / core: the specification's flatten and pad rules, single chip and multi-chip."""

from __future__ import annotations

import pytest

from tilecraft.ir.grid import all_cores, reshape_coords, reshape_sizes


@pytest.mark.parametrize("grid, dims, expected", [
    ((8, 8), 1, (64,)),            # fewer dims: the highest rank dimension is flattened
    ((8, 8, 8), 2, (8, 64)),
    ((8, 8), 2, (8, 8)),
    ((8, 8), 3, (8, 8, 1)),        # more dims: padded with 1
    ((2, 3, 4, 5), 2, (2, 60)),
])
def test_grid_size(grid, dims, expected):
    assert reshape_sizes(grid, dims) == expected


@pytest.mark.parametrize("coord, grid, dims, expected", [
    ((3, 2), (8, 8), 1, (26,)),           # 8 * x + y: the published simulator's node numbering
    ((3, 2), (8, 4), 1, (14,)),           # x * Y + y with Y = 4
    ((1, 2, 3), (8, 8, 8), 2, (10, 3)),   # (8 * x + y, z): 1.1.6 flattens the first dimensions
    ((1, 2, 3), (8, 8, 8), 1, (83,)),     # (8 * x + y) * 8 + z
    ((5, 6), (8, 8), 3, (5, 6, 0)),       # padded with 0
    ((1, 1, 1, 1), (2, 3, 4, 5), 2, ((1 * 3 + 1) * 4 + 1, 1)),
])
def test_core(coord, grid, dims, expected):
    assert reshape_coords(coord, grid, dims) == expected


def test_flat_order_matches_core_dims_1():
    grid = (4, 3, 2)
    cores = all_cores(grid)
    assert [reshape_coords(c, grid, 1)[0] for c in cores] == list(range(24))
