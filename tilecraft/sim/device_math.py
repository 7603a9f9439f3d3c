"""``--numerics device``: block math computed with the device's arithmetic, at tile granularity.

The language level computes ideally by default (docs/numerics.md sections 4-6). In the device mode
every store of a block expression is computed as the emitted kernel computes it on the kernel
emulator (``--level cpp``): the same routing of each binary to the FPU or the SFPU
(:func:`tilecraft.ir.compute_units.unit_of`, the rule the lowering follows), the FPU's fidelity
phases and grouped accumulation for matmul, reduce-sum and FPU add/sub/mul
(:mod:`tilecraft.device_arith`), the unpacker's TF32 for Float32 operands the FPU reads, the SFPU's
functions as the LLK computes them (:mod:`.sfpu_machine`: its own code, run on the Tensix machine,
since no formula follows its polynomials and tables bit for bit), and the packer's rounding into
the block's format. The FPU arithmetic lives in :mod:`tilecraft.device_arith` (one model, which the
Tensix machine's tests are held to); this module only maps IR operations onto it and the SFPU.
What is not device-exact is stated in docs/numerics.md section 9.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol

import torch

from .. import device_arith
from ..dtypes import DataFormat
from ..ir import ops as ir
from ..ir.compute_units import Unit, unit_of
from ..ir.types import BlockType
from ..numerics import quantize
from ..metal.optable import COMPOSITE_UNARY, MIRRORED_UNARY, SCALAR_BINARY, UNARY, exact_reciprocal
from . import sfpu_machine
from . import tile_math

Tensor = torch.Tensor

#: the numerics modes of ``tilecraft run --numerics``
IDEAL, DEVICE = "ideal", "device"
NUMERICS = (IDEAL, DEVICE)


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
        kernel = self._kernel(op, defs)
        copied = _copied_through_src_a(op, defs) if kernel is not None else []
        if not copied:
            return kernel
        return lambda n, *args: kernel(n, *(device_arith.src_to_dst(a) if i in copied else a
                                            for i, a in enumerate(args)))

    def _kernel(self, op: ir.Op, defs: dict[str, ir.Op]) -> Callable[..., Tensor] | None:
        if isinstance(op, ir.TileMatmul):
            return lambda n, a, b: self.matmul(a, b)
        if isinstance(op, ir.TileBinary) and unit_of(op, defs) is Unit.FPU:
            fn, phases, fp32 = op.fn, self.phases, self.fp32_dst
            return lambda n, a, b: device_arith.fpu_eltwise(fn, a, b, phases, fp32)
        if isinstance(op, ir.TileBinary):
            return _sfpu_binary(op)
        if isinstance(op, ir.TileReduce) and op.scaler is None and set(op.dims) <= {-2, -1}:
            dims, kind = tuple(sorted(op.dims)), op.kind
            if kind == "sum":
                return lambda n, x: device_arith.reduce_sum_tiles(x, dims, self.phases, self.fp32_dst)
            if dims == (-1,):  # REDUCE_ROW's max moves the pooled column to SrcB and back to transpose it
                return lambda n, x: device_arith.src_to_dst(device_arith.movd2b_16bit(_max_pool(x, dims)))
            return lambda n, x: _max_pool(x, dims)
        if isinstance(op, ir.TileTranspose):  # transpose_wh_tile reads through SrcA: TF32
            return lambda n, x: tile_math.transpose(device_arith.src_to_dst(x))
        if isinstance(op, ir.TileWhere):  # the LLK tests the condition's bits: -0 and denormals hold
            return lambda n, c, a, b: torch.where(c.float().view(torch.int32) != 0, a, b)
        if isinstance(op, ir.TileRound):  # the packer rounds it into its buffer
            fmt = op.result.type.fmt
            return lambda n, x: self.pack(x, fmt).to(x.dtype)
        if isinstance(op, ir.TileUnary) and (op.fn in UNARY or op.fn in COMPOSITE_UNARY or op.fn in MIRRORED_UNARY):
            unary = sfpu_machine.unary(op.fn, tuple(op.params))
            return lambda n, x: unary(x)
        return None


def device_math(numerics: str, fidelity: str = "HiFi4") -> DeviceMath | None:
    """The device arithmetic for a ``--numerics`` mode (None: the ideal arithmetic)."""
    if numerics not in NUMERICS:
        raise ValueError(f"--numerics takes one of {', '.join(NUMERICS)}, not {numerics!r}")
    return DeviceMath(fidelity) if numerics == DEVICE else None


def _sfpu_binary(op: ir.TileBinary) -> Callable[..., Tensor]:
    """A binary on the SFPU as the lowering splits it (``ComputeLowering.binary_node``): ``x / c``
    by an exact reciprocal is ``x * (1 / c)`` and a number's ``add``/``sub``/``mul`` is one
    ``<fn>_unary_tile``; ``x ** n`` for an integral ``n`` is ``power_tile``; the others combine two
    tiles (a number filled into a tile of its own) with ``<fn>_binary_tile``. A sum, difference or
    product is IEEE fp32 where :func:`~tilecraft.device_arith.sfpu_ieee` says so and runs on the
    machine elsewhere (zeros, denormals, infinities, NaNs); every other binary (max, min and the
    comparisons too, which flush denormals and order NaNs the SFPU's way) runs on the machine."""
    rhs = op.rhs.value if isinstance(op.rhs, ir.Const) else None
    reciprocal = exact_reciprocal(rhs) if op.fn == "div" else None
    if reciprocal is not None:
        return _ieee_or_machine("mul", _by_number("mul"), constant=reciprocal)
    by_number = isinstance(op.rhs, ir.Const) or not isinstance(op.rhs.type, BlockType)
    if by_number and op.fn in SCALAR_BINARY and not isinstance(op.lhs, ir.Const):
        return _ieee_or_machine(op.fn, _by_number(op.fn))
    if op.fn == "pow" and isinstance(rhs, float) and rhs.is_integer():
        power = sfpu_machine.power(rhs)
        return lambda n, a, b: power(a)
    fn = op.fn
    if fn in SCALAR_BINARY:
        return _ieee_or_machine(fn, lambda a, b: sfpu_machine.binary(fn, a, b))
    return lambda n, a, b: sfpu_machine.binary(fn, a, b)


def _by_number(fn: str) -> Callable[[Tensor, Tensor], Tensor]:
    """``a <fn> b`` by ``<fn>_unary_tile``, once per distinct number of ``b`` (a runtime scalar may
    differ between the blocks of a batch)."""
    def run(a: Tensor, b: Tensor) -> Tensor:
        out = torch.empty_like(a)
        for value in torch.unique(b).tolist():
            where = b == value
            out[where] = sfpu_machine.scalar(fn, value)(a[where])
        return out
    return run


def _ieee_or_machine(fn: str, machine: Callable[[Tensor, Tensor], Tensor],
                     constant: float | None = None) -> Callable[..., Tensor]:
    """``fn`` (add, sub, mul) of two operands: IEEE fp32 where that is the SFPU's result, the
    ``machine``'s bits for the rest (``constant``: the right operand, in place of the program's)."""
    def run(n: int, a: Tensor, b: Tensor) -> Tensor:
        if constant is not None:
            b = torch.tensor(constant, dtype=torch.float32, device=a.device)
        a, b = torch.broadcast_tensors(a.float(), b.float())
        out, exact = device_arith.sfpu_ieee(fn, a, b)
        if not bool(exact.all()):
            rest = ~exact
            out[rest] = machine(a[rest], b[rest]).to(out.device)
        return out
    return run


def _max_pool(x: Tensor, dims: tuple[int, ...]) -> Tensor:
    """``reduce_tile<MAX>`` over ``dims`` of fp32 data read through SrcA, in the unit's order."""
    return device_arith.from_pool_order(tile_math.reduce("max", device_arith.pool_order(x), dims)).to(x.device)


def _copied_through_src_a(op: ir.Op, defs: dict[str, ir.Op]) -> list[int]:
    """The operands of an SFPU operation that ``copy_tile`` brings from a buffer of a 16-bit or
    block-float format: those pass SrcA on their way into DST (only Float32 buffers unpack straight
    into DST), where a zero exponent becomes +0 and exponent 255 an infinity (``src_to_dst``). The
    FPU reads its buffers itself (``device_arith`` models that)."""
    if isinstance(op, ir.TileBinary) and unit_of(op, defs) is Unit.FPU or \
            not isinstance(op, (ir.TileUnary, ir.TileBinary, ir.TileWhere)):
        return []

    def from_buffer(operand: Any) -> bool:  # a buffer's block, or its broadcast (``unary_bcast`` copies it)
        if not isinstance(operand, ir.Reg):
            return False
        source = defs.get(operand.name)
        if isinstance(source, ir.TileBroadcast):
            operand, source = source.x, defs.get(source.x.name)
        return source is None and isinstance(operand.type, BlockType) and operand.type.fmt.name != "float32"

    return [i for i, operand in enumerate(op.operands()) if from_buffer(operand)]


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
