"""What a ttnn op call leaves for the profiler: the op, the types and places of its tensors, its parameters.

Why a record and not the tensors: ``tilecraft profile`` times every ttnn op a script runs
(:mod:`tilecraft.perf.ttnn_ops`), and a cost needs only shapes, formats, layouts, where each tensor
lives (DRAM or L1) and the op's parameters (its ``compute_kernel_config``, its dims), never values.
:meth:`tilecraft.ttnn.primitives.Primitive.bind` makes one record per op call and hands it to the
session's op hooks (``tilecraft.session.Session.op_hooks``); with no hook installed nothing is made.
An op whose impl calls other ops is recorded once, as itself.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping, Sequence

from tilecraft import session
from tilecraft.dtypes import DataFormat

from .capacity import device_bytes
from .layout import Layout, Shape, padded_shape
from .memory import BufferType
from .tensor import Tensor


@dataclass(frozen=True)
class PlacedTensor:
    """A tensor operand or result as a cost sees it."""

    shape: Shape
    dtype: DataFormat
    layout: Layout
    #: True when the tensor lives in DRAM (interleaved or sharded there), False in L1
    in_dram: bool

    @classmethod
    def of(cls, tensor: Tensor) -> "PlacedTensor":
        return cls(tensor.shape, tensor.dtype, tensor.layout, tensor.memory_config().buffer_type is BufferType.DRAM)

    @property
    def nbytes(self) -> int:
        """Bytes the tensor takes on a device (tile padding and shared exponents included)."""
        return device_bytes(self.shape, self.dtype, self.layout)

    @property
    def tiles(self) -> int:
        """32x32 tiles of its padded shape (row-major tensors: as many as the same values tiled)."""
        *batch, height, width = padded_shape(self.shape if self.shape.rank >= 2 else Shape((1, *self.shape)),
                                             Layout.TILE)
        count = -(-height // 32) * -(-width // 32)
        for extent in batch:
            count *= extent
        return count


@dataclass(frozen=True)
class OpCall:
    """One ttnn op a script ran, on one device (a mesh op runs the same op on each of ``devices``)."""

    #: the primitive's name (``add``, ``linear``, ``scaled_dot_product_attention``)
    name: str
    inputs: tuple[PlacedTensor, ...]
    output: PlacedTensor
    params: Mapping[str, Any] = field(default_factory=dict)
    #: Python numbers among the operands (``ttnn.add(x, 1.0)``)
    scalars: tuple[float, ...] = ()
    devices: int = 1


_INSIDE: ContextVar[bool] = ContextVar("tilecraft_ttnn_op_inside", default=False)


def inside_op() -> bool:
    """True while a recorded op computes its result: a kernel program the emulator runs then is that
    op's own (an op implemented by its 0.81.1 kernels), which the profiler times as the op."""
    return _INSIDE.get()


@contextmanager
def recording(name: str, operands: Sequence[Any], params: Mapping[str, Any], devices: int) -> Iterator[list]:
    """Around one op call: put its result (a :class:`Tensor`) into the yielded list and the session's
    op hooks get its :class:`OpCall` when the block ends without error. Nested calls (an op built of
    others) are not recorded."""
    hooks = session.current().op_hooks
    if not hooks or _INSIDE.get():
        yield []
        return
    token = _INSIDE.set(True)
    out: list[Tensor] = []
    try:
        yield out
    finally:
        _INSIDE.reset(token)
    if not out:
        return
    first = out[0].device_tensors()[0] if out[0].mesh_device is not None else out[0]
    inputs = tuple(PlacedTensor.of(o.device_tensors()[0] if o.mesh_device is not None else o)
                   for o in operands if isinstance(o, Tensor))
    call = OpCall(name, inputs, PlacedTensor.of(first), dict(params),
                  tuple(float(o) for o in operands if isinstance(o, (int, float))), devices)
    for hook in hooks:
        hook(call)
