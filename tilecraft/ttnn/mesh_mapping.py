"""Mesh mappers from placements, as newer model code writes them: ``ttnn.create_mesh_mapper(mesh,
ttnn.MeshMapperConfig([ttnn.PlacementShard(dim), ttnn.PlacementReplicate()]))``, one placement per
mesh axis (or one for the mesh seen as a line), and ``ttnn.distribute(mapper)``, which makes a mapper
the default of the ``from_torch`` / ``as_tensor`` calls inside its ``with`` block.
"""

from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass
from typing import Iterator, Optional, Sequence, Union

from tilecraft.diagnostics import UsageTypeError, UsageValueError

from .mesh import MeshDevice, ReplicateTensorToMesh, ShardTensor2dMesh, ShardTensorToMesh, TensorToMesh


@dataclass(frozen=True)
class PlacementShard:
    """Split the tensor's ``dim`` over a mesh axis."""

    dim: int


@dataclass(frozen=True)
class PlacementReplicate:
    """Give every device along a mesh axis the whole tensor."""


Placement = Union[PlacementShard, PlacementReplicate]


@dataclass(frozen=True)
class MeshMapperConfig:
    """One placement per mesh axis (rows, then columns), or one for the whole mesh as a line."""

    placements: Sequence[Placement]
    mesh_shape_override: Optional[object] = None


def create_mesh_mapper(mesh_device: MeshDevice, config: MeshMapperConfig) -> TensorToMesh:
    """The mapper ``config`` describes, as ShardTensorToMesh / ShardTensor2dMesh / ReplicateTensorToMesh."""
    if not isinstance(mesh_device, MeshDevice) or not isinstance(config, MeshMapperConfig):
        raise UsageTypeError(f"create_mesh_mapper takes a MeshDevice and a MeshMapperConfig, got {mesh_device!r}, "
                             f"{config!r}")
    placements = list(config.placements)
    if not all(isinstance(p, (PlacementShard, PlacementReplicate)) for p in placements) or len(placements) not in (1, 2):
        raise UsageValueError(f"MeshMapperConfig takes one or two ttnn.PlacementShard / ttnn.PlacementReplicate, "
                              f"got {placements!r}")
    if len(placements) == 1:
        only = placements[0]
        return ShardTensorToMesh(mesh_device, only.dim) if isinstance(only, PlacementShard) \
            else ReplicateTensorToMesh(mesh_device)
    dims = [p.dim if isinstance(p, PlacementShard) else None for p in placements]
    return ShardTensor2dMesh(mesh_device, tuple(mesh_device.shape), dims)


_DEFAULT_MAPPER: contextvars.ContextVar[Optional[TensorToMesh]] = contextvars.ContextVar("default_mapper",
                                                                                         default=None)


@contextlib.contextmanager
def distribute(mapper: TensorToMesh) -> Iterator[None]:
    """Inside the block, ``from_torch`` and ``as_tensor`` calls that name no ``mesh_mapper`` use ``mapper``."""
    if not isinstance(mapper, TensorToMesh):
        raise UsageTypeError(f"ttnn.distribute takes a mesh mapper such as ttnn.ReplicateTensorToMesh(mesh), "
                             f"got {mapper!r}")
    token = _DEFAULT_MAPPER.set(mapper)
    try:
        yield
    finally:
        _DEFAULT_MAPPER.reset(token)


def default_mapper() -> Optional[TensorToMesh]:
    """The mapper of the innermost ``ttnn.distribute`` block, if any."""
    return _DEFAULT_MAPPER.get()
