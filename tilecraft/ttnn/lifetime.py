"""Buffer lifetimes: ``ttnn.deallocate`` and ``ttnn.reallocate``.

Models free every activation as soon as its last reader ran (``deallocate`` is the function they call
most). The simulator keeps no device memory to free, but a deallocated tensor is marked, so that a
later read of it, a bug that returns garbage on the device, is an E0502 naming the line that freed
it. ``reallocate`` moves a tensor to a fresh buffer (to defragment L1) and frees the old one.
"""

from __future__ import annotations

from typing import Optional

from tilecraft.diagnostics import UsageTypeError, calling_user_span, type_name

from .memory import MemoryConfig
from .ops.data_movement import clone
from .tensor import Tensor


def deallocate(tensor: Tensor, force: bool = True) -> None:
    """Free ``tensor``'s buffer; reading it afterwards is an error."""
    if not isinstance(tensor, Tensor):
        raise UsageTypeError(f"ttnn.deallocate takes a ttnn.Tensor, got {type_name(tensor)}")
    tensor.deallocate(calling_user_span())


def reallocate(tensor: Tensor, memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """The tensor's values in a new buffer (``memory_config``'s placement, else the same); the old
    buffer is freed."""
    if not isinstance(tensor, Tensor):
        raise UsageTypeError(f"ttnn.reallocate takes a ttnn.Tensor, got {type_name(tensor)}")
    moved = clone(tensor, memory_config=memory_config)
    tensor.deallocate(calling_user_span())
    return moved
