"""In-place ops: ``add_``, ``mul_`` (a binary op whose result overwrites its first operand) and
``plus_one`` (the decode loop's position counter).

The first operand keeps its shape, dtype and layout: a second operand that would broadcast it
larger is a ValueError, as on the device, where the output buffer is the input's.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

from tilecraft.diagnostics import UsageTypeError, UsageValueError, type_name

from ..memory import MemoryConfig
from ..primitives import Operand
from ..tensor import Tensor
from ..trace import traced
from .elementwise import add, multiply


def _overwrite(target: Tensor, result: Tensor, name: str) -> Tensor:
    """Write ``result``'s values into ``target``'s storage, device by device; returns ``target``."""
    if result.shape != target.shape:
        raise UsageValueError(f"ttnn.{name} writes into its first operand of shape {target.shape}; the result "
                              f"would be {result.shape}")
    return target.overwrite(result)


def _in_place(name: str, op: Callable[..., Tensor]) -> Callable[..., Tensor]:
    def in_place(input_tensor_a: Tensor, input_tensor_b: Operand, *, memory_config: Optional[MemoryConfig] = None,
                 activations: Optional[Sequence[object]] = None,
                 input_tensor_a_activations: Optional[Sequence[object]] = None,
                 input_tensor_b_activations: Optional[Sequence[object]] = None, use_legacy: object = None,
                 fast_and_approximate_mode: bool = False) -> Tensor:
        if not isinstance(input_tensor_a, Tensor):
            raise UsageTypeError(f"ttnn.{name} writes into a ttnn.Tensor, got {type_name(input_tensor_a)}")
        result = op(input_tensor_a, input_tensor_b, dtype=input_tensor_a.dtype, activations=activations,
                    input_tensor_a_activations=input_tensor_a_activations,
                    input_tensor_b_activations=input_tensor_b_activations)
        return _overwrite(input_tensor_a, result, name)

    in_place.__name__ = in_place.__qualname__ = name
    in_place.__doc__ = f"ttnn.{op.__name__}, its result written into (and returned as) the first operand."
    return traced(in_place)


add_ = _in_place("add_", add)
mul_ = _in_place("mul_", multiply)
multiply_ = mul_


@traced
def plus_one(input_tensor: Tensor, sub_core_grids: object = None, skip_negative_entries: bool = False) -> Tensor:
    """Add 1 to every entry of an int32/uint32 tensor in place (not to negative entries with
    ``skip_negative_entries``); returns the tensor."""
    if not isinstance(input_tensor, Tensor):
        raise UsageTypeError(f"ttnn.plus_one takes a ttnn.Tensor, got {type_name(input_tensor)}")
    if input_tensor.dtype.name not in ("int32", "uint32"):
        raise UsageValueError(f"ttnn.plus_one counts in int32 or uint32 tensors, got {input_tensor.dtype.name}")
    for piece in input_tensor.device_tensors():
        values = piece.logical()
        values += (values >= 0).to(values.dtype) if skip_negative_entries else 1
    return input_tensor
