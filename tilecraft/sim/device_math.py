"""``--numerics device``: block math computed with the device's arithmetic, at tile granularity.

The language level computes ideally by default (docs/numerics.md sections 4-6). In the device mode
every store of a block expression is computed as the emitted kernel computes it on the kernel
emulator (``--level cpp``): the same routing of each binary to the FPU or the SFPU
(:func:`tilecraft.ir.compute_units.unit_of`, the rule the lowering follows), the FPU's fidelity
phases and grouped accumulation for matmul, reduce-sum and FPU add/sub/mul
(:mod:`tilecraft.device_arith`), the unpacker's TF32 for Float32 operands the FPU reads, the SFPU's
formulas and C library calls (:mod:`.libm`), and the packer's rounding into the block's format. The arithmetic itself lives in
:mod:`tilecraft.device_arith` (one model, which the emulator's tests hold the C++ to); this module
only maps IR operations onto it. What is not device-exact is stated in docs/numerics.md section 9.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Protocol

import torch

from .. import device_arith
from ..dtypes import DataFormat
from ..ir import mathops
from ..ir import ops as ir
from ..ir.compute_units import Unit, unit_of
from ..ir.types import BlockType
from ..numerics import quantize
from . import libm
from . import tile_math

Tensor = torch.Tensor

#: the numerics modes of ``tilecraft run --numerics``
IDEAL, DEVICE = "ideal", "device"
NUMERICS = (IDEAL, DEVICE)


def _f32_const(value: float) -> float:
    """A parameter as the kernel receives it: an fp32 bit pattern."""
    return float(torch.tensor(value, dtype=torch.float32))


_exp, _expm1, _log, _tanh, _log1p = (libm.unary(f) for f in ("expf", "expm1f", "logf", "tanhf", "log1pf"))


def _sigmoid(x: Tensor) -> Tensor:
    """The emulator's sigmoid: 1.0f / (1.0f + std::exp(-x)), each step an fp32 operation."""
    return 1.0 / (1.0 + _exp(-x.float()))


def _rsqrt(x: Tensor) -> Tensor:
    """The emulator's rsqrt: 1.0f / std::sqrt(x) (two fp32 roundings, not one; sqrt is IEEE)."""
    return 1.0 / torch.sqrt(x.double()).to(torch.float32)


def _log_with_scale(scale: float, base_two: bool) -> Callable[[Tensor], Tensor]:
    """``log_with_base_tile``: log(x) * scale in fp32; with ``base_two`` the exponent is added
    unscaled and only the log of the mantissa (in [0.75, 1.5)) is scaled, so log2(2^k) == k."""
    s = _f32_const(scale)

    def log(x: Tensor) -> Tensor:
        x = x.float()
        plain = _log(x) * s
        if not base_two:
            return plain
        m, e = torch.frexp(x)
        low = m < 0.75
        m = torch.where(low, m * 2.0, m)
        e = torch.where(low, e - 1, e)
        scaled = e.to(torch.float32) + _log(m) * s
        return torch.where((x > 0) & torch.isfinite(x), scaled, plain)

    return log


def _softplus(x: Tensor, beta: float, beta_recip: float, threshold: float) -> Tensor:
    """The emulator's softplus: x * beta > threshold ? x : beta_recip * log1p(exp(x * beta)), in fp32 steps."""
    x = x.float()
    scaled = x * _f32_const(beta)
    return torch.where(scaled > threshold, x, _f32_const(beta_recip) * _log1p(_exp(scaled)))


def _hardsigmoid(x: Tensor) -> Tensor:
    """The emulator's hardsigmoid: fmin(fmax(x + 3, 0), 6) / 6 in fp32 (not x / 6 + 1/2)."""
    return (x.float() + 3.0).clamp(0.0, 6.0) / 6.0


def _below_zero(x: Tensor, negative: Tensor) -> Tensor:
    return torch.where(x > 0, x, negative)


