"""Elementwise selection and comparison: maximum/minimum, clamp, where, gt/lt/ge/le/eq/ne and the
logical ops.

ttnn's comparisons and logical ops return 1 for true and 0 for false in the input's dtype (not a
boolean tensor), which the impls below compute in compute precision; ``bind`` rounds them like any
result. Either side of a binary op may be a Python number, as in ttnn.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Optional, Union, cast

import torch

from tilecraft.diagnostics import UsageValueError
from tilecraft.dtypes import DataFormat

from ..memory import MemoryConfig
from ..primitives import DevicePrimitive, Operand, OperandType, TensorType
from ..tensor import Tensor
from .elementwise import make_binary
from .rules import broadcast, same_type, shape_of

Values = Union[torch.Tensor, int, float]


def _pair(a: Values, b: Values) -> tuple[torch.Tensor, torch.Tensor]:
    """Both operands as tensors of one dtype (a Python number takes the tensor's)."""
    like = a if isinstance(a, torch.Tensor) else b
    assert isinstance(like, torch.Tensor), "bind ensures one tensor operand"
    return torch.as_tensor(a, dtype=like.dtype), torch.as_tensor(b, dtype=like.dtype)


def _as_number(flags: torch.Tensor, like: torch.Tensor) -> torch.Tensor:
    """A boolean result as ttnn gives it: 1 and 0 in the operands' compute dtype."""
    return flags.to(like.dtype)


def _comparison(compare: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]) -> Callable[..., torch.Tensor]:
    def impl(a: Values, b: Values) -> torch.Tensor:
        x, y = _pair(a, b)
        return _as_number(compare(x, y), x)
    return impl


def _logical(combine: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]) -> Callable[..., torch.Tensor]:
    def impl(a: Values, b: Values) -> torch.Tensor:
        x, y = _pair(a, b)
        return _as_number(combine(x != 0, y != 0), x)
    return impl


def _extremum(pick: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]) -> Callable[..., torch.Tensor]:
    def impl(a: Values, b: Values) -> torch.Tensor:
        return pick(*_pair(a, b))
    return impl


#: name -> (impl, what it computes)
_BINARY: dict[str, tuple[Callable[..., torch.Tensor], str]] = {
    "maximum": (_extremum(torch.maximum), "the larger of a and b"),
    "minimum": (_extremum(torch.minimum), "the smaller of a and b"),
    "gt": (_comparison(torch.gt), "1 where a > b, else 0"),
    "lt": (_comparison(torch.lt), "1 where a < b, else 0"),
    "ge": (_comparison(torch.ge), "1 where a >= b, else 0"),
    "le": (_comparison(torch.le), "1 where a <= b, else 0"),
    "eq": (_comparison(torch.eq), "1 where a == b, else 0"),
    "ne": (_comparison(torch.ne), "1 where a != b, else 0"),
    "logical_and": (_logical(torch.logical_and), "1 where a and b are both nonzero, else 0"),
    "logical_or": (_logical(torch.logical_or), "1 where a or b is nonzero, else 0"),
}


def _make(name: str) -> tuple[DevicePrimitive, Callable[..., Tensor]]:
    return make_binary(name, *_BINARY[name])


maximum_p, maximum = _make("maximum")
minimum_p, minimum = _make("minimum")
gt_p, gt = _make("gt")
lt_p, lt = _make("lt")
ge_p, ge = _make("ge")
le_p, le = _make("le")
eq_p, eq = _make("eq")
ne_p, ne = _make("ne")
logical_and_p, logical_and = _make("logical_and")
logical_or_p, logical_or = _make("logical_or")


def _logical_not_impl(x: torch.Tensor) -> torch.Tensor:
    return _as_number(x == 0, x)


logical_not_p = DevicePrimitive("logical_not", same_type, _logical_not_impl)


def logical_not(input_tensor: Tensor, *, dtype: Optional[DataFormat] = None,
                memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """1 where the input is 0, else 0."""
    return logical_not_p.bind(input_tensor, dtype=dtype, memory_config=memory_config)


def _clamp_impl(x: torch.Tensor, *, low: Optional[float], high: Optional[float]) -> torch.Tensor:
    return torch.clamp(x, low, high)


clamp_p = DevicePrimitive("clamp", same_type, _clamp_impl)


def clamp(input_tensor: Tensor, min: Optional[float] = None, max: Optional[float] = None, *,  # noqa: A002
          memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """The input limited to [min, max] (either bound may be None, not both)."""
    if min is None and max is None:
        raise UsageValueError("ttnn.clamp needs min, max or both")
    for bound in (min, max):
        if bound is not None and not isinstance(bound, (int, float)):
            raise UsageValueError(f"ttnn.clamp takes number bounds, got {bound!r}")
    if min is not None and max is not None and min > max:
        raise UsageValueError(f"ttnn.clamp: min={min} is above max={max}")
    return clamp_p.bind(input_tensor, memory_config=memory_config, low=min, high=max)


def _where_rule(condition: OperandType, a: OperandType, b: OperandType) -> TensorType:
    first = cast(TensorType, next(o for o in (a, b, condition) if isinstance(o, TensorType)))
    shape = broadcast(broadcast(shape_of(condition), shape_of(a)), shape_of(b))
    return replace(first, shape=shape)


def _where_impl(condition: Values, a: Values, b: Values) -> torch.Tensor:
    dtype = next(o for o in (a, b, condition) if isinstance(o, torch.Tensor)).dtype
    return torch.where(torch.as_tensor(condition) != 0, torch.as_tensor(a, dtype=dtype),
                       torch.as_tensor(b, dtype=dtype))


where_p = DevicePrimitive("where", _where_rule, _where_impl)


def where(condition: Tensor, input_tensor_a: Operand, input_tensor_b: Operand, *,
          memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """``a`` where ``condition`` is nonzero, else ``b`` (each may be a number); the result takes the
    dtype of the first tensor among ``a``, ``b``, ``condition``."""
    return where_p.bind(condition, input_tensor_a, input_tensor_b, memory_config=memory_config)
