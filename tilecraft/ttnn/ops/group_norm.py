"""``ttnn.group_norm`` over channels-last activations, and ``create_group_norm_weight_bias_rm``, the
host helper that lays its gamma and beta out per core.

The input is ``[N, 1, H*W, C]`` (or ``[N, H, W, C]``); each of ``num_groups`` groups of consecutive
channels is normalised over its channels and all positions, in fp32, then scaled and shifted per
channel and rounded once. Gamma and beta come as ``create_group_norm_weight_bias_rm`` packs them: the
channels split evenly over the cores that split the channel axis (``memory_config`` and
``core_grid`` say how many: a block-sharded grid's columns for row-major shards, its rows for
column-major ones, 1 for height sharding, the whole grid otherwise; 1 when neither is given), each
core's share padded to whole rows of 32 and the rows stacked as ``[1, 1, rows, 32]``. ``input_mask``
is what the kernel reads to pick a group's channels out of its tiles; the values do not depend on it.
"""

from __future__ import annotations

from typing import Optional

import torch

from tilecraft import dtypes
from tilecraft.diagnostics import UsageTypeError, UsageValueError, type_name
from tilecraft.dtypes import DataFormat

from ..cores import CoreGrid
from ..device import DeviceHandle
from ..datatype import as_data_format
from ..layout import Layout
from ..memory import MemoryConfig, ShardOrientation, TensorMemoryLayout
from ..primitives import DevicePrimitive, TensorType
from ..sharding import ShardStrategy, create_sharded_memory_config_
from ..tensor import Tensor


