"""Ops that move or re-encode values without arithmetic: transpose, reshape, squeeze, repeat, typecast,
to_layout, clone.

typecast, to_layout, to_memory_config and clone are separate primitives with the same values rule
(the identity) because they cost and lower differently: a format conversion, a (un)tilize, a move
between DRAM and L1 (or a resharding), a plain copy.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Iterable, Optional

import torch

from tilecraft.diagnostics import UsageTypeError, UsageValueError
from tilecraft.dtypes import DataFormat

from ..layout import Layout, Shape, normalize_dim
from ..memory import MemoryConfig
from ..primitives import DevicePrimitive, TensorType
from ..tensor import Tensor
from .rules import same_type


def identity(x: torch.Tensor) -> torch.Tensor:
    """The impl of ops that move or re-encode values without changing them."""
    return x


typecast_p = DevicePrimitive("typecast", same_type, identity)
to_layout_p = DevicePrimitive("to_layout", same_type, identity)
clone_p = DevicePrimitive("clone", same_type, identity)
to_memory_config_p = DevicePrimitive("to_memory_config", same_type, identity)


def typecast(input_tensor: Tensor, dtype: DataFormat, *, memory_config: Optional[MemoryConfig] = None,
             sub_core_grids: object = None) -> Tensor:
    """The values rounded into ``dtype``."""
    if dtype is None:
        raise UsageTypeError("ttnn.typecast needs the dtype to convert to")
    return typecast_p.bind(input_tensor, dtype=dtype, memory_config=memory_config)


def to_layout(input_tensor: Tensor, layout: Layout, *, dtype: Optional[DataFormat] = None,
              memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """The same values in ``layout``: tile layout pads to whole tiles, row-major drops the padding."""
    if not isinstance(layout, Layout):
        raise UsageTypeError(f"ttnn.to_layout takes ttnn.TILE_LAYOUT or ttnn.ROW_MAJOR_LAYOUT, got {layout!r}")
    return to_layout_p.bind(input_tensor, layout=layout, dtype=dtype, memory_config=memory_config)


def to_memory_config(input_tensor: Tensor, memory_config: MemoryConfig, dtype: Optional[DataFormat] = None) -> Tensor:
    """The same values placed as ``memory_config`` says (DRAM or L1, interleaved or sharded)."""
    if memory_config is None:
        raise TypeError("ttnn.to_memory_config needs the memory config to move the tensor to")
    return to_memory_config_p.bind(input_tensor, dtype=dtype, memory_config=memory_config)


def clone(input_tensor: Tensor, *, dtype: Optional[DataFormat] = None,
          memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """A copy with its own storage."""
    return clone_p.bind(input_tensor, dtype=dtype, memory_config=memory_config)


def _transpose_rule(x: TensorType, *, dim0: int, dim1: int) -> TensorType:
    dims = list(x.shape)
    a, b = normalize_dim(dim0, x.shape.rank), normalize_dim(dim1, x.shape.rank)
    dims[a], dims[b] = dims[b], dims[a]
    return replace(x, shape=Shape(dims))


def _transpose_impl(x: torch.Tensor, *, dim0: int, dim1: int) -> torch.Tensor:
    return x.transpose(dim0, dim1)


transpose_p = DevicePrimitive("transpose", _transpose_rule, _transpose_impl)


def transpose(input_tensor: Tensor, dim0: int, dim1: int, *, dtype: Optional[DataFormat] = None,
              memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """Swap dims ``dim0`` and ``dim1``."""
    return transpose_p.bind(input_tensor, dim0=dim0, dim1=dim1, dtype=dtype, memory_config=memory_config)


def _target_shape(source: Shape, requested: Iterable[int]) -> Shape:
    """``requested`` with at most one -1 inferred from the volume, or a ValueError naming both shapes."""
    dims = [int(d) for d in requested]
    if any(d < -1 for d in dims) or dims.count(-1) > 1:
        raise UsageValueError(f"cannot reshape {source} to {dims}: dims are non-negative, with at most one -1")
    if -1 in dims:
        known = math.prod(d for d in dims if d != -1)
        if known == 0 or source.volume() % known:
            raise UsageValueError(f"cannot reshape {source} ({source.volume()} elements) to {dims}")
        dims[dims.index(-1)] = source.volume() // known
    target = Shape(dims)
    if target.volume() != source.volume():
        raise UsageValueError(
            f"cannot reshape {source} ({source.volume()} elements) to {target} ({target.volume()} elements)")
    return target


def _reshape_rule(x: TensorType, *, shape: tuple[int, ...]) -> TensorType:
    return replace(x, shape=_target_shape(x.shape, shape))


def _reshape_impl(x: torch.Tensor, *, shape: tuple[int, ...]) -> torch.Tensor:
    return x.reshape(_target_shape(Shape(x.shape), shape))


reshape_p = DevicePrimitive("reshape", _reshape_rule, _reshape_impl)


def reshape(input_tensor: Tensor, shape: Iterable[int], *, memory_config: Optional[MemoryConfig] = None,
            sub_core_grids: object = None) -> Tensor:
    """The same values, row-major order, in ``shape`` (one dim may be -1)."""
    dims = tuple(shape) if isinstance(shape, Iterable) else (shape,)
    return reshape_p.bind(input_tensor, shape=dims, memory_config=memory_config)


def _squeezed_shape(source: Shape, dim: Optional[int]) -> Shape:
    """``source`` without its size-1 dims, or without ``dim`` if that one has size 1 (torch's rule)."""
    if dim is None:
        return Shape(n for n in source if n != 1)
    axis = normalize_dim(dim, source.rank)
    return Shape(n for i, n in enumerate(source) if i != axis or n != 1)


def _squeeze_rule(x: TensorType, *, dim: Optional[int]) -> TensorType:
    return replace(x, shape=_squeezed_shape(x.shape, dim))


def _squeeze_impl(x: torch.Tensor, *, dim: Optional[int]) -> torch.Tensor:
    return x.reshape(_squeezed_shape(Shape(x.shape), dim))


squeeze_p = DevicePrimitive("squeeze", _squeeze_rule, _squeeze_impl)


def squeeze(input_tensor: Tensor, dim: Optional[int] = None, *,
            memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """The same values without the dims of size 1 (only ``dim``, when given and of size 1)."""
    if dim is not None and (not isinstance(dim, int) or isinstance(dim, bool)):
        raise TypeError(f"ttnn.squeeze: dim is an int or None, got {dim!r}")
    return squeeze_p.bind(input_tensor, dim=dim, memory_config=memory_config)


def _repeats(source: Shape, repeats: tuple[int, ...]) -> tuple[int, ...]:
    """One count per dim of the result: missing leading counts are 1, as in torch.Tensor.repeat."""
    if len(repeats) < source.rank:
        raise ValueError(f"{len(repeats)} repeat counts {list(repeats)} for a tensor of rank {source.rank}; "
                         "give at least one count per dim")
    if any(r < 0 for r in repeats):
        raise ValueError(f"repeat counts must be non-negative, got {list(repeats)}")
    return repeats


def _repeat_rule(x: TensorType, *, repeats: tuple[int, ...]) -> TensorType:
    counts = _repeats(x.shape, repeats)
    dims = (1,) * (len(counts) - x.shape.rank) + tuple(x.shape)
    return replace(x, shape=Shape(n * r for n, r in zip(dims, counts)))


def _repeat_impl(x: torch.Tensor, *, repeats: tuple[int, ...]) -> torch.Tensor:
    return x.repeat(_repeats(Shape(x.shape), repeats))


repeat_p = DevicePrimitive("repeat", _repeat_rule, _repeat_impl)


def repeat(input_tensor: Tensor, repetition_vector: Iterable[int], *,
           memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """The tensor tiled ``repetition_vector[i]`` times along dim ``i`` (``torch.Tensor.repeat``)."""
    if isinstance(repetition_vector, int) or not isinstance(repetition_vector, Iterable):
        raise TypeError(f"ttnn.repeat takes one repeat count per dim, e.g. (1, 2), got {repetition_vector!r}")
    counts = tuple(repetition_vector)
    if not all(isinstance(c, int) and not isinstance(c, bool) for c in counts):
        raise TypeError(f"ttnn.repeat: repeat counts are ints, got {list(counts)}")
    return repeat_p.bind(input_tensor, repeats=counts, memory_config=memory_config)
