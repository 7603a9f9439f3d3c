"""Elementwise ops: one table row per op, mapping its name to the torch function that defines it.

Binary ops take a Python number on either side and broadcast like torch; the result has the
first tensor operand's dtype and layout unless ``dtype`` says otherwise.
"""

from __future__ import annotations

import operator
from dataclasses import replace
from typing import Callable, Optional, Sequence, cast

import torch
import torch.nn.functional as F

from tilecraft.diagnostics import UsageTypeError, UsageValueError
from tilecraft.dtypes import DataFormat

from ..memory import MemoryConfig
from ..primitives import DevicePrimitive, Operand, OperandType, TensorType
from ..tensor import Tensor
from .outputs import into
from .rules import broadcast, same_type, shape_of

UnaryFn = Callable[[torch.Tensor], torch.Tensor]

_UNARY: dict[str, tuple[UnaryFn, str]] = {
    "relu": (torch.relu, "max(x, 0)"),
    "silu": (F.silu, "x * sigmoid(x)"),
    "sigmoid": (torch.sigmoid, "1 / (1 + exp(-x))"),
    "tanh": (torch.tanh, "hyperbolic tangent"),
    "exp": (torch.exp, "e ** x"),
    "log": (torch.log, "natural logarithm"),
    "sqrt": (torch.sqrt, "square root"),
    "rsqrt": (torch.rsqrt, "1 / sqrt(x)"),
    "reciprocal": (torch.reciprocal, "1 / x"),
    "abs": (torch.abs, "|x|"),
    "neg": (torch.neg, "-x"),
    "square": (torch.square, "x * x"),
    "sin": (torch.sin, "sine"),
    "cos": (torch.cos, "cosine"),
}

_BINARY: dict[str, tuple[Callable[[Operand, Operand], torch.Tensor], str]] = {
    "add": (operator.add, "a + b"),
    "subtract": (operator.sub, "a - b"),
    "multiply": (operator.mul, "a * b"),
    "divide": (operator.truediv, "a / b"),
    "pow": (operator.pow, "a ** b"),
    "floor_div": (operator.floordiv, "floor(a / b)"),
    "remainder": (operator.mod, "a - b * floor(a / b), with the sign of b as Python's %"),
}


def unary_function(name: str) -> UnaryFn:
    """The torch function defining the elementwise op ``name`` (``relu``, ``silu``, ...), for ops that
    fuse an activation (``ttnn.linear(..., activation="relu")``)."""
    if name == "gelu":
        return F.gelu
    try:
        return _UNARY[name][0]
    except KeyError:
        raise UsageValueError(f"unknown activation {name!r}; one of {', '.join(sorted([*_UNARY, 'gelu']))}") from None


def activation_names(activations: Optional[Sequence[object]]) -> tuple[str, ...]:
    """The op names of an activation list: names, ``ttnn.UnaryOpType`` members or
    ``ttnn.UnaryWithParam`` records (read by their ``op_type`` / ``value``), each checked."""
    names = []
    for activation in activations or ():
        name = activation if isinstance(activation, str) else getattr(getattr(activation, "op_type", activation),
                                                                      "value", None)
        if not isinstance(name, str):
            raise UsageTypeError(f"an activation is a name such as 'relu', a ttnn.UnaryOpType or a "
                                 f"ttnn.UnaryWithParam, got {activation!r}")
        unary_function(name)
        names.append(name)
    return tuple(names)


def _activated(values: Operand, names: tuple[str, ...]) -> Operand:
    for name in names:
        values = unary_function(name)(torch.as_tensor(values))
    return values


def binary_rule(a: OperandType, b: OperandType, **activations: tuple[str, ...]) -> TensorType:
    """Shaped as the broadcast of both operands, typed as the first tensor operand."""
    first = cast(TensorType, a if isinstance(a, TensorType) else b)  # bind ensures one tensor operand
    return replace(first, shape=broadcast(shape_of(a), shape_of(b)))


Op = Callable[..., Tensor]


