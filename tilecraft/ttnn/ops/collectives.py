"""Collectives: ops that combine the devices of a mesh over the fabric.

Every device of a group receives the same result: ``all_reduce`` sums the devices' tensors,
``all_gather`` concatenates them along ``dim``. Sums are taken in fp32 in device order and
rounded once into the tensor's dtype.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Optional

import torch

from ..layout import Shape, normalize_dim
from ..memory import MemoryConfig
from ..primitives import CollectivePrimitive, TensorType
from ..tensor import Tensor
from .rules import same_type


def _all_reduce_rule(x: TensorType, *, group_size: int) -> TensorType:
    return same_type(x)


def _all_reduce_impl(values: Iterable[torch.Tensor]) -> torch.Tensor:
    pieces = iter(values)
    total = next(pieces).clone()
    for piece in pieces:
        total += piece
    return total


all_reduce_p = CollectivePrimitive("all_reduce", _all_reduce_rule, _all_reduce_impl)


def all_reduce(input_tensor: Tensor, *, cluster_axis: Optional[int] = None,
               memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """The sum over the mesh's devices (or over each column/row with ``cluster_axis`` 0/1), on every device."""
    return all_reduce_p.bind(input_tensor, cluster_axis=cluster_axis, memory_config=memory_config)


def _all_gather_rule(x: TensorType, *, group_size: int, dim: int) -> TensorType:
    d = normalize_dim(dim, x.shape.rank)
    return replace(x, shape=Shape(n * group_size if i == d else n for i, n in enumerate(x.shape)))


def _all_gather_impl(values: Iterable[torch.Tensor], *, dim: int) -> torch.Tensor:
    return torch.cat(list(values), dim)


all_gather_p = CollectivePrimitive("all_gather", _all_gather_rule, _all_gather_impl)


def all_gather(input_tensor: Tensor, dim: int, *, cluster_axis: Optional[int] = None,
               memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """The devices' tensors (or each column's/row's, with ``cluster_axis``) joined along ``dim``, on every device."""
    return all_gather_p.bind(input_tensor, cluster_axis=cluster_axis, memory_config=memory_config, dim=dim)
