"""The one table from IR operations to TT-Metalium 0.81.1 compute calls.

Names and headers come from the 0.81.1 wheel's ``api/compute/*.h`` (see
reference/metal-0.81.1-compute-signatures.txt). An IR operation with no entry cannot be
emitted: lowering reports a compile error at its source line (see :func:`unsupported`).
Targets differ only in data here, never in if-chains on op names.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from typing import Callable

from ..ir import compute_units
from .kir import METAL_VERSION

COMPUTE_PREFIX = "api/compute/"
DATAFLOW_HEADER = "api/dataflow/dataflow_api.h"


@dataclass(frozen=True)
class Sfpu:
    """An SFPU operation on DST tiles: ``init()`` then ``call(idst, *params)``."""

    init: str
    call: str
    header: str
    #: how scalar parameters are passed: "bits" (float as uint32 bit pattern) or "int"
    params: str = ""
    #: constant arguments after the parameters, as C++ literals (log2's base scale, relu6's 6)
    fixed: tuple[str, ...] = ()
    #: template arguments of the init and of the call without defaults in 0.81.1; DST_FORMAT
    #: stands for the format the values in DST have (Float32 with fp32 accumulation)
    init_template: tuple[str, ...] = ()
    call_template: tuple[str, ...] = ()


#: placeholder in a template argument for the data format of DST
DST_FORMAT = "{dst_format}"


def float_bits(value: float) -> str:
    """A float as the uint32 bit pattern SFPU parameters take, as a C++ literal."""
    return f"0x{struct.unpack('<I', struct.pack('<f', float(value)))[0]:08x}u"


def _u(name: str, header: str, call: str | None = None, init: str | None = None, params: str = "",
       fixed: tuple[str, ...] = (), init_template: tuple[str, ...] = (), call_template: tuple[str, ...] = ()) -> Sfpu:
    call = call or f"{name}_tile"
    return Sfpu(init or f"{call}_init", call, header, params, fixed, init_template, call_template)


_API = "compute_kernel_api.h"
_TRIG = "eltwise_unary/trigonometry.h"
_ROUND = "eltwise_unary/rounding.h"

#: unary block math -> SFPU call
UNARY: dict[str, Sfpu] = {
    "abs": _u("abs", _API), "neg": _u("neg", "eltwise_unary/negative.h", call="negative_tile"),
    "exp": _u("exp", "eltwise_unary/exp.h"), "exp2": _u("exp2", _API), "expm1": _u("expm1", _API),
    "log": _u("log", _API), "log1p": _u("log1p", "eltwise_unary/log1p.h"),
    "sqrt": _u("sqrt", "eltwise_unary/sqrt.h"), "square": _u("square", _API),
    "rsqrt": _u("rsqrt", "eltwise_unary/rsqrt.h"), "recip": _u("recip", "eltwise_unary/recip.h"),
    "tanh": _u("tanh", _API), "sigmoid": _u("sigmoid", _API), "silu": _u("silu", _API),
    # the language's GELU is the accurate one: gelu_tile's default is a 6-segment table (max error 0.023)
    "gelu": _u("gelu", "eltwise_unary/gelu.h", init_template=("false",), call_template=("false",)),
    "relu": _u("relu", "eltwise_unary/relu.h"),
    "sign": _u("sign", _API), "signbit": _u("signbit", _API),
    "softsign": _u("softsign", "eltwise_unary/activations.h"),
    "hardsigmoid": _u("hardsigmoid", "eltwise_unary/activations.h"),
    "selu": _u("selu", "eltwise_unary/selu.h", fixed=(float_bits(1.0507009873554805), float_bits(1.6732632423543772))),
    "mish": _u("mish", "eltwise_unary/mish.h", init_template=("false",), call_template=("false",)),
    "erf": _u("erf", "eltwise_unary/erf_erfc.h"), "erfc": _u("erfc", "eltwise_unary/erf_erfc.h"),
    "logical_not": _u("logical_not", "eltwise_unary/logical_not.h", call_template=(DST_FORMAT,)),
    "floor": _u("floor", _ROUND, init="rounding_op_tile_init"),
    "ceil": _u("ceil", _ROUND, init="rounding_op_tile_init"),
    "trunc": _u("trunc", _ROUND, init="rounding_op_tile_init"),
    "frac": _u("frac", _ROUND, init="rounding_op_tile_init"),
    **{fn: _u(fn, _TRIG) for fn in ("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh",
                                    "acosh", "atanh")},
    # parameterised: the IR's float parameters follow the block
    "relu_max": _u("relu_max", "eltwise_unary/relu.h", params="bits"),
    "relu_min": _u("relu_min", "eltwise_unary/relu.h", params="bits"),
    "leaky_relu": _u("leaky_relu", "eltwise_unary/relu.h", params="bits"),
    "elu": _u("elu", "eltwise_unary/elu.h", params="bits"),
    # 0.81.1's power_tile takes the exponent as fp32 bits (calculate_unary_power reads param0 as a float)
    "power": _u("power", _API, params="bits"),
    # log_b(x) = ln(x) * (1 / ln b), the scale as fp32 bits: 0.81.1's ckernel_sfpu_log.h reads
    # base_scale as a float's 32 bits (older releases took fp16a bits; as fp32 those are a
    # denormal, and every result ~0). log2 sets base_is_two, the exact path: exponent + ln(m) / ln 2
    "log2": _u("log2", _API, call="log_with_base_tile", fixed=(float_bits(1 / math.log(2)),),
               call_template=("false", "true")),
    "log10": _u("log10", _API, call="log_with_base_tile", fixed=(float_bits(1 / math.log(10)),)),
    "relu6": _u("relu6", "eltwise_unary/relu.h", call="relu_max_tile", fixed=(float_bits(6.0),)),
    **{fn: _u(fn, "eltwise_unary/isinf_isnan.h") for fn in ("isfinite", "isinf", "isnan")},
    "celu": _u("celu", "eltwise_unary/activations.h", params="bits"),
    "prelu": _u("prelu", "eltwise_unary/prelu.h", params="bits"),
    "softplus": _u("softplus", "eltwise_unary/softplus.h", params="bits"),
    "hardtanh": _u("hardtanh", "eltwise_unary/hardtanh.h", params="bits"),
    "clamp": _u("clamp", "eltwise_unary/clamp.h", params="bits"),
    # threshold_tile writes the value where x <= threshold (the language's threshold is its mirror image)
    "threshold_le": _u("threshold", "eltwise_unary/threshold.h", params="bits"),
    "round": _u("round", _ROUND, init="rounding_op_tile_init", params="int"),
    "rsub": _u("rsub", "eltwise_unary/rsub.h", params="bits"),
}

#: functions the SFPU computes as a short sequence of others: name -> (inner unary, then a binary
#: of the operand and the inner result): hardswish(x) = x * hardsigmoid(x)
COMPOSITE_UNARY: dict[str, tuple[str, str]] = {"hardswish": ("hardsigmoid", "mul")}


def _mirrored_threshold(threshold: float, value: float) -> tuple[float, float]:
    """threshold(x, t, v) = v where x > t, else x, computed as -threshold_le(-x, s, -v) with
    threshold_le(z, s, w) = w where z <= s: -x <= s holds exactly when x > t for s the largest
    fp32 below -t (the SFPU compares in fp32)."""
    bits = struct.unpack("<I", struct.pack("<f", -threshold))[0]
    if bits & 0x7FFFFFFF == 0:
        below = 0x80000001  # below both zeros: minus the smallest subnormal
    else:  # one fp32 step towards -inf: a larger magnitude for negatives, a smaller one for positives
        below = bits + 1 if bits & 0x80000000 else bits - 1
    return struct.unpack("<f", struct.pack("<I", below))[0], -value


#: functions the SFPU computes as their mirror image: f(x, params) = -g(-x, transform(params))
MIRRORED_UNARY: dict[str, tuple[str, Callable[..., tuple[float, ...]]]] = {
    "threshold": ("threshold_le", _mirrored_threshold),
}


def exact_reciprocal(value: object) -> float | None:
    """``1 / value`` where it is exact in fp32 and as normal as ``value`` (a power of two whose
    reciprocal is a normal fp32): then ``x * (1 / value)`` rounds the same real number as
    ``x / value``, so both give the same bits. None for anything else (a runtime scalar too)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value == 0:
        return None
    mantissa, exponent = math.frexp(abs(value))
    if mantissa != 0.5 or not -126 <= 1 - exponent <= 127:  # 1/value = 2**(1 - exponent), a normal fp32
        return None
    return 1.0 / value


