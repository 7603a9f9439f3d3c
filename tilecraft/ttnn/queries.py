"""ttnn's host-side questions about tensors and devices: functions that compute nothing.

``get_memory_config``, ``is_sharded`` and ``get_device_tensors`` read what a tensor carries,
``get_arch_name`` and ``get_num_devices`` what the simulated system is; ``synchronize_device``
waits for a device's queued work, of which the simulator has none: every op and every kernel
program runs to completion when it is called.
"""

from __future__ import annotations

from tilecraft import session

from .device import DeviceHandle, simulated_devices
from .memory import MemoryConfig
from .tensor import Tensor


def get_memory_config(tensor: Tensor) -> MemoryConfig:
    """Where ``tensor`` is stored and how it is spread."""
    return _tensor(tensor, "get_memory_config").memory_config()


def is_sharded(tensor: Tensor) -> bool:
    """Whether ``tensor`` is spread over cores' L1 in shards (not interleaved)."""
    return _tensor(tensor, "is_sharded").memory_config().is_sharded()


def synchronize_device(device: DeviceHandle, *args: object, **kwargs: object) -> None:
    """Wait until ``device`` has finished its queued work (ttnn's queue and event arguments are
    accepted and have nothing to wait for here)."""
    if not isinstance(device, DeviceHandle):
        raise TypeError(f"ttnn.synchronize_device takes a device or mesh device, got {device!r}")
    if not device.is_open:
        raise RuntimeError(f"ttnn.synchronize_device: {device!r} is closed")


def _tensor(value: object, function: str) -> Tensor:
    if not isinstance(value, Tensor):
        kind = type(value)
        raise TypeError(f"ttnn.{function} takes a ttnn.Tensor, got {kind.__module__}.{kind.__qualname__}")
    return value


def get_device_tensors(tensor: Tensor) -> list[Tensor]:
    """One single-device tensor per device of a mesh tensor, in mesh order (``[tensor]`` otherwise)."""
    return _tensor(tensor, "get_device_tensors").device_tensors()


def get_arch_name() -> str:
    """The simulated architecture's name (``wormhole_b0``, ``blackhole``)."""
    return session.options().arch


def get_num_devices() -> int:
    """Chips in the simulated system."""
    return simulated_devices()
