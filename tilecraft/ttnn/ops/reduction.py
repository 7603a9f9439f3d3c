"""Reductions over dims (sum, mean, max), softmax (and its in-place, scaled and masked forms), which
normalises along one dim, and argmax / topk, which find the largest values.

``dim`` is an int, a sequence of ints or None (every dim); ``keepdim`` keeps reduced dims as 1,
and is False by default, as in ttnn and torch.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Optional, Sequence, Union

import torch

from tilecraft import dtypes
from tilecraft.diagnostics import UsageValueError
from tilecraft.dtypes import DataFormat

from ..compute_config import as_compute_kernel_config
from ..layout import Layout, Shape, normalize_dim
from ..memory import MemoryConfig
from ..primitives import DevicePrimitive, TensorType
from ..tensor import Tensor
from ..trace import traced
from .outputs import into
from .rules import broadcast

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


def _softmax_rule(x: TensorType, *others: TensorType, dim: int, scale: Optional[float], stable: bool) -> TensorType:
    normalize_dim(dim, x.shape.rank)
    if others and broadcast(others[0].shape, x.shape) != x.shape:
        raise ValueError(f"the mask of shape {others[0].shape} does not broadcast to the input's {x.shape}")
    return x


def _softmax_impl(x: torch.Tensor, *others: torch.Tensor, dim: int, scale: Optional[float],
                  stable: bool) -> torch.Tensor:
    x = x.float() * (1.0 if scale is None else scale)
    if others:
        x = x + others[0].float()
    if stable:
        return torch.softmax(x, dim, dtype=torch.float32)
    exps = torch.exp(x)  # without the maximum subtracted first, as the kernel does: large inputs overflow
    return exps / exps.sum(dim, keepdim=True)


softmax_p = DevicePrimitive("softmax", _softmax_rule, _softmax_impl)


def softmax(input_tensor: Tensor, dim: int = -1, *, dtype: Optional[DataFormat] = None,
            memory_config: Optional[MemoryConfig] = None, compute_kernel_config: object = None,
            numeric_stable: bool = True) -> Tensor:
    """exp(x) / sum(exp(x)) along ``dim`` in fp32; with ``numeric_stable`` (the default) the maximum
    is subtracted first, without it large inputs overflow as on the device."""
    as_compute_kernel_config(compute_kernel_config)
    return softmax_p.bind(input_tensor, dim=dim, dtype=dtype, memory_config=memory_config, scale=None,
                          stable=bool(numeric_stable))


@traced
def softmax_in_place(input_tensor: Tensor, dim: int = -1, *, program_config: object = None,
                     compute_kernel_config: object = None, numeric_stable: bool = False) -> Tensor:
    """:func:`softmax` written into the input tensor (numerically unstable by default, as in ttnn)."""
    as_compute_kernel_config(compute_kernel_config)
    return input_tensor.overwrite(softmax_p.bind(input_tensor, dim=dim, scale=None, stable=bool(numeric_stable)))


@traced
def scale_mask_softmax_in_place(input_tensor: Tensor, scale: Optional[float] = None, mask: Optional[Tensor] = None,
                                *, program_config: object = None, is_causal_mask: bool = False,
                                compute_kernel_config: object = None, numeric_stable: bool = False) -> Tensor:
    """softmax(input * scale + mask) over the last dim, written into the input tensor."""
    as_compute_kernel_config(compute_kernel_config)
    operands = (input_tensor,) if mask is None else (input_tensor, mask)
    return input_tensor.overwrite(softmax_p.bind(*operands, dim=-1, scale=scale, stable=bool(numeric_stable)))


# -- argmax and topk: positions of the largest values ------------------------------------------------

def _argmax_rule(x: TensorType, *, dim: Optional[int], keepdim: bool) -> TensorType:
    if x.layout is not Layout.ROW_MAJOR:
        raise ValueError("the input must be row-major (ttnn.to_layout(x, ttnn.ROW_MAJOR_LAYOUT))")
    if dim is None:
        shape = Shape((1,) * x.shape.rank if keepdim else ())
    else:
        shape = _reduce_rule(x, dim=dim, keepdim=keepdim).shape
    return TensorType(shape, dtypes.uint32, Layout.ROW_MAJOR)


def _argmax_impl(x: torch.Tensor, *, dim: Optional[int], keepdim: bool) -> torch.Tensor:
    if dim is None:
        index = torch.argmax(x.reshape(-1))
        return index.reshape((1,) * x.dim()) if keepdim else index
    return torch.argmax(x, dim=dim, keepdim=keepdim)


argmax_p = DevicePrimitive("argmax", _argmax_rule, _argmax_impl)


def argmax(input_tensor: Tensor, dim: Optional[int] = None, keepdim: bool = False, *, sub_core_grids: object = None,
           use_multicore: bool = False, memory_config: Optional[MemoryConfig] = None,
           output_tensor: Optional[Tensor] = None) -> Tensor:
    """The uint32 position of the largest value along ``dim`` (in the flattened tensor when None)."""
    return into(argmax_p.bind(input_tensor, memory_config=memory_config, dim=dim, keepdim=bool(keepdim)),
                output_tensor, "ttnn.argmax")


def _topk_rule(x: TensorType, *, k: int, dim: int, largest: bool, indices: bool) -> TensorType:
    axis = normalize_dim(dim, x.shape.rank)
    if not isinstance(k, int) or not 0 < k <= x.shape[axis]:
        raise ValueError(f"k={k!r} must be in [1, {x.shape[axis]}] for dim {dim} of {x.shape}")
    shape = Shape(k if i == axis else n for i, n in enumerate(x.shape))
    return replace(x, shape=shape, dtype=dtypes.uint16 if indices else x.dtype)


def _topk_impl(x: torch.Tensor, *, k: int, dim: int, largest: bool, indices: bool) -> torch.Tensor:
    found = torch.topk(x, k, dim=dim, largest=largest, sorted=True)
    return found.indices if indices else found.values


topk_p = DevicePrimitive("topk", _topk_rule, _topk_impl)


def topk(input_tensor: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True, *,  # noqa: A002
         memory_config: Optional[MemoryConfig] = None, sub_core_grids: object = None) -> tuple[Tensor, Tensor]:
    """The ``k`` largest (smallest) values along ``dim``, sorted, and their uint16 positions."""
    return tuple(topk_p.bind(input_tensor, memory_config=memory_config, k=k, dim=dim, largest=bool(largest),
                             indices=part) for part in (False, True))  # type: ignore[return-value]


def fast_reduce_nc(input_tensor: Tensor, *, dims: Sequence[int] = (0, 1), output: None = None,
                   compute_kernel_config: object = None, memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """The sum over ``dims`` among the two outer dims (N and C), kept as dims of 1: how models add up
    the pieces an all-gather stacked."""
    dims = tuple(dims)
    if not dims or any(normalize_dim(d, input_tensor.shape.rank, "ttnn.experimental.fast_reduce_nc") > 1
                       for d in dims) or input_tensor.shape.rank < 3:
        raise UsageValueError(f"ttnn.experimental.fast_reduce_nc sums over the N and C dims (0, 1) of a tensor of rank "
                              f"3 or more; got dims {list(dims)} of {input_tensor.shape}")
    as_compute_kernel_config(compute_kernel_config)
    return sum_p.bind(input_tensor, dim=dims, keepdim=True, memory_config=memory_config)
