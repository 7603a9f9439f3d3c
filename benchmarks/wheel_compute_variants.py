"""The define combinations ttnn 0.81.1's program factories pass their compute kernels.

The factories are host code the wheel does not ship; the define maps here follow tt-metal's
sources (``ttnn/cpp/ttnn/operations/eltwise/unary/common/unary_op_utils.cpp``:
``get_macro_definition``, ``get_op_init_and_func_*``, ``get_block_defines``), read for the names and
call forms only. A kernel without an entry is built once with no defines.

The unary SFPU kernel (``eltwise_sfpu.cpp`` and its Metal 2.0 fork) gets one build whose
``SFPU_OP_CHAIN_0`` chains every op the factory maps (all ``SFPU_OP_*_INCLUDE`` families defined),
as ``get_block_defines`` writes a chain (``SFPU_OP_CHAIN_0_INIT_<i> SFPU_OP_CHAIN_0_FUNC_<i> ...``);
``--per-family`` builds one chain per include family instead.
The factory's source is newer than 0.81.1 in places: an op whose init or call is not declared by
the wheel's compute API is left out and listed by ``skipped_ops`` (the census prints them).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

Defines = tuple[tuple[str, str], ...]
Variant = tuple[str, Defines]

NO_DEFINES: tuple[Variant, ...] = (("no defines", ()),)

_F32 = {"two": "0x40000000u", "half": "0x3f000000u", "one": "0x3f800000u", "minus_one": "0xbf800000u",
        "six": "0x40c00000u"}
#: SFPU_OP_<family>_INCLUDE -> (init, call) of each op the unary factory maps to it; dst index 0.
#: Parameters are representative values of the forms the factory writes (fp32 bits, formats).
UNARY_FAMILIES: dict[str, tuple[tuple[str, str], ...]] = {
    "EXP": (("exp_tile_init<1u>();", "exp_tile<1u>(0);"), ("exp_tile_init();", "exp_tile(0);")),
    "GELU": (("gelu_tile_init<1u>();", "gelu_tile<1u>(0);"), ("gelu_tile_init();", "gelu_tile(0);"),
             ("gelu_tanh_tile_init();", "gelu_tanh_tile(0);")),
    "RECIP": (("recip_tile_init();", "recip_tile(0);"),),
    "SQRT": (("sqrt_tile_init();", "sqrt_tile(0);"),),
    "RSQRT": (("rsqrt_tile_init();", "rsqrt_tile(0);"),),
    "CBRT": (("cbrt_tile_init();", "cbrt_tile(0);"),),
    "ERFINV": (("erfinv_tile_init();", "erfinv_tile(0);"),),
    "ERF_ERFC": (("erf_tile_init<0u>();", "erf_tile<0u>(0);"), ("erfc_tile_init();", "erfc_tile(0);")),
    "ELU": (("elu_tile_init();", f"elu_tile(0, {_F32['one']});"),),
    "RELU_FAMILY": (("relu_tile_init();", "relu_tile(0);"), ("relu_tile_init();", "relu_tile_int32(0);"),
                    ("relu_max_tile_init();", f"relu_max_tile(0, {_F32['six']});"),
                    ("relu_min_tile_init();", "relu_min_tile(0, 0x0u);"),
                    ("leaky_relu_tile_init();", "leaky_relu_tile(0, 0x3c23d70au);")),
    "BINOP_WITH_SCALAR": tuple(("binop_with_scalar_tile_init();", f"{op}_unary_tile(0, {_F32['two']});")
                               for op in ("add", "sub", "mul", "div"))
    + (("binop_with_scalar_tile_init();", "add_unary_tile_int32(0, 2u);"),),
    "ROUND_FAMILY": tuple(("rounding_op_tile_init();", f"{op}_tile(0);") for op in ("floor", "ceil", "trunc", "frac"))
    + (("rounding_op_tile_init();", "round_tile(0, 2);"),),
    "RSUB": (("rsub_tile_init();", f"rsub_tile(0, {_F32['two']});"),),
    "ISINF_ISNAN": tuple((f"{op}_tile_init();", f"{op}_tile(0);")
                         for op in ("isinf", "isnan", "isposinf", "isneginf", "isfinite")),
    "LOGICAL_NOT": (("logical_not_tile_init();", "logical_not_tile<DataFormat::Float16_b>(0);"),),
    "TRIG_FAMILY": tuple((f"{op}_tile_init();", f"{op}_tile(0);") for op in (
        "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh")),
    "NEG": (("negative_tile_init();", "negative_tile(0);"), ("negative_tile_init();", "negative_tile_int32(0);")),
    "SOFTPLUS": (("softplus_tile_init();", f"softplus_tile(0, {_F32['one']}, {_F32['one']}, 0x41a00000u);"),),
    "XIELU": (("xielu_tile_init();", "xielu_tile(0, 0x3f4ccccdu, 0x3f4ccccdu);"),),
    "SELU": (("selu_tile_init();", "selu_tile(0, 0x3f867d5fu, 0x3fd62d7du);"),),
    "PRELU": (("prelu_tile_init();", "prelu_tile(0, 0x3e800000u);"),),
    "TYPECAST": tuple((f"typecast_tile_init<{a}u, {b}u>();", f"typecast_tile<{a}u, {b}u>(0);")
                      for a, b in ((5, 0), (0, 5), (5, 8), (8, 5), (0, 24), (9, 5), (6, 5))),
    "BITWISE": tuple((f"bitwise_{op}_tile_init();", f"bitwise_{op}_tile<DataFormat::Int32>(0, 3u);")
                     for op in ("and", "or", "xor")),
    "BITWISE_NOT": (("bitwise_not_tile_init();", "bitwise_not_tile(0);"),),
    "SHIFT": tuple((f"{op}_shift_tile_init();", f"{op}_shift_tile<DataFormat::Int32>(0, 2u);")
                   for op in ("left", "right")),
    "REMAINDER": ((f"remainder_tile_init({_F32['two']}, {_F32['half']});", "remainder_tile(0);"),),
    "FMOD": ((f"fmod_tile_init({_F32['two']}, {_F32['half']});", "fmod_tile(0);"),),
    "FILL": (("fill_tile_init();", f"fill_tile_bitcast(0, {_F32['two']});"),
             ("fill_tile_init();", "fill_tile_int<DataFormat::Int32>(0, 0x2u);")),
    "UNARY_COMP": tuple((f"unary_{op}_tile_init();", f"unary_{op}_tile(0, {_F32['two']});")
                        for op in ("ne", "eq", "gt", "lt", "ge", "le"))
    + tuple((f"{op}_tile_init();", f"{op}_tile(0);") for op in ("gtz", "ltz", "eqz", "lez", "gez", "nez"))
    + (("eqz_tile_init();", "eqz_tile_int32(0);"),),
    "CLAMP": ((("clamp_tile_init();", f"clamp_tile(0, {_F32['minus_one']}, {_F32['one']});"),)),
    "ACTIVATIONS": (("softshrink_tile_init();", f"softshrink_tile(0, {_F32['half']});"),
                    ("hardshrink_tile_init();", f"hardshrink_tile(0, {_F32['half']});"),
                    ("softsign_tile_init();", "softsign_tile(0);"), ("hardsigmoid_tile_init();", "hardsigmoid_tile(0);"),
                    ("celu_tile_init();", f"celu_tile(0, {_F32['one']}, {_F32['one']});")),
    "THRESHOLD": (("threshold_tile_init();", f"threshold_tile(0, {_F32['half']}, {_F32['two']});"),),
    "HARDTANH": (("hardtanh_tile_init();", f"hardtanh_tile(0, {_F32['minus_one']}, {_F32['one']});"),),
    "RPOW": (("rpow_tile_init();", f"rpow_tile(0, {_F32['two']});"),),
    "HARDMISH": (("hardmish_tile_init();", "hardmish_tile(0);"),),
    "SOFTCAP": (("softcap_tile_init();", f"softcap_tile(0, {_F32['two']}, {_F32['half']});"),),
    "DIGAMMA": (("digamma_tile_init();", "digamma_tile(0);"),),
    "TANHSHRINK": (("tanhshrink_tile_init();", "tanhshrink_tile(0);"),),
    "POLYGAMMA": (("polygamma_tile_init();", f"polygamma_tile(0, {_F32['one']}, {_F32['one']});"),),
    "MISH": (("mish_tile_init<0u>();", "mish_tile<0u>(0);"),),
    "LOG1P": (("log1p_tile_init<1u>();", "log1p_tile<1u>(0);"),),
    "I0": (("i0_tile_init();", "i0_tile(0);"),),
    "I1": (("i1_tile_init();", "i1_tile(0);"),),
    # the factory's default family: ops whose header compute_kernel_api.h or the kernel includes
    "COMPUTE_KERNEL_API": (
        ("log_tile_init<1u>();", "log_tile<1u>(0);"), ("log_with_base_tile_init();", "log_with_base_tile(0, 0x3ede5bd9u);"),
        ("tanh_tile_init<0u>();", "tanh_tile<0u>(0);"), ("sigmoid_tile_init<0u>();", "sigmoid_tile<VectorMode::RC, 0u>(0);"),
        ("heaviside_tile_init();", f"heaviside_tile(0, {_F32['half']});"),
        ("power_tile_init();", f"power_tile(0, {_F32['two']});"), ("power_iterative_tile_init();", "power_iterative_tile(0, 2);"),
        ("signbit_tile_init();", "signbit_tile(0);"), ("abs_tile_init();", "abs_tile(0);"),
        ("abs_tile_init();", "abs_tile_int32(0);"), ("sign_tile_init();", "sign_tile(0);"),
        ("square_tile_init();", "square_tile(0);"), ("tiled_prod_tile_init();", "tiled_prod_tile(0);"),
        ("exp2_tile_init();", "exp2_tile(0);"), ("expm1_tile_init();", "expm1_tile(0);"), ("silu_tile_init();", "silu_tile(0);"),
        ("alt_complex_rotate90_tile_init();", "alt_complex_rotate90_tile(0);"),
        ("rdiv_tile_init();", f"rdiv_tile<ckernel::RoundingMode::None>(0, {_F32['two']});"),
        ("unary_max_tile_init();", f"unary_max_tile(0, {_F32['two']});"),
        ("unary_min_tile_init();", f"unary_min_tile(0, {_F32['two']});"),
        ("mul_int_tile_init<DataFormat::Int32>();", "mul_int_tile<DataFormat::Int32>(0, 0, 0);")),
}
#: the unary factory's kernels that take SFPU_OP_CHAIN_0 (get_compute_kernel_path's default)
UNARY_CHAIN_KERNELS = ("eltwise/unary/device/kernels/compute/eltwise_sfpu.cpp",
                       "eltwise/unary/device/kernels/compute/eltwise_sfpu_metal2.cpp")
_CALLED = re.compile(r"(\w+)\s*(?:<[^;()]*>)?\s*\(")


#: how 0.81.1 guards a header that exists only on Blackhole and Quasar (softcap.h, situ_glu.h, ...)
_NOT_WORMHOLE = "#if defined(ARCH_BLACKHOLE) || defined(ARCH_QUASAR)\n"


@functools.cache
def _api_text(api: Path) -> str:
    """The Wormhole compute API's text (headers guarded to Blackhole/Quasar left out)."""
    texts = (p.read_text(errors="replace") for p in sorted(api.rglob("*.h")))
    return "".join(t for t in texts if _NOT_WORMHOLE not in t)


