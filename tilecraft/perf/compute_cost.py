"""Cycles of one ``block.store``: the Tensix compute pipeline (unpack -> math -> pack) per store.

Why per store: a store's expression tree is fixed by the program text, so its cost is a
compile-time constant of the store site (block shapes are static). The three compute RISC-Vs
run as a pipeline, so a store takes ``max(unpack, math, pack)`` plus the fill of one tile
through all three stages. Every cost derives from :class:`tilecraft.arch.base.CostFigures`:

* FPU matmul: ``16 x phases`` cycles per 32x32x32 tile product (LoFi 1 phase .. HiFi4 4).
* FPU elementwise add/sub/mul, broadcast, transpose (datacopy), reduce: ``8`` cycles per tile
  (8x16 elements per cycle), times the fidelity phases for multiplies (mul, reduce).
* SFPU: one instruction row per cycle over 32 lanes, so one instruction pass over a 32x32 tile
  is 1024 / 32 = 32 cycles; an operation costs ``passes`` such passes: load, store and the
  body. The body counts in :data:`SFPU_BODY` are assumptions (stated per op below).
* Unpack: two unpackers (srcA, srcB) run in parallel at ``unpack_bytes_per_cycle`` each; a
  leaf block is unpacked once per use; a matmul streams one operand tile per tile product and
  keeps the other across its DST chunk (output subblock, see :func:`subblock_unpack_tiles`). Values computed inside the tree stay in DST (no unpack).
* Pack: output tiles at ``pack_bytes_per_cycle``, in the output block's format; a rounding point
  inside the tree (``expr.to(ttnn.bfloat16)``) is packed into a buffer of its format and unpacked
  by its reader (at the root of a store into a block of its format it is the store's own pack).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil
from typing import Any

from ..arch.base import CostFigures
from ..dtypes import TILE_ELEMS, float32
from ..ir import ops as ir
from ..ir import patterns
from ..ir.compute_units import Unit, unit_of
from ..ir.types import BlockType

#: SFPU instruction passes of an operation's body, not counting its loads and store. Assumptions,
#: from the shape of the usual implementation (not measured): a compare/select or sign trick is 1-2
#: passes; exp/log are a range reduction plus a degree-5..7 polynomial evaluated with MADs (2-cycle
#: latency, hence ~2 passes per term); recip/rsqrt/sqrt are a seed plus 2-3 Newton steps;
#: trigonometric and hyperbolic functions are polynomial evaluations of similar size; compound
#: activations add their parts (sigmoid = exp + recip + 2).
SFPU_BODY: dict[str, int] = {
    "abs": 1, "neg": 1, "relu": 1, "relu6": 2, "relu_max": 2, "relu_min": 2, "sign": 2, "signbit": 1,
    "logical_not": 2, "isfinite": 2, "isinf": 2, "isnan": 2, "square": 1, "floor": 4, "ceil": 4,
    "frac": 4, "trunc": 3, "round": 5, "clamp": 2, "hardtanh": 2, "threshold": 2, "rsub": 1,
    "leaky_relu": 2, "prelu": 2, "hardsigmoid": 3, "hardswish": 4, "softsign": 14,
    # log2 and log10 are one operation on the device (a log with a base's scale)
    "exp": 12, "exp2": 12, "expm1": 13, "log": 14, "log2": 15, "log10": 15, "log1p": 15,
    "sqrt": 10, "rsqrt": 10, "recip": 12, "power": 28, "pow": 28,
    "tanh": 20, "sigmoid": 26, "silu": 27, "gelu": 24, "elu": 14, "celu": 14, "selu": 14,
    "softplus": 28, "mish": 48, "erf": 18, "erfc": 19,
    "sin": 16, "cos": 16, "tan": 30, "asin": 20, "acos": 20, "atan": 20, "sinh": 26, "cosh": 26,
    "asinh": 30, "acosh": 30, "atanh": 30,
    # binary functions on the SFPU (both operands loaded): div = recip + mul
    "div": 13, "remainder": 16, "max": 2, "min": 2, "eq": 2, "ne": 2, "lt": 2, "le": 2, "gt": 2, "ge": 2,
    # scalar-operand add/sub/mul
    "add": 1, "sub": 1, "mul": 1,
    # select and fill
    "where": 2, "fill": 1,
}
#: any unary not in the table: a mid-sized polynomial (assumption)
SFPU_DEFAULT_BODY = 16


@dataclass(frozen=True)
class StoreCost:
    unpack: float
    math: float
    pack: float
    fill: float
    #: floating-point operations of the store (2 per multiply-add of a matmul, 1 per element op)
    flops: int
    #: the cycles of the calls the lowered kernel makes for the store right after other stores,
    #: where the program lowers (:mod:`.store_replay`); they replace the tree's pipeline figure
    lowered: float | None = None
    #: what the lowered calls take more when the compute stages start idle (after a wait)
    lowered_fill: float = 0.0

    @property
    def cycles(self) -> float:
        if self.lowered is not None:
            return self.lowered
        return max(self.unpack, self.math, self.pack) + self.fill


def tiles_of(reg_type: Any) -> int:
    """32x32 tiles a block occupies (row-major blocks: padded up to whole tiles)."""
    if not isinstance(reg_type, BlockType):
        return 0
    elems = 1
    for extent in reg_type.elements:
        elems *= extent
    return max(1, ceil(elems / TILE_ELEMS))


def store_cost(op: ir.BlockStore, defs: dict[str, ir.Op], figs: CostFigures, phases: int,
               dst_tiles: int) -> StoreCost:
    """The cost of one execution of ``op`` at ``phases`` fidelity phases, with ``dst_tiles`` tiles
    of DST per acquisition (``Arch.dst_tiles_per_phase``)."""
    walker = _Walker(defs, figs, phases, dst_tiles)
    pack_fmt = op.block.type.fmt if isinstance(op.block.type, BlockType) else float32
    value = patterns.packed_value(op, defs, pack_fmt)  # a rounding point at the root is the store's pack
    root = defs.get(value.name) if isinstance(value, ir.Reg) else None
    out_tiles = tiles_of(op.block.type)
    if op.accumulate:  # y += expr: y is unpacked into DST, then expr accumulates into it
        walker.unpack_leaf(op.block, 0)
        if patterns.accumulates_into(op.value, True, defs) is None:
            walker.math += out_tiles * figs.eltwise_cycles_per_phase
            walker.flops += out_tiles * TILE_ELEMS
    walker.visit(value, 0)
    if root is None and walker.is_leaf(value):  # blk.store(other): a datacopy through the FPU
        walker.math += out_tiles * figs.eltwise_cycles_per_phase
    pack = out_tiles * pack_fmt.tile_bytes / figs.pack_bytes_per_cycle + walker.pack
    unpack = max(walker.unpack)
    fill = (walker.first_unpack or 0.0) + pack_fmt.tile_bytes / figs.pack_bytes_per_cycle
    return StoreCost(unpack, walker.math, pack, fill, walker.flops)


class _Walker:
    """Accumulates unpack (per unpacker), math and flops over one expression tree."""

    def __init__(self, defs: dict[str, ir.Op], figs: CostFigures, phases: int, dst_tiles: int):
        self.defs = defs
        self.figs = figs
        self.phases = phases
        self.dst_half = dst_tiles
        self.unpack = [0.0, 0.0]
        self.math = 0.0
        #: packs of the tree's own rounding points, besides the store's
        self.pack = 0.0
        self.flops = 0
        self.first_unpack: float | None = None

    def tile_unpack_cycles(self, reg: ir.Reg) -> float:
        return reg.type.fmt.tile_bytes / self.figs.unpack_bytes_per_cycle

    def unpack_leaf(self, reg: ir.Reg, unpacker: int, tiles: int | None = None) -> None:
        per_tile = self.tile_unpack_cycles(reg)
        self.unpack[unpacker] += per_tile * (tiles_of(reg.type) if tiles is None else tiles)
        if self.first_unpack is None:
            self.first_unpack = per_tile

    def is_leaf(self, operand: Any) -> bool:
        return isinstance(operand, ir.Reg) and operand.name not in self.defs and isinstance(operand.type, BlockType)

    def operand(self, operand: Any, unpacker: int) -> None:
        """A leaf block is unpacked; an expression is computed into DST first."""
        if self.is_leaf(operand):
            self.unpack_leaf(operand, unpacker)
        elif isinstance(operand, ir.Reg) and operand.name in self.defs:
            self.visit(operand, unpacker)

    def visit(self, reg: Any, unpacker: int) -> None:
        op = self.defs.get(reg.name) if isinstance(reg, ir.Reg) else None
        if op is None:
            self.operand(reg, unpacker)
            return
        figs, out = self.figs, tiles_of(reg.type)
        sfpu_pass = TILE_ELEMS / figs.sfpu_lanes
        if isinstance(op, ir.TileMatmul):
            self._matmul(op)
        elif isinstance(op, ir.TileBinary):
            fused = patterns.accumulated_matmul(op, self.defs)
            if fused is not None:  # x + a @ b: x is copied into DST, the product accumulates onto it
                addend, mm = fused
                self.operand(addend, 0)
                self.math += out * figs.eltwise_cycles_per_phase
                self._matmul(mm)
            elif unit_of(op, self.defs) is Unit.FPU:
                self.operand(op.lhs, 0)
                self.operand(op.rhs, 1)
                self.math += out * figs.eltwise_cycles_per_phase * (self.phases if op.fn == "mul" else 1)
            else:
                for i, side in enumerate((op.lhs, op.rhs)):
                    self.operand(side, i)
                loads = sum(1 for side in (op.lhs, op.rhs) if _is_block(side))
                self.math += out * sfpu_pass * (loads + 1 + SFPU_BODY.get(op.fn, SFPU_DEFAULT_BODY))
            self.flops += out * TILE_ELEMS
        elif isinstance(op, ir.TileUnary):
            self.operand(op.x, unpacker)
            self.math += out * sfpu_pass * (2 + SFPU_BODY.get(op.fn, SFPU_DEFAULT_BODY))
            self.flops += out * TILE_ELEMS
        elif isinstance(op, ir.TileReduce):
            self.operand(op.x, 0)
            if op.scaler is not None:
                self.operand(op.scaler, 1)
            self.math += tiles_of(op.x.type) * figs.eltwise_cycles_per_phase * self.phases
            self.flops += tiles_of(op.x.type) * TILE_ELEMS
        elif isinstance(op, (ir.TileBroadcast, ir.TileTranspose)):
            self.operand(op.x, unpacker)
            self.math += out * figs.eltwise_cycles_per_phase
        elif isinstance(op, ir.TileReshape):  # the same tiles on another grid: no work of its own
            self.operand(op.x, unpacker)
        elif isinstance(op, ir.TileRound):  # packed into a buffer of its format, read back from there
            self.operand(op.x, unpacker)
            self.pack += out * reg.type.fmt.tile_bytes / figs.pack_bytes_per_cycle
            self.unpack_leaf(reg, unpacker)
        elif isinstance(op, ir.TileFill):
            self.math += out * sfpu_pass * (1 + SFPU_BODY["fill"])
        elif isinstance(op, ir.TileWhere):
            for i, side in enumerate((op.cond, op.if_true, op.if_false)):
                self.operand(side, min(i, 1))
            loads = sum(1 for side in (op.cond, op.if_true, op.if_false) if _is_block(side))
            self.math += out * sfpu_pass * (loads + 1 + SFPU_BODY["where"])
            self.flops += out * TILE_ELEMS

    def _matmul(self, op: ir.TileMatmul) -> None:
        m, k = op.lhs.type.shape[-2], op.lhs.type.shape[-1]
        n = op.rhs.type.shape[-1]
        batch = tiles_of(op.lhs.type) // max(1, m * k)
        a_tiles, b_tiles = _matmul_unpack(m, k, n, self.dst_half)
        if self.is_leaf(op.lhs):
            self.unpack_leaf(op.lhs, 0, a_tiles * batch)
        else:
            self.visit(op.lhs, 0)
        if self.is_leaf(op.rhs):
            self.unpack_leaf(op.rhs, 1, b_tiles * batch)
        else:
            self.visit(op.rhs, 1)
        products = batch * m * n * k
        self.math += products * self.figs.matmul_cycles_per_phase * self.phases
        self.flops += products * 2 * 32 * 32 * 32


def _matmul_unpack(m: int, k: int, n: int, dst_half: int) -> tuple[int, int]:
    """Tiles of A and B unpacked for an (m x k) @ (k x n) block product.

    The output is computed in DST chunks of ``rows x cols <= dst_half`` tiles (Metalium's output
    subblocks). The source registers hold one tile each, so for every k a chunk keeps one operand
    and streams the other (:func:`subblock_unpack_tiles`); the chunk shape is the one that
    minimises the busier unpacker (the two run in parallel), as a tuned kernel would choose.
    """
    best: tuple[int, int, int] | None = None
    for rows in range(1, min(m, dst_half) + 1):
        cols = min(n, dst_half // rows)
        chunks = ceil(m / rows) * ceil(n / cols)
        a_tiles, b_tiles = subblock_unpack_tiles(rows, cols)
        a, b = chunks * k * a_tiles, chunks * k * b_tiles
        key = (max(a, b), a + b, a)
        if best is None or key < best:
            best = key
    assert best is not None
    return best[2], best[1] - best[2]


def subblock_unpack_tiles(rows: int, cols: int) -> tuple[int, int]:
    """Tiles of A (in0) and B (in1) unpacked for one k step of a ``rows x cols`` output subblock.

    Why: SrcA and SrcB each hold one tile for the matrix unit, so every tile product needs a fresh
    tile of one operand. The LLK matmul unpacker (``llk_unpack_AB_matmul.h``) keeps the operand of
    the shorter side and streams the other: with ``cols >= rows`` it unpacks each of the ``rows`` A
    tiles once and a B tile per product, otherwise each of the ``cols`` B tiles once and an A tile
    per product. A goes to SrcB and B to SrcA, on the two unpackers in parallel.
    """
    if cols >= rows:
        return rows, rows * cols
    return rows * cols, cols


def _is_block(operand: Any) -> bool:
    return isinstance(operand, ir.Reg) and isinstance(operand.type, BlockType)
