"""Preallocated outputs: the ``output_tensor=`` argument of ttnn's ops, which writes the result
into a tensor the caller allocated (a traced decode loop reuses its buffers) and returns it."""

from __future__ import annotations

from typing import Optional

from tilecraft.diagnostics import UsageTypeError, UsageValueError, type_name

from ..tensor import Tensor


def into(result: Tensor, output_tensor: Optional[Tensor], function: str) -> Tensor:
    """``result``, or ``output_tensor`` holding its values when one was given (same shape, dtype and
    layout, as ttnn requires)."""
    if output_tensor is None:
        return result
    if not isinstance(output_tensor, Tensor):
        raise UsageTypeError(f"{function}: output_tensor must be a ttnn.Tensor, got {type_name(output_tensor)}")
    mine = (output_tensor.shape, output_tensor.dtype, output_tensor.layout)
    theirs = (result.shape, result.dtype, result.layout)
    if mine != theirs:
        raise UsageValueError(f"{function}: output_tensor is {mine[0]} {mine[1].name} {mine[2]}; the result is "
                              f"{theirs[0]} {theirs[1].name} {theirs[2]}")
    return output_tensor.overwrite(result)
