"""Ops that move or re-encode values without arithmetic: transpose, reshape, typecast, to_layout, clone.

typecast, to_layout and clone are separate primitives with the same values rule (the identity)
because they cost and lower differently: a format conversion, a (un)tilize, a plain copy.
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


def _identity(x: torch.Tensor) -> torch.Tensor:
    return x


typecast_p = DevicePrimitive("typecast", same_type, _identity)
to_layout_p = DevicePrimitive("to_layout", same_type, _identity)
clone_p = DevicePrimitive("clone", same_type, _identity)


def typecast(input_tensor: Tensor, dtype: DataFormat, *, memory_config: Optional[MemoryConfig] = None) -> Tensor:
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


def reshape(input_tensor: Tensor, shape: Iterable[int], *, memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """The same values, row-major order, in ``shape`` (one dim may be -1)."""
    dims = tuple(shape) if isinstance(shape, Iterable) else (shape,)
    return reshape_p.bind(input_tensor, shape=dims, memory_config=memory_config)
