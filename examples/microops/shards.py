"""Memory configs for the micro-op tests: L1 sharding over a rectangle of cores."""

from __future__ import annotations

import ttnn


def sharded(height_or_width: str, grid: ttnn.CoreRangeSet, shard_shape: tuple[int, int]) -> ttnn.MemoryConfig:
    """An L1 memory config sharding by height or width over ``grid``, shards in row-major order."""
    layout = {"height": ttnn.TensorMemoryLayout.HEIGHT_SHARDED, "width": ttnn.TensorMemoryLayout.WIDTH_SHARDED}
    spec = ttnn.ShardSpec(grid, shard_shape, ttnn.ShardOrientation.ROW_MAJOR)
    return ttnn.MemoryConfig(layout[height_or_width], ttnn.BufferType.L1, spec)


def core_grid(x0: int, y0: int, x1: int, y1: int) -> ttnn.CoreRangeSet:
    return ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(x0, y0), ttnn.CoreCoord(x1, y1))])
