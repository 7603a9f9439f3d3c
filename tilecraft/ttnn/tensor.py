"""The simulated ``ttnn.Tensor``: one host torch tensor holding exactly what the device would hold.

``storage`` is the single copy of a tensor's values: shape ``padded_shape``, torch dtype
``dtype.torch_dtype``, values already rounded into ``dtype``, tile padding filled (with zeros
unless ``from_torch`` was given a ``pad_value``). The simulator reads and writes it in place,
so a tensor is never copied per core or per use; making one tensor from another (``to``,
``cpu``) shares the storage, as placement changes no values here.

A mesh tensor holds one such tensor per device instead (``device_tensors()``); its ``shape``
is the per-device shape, which is what ttnn reports, and each device's piece has its own
storage, because kernels on different chips write their own copies.
"""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np
import torch

from tilecraft.diagnostics import Span, UsageTypeError, UsageValueError
from tilecraft.dtypes import TILE_ELEMS, DataFormat
from tilecraft.numerics import quantize

from .capacity import device_bytes
from .device import Device, DeviceHandle
from .datatype import as_data_format, format_of_torch
from .layout import Layout, Shape, given_or_default, padded_shape, storage_region
from .memory import DRAM_MEMORY_CONFIG, BufferType, MemoryConfig, as_memory_config
from .mesh import MeshDevice, MeshToTensor


class BufferAddress(int):
    """A device buffer's address as ``Tensor.buffer_address()`` returns it: an int that remembers
    its tensor, so a host that caches a program (PyKernel's ``PyKernelOp``) can tell an address
    from an equal number and use the next tensors' addresses. Arithmetic on it gives plain ints."""

    tensor: "Tensor"

    def __new__(cls, value: int, tensor: "Tensor") -> "BufferAddress":
        address = super().__new__(cls, value)
        address.tensor = tensor
        return address