@dataclass(frozen=True)
class Fpu:
    """A binary FPU operation reading both operands from circular buffers."""

    init: str
    call: str
    #: broadcast forms by broadcast dims of the right operand: (init, call)
    bcast: dict


def _fpu(op: str) -> Fpu:
    return Fpu(f"{op}_init", f"{op}_tiles", {
        dims: (f"{op}_bcast_{form}_init", f"{op}_tiles_bcast_{form}")
        for dims, form in compute_units.FPU_BROADCASTS.items()
    })


#: binary block math on two buffer operands -> FPU (which ones, and when: ``ir/compute_units.py``)
FPU_BINARY: dict[str, Fpu] = {op: _fpu(op) for op in compute_units.FPU_BINARY}
FPU_HEADERS = ("eltwise_binary.h", "bcast.h")

#: binary block math on two DST operands -> SFPU
SFPU_BINARY: dict[str, Sfpu] = {
    "add": Sfpu("add_binary_tile_init", "add_binary_tile", "eltwise_binary_sfpu.h"),
    "sub": Sfpu("sub_binary_tile_init", "sub_binary_tile", "eltwise_binary_sfpu.h"),
    "mul": Sfpu("mul_binary_tile_init", "mul_binary_tile", "eltwise_binary_sfpu.h"),
    "div": Sfpu("div_binary_tile_init", "div_binary_tile", "eltwise_binary_sfpu.h"),
    "pow": Sfpu("power_binary_tile_init", "power_binary_tile", "eltwise_binary_sfpu.h"),
    "max": Sfpu("binary_max_tile_init", "binary_max_tile", "binary_max_min.h"),
    "min": Sfpu("binary_min_tile_init", "binary_min_tile", "binary_max_min.h"),
    # a % b: x0 - x1 * floor(x0 / x1), with the divisor's sign (binary_remainder.h), Python's rule
    "remainder": Sfpu("remainder_binary_tile_init", "remainder_binary_tile", "binary_remainder.h"),
    **{c: Sfpu(f"{c}_binary_tile_init", f"{c}_binary_tile", "eltwise_binary_sfpu.h")
       for c in ("eq", "ne", "lt", "gt", "le", "ge")},
}

