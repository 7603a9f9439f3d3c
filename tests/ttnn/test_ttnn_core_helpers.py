"""The core-range helpers TT-Lang 1.1.6 programs call on the host: CoreGrid, split_work_to_cores,
num_cores_to_corerangeset, core_range_set_to_core_grid and create_sharded_memory_config."""

from __future__ import annotations

import pytest

import tilecraft.ttnn as ttnn
from tilecraft.diagnostics import DiagnosticWarning


def cores_of(ranges: ttnn.CoreRangeSet) -> list[tuple[int, int]]:
    return [(c.x, c.y) for c in ttnn.corerange_to_cores(ranges, row_wise=True)]


def test_split_hands_out_one_range_per_core_in_order():
    n, all_cores, g1, g2, u1, u2 = ttnn.split_work_to_cores(ttnn.CoreCoord(4, 2), 19)
    assert (n, u1, u2, all_cores.num_cores()) == (8, 3, 2, 8)
    # column by column: (0, 0), (0, 1), (1, 0), ... and the first 19 % 8 = 3 cores do one unit more
    assert [(r.start.x, r.start.y) for r in g1.ranges()] == [(0, 0), (0, 1), (1, 0)]
    assert all(r.start == r.end for r in (*g1.ranges(), *g2.ranges()))
    assert [(r.start.x, r.start.y) for r in g2.ranges()][:2] == [(1, 1), (2, 0)]
    _, _, rows, _, _, _ = ttnn.split_work_to_cores(ttnn.CoreCoord(4, 2), 8, row_wise=True)
    assert [(r.start.x, r.start.y) for r in rows.ranges()][:5] == [(0, 0), (1, 0), (2, 0), (3, 0), (0, 1)]


def test_split_over_a_range_set_takes_its_ranges_in_order():
    grid = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(2, 0), ttnn.CoreCoord(3, 0)),
                              ttnn.CoreRange(ttnn.CoreCoord(0, 1), ttnn.CoreCoord(1, 1))])
    n, all_cores, g1, g2, u1, u2 = ttnn.split_work_to_cores(grid, 8)
    assert (n, u1, u2) == (4, 2, 0) and g2.num_cores() == 0
    assert [(r.start.x, r.start.y) for r in g1.ranges()] == [(2, 0), (3, 0), (0, 1), (1, 1)]


def test_split_with_fewer_units_than_cores_warns_where_the_published_simulator_differs():
    with pytest.warns(DiagnosticWarning, match=r"W0503.*3 cores that get work.*all 8 cores"):
        n, all_cores, g1, _, u1, _ = ttnn.split_work_to_cores(ttnn.CoreCoord(4, 2), 3)
    assert (n, u1) == (3, 1) and sorted(cores_of(all_cores)) == sorted(cores_of(g1)) == [(0, 0), (0, 1), (1, 0)]
    assert ttnn.split_work_to_cores(ttnn.CoreCoord(4, 2), 0)[0] == 0
    with pytest.raises(TypeError, match="CoreCoord grid size or a CoreRangeSet"):
        ttnn.split_work_to_cores((4, 2), 8)


def test_num_cores_to_corerangeset_takes_both_spellings():
    # the published simulator's [rows, cols], row by row by default
    assert cores_of(ttnn.num_cores_to_corerangeset(5, [2, 4])) == [(0, 0), (1, 0), (2, 0), (3, 0), (0, 1)]
    # ttnn's CoreCoord(x, y), column by column by default
    assert sorted(cores_of(ttnn.num_cores_to_corerangeset(3, ttnn.CoreCoord(4, 2)))) == [(0, 0), (0, 1), (1, 0)]
    with pytest.raises(ValueError, match="do not fit"):
        ttnn.num_cores_to_corerangeset(9, [2, 4])


def test_core_grid_and_its_range_set():
    grid = ttnn.CoreGrid(y=2, x=5)
    assert grid.num_cores == 10 and grid.core_range_set().bounding_box() == \
        ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(4, 1))
    box = ttnn.core_range_set_to_core_grid(
        ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(1, 0), ttnn.CoreCoord(3, 2))]))
    assert (box.x, box.y) == (3, 3)
    with pytest.raises(ValueError, match="positive int sides"):
        ttnn.CoreGrid(y=0, x=2)


@pytest.mark.parametrize("strategy,orientation,layout,shard", [
    ("HEIGHT", "ROW_MAJOR", "HEIGHT_SHARDED", (32, 128)),  # 256 rows over 8 cores
    ("WIDTH", "ROW_MAJOR", "WIDTH_SHARDED", (256, 16)),
    ("BLOCK", "ROW_MAJOR", "BLOCK_SHARDED", (128, 32)),  # rows over the grid's 2 rows, cols over its 4 cols
    ("BLOCK", "COL_MAJOR", "BLOCK_SHARDED", (64, 64)),
])
def test_create_sharded_memory_config(strategy, orientation, layout, shard):
    config = ttnn.create_sharded_memory_config((256, 128), core_grid=ttnn.CoreGrid(y=2, x=4),
                                               strategy=getattr(ttnn.ShardStrategy, strategy),
                                               orientation=getattr(ttnn.ShardOrientation, orientation))
    assert config.memory_layout is getattr(ttnn.TensorMemoryLayout, layout)
    assert config.buffer_type is ttnn.BufferType.L1 and config.shard_spec.shape == shard
    assert config.shard_spec.num_cores() == 8


def test_sharded_config_rounds_shards_up_and_takes_a_shard_shape():
    config = ttnn.create_sharded_memory_config((100, 64), ttnn.CoreGrid(y=1, x=3), ttnn.ShardStrategy.HEIGHT)
    assert config.shard_spec.shape == (34, 64)  # 3 shards of 34 rows cover all 100
    given = ttnn.create_sharded_memory_config((32, 64), ttnn.CoreGrid(y=1, x=2), ttnn.ShardStrategy.HEIGHT,
                                              use_height_and_width_as_shard_shape=True)
    assert given.shard_spec.shape == (32, 64)
    with pytest.raises(TypeError, match="ShardStrategy"):
        ttnn.create_sharded_memory_config((32, 64), ttnn.CoreGrid(y=1, x=2), "height")
