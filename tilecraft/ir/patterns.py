"""Rules about the meaning of expression trees that the simulator, the cost model and the lowering
must apply alike (one definition each, so the three cannot drift apart).
"""

from __future__ import annotations

from typing import Any

from . import ops as ir
from .types import BlockType


def accumulated_matmul(op: ir.Op, defs: dict[str, ir.Op]) -> tuple[ir.Operand, ir.TileMatmul] | None:
    """``x + a @ b`` (either order, ``x`` a block): the addend and the matmul, else None.

    The matrix unit accumulates a product into the DST tile it writes, so the addend is loaded into
    DST first and the product lands on it: the sum is not a separate rounding step. The simulator
    evaluates it that way (``tile_math.matmul(a, b, acc=x)``), the cost model charges no extra
    add, and the lowering copies ``x`` into the slot ``matmul_tiles`` accumulates into.
    """
    if not (isinstance(op, ir.TileBinary) and op.fn == "add"):
        return None
    for mm, addend in ((op.rhs, op.lhs), (op.lhs, op.rhs)):
        mm_op = defs.get(getattr(mm, "name", None))
        if isinstance(mm_op, ir.TileMatmul) and _is_block(addend):
            return addend, mm_op
    return None


def accumulates_into(root: Any, accumulate: bool, defs: dict[str, ir.Op]) -> ir.TileMatmul | None:
    """The matmul of a store ``y += a @ b`` (accumulating into ``y``), else None."""
    op = defs.get(getattr(root, "name", None))
    return op if accumulate and isinstance(op, ir.TileMatmul) else None


def packed_value(store: ir.BlockStore | ir.LocalStore, defs: dict[str, ir.Op], block_fmt: Any) -> Any:
    """What ``store`` packs into its block (of ``block_fmt``): a rounding point at the root of a
    store into a block of that format (``e = ttl.math.exp(...).to(ttnn.bfloat16)`` held in a
    bfloat16 block) is the store's own pack, so the expression under it is packed straight into
    the block; anything else is packed as it is. The lowering emits, and the cost model charges,
    by this one rule."""
    rounded = defs.get(getattr(store.value, "name", None))
    if isinstance(rounded, ir.TileRound) and not store.accumulate and rounded.result.type.fmt == block_fmt:
        return rounded.x
    return store.value


def _is_block(operand: Any) -> bool:
    """A block register: numbers and runtime scalars are not loaded into DST as a tile."""
    return isinstance(operand, ir.Reg) and isinstance(operand.type, BlockType)
