"""``create_sharded_memory_config``: a sharded MemoryConfig derived from a tensor shape, a core
grid and a strategy, as ttnn's helper builds it.

The tensor is seen as 2-D (every dim but the last folded into the height). Height sharding
splits the rows over all cores of the grid, width sharding the columns, block sharding the rows
over the grid's rows and the columns over its columns (the other way round with
``ShardOrientation.COL_MAJOR``). Shard sides are rounded up, as in ttnn, so the shards cover the
whole tensor (the published simulator rounds down; both agree when the sides divide evenly).
"""

from __future__ import annotations

from math import prod
from typing import Optional, Sequence, Union

from tilecraft.diagnostics import UsageTypeError, UsageValueError

from .cores import CoreGrid, CoreRangeSet
from .memory import _TtnnEnum, BufferType, MemoryConfig, ShardOrientation, ShardSpec, TensorMemoryLayout


class ShardStrategy(_TtnnEnum):
    HEIGHT = 0
    WIDTH = 1
    BLOCK = 2


_LAYOUT = {ShardStrategy.HEIGHT: TensorMemoryLayout.HEIGHT_SHARDED,
           ShardStrategy.WIDTH: TensorMemoryLayout.WIDTH_SHARDED,
           ShardStrategy.BLOCK: TensorMemoryLayout.BLOCK_SHARDED}


def create_sharded_memory_config(shape: Sequence[int], core_grid: Union[CoreGrid, CoreRangeSet],
                                 strategy: ShardStrategy, orientation: Optional[ShardOrientation] = None,
                                 use_height_and_width_as_shard_shape: bool = False) -> MemoryConfig:
    """An L1 sharded MemoryConfig for a tensor of ``shape`` over ``core_grid`` (a CoreGrid from
    core (0, 0), or a CoreRangeSet). With ``use_height_and_width_as_shard_shape`` the last two
    entries of ``shape`` are the shard's height and width."""
    dims = tuple(shape)
    if len(dims) < 2 or not all(isinstance(d, int) and d > 0 for d in dims):
        raise UsageValueError(f"shape must have at least 2 positive int dims, got {shape!r}")
    if not isinstance(strategy, ShardStrategy):
        raise UsageTypeError(f"strategy must be a ttnn.ShardStrategy, got {strategy!r}")
    orientation = ShardOrientation.ROW_MAJOR if orientation is None else orientation
    if isinstance(core_grid, CoreGrid):
        grid, rows, cols = core_grid.core_range_set(), core_grid.y, core_grid.x
    elif isinstance(core_grid, CoreRangeSet):
        box = core_grid.bounding_box().grid_size()
        grid, rows, cols = core_grid, box.y, box.x
    else:
        raise UsageTypeError(f"core_grid must be a ttnn.CoreGrid or a ttnn.CoreRangeSet, got {core_grid!r}")
    if use_height_and_width_as_shard_shape:
        shard = dims[-2], dims[-1]
    else:
        height, width, cores = prod(dims[:-1]), dims[-1], grid.num_cores()
        if strategy is ShardStrategy.BLOCK and orientation is ShardOrientation.COL_MAJOR:
            rows, cols = cols, rows
        shard = {ShardStrategy.HEIGHT: (-(-height // cores), width),
                 ShardStrategy.WIDTH: (height, -(-width // cores)),
                 ShardStrategy.BLOCK: (-(-height // rows), -(-width // cols))}[strategy]
    return MemoryConfig(_LAYOUT[strategy], BufferType.L1, ShardSpec(grid, shard, orientation))


def create_sharded_memory_config_(shape: Sequence[int], grid: Union[CoreGrid, CoreRangeSet],
                                  strategy: ShardStrategy, orientation: Optional[ShardOrientation] = None,
                                  halo: bool = False, use_height_and_width_as_shard_shape: bool = False,
                                  tile_layout: object = None) -> MemoryConfig:
    """ttnn's second spelling of :func:`create_sharded_memory_config` (with the halo flag of the
    convolution helpers, which tilecraft has no use for); the same config."""
    if halo:
        raise UsageValueError("create_sharded_memory_config_: halo shards belong to ttnn.conv2d, which tilecraft "
                              "does not simulate")
    return create_sharded_memory_config(shape, grid, strategy, orientation, use_height_and_width_as_shard_shape)
