"""Reductions over dims (sum, mean, max) and softmax, which normalises along one dim.

``dim`` is an int, a sequence of ints or None (every dim); ``keepdim`` keeps reduced dims as 1,
and is False by default, as in ttnn and torch.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Optional, Sequence, Union

import torch

from tilecraft.diagnostics import UsageValueError
from tilecraft.dtypes import DataFormat

from ..layout import Shape, normalize_dim
from ..memory import MemoryConfig
from ..primitives import DevicePrimitive, TensorType
from ..tensor import Tensor
from .rules import same_type

Dims = Union[int, Sequence[int], None]


def _reduced_dims(shape: Shape, dim: Dims) -> tuple[int, ...]:
    if dim is None:
        return tuple(range(shape.rank))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    normalized = tuple(sorted({normalize_dim(d, shape.rank) for d in dims}))
    if len(normalized) != len(dims):
        raise UsageValueError(f"dims {list(dims)} name a dim of shape {shape} twice")
    return normalized


def _reduce_rule(x: TensorType, *, dim: Dims, keepdim: bool) -> TensorType:
    dims = _reduced_dims(x.shape, dim)
    if keepdim:
        shape = Shape(1 if i in dims else n for i, n in enumerate(x.shape))
    else:
        shape = Shape(n for i, n in enumerate(x.shape) if i not in dims)
    return replace(x, shape=shape)


Reducer = Callable[[torch.Tensor, tuple[int, ...], bool], torch.Tensor]


def _reduce_impl(reducer: Reducer) -> Callable[..., torch.Tensor]:
    def impl(x: torch.Tensor, *, dim: Dims, keepdim: bool) -> torch.Tensor:
        dims = _reduced_dims(Shape(x.shape), dim)
        # torch reads an empty dim list as "every dim"; reducing no dim is the identity
        return reducer(x, dims, keepdim) if dims else x
    return impl


sum_p = DevicePrimitive("sum", _reduce_rule, _reduce_impl(lambda x, d, k: x.sum(d, keepdim=k)))
mean_p = DevicePrimitive("mean", _reduce_rule,
                        _reduce_impl(lambda x, d, k: x.to(torch.float32).mean(d, keepdim=k)))
max_p = DevicePrimitive("max", _reduce_rule, _reduce_impl(lambda x, d, k: torch.amax(x, d, keepdim=k)))


def sum(input_tensor: Tensor, dim: Dims = None, keepdim: bool = False, *,  # noqa: A001 (ttnn's name)
        dtype: Optional[DataFormat] = None, memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """Sum over ``dim`` (every dim when None)."""
    return sum_p.bind(input_tensor, dim=dim, keepdim=bool(keepdim), dtype=dtype, memory_config=memory_config)


def mean(input_tensor: Tensor, dim: Dims = None, keepdim: bool = False, *,
         dtype: Optional[DataFormat] = None, memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """Mean over ``dim`` (every dim when None)."""
    return mean_p.bind(input_tensor, dim=dim, keepdim=bool(keepdim), dtype=dtype, memory_config=memory_config)


def max(input_tensor: Tensor, dim: Dims = None, keepdim: bool = False, *,  # noqa: A001 (ttnn's name)
        dtype: Optional[DataFormat] = None, memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """Largest value over ``dim`` (every dim when None); values only, no indices."""
    return max_p.bind(input_tensor, dim=dim, keepdim=bool(keepdim), dtype=dtype, memory_config=memory_config)


def _softmax_rule(x: TensorType, *, dim: int) -> TensorType:
    normalize_dim(dim, x.shape.rank)
    return same_type(x)


def _softmax_impl(x: torch.Tensor, *, dim: int) -> torch.Tensor:
    return torch.softmax(x, dim, dtype=torch.float32)


softmax_p = DevicePrimitive("softmax", _softmax_rule, _softmax_impl)


def softmax(input_tensor: Tensor, dim: int = -1, *, dtype: Optional[DataFormat] = None,
            memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """exp(x) / sum(exp(x)) along ``dim``, computed stably (max subtracted) in fp32."""
    return softmax_p.bind(input_tensor, dim=dim, dtype=dtype, memory_config=memory_config)
