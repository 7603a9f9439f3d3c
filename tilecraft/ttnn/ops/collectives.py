"""Collectives: ops that combine the devices of a mesh over the fabric.

Every device of a group receives the same result: ``all_reduce`` sums the devices' tensors,
``all_gather`` concatenates them along ``dim``; ``reduce_scatter_minimal_async`` sums them and
leaves each device one slice. Sums are taken in fp32 in device order and rounded once into the
tensor's dtype. The asynchronous forms complete when called, as everything does in the simulator.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Optional

import torch

from tilecraft.diagnostics import UsageTypeError, UsageValueError

from ..layout import Shape, normalize_dim
from ..memory import MemoryConfig
from ..primitives import CollectivePrimitive, TensorType
from ..tensor import Tensor
from .rules import same_type
from .shape_ops import slice


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
               memory_config: Optional[MemoryConfig] = None, num_links: int = 1, topology: object = None) -> Tensor:
    """The devices' tensors (or each column's/row's, with ``cluster_axis``) joined along ``dim``, on every
    device (``num_links`` and ``topology`` choose the fabric's paths, not what arrives)."""
    return all_gather_p.bind(input_tensor, cluster_axis=cluster_axis, memory_config=memory_config, dim=dim)


@dataclass(frozen=True)
class GlobalSemaphore:
    """A semaphore on the same cores of every chip of a mesh, which the asynchronous collectives
    synchronise on; the simulator's collectives complete when called, so it only records where it is."""

    mesh_device: object
    cores: object
    initial_value: int


def create_global_semaphore(mesh_device: object, cores: object, initial_value: int,
                            buffer_type: object = None) -> GlobalSemaphore:
    """A global semaphore on ``cores`` of every chip of ``mesh_device``, starting at ``initial_value``."""
    if not isinstance(initial_value, int):
        raise UsageTypeError(f"ttnn.create_global_semaphore: initial_value is an int, got {initial_value!r}")
    return GlobalSemaphore(mesh_device, cores, initial_value)


def all_gather_async(input_tensor: Tensor, dim: int, *, cluster_axis: Optional[int] = None,
                     memory_config: Optional[MemoryConfig] = None, persistent_output_buffer: Optional[Tensor] = None,
                     multi_device_global_semaphore: object = None, **transport: object) -> Tensor:
    """:func:`all_gather` issued asynchronously; here it completes when called. ``transport`` holds
    the fabric's tuning (``num_links``, ``topology``, ``subdevice_id``, ``barrier_semaphore``, ...),
    which changes how the data travels, not what arrives."""
    return all_gather(input_tensor, dim, cluster_axis=cluster_axis, memory_config=memory_config)


def reduce_scatter_minimal_async(input_tensor: Tensor, dim: int, *, cluster_axis: Optional[int] = None,
                                 memory_config: Optional[MemoryConfig] = None,
                                 persistent_output_buffers: object = None, multi_device_global_semaphore: object = None,
                                 **transport: object) -> Tensor:
    """The sum over the devices of each group (the mesh, or each column/row with ``cluster_axis``),
    split along ``dim``: the ``k``-th device of a group keeps the ``k``-th slice. ``transport`` as in
    :func:`all_gather_async`."""
    total = all_reduce(input_tensor, cluster_axis=cluster_axis, memory_config=memory_config)
    mesh = total.mesh_device
    axis = normalize_dim(dim, total.shape.rank, "ttnn.experimental.reduce_scatter_minimal_async")
    groups = mesh.device_groups(cluster_axis)
    if total.shape[axis] % len(groups[0]):
        raise UsageValueError(f"ttnn.experimental.reduce_scatter_minimal_async: dim {dim} of {total.shape} does not "
                              f"split evenly over {len(groups[0])} devices")
    width = total.shape[axis] // len(groups[0])
    pieces: list[Optional[Tensor]] = [None] * mesh.get_num_devices()
    shards = total.device_tensors()
    for group in groups:
        for k, i in enumerate(group):
            starts = tuple(k * width if d == axis else 0 for d in range(total.shape.rank))
            ends = tuple((k + 1) * width if d == axis else n for d, n in enumerate(total.shape))
            pieces[i] = slice(shards[i], starts, ends)
    return Tensor.on_mesh(pieces, mesh)