def declared(call: str, api: Path) -> bool:
    """Whether the function ``call`` invokes is declared by the compute API under ``api``."""
    name = _CALLED.match(call.strip()).group(1)  # type: ignore[union-attr]
    return re.search(rf"\b{name}\s*\(", _api_text(api)) is not None


def chain_defines(families: tuple[str, ...], ops: tuple[tuple[str, str], ...]) -> Defines:
    """The defines get_block_defines writes for a chain of ``ops``, with the include define of each
    of their ``families``."""
    defines = [(f"SFPU_OP_{family}_INCLUDE", "1") for family in families]
    chain = []
    for i, (init, call) in enumerate(ops):
        defines += [(f"SFPU_OP_CHAIN_0_INIT_{i}", init), (f"SFPU_OP_CHAIN_0_FUNC_{i}", call)]
        chain.append(f"SFPU_OP_CHAIN_0_INIT_{i} SFPU_OP_CHAIN_0_FUNC_{i}")
    return (*defines, ("SFPU_OP_CHAIN_0", " ".join(chain)), ("INP_FLOAT", "1"))


def unary_variants(api: Path, per_family: bool = False) -> tuple[Variant, ...]:
    """The ops 0.81.1's API declares, chained: all of them in one build (every include family
    defined), or one build per include family (``per_family``: a failure names its family, at
    44 times the cost)."""
    families = {family: tuple(op for op in ops if declared(op[0], api) and declared(op[1], api))
                for family, ops in UNARY_FAMILIES.items()}
    if per_family:
        return tuple((f"SFPU_OP_{family}_INCLUDE", chain_defines((family,), ops)) for family, ops in families.items()
                     if ops)
    return (("every unary op", chain_defines(tuple(families), sum(families.values(), ()))),)