#: the ``DataFormat`` template argument of the integer SFPU calls, by block format
INT_DATA_FORMATS = {"int32": "DataFormat::Int32", "uint32": "DataFormat::UInt32"}


def _int_binaries(fmt: str) -> dict[str, Sfpu]:
    """0.81.1's integer SFPU binaries on DST tiles holding ``fmt`` (two's complement 32-bit):
    ``add_int_tile``/``sub_int_tile``/``mul_int_tile`` (the low 32 bits, as the device wraps),
    one max/min call per format, and the comparisons (1 or 0 as integers). The template arguments
    are those 0.81.1 declares: add's and sub's init takes none, mul's and the comparisons' do."""
    data_format = (INT_DATA_FORMATS[fmt],)
    return {
        "add": Sfpu("add_int_tile_init", "add_int_tile", "add_int_sfpu.h", call_template=data_format),
        "sub": Sfpu("sub_int_tile_init", "sub_int_tile", "sub_int_sfpu.h", call_template=data_format),
        "mul": Sfpu("mul_int_tile_init", "mul_int_tile", "mul_int_sfpu.h", init_template=data_format,
                    call_template=data_format),
        **{fn: Sfpu(f"binary_{fn}_{fmt}_tile_init", f"binary_{fn}_{fmt}_tile", "binary_max_min.h")
           for fn in ("max", "min")},
        **{c: Sfpu(f"{c}_int_tile_init", f"{c}_int_tile", "binary_comp.h", init_template=data_format,
                   call_template=data_format) for c in ("eq", "ne", "lt", "gt", "le", "ge")},
    }


#: binary block math on two Int32/UInt32 DST operands -> the integer SFPU call, by (op, format).
#: Not here, so refused (E3001): division, powers and remainders (0.81.1's div_int32_tile gives an
#: fp32 quotient and has no UInt32 form; there is no integer pow or Python-rule remainder)
INT_SFPU_BINARY: dict[tuple[str, str], Sfpu] = {
    (fn, fmt): sfpu for fmt in INT_DATA_FORMATS for fn, sfpu in _int_binaries(fmt).items()}
#: unary block math on Int32 DST tiles -> 0.81.1's integer forms (none for UInt32, none of the rest)
INT_UNARY: dict[tuple[str, str], Sfpu] = {
    ("abs", "int32"): _u("abs", _API, call="abs_tile_int32", init="abs_tile_init"),
    ("neg", "int32"): _u("neg", "eltwise_unary/negative.h", call="negative_tile_int32", init="negative_tile_init"),
    ("relu", "int32"): _u("relu", "eltwise_unary/relu.h", call="relu_tile_int32", init="relu_tile_init"),
}
#: a DST tile filled with an integer (its two's complement bits as the uint32 argument)
FILL_INT = Sfpu("fill_tile_init", "fill_tile_int", "eltwise_unary/fill.h", "int")

#: binary block math with a scalar right operand -> SFPU ``<op>_unary_tile(idst, float bits)``. Not
#: ``div_unary_tile``: 0.81.1 multiplies by its parameter (the host passes the reciprocal), so a
#: division by a number is a multiplication where the reciprocal is exact (a power of two), else
#: the SFPU's division of two tiles (``ComputeLowering.binary_node``)
SCALAR_BINARY: dict[str, Sfpu] = {
    op: Sfpu("binop_with_scalar_tile_init", f"{op}_unary_tile", "eltwise_unary/binop_with_scalar.h", "bits")
    for op in ("add", "sub", "mul")
}

