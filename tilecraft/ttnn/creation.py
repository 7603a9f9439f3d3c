"""Tensors made from a shape rather than from torch data: ``rand``, ``zeros``, ``full``, ``empty``, ...

Without ``dtype`` a tensor is bfloat16; without ``layout`` it is in tile layout, as the published
TT-Lang simulator makes it (real ttnn makes ``zeros``/``ones``/``full``/``empty`` row-major; a
kernel launched on such a tensor says so, see :func:`.layout.given_or_default`). The ``*_like``
functions take whatever is not given from the reference tensor. A mesh ``device`` gets one
tensor per chip.

``empty`` tensors hold zeros: the simulator has no stale memory to expose, and zeros make runs
reproducible.
"""

from __future__ import annotations

from typing import Callable, Iterable, Optional

import torch

from tilecraft.diagnostics import UsageTypeError, type_name
from tilecraft.dtypes import DataFormat
from tilecraft.numerics import quantize

from . import datatype
from .capacity import check_fits_dram
from .datatype import as_data_format
from .device import DeviceHandle
from .layout import Layout, Shape, as_shape, given_or_default
from .memory import MemoryConfig, as_memory_config
from .mesh import MeshDevice
from .tensor import Tensor

ShapeLike = Iterable[int]


def _filled(shape: ShapeLike, values: Callable[[Shape, torch.dtype], torch.Tensor],
            dtype: Optional[DataFormat], layout: Optional[Layout], device: Optional[DeviceHandle],
            memory_config: Optional[MemoryConfig]) -> Tensor:
    """A tensor (one per chip on a mesh) holding ``values(shape, source_dtype)`` rounded into ``dtype``.

    Integer formats get int64 source values so that large fill values stay exact.
    """
    logical = as_shape(shape)
    fmt = datatype.bfloat16 if dtype is None else as_data_format(dtype)
    layout, defaulted_at = given_or_default(layout)
    config = as_memory_config(memory_config)
    source = torch.int64 if fmt.is_integer else torch.float32
    check_fits_dram(logical, fmt, layout, device)

    def one() -> Tensor:
        return Tensor.from_values(values(logical, source), fmt, layout, memory_config=config)

    if isinstance(device, MeshDevice):
        tensor = Tensor.on_mesh([one() for _ in range(device.get_num_devices())], device)
    else:
        tensor = one()
    tensor.note_default_layout(defaulted_at)
    return tensor if device is None else tensor.to(device)


def _constant(value: float) -> Callable[[Shape, torch.dtype], torch.Tensor]:
    return lambda shape, source: torch.full(shape, value, dtype=source)


def rand(shape: ShapeLike, dtype: DataFormat = datatype.bfloat16, layout: Optional[Layout] = None,
         device: Optional[DeviceHandle] = None, memory_config: Optional[MemoryConfig] = None, *,
         low: float = 0.0, high: float = 1.0, seed: Optional[int] = None) -> Tensor:
    """Uniform values in [low, high) *in the tensor's format*: an fp32 draw that would round to
    ``high`` (or below ``low``) is taken as the format's nearest value inside the interval, so a
    bfloat16 ``rand`` never holds 1.0. Without ``seed`` it draws from torch's global generator, so
    ``torch.manual_seed`` makes runs repeatable (the published simulator draws the same values)."""
    generator = None if seed is None else torch.Generator().manual_seed(seed)
    fmt = datatype.bfloat16 if dtype is None else as_data_format(dtype)

    def uniform(logical: Shape, source: torch.dtype) -> torch.Tensor:
        values = torch.rand(logical, generator=generator) * (high - low) + low
        if fmt.is_integer or high <= low:
            return values
        return values.clamp(_nearest_inside(low, fmt, +1), _nearest_inside(high, fmt, -1))

    return _filled(shape, uniform, fmt, layout, device, memory_config)


