"""Which of the emulator's SFPU operations each SFPU function of the lowering is: the one table
between tilecraft's function names (:mod:`tilecraft.metal.optable`, :mod:`tilecraft.ir.mathops`) and
the emulator's operation codes (:mod:`tilecraft.emu.codes`).

The metal-level simulator's trace records these codes for the calls it simulates, as the emulator
records them for the calls it runs, and the kernel-level cost model reads the function name back
from them (:mod:`tilecraft.perf.kernel_costs`), so both levels charge one function's body. Each
entry names the operation the Tensix machine reports for that call (``log_with_base_tile`` ->
``LogWithBase``: tilecraft/emu/tensix_call_events.py); ``tests/sim/test_emu_sfpu.py`` holds the keys
to the lowering's tables and each entry to what the machine reports.
"""

from __future__ import annotations

from enum import Enum

from ..emu.codes import SfpuBinary as B
from ..emu.codes import SfpuTernary as T
from ..emu.codes import SfpuUnary as U
from ..metal.optable import MIRRORED_UNARY

#: functions of one block (``optable.UNARY``)
UNARY: dict[str, Enum] = {
    "abs": U.Abs, "neg": U.Neg, "exp": U.Exp, "exp2": U.Exp2, "expm1": U.Expm1, "log": U.Log,
    "log1p": U.Log1p, "sqrt": U.Sqrt, "square": U.Square, "rsqrt": U.Rsqrt, "recip": U.Recip, "tanh": U.Tanh,
    "sigmoid": U.Sigmoid, "silu": U.Silu, "gelu": U.Gelu, "relu": U.Relu, "sign": U.Sign, "signbit": U.Signbit,
    "softsign": U.Softsign, "hardsigmoid": U.Hardsigmoid, "selu": U.Selu, "mish": U.Mish, "erf": U.Erf,
    "erfc": U.Erfc, "logical_not": U.LogicalNot, "floor": U.Floor, "ceil": U.Ceil, "trunc": U.Trunc,
    "frac": U.Frac, "sin": U.Sin, "cos": U.Cos, "tan": U.Tan, "asin": U.Asin, "acos": U.Acos, "atan": U.Atan,
    "sinh": U.Sinh, "cosh": U.Cosh, "asinh": U.Asinh, "acosh": U.Acosh, "atanh": U.Atanh,
    "relu_max": U.ReluMax, "relu_min": U.ReluMin, "leaky_relu": U.LeakyRelu, "elu": U.Elu, "power": U.Power,
    # log_with_base_tile with the base's scale; relu_max_tile with 6
    "log2": U.LogWithBase, "log10": U.LogWithBase, "relu6": U.ReluMax,
    "isfinite": U.Isfinite, "isinf": U.Isinf, "isnan": U.Isnan, "celu": U.Celu,
    # prelu_tile with one slope is leaky_relu_tile's function (prelu_tile has no operation code of its own)
    "prelu": U.LeakyRelu,
    "softplus": U.Softplus, "hardtanh": U.Hardtanh, "clamp": U.Clamp, "threshold_le": U.Threshold,
    "round": U.Round, "rsub": U.RsubScalar,
}

#: functions of two blocks on the SFPU (``optable.SFPU_BINARY``)
BINARY: dict[str, Enum] = {
    "add": B.Add, "sub": B.Sub, "mul": B.Mul, "div": B.Div, "pow": B.Pow, "max": B.Max, "min": B.Min,
    "remainder": B.Remainder, "eq": B.Eq, "ne": B.Ne, "lt": B.Lt, "gt": B.Gt, "le": B.Le, "ge": B.Ge,
}

#: functions of a block and a scalar (``optable.SCALAR_BINARY``)
SCALAR: dict[str, Enum] = {"add": U.AddScalar, "sub": U.SubScalar, "mul": U.MulScalar}

#: ``fill_tile`` and ``where_tile``
FILL: Enum = U.Fill
WHERE: Enum = T.Where


def function_names() -> dict[Enum, str]:
    """Each emulator operation the lowering emits -> the language's function it computes (the name
    the cost model's SFPU table charges): the first function of the tables above that lowers to it
    (``log_with_base_tile`` computes ``log2`` and ``log10``, which the cost table charges alike), the
    language's name for a mirrored one (``threshold_le`` computes ``threshold``)."""
    language_name = {lowered: name for name, (lowered, _) in MIRRORED_UNARY.items()}
    names: dict[Enum, str] = {FILL: "fill", WHERE: "where"}
    for table in (SCALAR, BINARY, UNARY):
        for name, op in table.items():
            names.setdefault(op, language_name.get(name, name))
    return names
