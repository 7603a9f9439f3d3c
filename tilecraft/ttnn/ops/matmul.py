"""Matrix multiply: 2D, or batched over leading dims that broadcast like torch."""

from __future__ import annotations

from dataclasses import replace
from typing import Optional

import torch

from tilecraft.diagnostics import UsageTypeError, UsageValueError, type_name
from tilecraft.dtypes import DataFormat

from ..layout import Shape
from ..memory import MemoryConfig
from ..primitives import DevicePrimitive, TensorType
from ..tensor import Tensor
from .rules import broadcast


def _matmul_rule(a: TensorType, b: TensorType, *, transpose_a: bool, transpose_b: bool) -> TensorType:
    if a.shape.rank < 2 or b.shape.rank < 2:
        raise UsageValueError(f"needs operands of rank 2 or more, got shapes {a.shape} and {b.shape}")
    m, k = a.shape[-2:] if not transpose_a else reversed(a.shape[-2:])
    k_b, n = b.shape[-2:] if not transpose_b else reversed(b.shape[-2:])
    if k != k_b:
        raise UsageValueError(
            f"inner dimensions differ: {a.shape}{' transposed' if transpose_a else ''} @ "
            f"{b.shape}{' transposed' if transpose_b else ''} contracts {k} with {k_b}"
        )
    batch = broadcast(a.shape[:-2], b.shape[:-2])
    return replace(a, shape=Shape((*batch, m, n)))


def _matmul_impl(a: torch.Tensor, b: torch.Tensor, *, transpose_a: bool, transpose_b: bool) -> torch.Tensor:
    common = torch.promote_types(a.dtype, b.dtype)  # an integer tensor may meet a float one
    a, b = a.to(common), b.to(common)
    return torch.matmul(a.mT if transpose_a else a, b.mT if transpose_b else b)


matmul_p = DevicePrimitive("matmul", _matmul_rule, _matmul_impl)


def matmul(input_tensor_a: Tensor, input_tensor_b: Tensor, *, transpose_a: bool = False,
           transpose_b: bool = False, dtype: Optional[DataFormat] = None,
           memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """``a @ b``, accumulated in fp32 and rounded once into the result dtype (``a``'s by default)."""
    for operand in (input_tensor_a, input_tensor_b):
        if not isinstance(operand, Tensor):
            raise UsageTypeError(f"ttnn.matmul takes two ttnn tensors, got {type_name(operand)}")
    return matmul_p.bind(input_tensor_a, input_tensor_b, dtype=dtype, memory_config=memory_config,
                        transpose_a=bool(transpose_a), transpose_b=bool(transpose_b))