def create_group_norm_weight_bias_rm(input_tensor: torch.Tensor, num_channels: int, num_cores_x: int) -> torch.Tensor:
    """``num_channels`` per-channel values split into ``num_cores_x`` equal shares, each padded with
    zeros to a multiple of 32, as ``[1, 1, rows, 32]``."""
    if not isinstance(input_tensor, torch.Tensor):
        raise UsageTypeError(f"create_group_norm_weight_bias_rm takes a torch.Tensor, got {type_name(input_tensor)}")
    if input_tensor.numel() != num_channels or num_channels % num_cores_x:
        raise UsageValueError(f"create_group_norm_weight_bias_rm: {input_tensor.numel()} values for {num_channels} "
                              f"channels split over {num_cores_x} cores")
    share = num_channels // num_cores_x
    padded = torch.nn.functional.pad(input_tensor.reshape(num_cores_x, share), (0, -(-share // 32) * 32 - share))
    return padded.reshape(1, 1, -1, 32)


def create_group_norm_input_mask(num_channel: int, num_groups: int, num_cores_across_channel: int,
                                 data_type: DataFormat = dtypes.bfloat16) -> Tensor:
    """The mask group_norm's kernel reads to pick each group's channels out of the tiles they span:
    ``[1, num_groups, 32, 32 * span]`` (``span``: the most tiles of 32 channels one group touches),
    group ``g`` holding ones in the ``C / num_groups`` columns from its offset within its first tile,
    ``(g mod groups_per_core) * C / num_groups mod 32``, and zeros elsewhere. This is the layout of
    tt-metal's earlier Python implementation (0.81.1 builds the mask in C++); the simulated
    group_norm does not read it, so only a script inspecting it would see a difference."""
    if num_channel % num_groups or num_groups % num_cores_across_channel:
        raise UsageValueError(f"create_group_norm_input_mask: {num_channel} channels in {num_groups} groups over "
                              f"{num_cores_across_channel} cores do not split evenly")
    width = num_channel // num_groups
    span = max((start + width - 1) // 32 - start // 32 + 1 for start in range(0, num_channel, width))
    mask = torch.zeros(1, num_groups, 32, 32 * span)
    per_core = num_groups // num_cores_across_channel
    for group in range(num_groups):
        offset = (group % per_core) * width % 32
        mask[:, group, :, offset:offset + width] = 1
    return Tensor.from_values(mask, as_data_format(data_type, "data_type"), Layout.TILE)


def determine_expected_group_norm_sharded_config_and_grid_size(
        *, device: DeviceHandle, num_channels: int, num_groups: int, input_nhw: int, is_height_sharded: bool,
        is_row_major: bool = False) -> tuple[MemoryConfig, CoreGrid]:
    """The sharded memory config and core grid group_norm expects for ``input_nhw`` rows of
    ``num_channels`` channels on ``device``: the rows split over the most cores that divide their tiles
    (all the grid's cores when height-sharded, one grid line otherwise), the channels, when
    block-sharded, over the most cores along the other line that keep whole groups and a multiple of
    32 channels per core. The rule of the Python helper models carry (0.81.1 computes it in C++)."""
    if num_channels % num_groups or num_channels % 32:
        raise UsageValueError(f"determine_expected_group_norm_sharded_config_and_grid_size: {num_channels} channels "
                              f"must split into {num_groups} groups and be a multiple of 32")
    grid = device.compute_with_storage_grid_size()
    line, across = (grid.y, grid.x) if is_row_major else (grid.x, grid.y)
    row_tiles = -(-input_nhw // 32)
    row_cores = _largest_divisor(row_tiles, line * across if is_height_sharded else line)
    channel_cores = 1
    if not is_height_sharded:
        group_size = num_channels // num_groups
        channel_cores = next(n for n in range(across, 0, -1)
                             if (num_channels // 8) % n == 0 and (num_channels // n) % group_size == 0)
    channels_per_core = num_channels // channel_cores
    while channels_per_core % 32:
        channels_per_core, channel_cores = 2 * channels_per_core, channel_cores // 2
    rows_per_core = -(-input_nhw // (row_cores * 32)) * 32
    if is_height_sharded:
        grid_x, grid_y = min(line, row_cores), -(-row_cores // line)
    else:
        grid_x, grid_y = (channel_cores, row_cores) if is_row_major else (row_cores, channel_cores)
    shard = (rows_per_core, channels_per_core) if is_row_major else (channels_per_core, rows_per_core)
    core_grid = CoreGrid(y=grid_y, x=grid_x)
    orientation = ShardOrientation.ROW_MAJOR if is_height_sharded or is_row_major else ShardOrientation.COL_MAJOR
    config = create_sharded_memory_config_((1, 1, *shard), core_grid,
                                           ShardStrategy.HEIGHT if is_height_sharded else ShardStrategy.BLOCK,
                                           orientation, use_height_and_width_as_shard_shape=True)
    return config, core_grid


def _largest_divisor(number: int, at_most: int) -> int:
    """The largest divisor of ``number`` not above ``at_most``."""
    return next(d for d in range(min(number, at_most), 0, -1) if number % d == 0)


def cores_across_channel(memory_config: Optional[MemoryConfig], core_grid: Optional[CoreGrid]) -> int:
    """How many cores split the channel axis (the module docstring says the rule)."""
    if memory_config is None or core_grid is None:
        return 1
    if memory_config.memory_layout is TensorMemoryLayout.BLOCK_SHARDED:
        row_major = memory_config.shard_spec is not None and \
            memory_config.shard_spec.orientation is ShardOrientation.ROW_MAJOR
        return core_grid.x if row_major else core_grid.y
    if memory_config.memory_layout is TensorMemoryLayout.HEIGHT_SHARDED:
        return 1
    return core_grid.x * core_grid.y


def _rule(x: TensorType, *affine: TensorType, groups: int, epsilon: float, cores: int,
          present: tuple[str, ...]) -> TensorType:
    if x.shape.rank != 4:
        raise ValueError(f"takes channels-last activations [N, 1, H*W, C] or [N, H, W, C], got {x.shape}")
    channels = x.shape[-1]
    if channels % groups:
        raise ValueError(f"{channels} channels do not split into {groups} groups")
    if channels % cores:
        raise ValueError(f"{channels} channels do not split over the {cores} cores across the channel axis")
    expected = cores * -(-(channels // cores) // 32) * 32
    for name, parameter in zip(present, affine):
        if parameter.shape.volume() != expected:
            raise ValueError(f"the {name} of shape {parameter.shape} holds {parameter.shape.volume()} values; laid out "
                             f"by ttnn.create_group_norm_weight_bias_rm for {cores} core(s) it holds {expected}")
    return x


def _impl(x: torch.Tensor, *affine: torch.Tensor, groups: int, epsilon: float, cores: int,
          present: tuple[str, ...]) -> torch.Tensor:
    channels = x.shape[-1]
    images = x.float().reshape(x.shape[0], -1, channels).permute(0, 2, 1)  # [N, C, positions]
    parameters = {name: p.float().reshape(cores, -1)[:, :channels // cores].reshape(-1)
                  for name, p in zip(present, affine)}
    out = torch.nn.functional.group_norm(images, groups, parameters.get("weight"), parameters.get("bias"),
                                         eps=epsilon)
    return out.permute(0, 2, 1).reshape(x.shape)


group_norm_p = DevicePrimitive("group_norm", _rule, _impl)


def group_norm(input_tensor: Tensor, *, num_groups: int, epsilon: float = 1e-12, input_mask: Optional[Tensor] = None,
               weight: Optional[Tensor] = None, bias: Optional[Tensor] = None,
               memory_config: Optional[MemoryConfig] = None, dtype: object = None,
               core_grid: Optional[CoreGrid] = None, inplace: bool = True, output_layout: object = None,
               num_out_blocks: Optional[int] = None, compute_kernel_config: object = None,
               reciprocals: Optional[Tensor] = None, negative_mask: Optional[Tensor] = None,
               use_welford: bool = False) -> Tensor:
    """Each group of ``C / num_groups`` channels normalised over its channels and positions, then
    ``* weight + bias`` per channel (see the module docstring for their layout)."""
    for name, operand in (("input", input_tensor), ("weight", weight), ("bias", bias), ("input_mask", input_mask)):
        if operand is not None and not isinstance(operand, Tensor):
            raise UsageTypeError(f"ttnn.group_norm: the {name} must be a ttnn.Tensor, got {type_name(operand)}")
    if not isinstance(num_groups, int) or num_groups < 1:
        raise UsageValueError(f"ttnn.group_norm: num_groups must be a positive int, got {num_groups!r}")
    if dtype is not None and dtype is not input_tensor.dtype:
        raise UsageValueError(f"ttnn.group_norm: dtype must be the input's ({input_tensor.dtype.name}) when given")
    present = tuple(name for name, p in (("weight", weight), ("bias", bias)) if p is not None)
    return group_norm_p.bind(input_tensor, *(p for p in (weight, bias) if p is not None),
                             memory_config=memory_config, groups=num_groups, epsilon=float(epsilon),
                             cores=cores_across_channel(memory_config, core_grid), present=present)