def _make_unary(name: str) -> tuple[DevicePrimitive, Op]:
    fn, meaning = _UNARY[name]
    primitive = DevicePrimitive(name, same_type, fn)

    def op(input_tensor: Tensor, *, dtype: Optional[DataFormat] = None, memory_config: Optional[MemoryConfig] = None,
           output_tensor: Optional[Tensor] = None, fast_and_approximate_mode: bool = False) -> Tensor:
        return into(primitive.bind(input_tensor, dtype=dtype, memory_config=memory_config), output_tensor,
                    f"ttnn.{name}")

    return primitive, _named(op, name, f"Elementwise {meaning}, exact (with ``fast_and_approximate_mode`` too: "
                                       "the SFPU's approximation error is not modelled).")


def make_binary(name: str, fn: Callable[..., torch.Tensor], meaning: str) -> tuple[DevicePrimitive, Op]:
    """The primitive and the ttnn function of a binary elementwise op computed by ``fn``, with ttnn's
    fused activations: ``input_tensor_a_activations`` / ``input_tensor_b_activations`` applied to an
    operand first, ``activations`` to the result (``ttnn.mul(gate, up, input_tensor_a_activations=
    [ttnn.UnaryOpType.SILU])``, the gated MLP's product), all before the one rounding."""

    def impl(a: Operand, b: Operand, *, pre_a: tuple[str, ...], pre_b: tuple[str, ...],
             post: tuple[str, ...]) -> torch.Tensor:
        return _activated(fn(_activated(a, pre_a), _activated(b, pre_b)), post)

    primitive = DevicePrimitive(name, binary_rule, impl)

    def op(input_tensor_a: Operand, input_tensor_b: Operand, *, dtype: Optional[DataFormat] = None,
           memory_config: Optional[MemoryConfig] = None, activations: Optional[Sequence[object]] = None,
           input_tensor_a_activations: Optional[Sequence[object]] = None,
           input_tensor_b_activations: Optional[Sequence[object]] = None, use_legacy: object = None,
           sub_core_grids: object = None, output_tensor: Optional[Tensor] = None) -> Tensor:
        result = primitive.bind(input_tensor_a, input_tensor_b, dtype=dtype, memory_config=memory_config,
                                pre_a=activation_names(input_tensor_a_activations),
                                pre_b=activation_names(input_tensor_b_activations), post=activation_names(activations))
        return into(result, output_tensor, f"ttnn.{name}")

    return primitive, _named(op, name, f"Elementwise {meaning}, broadcasting like torch; either side may be a number.")


def _make_binary(name: str) -> tuple[DevicePrimitive, Op]:
    return make_binary(name, *_BINARY[name])


def _named(op: Op, name: str, doc: str) -> Op:
    """Give a generated op its ttnn name and docstring."""
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


relu_p, relu = _make_unary("relu")
silu_p, silu = _make_unary("silu")
sigmoid_p, sigmoid = _make_unary("sigmoid")
tanh_p, tanh = _make_unary("tanh")
exp_p, exp = _make_unary("exp")
log_p, log = _make_unary("log")
sqrt_p, sqrt = _make_unary("sqrt")
rsqrt_p, rsqrt = _make_unary("rsqrt")
reciprocal_p, reciprocal = _make_unary("reciprocal")
abs_p, abs = _make_unary("abs")  # noqa: A001 (ttnn's name)
neg_p, neg = _make_unary("neg")
square_p, square = _make_unary("square")
sin_p, sin = _make_unary("sin")
cos_p, cos = _make_unary("cos")

add_p, add = _make_binary("add")
subtract_p, subtract = _make_binary("subtract")
multiply_p, multiply = _make_binary("multiply")
divide_p, divide = _make_binary("divide")
pow_p, pow = _make_binary("pow")  # noqa: A001 (ttnn's name)
floor_div_p, floor_div = _make_binary("floor_div")
remainder_p, remainder = _make_binary("remainder")
sub = subtract
mul = multiply


def _gelu_impl(x: torch.Tensor, *, fast_and_approximate_mode: bool) -> torch.Tensor:
    return F.gelu(x, approximate="tanh" if fast_and_approximate_mode else "none")


gelu_p = DevicePrimitive("gelu", same_type, _gelu_impl)


def gelu(input_tensor: Tensor, *, fast_and_approximate_mode: bool = False, dtype: Optional[DataFormat] = None,
         memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """x * Phi(x), exact (erf) by default; the tanh approximation with ``fast_and_approximate_mode``."""
    return gelu_p.bind(input_tensor, dtype=dtype, memory_config=memory_config,
                      fast_and_approximate_mode=bool(fast_and_approximate_mode))