def skipped_ops(api: Path) -> list[str]:
    """The unary ops whose init or call 0.81.1's Wormhole compute API does not declare (a later
    factory's, or Blackhole's only, as softcap)."""
    return [call for ops in UNARY_FAMILIES.values() for init, call in ops
            if not (declared(init, api) and declared(call, api))]


#: A define (or function-like macro) a kernel uses but does not define -> the defines its factory
#: passes with it, one representative combination: reduce_op_utils (REDUCE_OP/REDUCE_DIM), the
#: binary factory (ELTWISE_OP), binary_ng's OpConfig::as_defines and BinaryNgKernelConfig (as
#: tests/emu/test_wheel_bcast.py passes them), the ternary factory, bcast_op_utils, softmax's
#: EXP_APPROX, the typecast factory's TYPECAST_LLK (bfloat16 -> float32) and the sdpa factories' granularities.
FACTORY_DEFINES: tuple[tuple[str, Defines], ...] = (
    # the pool factory's (its kernels assert MAX or AVG) before the reduce factory's SUM
    ("Only supports REDUCE_OP = MAX", (("REDUCE_OP", "PoolType::MAX"),)),
    ("MPWI only supports REDUCE_OP = MAX", (("REDUCE_OP", "PoolType::MAX"),)),
    ("REDUCE_OP", (("REDUCE_OP", "PoolType::SUM"), ("REDUCE_DIM", "ReduceDim::REDUCE_ROW"))),
    ("ELTWISE_OP", (("ELTWISE_OP", "add_tiles"), ("ELTWISE_OP_TYPE", "EltwiseBinaryType::ELWADD"))),
    ("BINARY_OP", (("BINARY_OP", "add_tiles"), ("BINARY_OP_TYPE", "EltwiseBinaryType::ELWADD"))),
    ("WHERE_TTS", (("WHERE_TTS", "1"), ("WHERE_TST", "0"), ("BINARY_SFPU_INIT", "where_tile_init();"),
                   ("BINARY_SFPU_OP", "where_tile<DataFormat::Float16_b>"), ("FILL_LLK", "fill_tile"),
                   ("FILL_WITH_VALUE_FLOAT", "1"), ("WHERE_DATA_FORMAT", "Float16_b"))),
    ("BINARY_SFPU_INIT", (("BINARY_SFPU_INIT", "add_binary_tile_init();"), ("BINARY_SFPU_OP", "add_binary_tile"))),
    ("PROCESS_ACTIVATIONS", tuple((f"PROCESS_{side}_ACTIVATIONS(i)", "") for side in ("LHS", "RHS", "POST"))),
    ("SRC_BCAST", (("SRC_BCAST", "0"), ("SRC_BCAST_B", "1"))),
    ("BCAST_INPUT", (("BCAST_INPUT", "1"),)),
    # the addc kernels' addcmul before the others' where
    ("addcmul", (("TERNARY_SFPU_OP_INIT", "addcmul_tile_init"),
                      ("TERNARY_SFPU_OP_FUNC", "addcmul_tile<DataFormat::Float16_b>"))),
    ("TERNARY_SFPU_OP_INIT", (("TERNARY_SFPU_OP_INIT", "where_tile_init"),
                              ("TERNARY_SFPU_OP_FUNC", "where_tile<DataFormat::Float16_b>"))),
    ("BCAST_LLKOP", (("BCAST_OP", "add_tiles_bcast"), ("BCAST_LLKOP", "EltwiseBinaryType::ELWADD"),
                     ("BCAST_DIM", "BroadcastType::ROW"))),
    ("CHAIN_BCAST_OP", (("CHAIN_BCAST_OP", "compute_kernel_lib::BinaryFpuOp::Add"),
                        ("CHAIN_BCAST_DIM", "compute_kernel_lib::BroadcastDim::Row"))),
    ("EXP_APPROX", (("EXP_APPROX", "0"),)),
    ("TYPECAST_LLK_INIT", (("TYPECAST_LLK_INIT", "typecast_tile_init<5u, 0u>"), ("TYPECAST_LLK", "typecast_tile<5u, 0u>"))),
    ("EXP_APPROX_MODE", (("EXP_APPROX_MODE", "0"),
                         *((f"{log}{name}_GRANULARITY", "0" if log else "1") for name in
                           ("STATS", "SUB_EXP", "MUL_BCAST", "DHT", "REDUCE") for log in ("", "LOG2_")))),
    # fill_pad's own factory (fill_pad_program_factory.cpp, in the wheel): a bfloat16 tensor
    ("FILL_PAD_FILL_ARG", (("FILL_PAD_FILL_FN", "fill_tile_bitcast"), ("FILL_PAD_FILL_ARG", "fill_bits"),
                           ("FILL_PAD_DATA_FMT", "DataFormat::Float16_b"), ("MASK_ELEM_UINT", "uint16_t"),
                           ("MASK_VALUE", "0x3F80u"))),
)


