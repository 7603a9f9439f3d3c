"""Python operators and convenience methods on ttnn.Tensor, bound to the ttnn ops.

They are attached here rather than defined in ``tensor.py`` so that the tensor module does not
depend on the ops built on top of it (JAX binds its array methods the same way). ``==`` is
deliberately not overloaded: tensors stay hashable by identity, which the simulator relies on.
"""

from __future__ import annotations

from typing import Callable

from . import ops
from .tensor import Tensor


def _reshape(self: Tensor, *shape: object) -> Tensor:
    """``t.reshape(2, 3)`` or ``t.reshape((2, 3))``."""
    dims = shape[0] if len(shape) == 1 and not isinstance(shape[0], int) else shape
    return ops.reshape(self, dims)


def _swapped(op: Callable[..., Tensor]) -> Callable[[Tensor, object], Tensor]:
    return lambda self, other: op(other, self)


_METHODS: dict[str, Callable[..., Tensor]] = {
    "__add__": ops.add,
    "__radd__": _swapped(ops.add),
    "__sub__": ops.subtract,
    "__rsub__": _swapped(ops.subtract),
    "__mul__": ops.multiply,
    "__rmul__": _swapped(ops.multiply),
    "__truediv__": ops.divide,
    "__rtruediv__": _swapped(ops.divide),
    "__floordiv__": ops.floor_div,
    "__rfloordiv__": _swapped(ops.floor_div),
    "__mod__": ops.remainder,
    "__rmod__": _swapped(ops.remainder),
    "__pow__": ops.pow,
    "__rpow__": _swapped(ops.pow),
    "__matmul__": ops.matmul,
    "__neg__": ops.neg,
    "__abs__": ops.abs,
    "reshape": _reshape,
}


def _bind_methods() -> None:
    for name, method in _METHODS.items():
        setattr(Tensor, name, method)


_bind_methods()
