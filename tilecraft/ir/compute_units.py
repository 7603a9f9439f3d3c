"""Which unit of the Tensix math engine computes a binary block operation: the FPU or the SFPU.

The FPU adds, subtracts and multiplies two tiles it unpacks from circular buffers through its
source registers (``add_tiles``, and the broadcast forms when the right operand is a broadcast);
everything else, and any operand already in DST, a number, or a Float32 block (which SrcA/SrcB
would truncate to TF32), goes through the SFPU on DST tiles. An expression the program rounds
(``ir.TileRound``) is a buffer of its format to its readers. The lowering emits the calls by this
rule and the cost model charges by it, so a program is timed on the unit it runs on.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..dtypes import float32
from . import ops as ir
from .types import BlockType


class Unit(Enum):
    FPU = "fpu"
    SFPU = "sfpu"


#: binary block math the FPU computes from two buffers
FPU_BINARY: tuple[str, ...] = ("add", "sub", "mul")
#: the FPU's broadcast forms, by the broadcast dims of the right operand: dims -> the form's name
#: in Metalium's calls (``add_tiles_bcast_cols``, ...)
FPU_BROADCASTS: dict[tuple[int, ...], str] = {(-1,): "cols", (-2,): "rows", (-2, -1): "scalar"}


@dataclass(frozen=True)
class Operand:
    """What the routing needs of one operand of a binary."""

    #: a block the math engine unpacks from a circular buffer (not computed in DST, not a number)
    from_buffer: bool = False
    shape: tuple[int, ...] | None = None
    #: the block (for a broadcast: the broadcast block) is Float32
    fp32: bool = False
    #: the dims of a broadcast of a buffered block, None for anything else
    broadcast: tuple[int, ...] | None = None


def binary_unit(fn: str, lhs: Operand, rhs: Operand) -> Unit:
    """The unit that computes ``fn(lhs, rhs)`` (after the fused forms: a number operand with a
    scalar form, a matmul accumulated onto an addend)."""
    if fn in FPU_BINARY and lhs.from_buffer and not (lhs.fp32 or rhs.fp32):
        if rhs.from_buffer and rhs.shape == lhs.shape:
            return Unit.FPU
        if rhs.broadcast in FPU_BROADCASTS:
            return Unit.FPU
    return Unit.SFPU


def operand_in(operand: Any, defs: dict[str, ir.Op]) -> Operand:
    """What :func:`binary_unit` needs of an IR operand, given the ops defining the expression's
    registers (``defs``): a block no op defines is read from its buffer; a broadcast reads its
    block, from its buffer or, when computed, from an intermediate buffer, which is Float32 (the
    lowering keeps full precision between the operations of one expression), unless the program
    rounded it (``.to(ttnn.bfloat16)``: the lowering packs it into a buffer of that format); the
    rest is computed in DST or is a number."""
    op = defs.get(operand.name) if isinstance(operand, ir.Reg) else None
    if isinstance(operand, ir.Reg) and isinstance(operand.type, BlockType) and (
            op is None or isinstance(op, ir.TileRound)):
        return Operand(from_buffer=True, shape=operand.type.shape, fp32=operand.type.fmt == float32)
    if isinstance(op, ir.TileBroadcast):
        source = operand_in(op.x, defs)
        return Operand(fp32=source.fp32 or not source.from_buffer, broadcast=op.dims)
    return Operand()


def unit_of(op: ir.TileBinary, defs: dict[str, ir.Op]) -> Unit:
    """The unit that computes the IR binary ``op`` (see :func:`binary_unit`)."""
    return binary_unit(op.fn, operand_in(op.lhs, defs), operand_in(op.rhs, defs))
