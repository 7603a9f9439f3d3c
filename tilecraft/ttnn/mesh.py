"""Meshes of simulated devices and the maps between one host tensor and one tensor per device.

A mesh is a rows x cols grid of chips; device ``i`` sits at row ``i // cols``, column
``i % cols`` (row-major, as ttnn numbers them). Mappers split a host torch tensor into the
per-device pieces (``ShardTensorToMesh`` cuts it along a dim, ``ReplicateTensorToMesh`` copies
it); composers join per-device pieces back (``ConcatMeshToTensor``). The fabric config chosen
before a mesh opens is recorded on it, because collectives need a fabric between its chips.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Optional, Sequence

import torch

from tilecraft import session
from tilecraft.diagnostics import UsageTypeError, UsageValueError

from .device import Device, DeviceHandle, simulated_devices
from .layout import normalize_dim


class FabricConfig(Enum):
    """The chip-to-chip routing set up when a mesh opens (ttnn's default is DISABLED)."""

    DISABLED = 0
    FABRIC_1D = 1
    FABRIC_1D_RING = 2
    FABRIC_2D = 3

    def __repr__(self) -> str:
        return f"FabricConfig.{self.name}"

    __str__ = __repr__


_fabric_config = FabricConfig.DISABLED


def set_fabric_config(config: FabricConfig) -> None:
    """Choose the fabric that meshes opened from now on will have (as ttnn, call it before opening)."""
    global _fabric_config
    if not isinstance(config, FabricConfig):
        raise UsageTypeError(f"set_fabric_config takes a ttnn.FabricConfig such as FabricConfig.FABRIC_1D, got {config!r}")
    _fabric_config = config


class MeshShape(tuple):
    """``MeshShape(rows, cols)`` (or ``MeshShape((rows, cols))``): the grid of chips in a mesh."""

    def __new__(cls, *dims: Any) -> "MeshShape":
        if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
            dims = tuple(dims[0])
        if len(dims) != 2 or not all(isinstance(d, int) and d > 0 for d in dims):
            raise UsageValueError(f"a mesh shape is (rows, cols) of positive ints, got {dims!r}")
        return super().__new__(cls, dims)

    def mesh_size(self) -> int:
        return self[0] * self[1]

    def __repr__(self) -> str:
        return f"MeshShape([{self[0]}, {self[1]}])"

    __str__ = __repr__


class MeshDevice(DeviceHandle):
    """A rows x cols mesh of simulated chips, opened with :func:`open_mesh_device`."""

    def __init__(self, shape: MeshShape, fabric_config: FabricConfig) -> None:
        super().__init__(session.options().arch)
        self._devices = [Device(i, self._arch.name) for i in range(shape.mesh_size())]
        self._shape = shape
        self.fabric_config = fabric_config

    @property
    def shape(self) -> MeshShape:
        return self._shape

    def get_num_devices(self) -> int:
        return len(self._devices)

    def get_devices(self) -> list[Device]:
        return list(self._devices)

    def get_device_ids(self) -> list[int]:
        return [d.device_id for d in self._devices]

    def device_groups(self, cluster_axis: Optional[int]) -> list[list[int]]:
        """Indices of the devices a collective combines: all of them, or each column (axis 0) or row (axis 1)."""
        rows, cols = self._shape
        if cluster_axis is None:
            return [list(range(rows * cols))]
        if cluster_axis == 0:
            return [[r * cols + c for r in range(rows)] for c in range(cols)]
        if cluster_axis == 1:
            return [[r * cols + c for c in range(cols)] for r in range(rows)]
        raise UsageValueError(
            f"cluster_axis must be None (the whole mesh), 0 (each mesh column) or 1 (each mesh row), got {cluster_axis!r}")

    def close(self) -> None:
        super().close()
        for device in self._devices:
            device.close()

    def __repr__(self) -> str:
        rows, cols = self._shape
        return f"MeshDevice({rows}x{cols}, fabric={self.fabric_config.name})"


def open_mesh_device(mesh_shape: MeshShape, **tuning: Any) -> MeshDevice:
    """Open a mesh of simulated chips with the fabric last set by :func:`set_fabric_config`.

    ttnn's tuning options are accepted and ignored, as in :func:`~tilecraft.ttnn.device.open_device`.
    """
    if not isinstance(mesh_shape, MeshShape):
        mesh_shape = MeshShape(mesh_shape)
    if mesh_shape.mesh_size() > simulated_devices():
        raise UsageValueError(
            f"a {mesh_shape[0]}x{mesh_shape[1]} mesh needs {mesh_shape.mesh_size()} devices; "
            f"the simulated system has {simulated_devices()}",
            hint="tilecraft run --devices N (or TILECRAFT_DEVICES=N) simulates a system of N chips")
    return MeshDevice(mesh_shape, _fabric_config)


def close_mesh_device(mesh_device: MeshDevice) -> None:
    if not isinstance(mesh_device, MeshDevice):
        raise UsageTypeError(f"close_mesh_device takes a MeshDevice, got {mesh_device!r}")
    mesh_device.close()


class TensorToMesh:
    """Splits one host torch tensor into one tensor per device of ``mesh_device`` (device order)."""

    def __init__(self, mesh_device: MeshDevice) -> None:
        if not isinstance(mesh_device, MeshDevice):
            raise UsageTypeError(f"{type(self).__name__} takes a MeshDevice from ttnn.open_mesh_device, got {mesh_device!r}")
        self.mesh = mesh_device

    def map(self, tensor: torch.Tensor) -> list[torch.Tensor]:
        raise NotImplementedError


class ShardTensorToMesh(TensorToMesh):
    """Cut a tensor into equal, contiguous pieces along ``dim``; device ``i`` gets piece ``i``."""

    def __init__(self, mesh_device: MeshDevice, dim: int) -> None:
        super().__init__(mesh_device)
        self.dim = dim

    def map(self, tensor: torch.Tensor) -> list[torch.Tensor]:
        dim = normalize_dim(self.dim, tensor.dim(), "ShardTensorToMesh")
        n = self.mesh.get_num_devices()
        if tensor.shape[dim] % n:
            raise UsageValueError(
                f"ShardTensorToMesh: dim {dim} of shape {list(tensor.shape)} has size {tensor.shape[dim]}, "
                f"which does not split evenly over {n} devices"
            )
        return list(tensor.split(tensor.shape[dim] // n, dim))

    def __repr__(self) -> str:
        return f"ShardTensorToMesh({self.mesh!r}, dim={self.dim})"


class ShardTensor2dMesh(TensorToMesh):
    """Cut a tensor over a 2-D mesh: mesh rows split ``dims[0]``, mesh columns split ``dims[1]``.

    Device ``(r, c)`` (device ``r * cols + c``) gets piece ``r`` along ``dims[0]`` and piece ``c``
    along ``dims[1]``; a ``None`` dim leaves that mesh axis with whole copies.
    """

    def __init__(self, mesh_device: MeshDevice, mesh_shape: Sequence[int], dims: Sequence[Optional[int]]) -> None:
        super().__init__(mesh_device)
        if tuple(mesh_shape) != tuple(mesh_device.shape):
            raise ValueError(f"ShardTensor2dMesh: mesh_shape {tuple(mesh_shape)} is not the shape of {mesh_device!r}")
        if len(dims) != 2:
            raise ValueError(f"ShardTensor2dMesh takes two dims (mesh rows, mesh columns), got {dims!r}")
        self.mesh_shape = tuple(mesh_shape)
        self.dims = tuple(dims)

    def map(self, tensor: torch.Tensor) -> list[torch.Tensor]:
        rows, cols = self.mesh_shape
        row_pieces = self._split(tensor, self.dims[0], rows)
        return [piece for row in row_pieces for piece in self._split(row, self.dims[1], cols)]

    @staticmethod
    def _split(tensor: torch.Tensor, dim: Optional[int], parts: int) -> list[torch.Tensor]:
        if dim is None:
            return [tensor] * parts
        axis = normalize_dim(dim, tensor.dim(), "ShardTensor2dMesh")
        if tensor.shape[axis] % parts:
            raise ValueError(
                f"ShardTensor2dMesh: dim {axis} of shape {list(tensor.shape)} has size {tensor.shape[axis]}, "
                f"which does not split evenly over {parts} devices"
            )
        return list(tensor.split(tensor.shape[axis] // parts, axis))

    def __repr__(self) -> str:
        return f"ShardTensor2dMesh({self.mesh!r}, mesh_shape={self.mesh_shape}, dims={self.dims})"


class ReplicateTensorToMesh(TensorToMesh):
    """Give every device of the mesh the whole tensor."""

    def map(self, tensor: torch.Tensor) -> list[torch.Tensor]:
        return [tensor] * self.mesh.get_num_devices()

    def __repr__(self) -> str:
        return f"ReplicateTensorToMesh({self.mesh!r})"


class MeshToTensor:
    """Joins the per-device host tensors of a mesh tensor (device order) into one torch tensor."""

    def compose(self, pieces: Sequence[torch.Tensor]) -> torch.Tensor:
        raise NotImplementedError


class ConcatMeshToTensor(MeshToTensor):
    """Concatenate the devices' tensors along ``dim`` (replicated tensors come back n times over)."""

    def __init__(self, mesh_device: MeshDevice, dim: int) -> None:
        if not isinstance(mesh_device, MeshDevice):
            raise UsageTypeError(f"ConcatMeshToTensor takes a MeshDevice from ttnn.open_mesh_device, got {mesh_device!r}")
        self.mesh = mesh_device
        self.dim = dim

    def compose(self, pieces: Sequence[torch.Tensor]) -> torch.Tensor:
        dim = normalize_dim(self.dim, pieces[0].dim(), "ConcatMeshToTensor")
        return torch.cat(list(pieces), dim)

    def __repr__(self) -> str:
        return f"ConcatMeshToTensor({self.mesh!r}, dim={self.dim})"