def _nearest_inside(bound: float, fmt: DataFormat, direction: int) -> float:
    """The value of ``fmt`` nearest to ``bound`` on the inside of [low, high): for ``high``
    (direction -1) the largest value below it, for ``low`` (+1) the smallest value at or above it.

    Moving away from ``bound`` by a doubling distance, the first point that rounds to the inside
    rounds to the neighbour of ``bound`` there (rounding is monotone), so clamping draws to it
    keeps every rounded draw inside the interval.
    """
    def rounded(x: float) -> float:  # a block of 16 equal values: a block float's own exponent
        return float(quantize(torch.full((16,), x, dtype=torch.float64), fmt)[0].float())

    at = rounded(bound)
    if (at >= bound) if direction > 0 else (at < bound):
        return at
    step = max(abs(bound), 1.0) * 2.0 ** -40
    while True:
        candidate = rounded(bound + direction * step)
        if (candidate > bound) if direction > 0 else (candidate < bound):
            return candidate
        step *= 2


def full(shape: ShapeLike, fill_value: float, dtype: Optional[DataFormat] = None, layout: Optional[Layout] = None,
         device: Optional[DeviceHandle] = None, memory_config: Optional[MemoryConfig] = None) -> Tensor:
    return _filled(shape, _constant(fill_value), dtype, layout, device, memory_config)


def zeros(shape: ShapeLike, dtype: Optional[DataFormat] = None, layout: Optional[Layout] = None,
          device: Optional[DeviceHandle] = None, memory_config: Optional[MemoryConfig] = None) -> Tensor:
    return full(shape, 0, dtype, layout, device, memory_config)


def ones(shape: ShapeLike, dtype: Optional[DataFormat] = None, layout: Optional[Layout] = None,
         device: Optional[DeviceHandle] = None, memory_config: Optional[MemoryConfig] = None) -> Tensor:
    return full(shape, 1, dtype, layout, device, memory_config)


def empty(shape: ShapeLike, dtype: DataFormat = datatype.bfloat16, layout: Optional[Layout] = None,
          device: Optional[DeviceHandle] = None, memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """An output buffer; it holds zeros (see the module docstring)."""
    return full(shape, 0, dtype, layout, device, memory_config)


def allocate_tensor_on_device(shape: ShapeLike, dtype: DataFormat, layout: Layout, device: DeviceHandle,
                              memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """An output buffer on ``device`` (ttnn requires the device here)."""
    if not isinstance(device, DeviceHandle):
        raise UsageTypeError(f"allocate_tensor_on_device needs a device, got {device!r}")
    return empty(shape, dtype, layout, device, memory_config)


def full_like(tensor: Tensor, fill_value: float, dtype: Optional[DataFormat] = None,
              layout: Optional[Layout] = None, device: Optional[DeviceHandle] = None,
              memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """A tensor shaped like ``tensor`` (per device, on a mesh), with its dtype, layout, placement
    and memory config unless given."""
    if not isinstance(tensor, Tensor):
        raise UsageTypeError(f"expected a ttnn.Tensor as the reference, got {type_name(tensor)}")
    return full(tensor.shape, fill_value,
                tensor.dtype if dtype is None else dtype,
                tensor.layout if layout is None else layout,
                tensor.device() if device is None else device,
                tensor.memory_config() if memory_config is None else memory_config)


def zeros_like(tensor: Tensor, dtype: Optional[DataFormat] = None, layout: Optional[Layout] = None,
               device: Optional[DeviceHandle] = None, memory_config: Optional[MemoryConfig] = None) -> Tensor:
    return full_like(tensor, 0, dtype, layout, device, memory_config)


def ones_like(tensor: Tensor, dtype: Optional[DataFormat] = None, layout: Optional[Layout] = None,
              device: Optional[DeviceHandle] = None, memory_config: Optional[MemoryConfig] = None) -> Tensor:
    return full_like(tensor, 1, dtype, layout, device, memory_config)


def empty_like(tensor: Tensor, dtype: Optional[DataFormat] = None, layout: Optional[Layout] = None,
               device: Optional[DeviceHandle] = None, memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """An output buffer like ``tensor``; it holds zeros."""
    return full_like(tensor, 0, dtype, layout, device, memory_config)
