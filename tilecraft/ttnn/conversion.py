"""Moving tensors between torch, the host and (simulated) devices: ``from_torch`` and ``to_torch``.

``from_torch`` takes the format from the torch dtype unless told otherwise, and makes tile-layout
tensors unless told otherwise (as the published TT-Lang simulator does; real ttnn keeps
row-major, see :func:`.layout.given_or_default`); a ``device`` that is a mesh with no
``mesh_mapper`` gets the tensor replicated on every chip.
"""

from __future__ import annotations

from typing import Callable, Optional

import torch

from tilecraft.diagnostics import UsageTypeError, UsageValueError, type_name
from tilecraft.dtypes import DataFormat

from .capacity import check_fits_dram
from .datatype import as_data_format, format_of_torch
from .device import DeviceHandle
from .layout import Layout, Shape, given_or_default
from .memory import MemoryConfig, as_memory_config
from .mesh import MeshDevice, MeshToTensor, ReplicateTensorToMesh, TensorToMesh
from .mesh_mapping import default_mapper
from .tensor import Tensor


def from_torch(tensor: torch.Tensor, dtype: Optional[DataFormat] = None, *,
               layout: Optional[Layout] = None, device: Optional[DeviceHandle] = None,
               memory_config: Optional[MemoryConfig] = None, mesh_mapper: Optional[TensorToMesh] = None,
               pad_value: Optional[float] = None) -> Tensor:
    """A ttnn tensor holding ``tensor``'s values rounded into ``dtype`` (a copy: later writes to either
    side do not reach the other).

    With ``mesh_mapper`` the tensor is split (or replicated) over the mapper's mesh, and ``device``
    must be that mesh or None (the pieces then stay on the host). Tile padding holds
    ``pad_value`` (zero when None, as in ttnn).
    """
    if not isinstance(tensor, torch.Tensor):
        raise UsageTypeError(f"from_torch takes a torch.Tensor, got {type_name(tensor)}")
    fmt = format_of_torch(tensor.dtype) if dtype is None else as_data_format(dtype)
    layout, defaulted_at = given_or_default(layout)
    config = as_memory_config(memory_config)
    pad = 0.0 if pad_value is None else pad_value
    if mesh_mapper is None:
        mesh_mapper = default_mapper()
    if mesh_mapper is None and isinstance(device, MeshDevice):
        mesh_mapper = ReplicateTensorToMesh(device)
    if mesh_mapper is None:
        check_fits_dram(Shape(tensor.shape), fmt, layout, device)
        host = Tensor.from_values(tensor, fmt, layout, memory_config=config, pad_value=pad)
    else:
        if not isinstance(mesh_mapper, TensorToMesh):
            raise UsageTypeError(f"mesh_mapper must be ShardTensorToMesh or ReplicateTensorToMesh, got {mesh_mapper!r}")
        if device is not None and device is not mesh_mapper.mesh:
            raise UsageValueError(f"mesh_mapper maps onto {mesh_mapper.mesh!r} but device is {device!r}")
        pieces = mesh_mapper.map(tensor)
        for piece in pieces:
            check_fits_dram(Shape(piece.shape), fmt, layout, mesh_mapper.mesh)
        host = Tensor.on_mesh(
            [Tensor.from_values(p, fmt, layout, memory_config=config, pad_value=pad) for p in pieces],
            mesh_mapper.mesh)
    host.note_default_layout(defaulted_at)
    return host if device is None else host.to(device)


def to_torch(tensor: Tensor, dtype: Optional[torch.dtype] = None, *,
             mesh_composer: Optional[MeshToTensor] = None) -> torch.Tensor:
    """The logical values of ``tensor`` as a fresh torch tensor (see :meth:`Tensor.to_torch`).

    bfloat16 and the block-float formats come back as torch.bfloat16, float32 as torch.float32.
    """
    if not isinstance(tensor, Tensor):
        raise UsageTypeError(f"to_torch takes a ttnn.Tensor, got {type_name(tensor)}")
    return tensor.to_torch(mesh_composer=mesh_composer, dtype=dtype)


def to_device(tensor: Tensor, device: DeviceHandle, memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """``tensor`` placed on ``device`` (the storage is shared, not copied)."""
    return tensor.to(device, memory_config)


def from_device(tensor: Tensor) -> Tensor:
    """``tensor`` on the host (the storage is shared, not copied)."""
    return tensor.cpu()


def as_tensor(tensor: torch.Tensor, dtype: Optional[DataFormat] = None, *, layout: Optional[Layout] = None,
              device: Optional[DeviceHandle] = None, memory_config: Optional[MemoryConfig] = None,
              cache_file_name: Optional[str] = None, preprocess: Optional[Callable[[torch.Tensor], torch.Tensor]] = None,
              mesh_mapper: Optional[TensorToMesh] = None, use_device_tilizer: bool = False) -> Tensor:
    """:func:`from_torch` of ``preprocess(tensor)``, as models load weights. ttnn also writes the
    converted tensor to ``cache_file_name`` to skip the conversion next time; the simulator converts
    each time and writes no file."""
    if preprocess is not None:
        tensor = preprocess(tensor)
    return from_torch(tensor, dtype, layout=layout, device=device, memory_config=memory_config,
                      mesh_mapper=mesh_mapper)


def copy_host_to_device_tensor(host_tensor: Tensor, device_tensor: Tensor, cq_id: int = 0) -> None:
    """Write a host tensor's values into an allocated device tensor of the same shape, dtype and
    layout (how traced models feed each step's inputs)."""
    for value, name in ((host_tensor, "host_tensor"), (device_tensor, "device_tensor")):
        if not isinstance(value, Tensor):
            raise UsageTypeError(f"ttnn.copy_host_to_device_tensor: {name} must be a ttnn.Tensor, got {type_name(value)}")
    if device_tensor.device() is None:
        raise UsageValueError("ttnn.copy_host_to_device_tensor: device_tensor is on the host; allocate it on the "
                              "device (ttnn.allocate_tensor_on_device)")
    mine = (device_tensor.shape, device_tensor.dtype, device_tensor.layout)
    theirs = (host_tensor.shape, host_tensor.dtype, host_tensor.layout)
    if mine != theirs:
        raise UsageValueError(f"ttnn.copy_host_to_device_tensor: the host tensor ({theirs[0]}, {theirs[1].name}, "
                              f"{theirs[2]}) differs from the device tensor ({mine[0]}, {mine[1].name}, {mine[2]})")
    device_tensor.overwrite(host_tensor)
