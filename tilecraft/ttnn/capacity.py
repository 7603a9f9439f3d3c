"""How many bytes a tensor takes on a device, and the check that it fits one chip's DRAM.

Why before the allocation: the simulator holds every tensor's values in host memory, so a shape
no device could hold (2^31 x 2^31, or 128 GiB) would otherwise reach torch, which fails with an
internal error or exhausts the host. The creation functions (``zeros``, ``rand``, ``from_torch``,
...) check first and say how much the tensor needs and how much DRAM the chip has
(``Arch.dram_bytes``).
"""

from __future__ import annotations

from typing import Optional

from tilecraft import session
from tilecraft.arch import get as get_arch
from tilecraft.diagnostics import UsageValueError
from tilecraft.dtypes import TILE_ELEMS, DataFormat

from .device import DeviceHandle
from .layout import Layout, Shape, padded_shape

_UNITS = ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB")


def device_bytes(shape: Shape, dtype: DataFormat, layout: Layout) -> int:
    """Bytes of the device buffer: whole tiles (with shared exponents) or packed rows."""
    padded = padded_shape(shape, layout)
    if layout is Layout.TILE:
        return padded.volume() // TILE_ELEMS * dtype.tile_bytes
    return dtype.bytes_for(padded.volume())


def check_fits_dram(shape: Shape, dtype: DataFormat, layout: Layout, device: Optional[DeviceHandle]) -> None:
    """A tensor larger than one chip's DRAM (of ``device``'s architecture, or the session's for a
    host tensor) is E0502 at the user's call, before any memory is allocated."""
    arch = get_arch(str(device.arch()) if isinstance(device, DeviceHandle) else session.options().arch)
    needed = device_bytes(shape, dtype, layout)
    if needed > arch.dram_bytes:
        layout_name = "tile" if layout is Layout.TILE else "row-major"
        raise UsageValueError(f"a {dtype.name} tensor of shape {list(shape)} in {layout_name} layout takes "
                              f"{readable(needed)} ({needed} B), more than the {readable(arch.dram_bytes)} of DRAM "
                              f"of a {arch.name} chip",
                              hint="make the tensor smaller, or split the work: process the data in pieces that "
                                   "each fit, or shard it over a mesh of devices (ttnn.ShardTensorToMesh)")


def readable(nbytes: int) -> str:
    """``nbytes`` in binary units, as ``8 EiB`` or ``1.5 GiB``."""
    value, unit = float(nbytes), _UNITS[0]
    for unit in _UNITS:
        if value < 1024 or unit == _UNITS[-1]:
            break
        value /= 1024
    return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