#: SFPU functions whose emulator formula is not the ideal one: f(x, *parameters), each fp32 step
#: rounded as the C++ does (sfpu.cpp), the C library's fp32 functions where it calls them
#: (:mod:`.libm`), parameters as fp32 numbers
SFPU_UNARY: dict[str, Callable[..., Tensor]] = {
    **{name: libm.unary(f"{name}f") for name in ("exp", "exp2", "expm1", "log", "log1p", "sin", "cos", "tan", "asin",
                                                 "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
                                                 "erf", "erfc")},
    "sigmoid": _sigmoid,
    "silu": lambda x: x.float() * _sigmoid(x),
    "rsqrt": _rsqrt,
    "log2": _log_with_scale(1 / math.log(2), base_two=True),
    "log10": _log_with_scale(1 / math.log(10), base_two=False),
    "softsign": lambda x: x.float() / (1.0 + x.float().abs()),
    "hardsigmoid": _hardsigmoid,
    "hardswish": lambda x: x.float() * _hardsigmoid(x),  # the lowering's x * hardsigmoid(x)
    "selu": lambda x: _f32_const(1.0507009873554805) * _below_zero(
        x.float(), _f32_const(1.6732632423543772) * _expm1(x)),
    "elu": lambda x, alpha: _below_zero(x.float(), _f32_const(alpha) * _expm1(x)),
    "celu": lambda x, alpha, alpha_recip: _below_zero(
        x.float(), _f32_const(alpha) * _expm1(x.float() * _f32_const(alpha_recip))),
    "softplus": _softplus,
    "mish": lambda x: x.float() * _tanh(_softplus(x, 1.0, 1.0, 20.0)),
}
#: SFPU binaries that call the C library (``std::pow``, ``std::atan2`` on floats)
SFPU_BINARY: dict[str, Callable[[Tensor, Tensor], Tensor]] = {"pow": libm.binary("powf"),
                                                              "atan2": libm.binary("atan2f")}


class BlockMath(Protocol):
    """What :func:`~tilecraft.sim.language.exprprog.compile_expression` takes in place of the ideal arithmetic."""

    def matmul(self, a: Tensor, b: Tensor, acc: Tensor | None = None) -> Tensor:
        """``acc + a @ b`` (``a @ b`` when ``acc`` is None), tile by tile as this arithmetic computes it."""

    def kernel(self, op: ir.Op, defs: dict[str, ir.Op]) -> Callable[..., Tensor] | None:
        """The batched function of an expression op, or None where the ideal one is this arithmetic's."""


