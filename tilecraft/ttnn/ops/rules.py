"""Shape-rule pieces several op families share."""

from __future__ import annotations

from tilecraft.diagnostics import UsageValueError

from ..layout import Shape
from ..primitives import OperandType, TensorType


def same_type(x: TensorType, **params: object) -> TensorType:
    """The rule of ops whose result is shaped, typed and laid out like their operand."""
    return x


def shape_of(operand: OperandType) -> Shape:
    """A Python number broadcasts like a rank-0 tensor."""
    return operand.shape if isinstance(operand, TensorType) else Shape(())


def broadcast(a: Shape, b: Shape) -> Shape:
    """The torch broadcast of two shapes, or a ValueError naming both.

    Written out rather than calling ``torch.broadcast_shapes``, whose first call takes most of a
    second (it loads torch's symbolic-shape machinery).
    """
    rank = max(len(a), len(b))
    dims = []
    for x, y in zip((1,) * (rank - len(a)) + tuple(a), (1,) * (rank - len(b)) + tuple(b)):
        if x != y and 1 not in (x, y):
            raise UsageValueError(f"shapes {a} and {b} do not broadcast together")
        dims.append(y if x == 1 else x)
    return Shape(dims)