class Tensor:
    """A ttnn tensor on the host or on a simulated device (see the module docstring)."""

    #: where ``ttnn.deallocate`` freed this tensor's buffer (None while it holds values)
    _deallocated_at: Optional[Span] = None

    def __init__(self, storage: torch.Tensor, *, shape: Optional[Shape] = None, dtype: Optional[DataFormat] = None,
                 layout: Optional[Layout] = None, memory_config: MemoryConfig = DRAM_MEMORY_CONFIG,
                 device: Optional[Device] = None) -> None:
        """With ``shape``: a tensor over ``storage`` already rounded and padded (the form the
        simulator's own functions use). Without it: the published form ``ttnn.Tensor(t)``, a host
        tensor holding a copy of the torch tensor ``t`` as ``from_torch`` makes one (the format of
        ``t``'s dtype unless ``dtype=``, tile layout unless ``layout=``)."""
        defaulted_at = None
        if shape is None:
            if not isinstance(storage, torch.Tensor):
                raise UsageTypeError(f"ttnn.Tensor takes a torch.Tensor, got {type(storage).__name__}",
                                     hint="or make one with ttnn.from_torch / ttnn.zeros")
            dtype = format_of_torch(storage.dtype) if dtype is None else as_data_format(dtype)
            layout, defaulted_at = given_or_default(layout)
            storage, shape = _rounded_storage(storage, dtype, layout, pad_value=0.0, owned=False)
        assert dtype is not None and layout is not None, "the storage form names its dtype and layout"
        _check_layout_fits(dtype, layout)
        expected = padded_shape(shape, layout)
        if storage.dtype != dtype.torch_dtype or storage.shape != expected or not storage.is_contiguous():
            raise UsageValueError(
                f"storage for a {dtype.name} {layout} tensor of shape {list(shape)} must be a contiguous "
                f"{dtype.torch_dtype} tensor of shape {list(expected)}; got {storage.dtype} {list(storage.shape)}"
            )
        self._storage: Optional[torch.Tensor] = storage
        self._shards: Optional[tuple[Tensor, ...]] = None
        self._mesh: Optional[MeshDevice] = None
        self._shape = shape
        self._dtype = dtype
        self._layout = layout
        self._memory_config = memory_config
        self._device: Optional[DeviceHandle] = device
        self._address: Optional[int] = None
        #: where the user made this tensor without saying its layout (see layout.given_or_default)
        self.layout_defaulted_at: Optional[Span] = defaulted_at
        if device is not None:
            _check_open(device)
            self._address = device.allocator.allocate(self._nbytes(), memory_config.buffer_type,
                                                      self._bank_bytes(device))

    @classmethod
    def from_values(cls, values: torch.Tensor, dtype: DataFormat, layout: Layout, *,
                    memory_config: MemoryConfig = DRAM_MEMORY_CONFIG, pad_value: float = 0.0,
                    owned: bool = False) -> "Tensor":
        """A host tensor holding ``values`` (its logical contents) rounded into ``dtype``
        (``_rounded_storage``)."""
        storage, shape = _rounded_storage(values, dtype, layout, pad_value=pad_value, owned=owned)
        return cls(storage, shape=shape, dtype=dtype, layout=layout, memory_config=memory_config)

    @classmethod
    def on_mesh(cls, shards: Sequence["Tensor"], mesh: MeshDevice) -> "Tensor":
        """A mesh tensor from one single-device tensor per device of ``mesh`` (all alike, all on host
        or each on its own device)."""
        shards = tuple(shards)
        if len(shards) != mesh.get_num_devices():
            raise UsageValueError(f"a tensor on {mesh!r} needs {mesh.get_num_devices()} device tensors, got {len(shards)}")
        first = shards[0]
        for shard in shards:
            if shard.is_mesh or (shard.shape, shard.dtype, shard.layout) != (first.shape, first.dtype, first.layout):
                raise UsageValueError(
                    f"device tensors of a mesh tensor must be single-device tensors alike in shape, dtype and "
                    f"layout; got {shard!r} next to {first!r}"
                )
        placed = [s.device() for s in shards]
        if placed != [None] * len(shards) and placed != mesh.get_devices():
            raise UsageValueError(f"device tensors must all be on the host or each on its own device of {mesh!r}")
        self = cls.__new__(cls)
        self._storage = None
        self._shards = shards
        self._mesh = mesh
        self._shape = first.shape
        self._dtype = first.dtype
        self._layout = first.layout
        self._memory_config = first.memory_config()
        self._device = None if placed[0] is None else mesh
        self._address = first._address
        self.layout_defaulted_at = first.layout_defaulted_at
        return self

    def note_default_layout(self, span: Optional[Span]) -> None:
        """Record that the user made this tensor (and each device's piece) without a layout."""
        self.layout_defaulted_at = span
        for piece in self._shards or ():
            piece.layout_defaulted_at = span

    # -- what ttnn reports ---------------------------------------------------------------------

    @property
    def shape(self) -> Shape:
        """The logical shape (per device, for a mesh tensor)."""
        return self._shape

    @property
    def padded_shape(self) -> Shape:
        return padded_shape(self._shape, self._layout)

    @property
    def dtype(self) -> DataFormat:
        return self._dtype

    @property
    def layout(self) -> Layout:
        return self._layout

    def get_dtype(self) -> DataFormat:
        return self._dtype

    def get_layout(self) -> Layout:
        return self._layout

    def memory_config(self) -> MemoryConfig:
        return self._memory_config

    def device(self) -> Optional[DeviceHandle]:
        """The device (or mesh) the tensor is on; None for a host tensor."""
        return self._device

    def volume(self) -> int:
        return self._shape.volume()

    def buffer_address(self) -> int:
        """A stable fake address of the device buffer (for a mesh tensor, device 0's); an int that
        remembers its tensor (:class:`BufferAddress`)."""
        if self._address is None:
            raise UsageValueError("a host tensor has no device buffer; move it to a device first (tensor.to(device))")
        return BufferAddress(self._address, self)

    # -- what the simulator uses ---------------------------------------------------------------

    @property
    def storage(self) -> torch.Tensor:
        """The padded host tensor holding the values; read and written in place by the simulator."""
        if self._deallocated_at is not None:
            at = f" at {self._deallocated_at}" if self._deallocated_at.line else ""
            raise UsageValueError(f"this tensor was deallocated{at} (ttnn.deallocate); its buffer holds no values",
                                  hint="deallocate a tensor only after its last use")
        if self._storage is None:
            raise UsageTypeError("a mesh tensor has one storage per device: use tensor.device_tensors()[i].storage")
        return self._storage

    @property
    def is_mesh(self) -> bool:
        return self._shards is not None

    def device_tensors(self) -> list["Tensor"]:
        """One single-device tensor per device, in mesh order (``[self]`` for a single-device tensor)."""
        return list(self._shards) if self._shards is not None else [self]

    @property
    def mesh_device(self) -> Optional[MeshDevice]:
        """The mesh a mesh tensor is spread over (set even while it is on the host)."""
        return self._mesh

    def logical(self) -> torch.Tensor:
        """The logical values: a view of the storage without the padding (not a copy)."""
        return self.storage[storage_region(self._shape, self._layout)].reshape(self._shape)

    # -- placement -----------------------------------------------------------------------------

    def to(self, device: DeviceHandle, memory_config: Optional[MemoryConfig] = None) -> "Tensor":
        """The tensor on ``device``, sharing this tensor's storage (placement changes no values)."""
        if not isinstance(device, DeviceHandle):
            raise UsageTypeError(f"Tensor.to takes a device from ttnn.open_device or ttnn.open_mesh_device, got {device!r}")
        if device is self._device and memory_config is None:
            return self
        config = self._memory_config if memory_config is None else as_memory_config(memory_config)
        if self._shards is not None:
            if device is not self._mesh:
                raise UsageValueError(f"this tensor is spread over {self._mesh!r}; it cannot move to {device!r}")
            return Tensor.on_mesh(
                [shard._relocated(d, config) for shard, d in zip(self._shards, device.get_devices())], device)
        if isinstance(device, MeshDevice):
            raise UsageValueError(
                "a single-device tensor cannot move to a mesh; create it with "
                "ttnn.from_torch(..., device=mesh, mesh_mapper=ttnn.ReplicateTensorToMesh(mesh)) or ShardTensorToMesh"
            )
        return self._relocated(device, config)

    def overwrite(self, source: "Tensor") -> "Tensor":
        """Write ``source``'s values into this tensor's buffers, device by device (same shape, dtype
        and layout: the in-place ops, trace replays and host-to-device copies); returns this tensor."""
        for mine, theirs in zip(self.device_tensors(), source.device_tensors()):
            mine.storage.copy_(theirs.storage)
        return self

    def deallocate(self, at: Optional[Span]) -> None:
        """Free the buffer (each device's, for a mesh tensor): any later read is an error naming ``at``."""
        for piece in self._shards or ():
            piece.deallocate(at)
        self._deallocated_at = at if at is not None else Span("<unknown>", 0)

    def cpu(self) -> "Tensor":
        """The tensor on the host, sharing this tensor's storage."""
        if self._device is None:
            return self
        if self._shards is not None:
            return Tensor.on_mesh([shard._relocated(None, self._memory_config) for shard in self._shards], self._mesh)
        return self._relocated(None, self._memory_config)

    def _relocated(self, device: Optional[Device], memory_config: MemoryConfig) -> "Tensor":
        moved = Tensor(self.storage, shape=self._shape, dtype=self._dtype, layout=self._layout,
                       memory_config=memory_config, device=device)
        moved.layout_defaulted_at = self.layout_defaulted_at
        return moved

    def __getitem__(self, index: object) -> "Tensor":
        """Host code cannot slice a ttnn tensor (ttnn has no such indexing); a kernel thread slices
        one, in tiles, as the source or destination of ``ttl.copy``."""
        raise UsageTypeError(f"a ttnn tensor is sliced only inside a data-movement thread, as ttl.copy's "
                             f"source or destination (t[{_index_text(index)}] counts tiles there)",
                             hint="on the host, slice its values: ttnn.to_torch(t)[...]")

    # -- back to torch -------------------------------------------------------------------------

    def to_torch(self, mesh_composer: Optional[MeshToTensor] = None,
                 dtype: Optional[torch.dtype] = None) -> torch.Tensor:
        """A fresh torch tensor of the logical values, in the storage dtype unless ``dtype`` is given.

        A mesh tensor of more than one device needs ``mesh_composer`` to say how the devices'
        pieces join (as in ttnn).
        """
        if dtype is not None and not isinstance(dtype, torch.dtype):
            raise UsageTypeError(f"to_torch dtype must be a torch dtype such as torch.float32, got {dtype!r}")
        if mesh_composer is not None:
            if not isinstance(mesh_composer, MeshToTensor):
                raise UsageTypeError(
                    f"mesh_composer must be a ttnn mesh composer such as ConcatMeshToTensor, got {mesh_composer!r}")
            result = mesh_composer.compose([t.logical() for t in self.device_tensors()])
        elif self._shards is not None and len(self._shards) > 1:
            raise UsageValueError(
                f"this tensor is spread over {len(self._shards)} devices; pass "
                "mesh_composer=ttnn.ConcatMeshToTensor(mesh_device, dim) to say how to join them"
            )
        else:
            result = self.device_tensors()[0].logical().clone(memory_format=torch.contiguous_format)
        return result if dtype is None else result.to(dtype)

    # -- printing ------------------------------------------------------------------------------

    def __repr__(self) -> str:
        tail = f"shape={self._shape!r}, dtype={self._dtype!r}, layout={self._layout!r}"
        if self._shards is not None:
            return f"ttnn.Tensor(<{len(self._shards)} device tensors on {self._mesh!r}>, {tail})"
        if self._deallocated_at is not None:
            return f"ttnn.Tensor(<deallocated>, {tail})"
        values = self.logical()
        numbers = values.to(torch.float32) if values.is_floating_point() else values
        body = np.array2string(numbers.numpy(), precision=5, threshold=64, edgeitems=3, separator=", ",
                               prefix="ttnn.Tensor(")
        return f"ttnn.Tensor({body}, {tail})"

    def _nbytes(self) -> int:
        return device_bytes(self._shape, self._dtype, self._layout)


    def _bank_bytes(self, device: DeviceHandle) -> int:
        """The largest share of one bank: a shard, or the pages interleaving puts in one bank."""
        padded = self.padded_shape
        if self._layout is Layout.TILE:
            page, pages = self._dtype.tile_bytes, padded.volume() // TILE_ELEMS
        else:
            page = self._dtype.bytes_for(padded[-1] if padded.rank else 1)
            pages = padded.volume() // max(padded[-1] if padded.rank else 1, 1)
        config = self._memory_config
        if config.is_sharded():
            h, w = config.shard_spec.shape
            return h * w // TILE_ELEMS * page if self._layout is Layout.TILE else h * page
        grid = device.compute_with_storage_grid_size()
        banks = device.dram_banks() if config.buffer_type is BufferType.DRAM else grid.x * grid.y
        return -(-pages // banks) * -(-page // 64) * 64


def _rounded_storage(values: torch.Tensor, dtype: DataFormat, layout: Layout, *, pad_value: float,
                     owned: bool) -> tuple[torch.Tensor, Shape]:
    """The storage of a tensor holding ``values`` rounded into ``dtype``, and its shape.

    Padding is written before rounding, so block-float exponent groups see the padding as the
    device does. The storage is always a fresh buffer: the caller's tensor is never aliased,
    unless ``owned`` says that nobody else holds ``values`` (an op's fresh result).
    """
    _check_layout_fits(dtype, layout)
    shape = Shape(values.shape)
    padded = padded_shape(shape, layout)
    if tuple(padded) == tuple(values.shape):  # nothing to pad: round (or copy) in one pass
        storage = quantize(values, dtype)
        if storage.data_ptr() == values.data_ptr() and not owned:
            storage = storage.clone()
        return storage.contiguous(), shape
    buffer = torch.full(padded, pad_value, dtype=values.dtype)
    buffer[storage_region(shape, layout)] = values  # broadcasts rank 0/1 into the first row
    return quantize(buffer, dtype).contiguous(), shape


def _check_layout_fits(dtype: DataFormat, layout: Layout) -> None:
    if dtype.is_block_float and layout is not Layout.TILE:
        raise UsageValueError(f"{dtype.name} shares exponents within tiles, so it needs ttnn.TILE_LAYOUT, not {layout}")


def _check_open(device: DeviceHandle) -> None:
    if not device.is_open:
        raise UsageValueError(f"{device!r} is closed")


def _index_text(index: object) -> str:
    """``0, 1:2`` for the index of ``t[0, 1:2]``, as the user wrote it."""
    def one(entry: object) -> str:
        if isinstance(entry, slice):
            return ":".join("" if v is None else str(v) for v in (entry.start, entry.stop)) + \
                (f":{entry.step}" if entry.step is not None else "")
        return repr(entry)
    return ", ".join(one(e) for e in (index if isinstance(index, tuple) else (index,)))
