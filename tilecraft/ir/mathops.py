"""The block math operations of the language, by name: the one list every layer agrees on.

The front end accepts exactly these names under ``ttl.math``; the simulator's ``tile_math``
implements each; the emitter maps each to Metalium calls (or rejects it with a compile error).
"""

from __future__ import annotations

import struct

#: elementwise functions of one block
UNARY: tuple[str, ...] = (
    "abs", "neg", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "square",
    "rsqrt", "recip", "tan", "tanh", "atan", "atanh", "sin", "asin", "asinh", "cos", "acos",
    "acosh", "sinh", "cosh", "relu", "relu6", "sigmoid", "gelu", "silu", "softsign", "hardsigmoid",
    "hardswish", "selu", "mish", "erf", "erfc", "floor", "ceil", "frac", "trunc", "sign", "signbit",
    "logical_not", "isfinite", "isinf", "isnan",
)

#: other spellings accepted for the same function
UNARY_ALIASES: dict[str, str] = {"logp1": "log1p", "negative": "neg", "reciprocal": "recip"}

#: elementwise functions of one block and scalar parameters: name -> (parameter names, how many
#: are required); the names are those ``ttl.math`` accepts as keywords
UNARY_PARAM: dict[str, tuple[tuple[str, ...], int]] = {
    "relu_max": (("upper_limit",), 1), "relu_min": (("lower_limit",), 1), "leaky_relu": (("slope",), 1),
    "elu": (("alpha",), 1), "celu": (("alpha", "alpha_recip"), 1), "prelu": (("slope",), 1),
    "softplus": (("beta", "beta_reciprocal", "threshold"), 0), "hardtanh": (("min_val", "max_val"), 2),
    "round": (("decimals",), 0), "clamp": (("min", "max"), 2), "threshold": (("threshold", "value"), 2),
    "rsub": (("scalar",), 1), "power": (("exponent",), 1),
}

#: elementwise functions of two blocks (either side may be a scalar)
BINARY: tuple[str, ...] = (
    "add", "sub", "mul", "div", "pow", "max", "min", "eq", "ne", "lt", "le", "gt", "ge",
)

#: elementwise functions of two blocks reached only through a Python operator: ``a // b`` and
#: ``a % b``, Python's floor division and remainder (the remainder has the divisor's sign)
OPERATOR_ONLY_BINARY: tuple[str, ...] = ("floordiv", "remainder")

#: the formats a block expression can be rounded to (``expr.to(ttnn.bfloat16)``, ``ir.TileRound``):
#: the packer's rounding of fp32 DST values into a bfloat16 buffer
ROUNDING_FORMATS: tuple[str, ...] = ("bfloat16",)

#: Python operators on blocks -> binary function
OPERATORS: dict[str, str] = {
    "Add": "add", "Sub": "sub", "Mult": "mul", "Div": "div", "Pow": "pow", "FloorDiv": "floordiv",
    "Mod": "remainder",
}


def fp32(value: float) -> float:
    """``value`` rounded to the nearest fp32 number: scalar parameters reach the device as fp32."""
    return struct.unpack("<f", struct.pack("<f", float(value)))[0]


def full_params(name: str, params: tuple) -> tuple:
    """The parameters of ``name`` with the ones left out filled in, as the device receives them.

    The simulator and the emitter both call this, so a default (``celu``'s reciprocal of alpha,
    ``softplus``'s beta of 1) is one fp32 number at both levels.
    """
    params = tuple(params)
    if name == "celu":
        alpha = params[0]
        return (alpha, params[1] if len(params) > 1 else fp32(1.0 / alpha))
    if name == "softplus":
        beta = params[0] if params else 1.0
        recip = params[1] if len(params) > 1 else fp32(1.0 / beta)
        return (beta, recip, params[2] if len(params) > 2 else 20.0)
    if name == "round":
        return (int(params[0]) if params else 0,)
    return params
