"""Memory configurations: which memory a tensor lives in and how its pages spread over cores.

The simulator keeps every tensor as one host torch tensor whatever its memory config, so these
records change no values; they are kept because the cost model prices DRAM and L1 traffic
differently and the emitter writes them into the host program.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Optional, Sequence

from tilecraft.diagnostics import UsageTypeError, UsageValueError

from .cores import CoreRangeSet


class _TtnnEnum(Enum):
    def __repr__(self) -> str:  # ttnn prints BufferType.DRAM
        return f"{type(self).__name__}.{self.name}"

    __str__ = __repr__


class BufferType(_TtnnEnum):
    DRAM = 0
    L1 = 1


class TensorMemoryLayout(_TtnnEnum):
    """Interleaved: pages round-robin over banks. Sharded: each core holds one block of the tensor."""

    INTERLEAVED = 0
    HEIGHT_SHARDED = 1
    WIDTH_SHARDED = 2
    BLOCK_SHARDED = 3


class ShardOrientation(_TtnnEnum):
    """The order in which shards are handed to the cores of the grid."""

    ROW_MAJOR = 0
    COL_MAJOR = 1


@dataclass(frozen=True)
class ShardSpec:
    """The cores holding a sharded tensor and the (height, width) of each core's shard, in elements."""

    grid: CoreRangeSet
    shape: tuple[int, int]
    orientation: ShardOrientation = ShardOrientation.ROW_MAJOR

    def __init__(self, grid: CoreRangeSet, shard_shape: Sequence[int],
                 orientation: ShardOrientation = ShardOrientation.ROW_MAJOR) -> None:
        if not isinstance(grid, CoreRangeSet):
            raise UsageTypeError(f"ShardSpec grid must be a CoreRangeSet, got {grid!r}")
        shape = tuple(shard_shape)
        if len(shape) != 2 or not all(isinstance(d, int) and d > 0 for d in shape):
            raise UsageValueError(f"a shard shape is (height, width) of positive ints, got {shard_shape!r}")
        if not isinstance(orientation, ShardOrientation):
            raise UsageTypeError(f"ShardSpec orientation must be a ShardOrientation, got {orientation!r}")
        object.__setattr__(self, "grid", grid)
        object.__setattr__(self, "shape", shape)
        object.__setattr__(self, "orientation", orientation)

    def num_cores(self) -> int:
        return self.grid.num_cores()


@dataclass(frozen=True)
class MemoryConfig:
    """Where a tensor is stored (DRAM or L1) and how it is spread (interleaved or sharded)."""

    memory_layout: TensorMemoryLayout = TensorMemoryLayout.INTERLEAVED
    buffer_type: BufferType = BufferType.DRAM
    shard_spec: Optional[ShardSpec] = None

    def __post_init__(self) -> None:
        if not isinstance(self.memory_layout, TensorMemoryLayout):
            raise UsageTypeError(f"memory_layout must be a TensorMemoryLayout, got {self.memory_layout!r}")
        if not isinstance(self.buffer_type, BufferType):
            raise UsageTypeError(f"buffer_type must be a BufferType, got {self.buffer_type!r}")
        if self.shard_spec is not None and not self.is_sharded():
            raise UsageValueError("an interleaved MemoryConfig takes no shard_spec")

    def is_sharded(self) -> bool:
        return self.memory_layout is not TensorMemoryLayout.INTERLEAVED

    def __repr__(self) -> str:
        return (f"MemoryConfig(memory_layout={self.memory_layout!r}, buffer_type={self.buffer_type!r}, "
                f"shard_spec={self.shard_spec!r})")


DRAM_MEMORY_CONFIG = MemoryConfig(TensorMemoryLayout.INTERLEAVED, BufferType.DRAM)
L1_MEMORY_CONFIG = MemoryConfig(TensorMemoryLayout.INTERLEAVED, BufferType.L1)


def as_memory_config(value: object) -> MemoryConfig:
    """Check a user's memory_config argument (None means DRAM interleaved, ttnn's default)."""
    if value is None:
        return DRAM_MEMORY_CONFIG
    if not isinstance(value, MemoryConfig):
        raise UsageTypeError(f"memory_config must be a ttnn.MemoryConfig such as ttnn.DRAM_MEMORY_CONFIG, got {value!r}")
    return value