def _declared(name: str, text: str) -> bool:
    """Whether ``text`` declares ``name`` as a constant of its own (``constexpr bool EXP_APPROX_MODE =
    ...``: sparse_sdpa takes it from an arg), which a define of that name would break."""
    return re.search(rf"\bconst(?:expr)?\s+[\w:<>]+\s+{name}\s*=", text) is not None


def factory_defines(text: str, table: tuple[tuple[str, Defines], ...] = FACTORY_DEFINES) -> Defines:
    """The defines of every trigger (a regular expression) of ``table`` that ``text`` (a kernel and
    its local headers) uses, each define not defined by the text itself and not given by an earlier
    trigger (the order of FACTORY_DEFINES: where's BINARY_SFPU_* before the plain binary's)."""
    out: dict[str, str] = {}
    for trigger, defines in table:
        if re.search(rf"\b{trigger}\b", text):
            for name, value in defines:
                macro = name.split("(", 1)[0]
                if macro not in out and not re.search(rf"#\s*define\s+{macro}\b", text) and not _declared(macro, text):
                    out[macro] = name, value
    return tuple(out.values())


#: the unary factory's own kernels for WHERE_TSS and MAC_TSS (get_compute_kernel_path), with the
#: chain get_block_defines writes for them
TSS_KERNELS = {
    "eltwise/unary/device/kernels/compute/where_tss_kernel.cpp":
        ("WHERE", ("where_tile_init();", "where_tile<DataFormat::Float16_b>(0, 1, 2, 0);")),
    "eltwise/unary/device/kernels/compute/mac_tss_kernel.cpp":
        ("MAC", ("mac_tile_init<DataFormat::Float16_b>();", "mac_tile<DataFormat::Float16_b>(0, 1, 2, 0);")),
}


def variants(kernel: str, api: Path, per_family: bool = False, text: str = "") -> tuple[Variant, ...]:
    """The define combinations of ``kernel`` (its path under ``ttnn/operations``; ``text``: its source
    and local headers); ``api`` is the machine tree's compute API directory (``hw/inc/api/compute``)."""
    if kernel in UNARY_CHAIN_KERNELS:
        return unary_variants(api, per_family)
    if kernel in TSS_KERNELS:
        family, op = TSS_KERNELS[kernel]
        return ((f"SFPU_OP_{family}_INCLUDE", chain_defines((family,), (op,))),)
    defines = factory_defines(text)
    return (("factory defines", defines),) if defines else NO_DEFINES
