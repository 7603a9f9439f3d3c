"""Moves between memory placements and layouts, with the checks ttnn makes of them:
interleaved_to_sharded, sharded_to_interleaved, reshard, tilize, untilize, and copy.

They change no values (the simulator holds one torch tensor whatever the placement); each is its
own primitive because each costs and lowers differently. ttnn rejects a move from the wrong kind
of placement (``interleaved_to_sharded`` of a sharded tensor) and a shard spec that does not cover
the tensor, and so do these.
"""

from __future__ import annotations

import math
from typing import Optional, Union

from tilecraft.diagnostics import UsageTypeError, UsageValueError, type_name
from tilecraft.dtypes import DataFormat

from ..cores import CoreGrid
from ..layout import Layout, Shape
from ..memory import DRAM_MEMORY_CONFIG, MemoryConfig, TensorMemoryLayout, as_memory_config
from ..primitives import DevicePrimitive
from ..sharding import ShardStrategy, create_sharded_memory_config
from ..tensor import Tensor
from ..trace import traced
from .data_movement import identity
from .rules import same_type

interleaved_to_sharded_p = DevicePrimitive("interleaved_to_sharded", same_type, identity)
sharded_to_interleaved_p = DevicePrimitive("sharded_to_interleaved", same_type, identity)
reshard_p = DevicePrimitive("reshard", same_type, identity)
tilize_p = DevicePrimitive("tilize", same_type, identity)
untilize_p = DevicePrimitive("untilize", same_type, identity)


def _tensor(value: object, function: str) -> Tensor:
    if not isinstance(value, Tensor):
        raise UsageTypeError(f"ttnn.{function} takes a ttnn.Tensor, got {type_name(value)}")
    return value


def check_shards_cover(shape: Shape, config: MemoryConfig, function: str) -> None:
    """ttnn's check that the shards of a sharded ``config`` hold a tensor of ``shape`` (its dims
    but the last folded into the height), each core one shard."""
    spec = config.shard_spec
    if spec is None:
        raise UsageValueError(f"ttnn.{function}: a sharded memory config needs a shard_spec")
    height, width = math.prod(shape[:-1]) if shape.rank > 1 else 1, shape[-1] if shape.rank else 1
    (shard_h, shard_w), cores = spec.shape, spec.num_cores()
    box = spec.grid.bounding_box().grid_size()
    needed = {TensorMemoryLayout.HEIGHT_SHARDED: (math.ceil(height / shard_h), shard_w >= width),
              TensorMemoryLayout.WIDTH_SHARDED: (math.ceil(width / shard_w), shard_h >= height),
              TensorMemoryLayout.BLOCK_SHARDED: (math.ceil(height / shard_h) * math.ceil(width / shard_w),
                                                 math.ceil(height / shard_h) <= box.y * box.x)}
    count, side_fits = needed[config.memory_layout]
    if count > cores or not side_fits:
        raise UsageValueError(
            f"ttnn.{function}: shards of {shard_h}x{shard_w} on {cores} cores ({config.memory_layout}) do not hold "
            f"a tensor of shape {shape} ({height}x{width} as a matrix)",
            hint="ttnn.create_sharded_memory_config(shape, core_grid, strategy) sizes the shards for a shape")


def interleaved_to_sharded(input_tensor: Tensor, grid: Union[MemoryConfig, CoreGrid],
                           shard_shape: Optional[tuple[int, int]] = None,
                           shard_scheme: Optional[TensorMemoryLayout] = None, shard_orientation: object = None, *,
                           output_dtype: Optional[DataFormat] = None, keep_l1_aligned: bool = False) -> Tensor:
    """An interleaved tensor spread over cores' L1 as ``grid`` (a sharded MemoryConfig) says, or as
    a CoreGrid with ``shard_scheme`` says."""
    tensor = _tensor(input_tensor, "interleaved_to_sharded")
    if tensor.memory_config().is_sharded():
        raise UsageValueError("ttnn.interleaved_to_sharded: the input is already sharded; use ttnn.reshard")
    if isinstance(grid, CoreGrid):
        strategies = {TensorMemoryLayout.HEIGHT_SHARDED: ShardStrategy.HEIGHT,
                      TensorMemoryLayout.WIDTH_SHARDED: ShardStrategy.WIDTH,
                      TensorMemoryLayout.BLOCK_SHARDED: ShardStrategy.BLOCK}
        if shard_scheme not in strategies:
            raise UsageValueError("ttnn.interleaved_to_sharded with a CoreGrid needs shard_scheme, a sharded "
                                  "ttnn.TensorMemoryLayout")
        grid = create_sharded_memory_config(list(tensor.shape), grid, strategies[shard_scheme])
    config = as_memory_config(grid)
    if not config.is_sharded():
        raise UsageValueError("ttnn.interleaved_to_sharded needs a sharded memory config; use "
                              "ttnn.to_memory_config to move between interleaved placements")
    check_shards_cover(tensor.shape, config, "interleaved_to_sharded")
    return interleaved_to_sharded_p.bind(tensor, dtype=output_dtype, memory_config=config)