@dataclass(frozen=True)
class DeviceMath:
    """The device's arithmetic for one program: its fidelity and its DST mode (the emitted programs
    run at HiFi4 with an fp32 DST: ``metal.lower.ProgramLowering``)."""

    fidelity: str = "HiFi4"
    fp32_dst: bool = True

    @property
    def phases(self) -> int:
        return device_arith.FIDELITY_PHASES[self.fidelity]

    def pack(self, x: Tensor, fmt: DataFormat) -> Tensor:
        """``pack_tile`` of DST values into a buffer of ``fmt``: to bfloat16 nearest with ties away,
        NaN to inf, denormals to +0; to Float32 unchanged from an fp32 DST; block floats rounded as
        the packer does. float16 (IEEE nearest even on the device too) and the integer formats
        round as the default numerics do."""
        if fmt.is_integer or not x.is_floating_point() or fmt.name == "float16":
            return quantize(x, fmt)
        if fmt.name == "float32" and self.fp32_dst:
            return x.to(torch.float32)
        if fmt.is_block_float:
            return device_arith.pack_block_float_any(x.float(), fmt.element_bits - 1).to(fmt.torch_dtype)
        return device_arith.pack_bf16(x.detach().float().cpu()).to(x.device).to(fmt.torch_dtype)

    def matmul(self, a: Tensor, b: Tensor, acc: Tensor | None = None) -> Tensor:
        if a.shape[-1] % 32 or a.shape[-2] % 32 or b.shape[-1] % 32:
            return tile_math.matmul(a, b, acc)  # row-major blocks: no tile instruction computes these
        return device_arith.block_matmul(a, b, acc, self.phases, self.fp32_dst)

    def kernel(self, op: ir.Op, defs: dict[str, ir.Op]) -> Callable[..., Tensor] | None:
        """The batched device function of an expression op (first argument: the batch size), or
        None where the ideal one is already what the emulator computes (integer math: exact on both)."""
        if _on_integers(op):
            return None
        if isinstance(op, ir.TileMatmul):
            return lambda n, a, b: self.matmul(a, b)
        if isinstance(op, ir.TileBinary) and unit_of(op, defs) is Unit.FPU:
            fn, phases, fp32 = op.fn, self.phases, self.fp32_dst
            return lambda n, a, b: device_arith.fpu_eltwise(fn, a, b, phases, fp32)
        if isinstance(op, ir.TileBinary) and op.fn in SFPU_BINARY:  # x ** n too: power_tile is std::pow
            binary = SFPU_BINARY[op.fn]
            return lambda n, a, b: binary(a, b)
        if isinstance(op, ir.TileReduce) and op.scaler is None and set(op.dims) <= {-2, -1}:
            dims, kind = tuple(sorted(op.dims)), op.kind
            if kind == "sum":
                return lambda n, x: device_arith.reduce_sum_tiles(x, dims, self.phases, self.fp32_dst)
            return lambda n, x: tile_math.reduce(kind, device_arith.tf32(x), dims)  # SrcA holds TF32
        if isinstance(op, ir.TileTranspose):  # transpose_wh_tile reads through SrcA: TF32
            return lambda n, x: tile_math.transpose(device_arith.tf32(x))
        if isinstance(op, ir.TileRound):  # the packer rounds it into its buffer
            fmt = op.result.type.fmt
            return lambda n, x: self.pack(x, fmt).to(x.dtype)
        if isinstance(op, ir.TileUnary) and op.fn in SFPU_UNARY:
            unary = SFPU_UNARY[op.fn]
            params = mathops.full_params(op.fn, op.params) if op.fn in tile_math.UNARY_PARAM else ()
            return lambda n, x: unary(x, *params)
        return None


def device_math(numerics: str, fidelity: str = "HiFi4") -> DeviceMath | None:
    """The device arithmetic for a ``--numerics`` mode (None: the ideal arithmetic)."""
    if numerics not in NUMERICS:
        raise ValueError(f"--numerics takes one of {', '.join(NUMERICS)}, not {numerics!r}")
    return DeviceMath(fidelity) if numerics == DEVICE else None


def _on_integers(op: ir.Op) -> bool:
    """Whether ``op`` reads or makes an integer block (the emulator's integer math is exact, as the default's)."""
    types = [getattr(o, "type", None) for o in op.operands()] + [getattr(op.result, "type", None)]
    return any(isinstance(t, BlockType) and t.fmt.is_integer for t in types)


class GoldenMath:
    """The fp64 golden that the device's error is measured against (``tilecraft profile``):
    compiled like :class:`DeviceMath` over float64 leaves, with matmuls (and the sums and products
    the ideal functions compute) in float64, unrounded. Only the SFPU's transcendental functions
    stay rounded once to fp32 (their ideal definition), 6e-8 relative, far below any fidelity's error."""

    def matmul(self, a: Tensor, b: Tensor, acc: Tensor | None = None) -> Tensor:
        product = a.double() @ b.double()
        return product if acc is None else acc.double() + product

    def kernel(self, op: ir.Op, defs: dict[str, ir.Op]) -> Callable[..., Tensor] | None:
        if isinstance(op, ir.TileMatmul):
            return lambda n, a, b: self.matmul(a, b)
        return None