COPY = Sfpu("copy_init", "copy_tile", "tile_move_copy.h")  # copy_tile_init is deprecated in 0.81
FILL = Sfpu("fill_tile_init", "fill_tile", "eltwise_unary/fill.h", "float")
MATMUL = ("matmul_init", "matmul_tiles", "matmul.h")
#: a sub-block of rt_dim x ct_dim output tiles per call, one K step (DST tiles idst + r * ct_dim + c)
MATMUL_BLOCK = ("matmul_block_init", "matmul_block", "matmul.h")
TRANSPOSE = ("transpose_init", "transpose_tile", "transpose.h")
REDUCE = ("reduce_init", "reduce_tile", "reduce.h")
UNARY_BCAST = ("unary_bcast_init", "unary_bcast", "bcast.h")
#: reduce kind -> PoolType; reduced dims -> ReduceDim (a reduce over columns sums each row)
POOL = {"sum": "PoolType::SUM", "max": "PoolType::MAX"}
REDUCE_DIM = {(-1,): "ReduceDim::REDUCE_ROW", (-2,): "ReduceDim::REDUCE_COL", (-2, -1): "ReduceDim::REDUCE_SCALAR"}
WHERE = ("where_tile_init", "where_tile", "eltwise_unary/where.h")

#: which circular-buffer argument each unpacking call reads through SrcA and through SrcB
#: (argument positions; None: the call leaves that register alone). Matmul reads in0 through SrcB
#: and in1 through SrcA (0.81.1 matmul.h, hence ``SrcOrder::Reverse``); REDUCE_ROW sums swap
#: theirs (:data:`SWAPPED_REDUCE`); ``unary_bcast`` reads SrcB, or goes to DST through SrcA from an
#: fp32 buffer in ``UnpackToDestFp32`` mode
UNPACK_SOURCES: dict[str, tuple[int | None, int | None]] = {
    COPY.call: (0, None),
    **{f.call: (0, 1) for f in FPU_BINARY.values()},
    **{call: (0, 1) for f in FPU_BINARY.values() for _, call in f.bcast.values()},
    MATMUL[1]: (1, 0), MATMUL_BLOCK[1]: (1, 0),
    REDUCE[1]: (0, 1),
    TRANSPOSE[1]: (0, None),
    UNARY_BCAST[1]: (None, 0),
}
#: the positions of the circular-buffer arguments of the compute calls that move or read tiles
CB_ARGUMENTS: dict[str, tuple[int, ...]] = {
    **{fn: (0,) for fn in ("cb_reserve_back", "cb_push_back", "cb_wait_front", "cb_pop_front")},
    "pack_tile": (1,), "compute_kernel_hw_startup": (0, 1, 2),
    **{fn: tuple(p for p in sources if p is not None) for fn, sources in UNPACK_SOURCES.items()},
}
#: the reduce template arguments whose unpack reads the scaler through SrcA and the data through SrcB
SWAPPED_REDUCE = ("PoolType::SUM", "ReduceDim::REDUCE_ROW")
#: calls that move a buffer's tiles straight into DST (no FPU operation): an fp32 buffer read only
#: by them is unpacked in ``UnpackToDestFp32`` mode and keeps all 32 bits
TO_DEST_CALLS = frozenset({COPY.call, UNARY_BCAST[1]})
#: the packing call and the position of its buffer argument
PACK = ("pack_tile", 1)
#: the calls that reconfigure the unpacker (SrcA, SrcB, both) and the packer for a buffer's format
RECONFIG_SRCA, RECONFIG_SRCB, RECONFIG_BOTH, RECONFIG_PACK = (
    "reconfig_data_format_srca", "reconfig_data_format_srcb", "reconfig_data_format", "pack_reconfig_data_format")

#: every configuration call the lowering emits before an operation; the metal-level simulator
#: treats exactly these as configuration, so a misspelt or new init is an error there, not a no-op
INIT_CALLS: frozenset[str] = frozenset(
    [s.init for table in (UNARY, SFPU_BINARY, SCALAR_BINARY, INT_SFPU_BINARY, INT_UNARY) for s in table.values()]
    + [f.init for f in FPU_BINARY.values()] + [init for f in FPU_BINARY.values() for init, _ in f.bcast.values()]
    + [COPY.init, FILL.init, MATMUL[0], MATMUL_BLOCK[0], TRANSPOSE[0], WHERE[0], REDUCE[0], UNARY_BCAST[0]])

#: formats a circular buffer can have in emitted code (tt::DataFormat enumerators)
EMITTABLE_FORMATS = ("float32", "bfloat16", "float16", "bfloat8_b", "bfloat4_b", "int32", "uint32",
                     "uint16", "uint8")


def unsupported(what: str) -> str:
    """The message for an operation the emitter cannot express."""
    return f"{what} cannot be emitted as TT-Metalium {METAL_VERSION} code"