def sharded_to_interleaved(input_tensor: Tensor, memory_config: Optional[MemoryConfig] = None, *,
                           output_dtype: Optional[DataFormat] = None, is_l1_aligned: bool = False) -> Tensor:
    """A sharded tensor gathered into an interleaved placement (DRAM by default)."""
    tensor = _tensor(input_tensor, "sharded_to_interleaved")
    if not tensor.memory_config().is_sharded():
        raise UsageValueError("ttnn.sharded_to_interleaved: the input is not sharded")
    config = DRAM_MEMORY_CONFIG if memory_config is None else as_memory_config(memory_config)
    if config.is_sharded():
        raise UsageValueError("ttnn.sharded_to_interleaved needs an interleaved memory config, got a sharded one")
    return sharded_to_interleaved_p.bind(tensor, dtype=output_dtype, memory_config=config)


def reshard(input_tensor: Tensor, output_memory_config: MemoryConfig, output_tensor: None = None) -> Tensor:
    """A sharded tensor spread over other cores or in other shards."""
    tensor = _tensor(input_tensor, "reshard")
    config = as_memory_config(output_memory_config)
    if not (tensor.memory_config().is_sharded() and config.is_sharded()):
        raise UsageValueError("ttnn.reshard moves a sharded tensor to another sharded memory config")
    check_shards_cover(tensor.shape, config, "reshard")
    return reshard_p.bind(tensor, memory_config=config)


def tilize(input_tensor: Tensor, *, memory_config: Optional[MemoryConfig] = None,
           dtype: Optional[DataFormat] = None, use_multicore: bool = True, use_low_perf: bool = False) -> Tensor:
    """A row-major tensor in tile layout (padded to whole tiles)."""
    tensor = _tensor(input_tensor, "tilize")
    if tensor.layout is not Layout.ROW_MAJOR:
        raise UsageValueError("ttnn.tilize takes a row-major tensor; this one is already in tile layout")
    return tilize_p.bind(tensor, dtype=dtype, layout=Layout.TILE, memory_config=memory_config)


def untilize(input_tensor: Tensor, *, memory_config: Optional[MemoryConfig] = None, use_multicore: bool = True,
             use_pack_untilize: bool = True, sub_core_grids: object = None) -> Tensor:
    """A tile-layout tensor in row-major layout (the padding dropped)."""
    tensor = _tensor(input_tensor, "untilize")
    if tensor.layout is not Layout.TILE:
        raise UsageValueError("ttnn.untilize takes a tile-layout tensor; this one is already row-major")
    if tensor.dtype.is_block_float:
        raise UsageValueError(f"ttnn.untilize: {tensor.dtype.name} exists only in tile layout; typecast first")
    return untilize_p.bind(tensor, layout=Layout.ROW_MAJOR, memory_config=memory_config)


@traced
def copy(input_a: Tensor, input_b: Tensor) -> None:
    """Copy ``input_a``'s values into ``input_b`` (same shape), rounded into ``input_b``'s dtype."""
    source, target = _tensor(input_a, "copy"), _tensor(input_b, "copy")
    if source.shape != target.shape:
        raise UsageValueError(f"ttnn.copy: shapes {source.shape} and {target.shape} differ")
    for mine, theirs in zip(target.device_tensors(), source.device_tensors()):
        mine.overwrite(Tensor.from_values(theirs.logical(), mine.dtype, mine.layout))
