"""A block store's expression tree -> one batched evaluator over all its executions.

The tree under a ``block.store`` is fixed by the program text (expression registers are
defined once), so it compiles to a straight-line list of :mod:`tilecraft.sim.tile_math` calls. Leaves
arrive stacked: blocks as ``[N, h, w]``, runtime scalars as ``[N, 1, 1]``; one call evaluates
every execution of the store in a batch.
"""

from __future__ import annotations

from typing import Any, Callable

import torch

from ...ir import mathops, patterns
from ...ir import ops as ir
from ...ir.types import BlockType
from ...numerics import quantize
from .. import tile_math
from ..device_math import BlockMath

Step = tuple[int, Callable[..., torch.Tensor], tuple[int, ...]]
CPU = torch.device("cpu")


def compile_expression(root: ir.Reg, defs: dict[str, ir.Op], leaves: list[Any],
                       accumulate: bool, device: BlockMath | None = None) -> Callable[..., torch.Tensor]:
    """``leaves`` are the registers the tree reads (the accumulator first when ``accumulate``);
    ``device``: compute with another arithmetic (the device's, ``--numerics device``, or the fp64
    golden of the accuracy measurement), None: ideally."""
    slots: dict[str, int] = {leaf.name: i for i, leaf in enumerate(leaves)}
    consts: list[torch.Tensor] = []
    steps: list[Step] = []
    n_leaves = len(leaves)

    def slot_of(operand: Any, on_integers: bool = False) -> int:
        if isinstance(operand, ir.Const):
            consts.append(_constant(operand.value, on_integers))
            return -len(consts)  # negative: a constant
        if operand.name in slots:
            return slots[operand.name]
        op = defs[operand.name]
        fused = patterns.accumulated_matmul(op, defs)
        if fused is not None:  # x + a @ b: the product accumulates into x, as in DST
            addend, mm = fused
            args = (slot_of(mm.lhs), slot_of(mm.rhs), slot_of(addend))
            kernel = _matmul_into if device is None else _device_matmul_into(device)
        else:
            args = tuple(slot_of(a, _on_integers(op)) for a in _inputs(op))
            kernel = (device is not None and device.kernel(op, defs)) or _kernel(op)
        out = n_leaves + len(steps)
        steps.append((out, kernel, args))
        slots[operand.name] = out
        return out

    root_op = patterns.accumulates_into(root, accumulate, defs)
    if root_op is not None:  # y += a @ b accumulates into y
        lhs, rhs = slot_of(root_op.lhs), slot_of(root_op.rhs)
        result_slot = n_leaves + len(steps)
        steps.append((result_slot, _matmul_into if device is None else _device_matmul_into(device), (lhs, rhs, 0)))
        accumulate = False
    else:
        result_slot = slot_of(root)
    elems = root.type.elements if isinstance(root.type, BlockType) else None

    on_device: dict[torch.device, list[torch.Tensor]] = {}

    def evaluate(values: list[torch.Tensor], n: int, device: torch.device = CPU) -> torch.Tensor:
        """``device``: where the values are (the program's constants are copied there once)."""
        here = consts if device == CPU else on_device.setdefault(device, [c.to(device) for c in consts])
        env = list(values) + [None] * len(steps)
        for out, fn, args in steps:
            env[out] = fn(n, *(here[-a - 1] if a < 0 else env[a] for a in args))
        result = env[result_slot] if result_slot >= 0 else here[-result_slot - 1]
        if accumulate:
            result = env[0] + result
        if elems is not None and tuple(result.shape[1:]) != tuple(elems):
            result = result.expand(n, *elems)
        return result

    # the large-GEMM path (:mod:`tilecraft.sim.dataflow.chains`) computes the ideal arithmetic only
    evaluate.matmul = (_matmul_update(steps, result_slot, n_leaves, accumulate)  # type: ignore[attr-defined]
                       if device is None else None)
    return evaluate


def _matmul_update(steps: list[Step], result_slot: int, n_leaves: int,
                   accumulate: bool) -> tuple[int, int, int | None] | None:
    """``(lhs, rhs, acc)`` leaf positions when the whole store is one matrix product of two leaves,
    optionally accumulated into a third (``y = acc + a @ b``, ``y += a @ b``); ``acc`` None for a
    plain ``a @ b``. The level evaluator computes such stores as large matrix updates (:mod:`tilecraft.sim.dataflow.chains`)."""
    if len(steps) != 1 or accumulate or steps[0][0] != result_slot:
        return None
    _, kernel, args = steps[0]
    if not all(0 <= a < n_leaves for a in args):
        return None
    if kernel is _matmul_into:
        return args[0], args[1], args[2]
    if kernel is _matmul:
        return args[0], args[1], None
    return None


def _matmul_into(n: int, a: torch.Tensor, b: torch.Tensor, acc: torch.Tensor) -> torch.Tensor:
    return tile_math.matmul(a, b, acc)


def _matmul(n: int, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return tile_math.matmul(a, b)


def _device_matmul_into(device: BlockMath) -> Callable[..., torch.Tensor]:
    """``acc + a @ b`` with ``acc`` copied into DST first and ``matmul_tiles`` accumulating onto it."""
    return lambda n, a, b, acc: device.matmul(a, b, acc)


def _on_integers(op: ir.Op) -> bool:
    """Whether ``op`` reads a block of an integer format (computed in int64, ``numerics.to_compute``)."""
    return any(isinstance(o, ir.Reg) and isinstance(o.type, BlockType) and o.type.fmt.is_integer
               for o in op.operands())


def _constant(value: float, on_integers: bool) -> torch.Tensor:
    """A number of the program as a 0-d tensor: fp32, or int64 where it is an integer (within the
    int64 range) that meets an integer block, so that ``x + 3`` on Int32 blocks stays exact, as
    the device's integer SFPU calls are (fp32 holds integers only up to 2**24)."""
    if on_integers and float(value).is_integer() and abs(value) < 2**63:
        return torch.tensor(int(value), dtype=torch.int64)
    return torch.tensor(float(value), dtype=torch.float32)


def _inputs(op: ir.Op) -> list[Any]:
    if isinstance(op, ir.TileReduce):
        return [op.x] + ([op.scaler] if op.scaler is not None else [])
    return [o for o in op.operands()]


def _kernel(op: ir.Op) -> Callable[..., torch.Tensor]:
    """The batched function for one expression op; the first argument is the batch size."""
    if isinstance(op, ir.TileUnary):
        if op.fn not in tile_math.UNARY_PARAM:
            unary = tile_math.UNARY[op.fn]
            return lambda n, x: unary(x)
        with_params, params = tile_math.UNARY_PARAM[op.fn], mathops.full_params(op.fn, op.params)
        if _on_integers(op):  # integral parameters of integer blocks stay integers (rsub: v - x exactly)
            params = tuple(_constant(p, True).item() for p in params)
        return lambda n, x: with_params(x, *params)
    if isinstance(op, ir.TileBinary):
        if op.fn == "pow" and isinstance(op.rhs, ir.Const) and float(op.rhs.value).is_integer():
            # an integral power is repeated multiplication, as the SFPU's power_tile does
            exponent = int(op.rhs.value)
            return lambda n, a, b: tile_math.UNARY_PARAM["power"](a, exponent)
        fn2 = tile_math.BINARY[op.fn]
        return lambda n, a, b: fn2(a, b)
    if isinstance(op, ir.TileMatmul):
        return _matmul
    if isinstance(op, ir.TileTranspose):
        return lambda n, x: tile_math.transpose(x)
    if isinstance(op, ir.TileWhere):
        return lambda n, c, a, b: tile_math.where(c, a, b)
    if isinstance(op, ir.TileReduce):
        dims, kind = op.dims, op.kind
        return lambda n, x, s=None: tile_math.reduce(kind, x, dims, s)
    if isinstance(op, ir.TileBroadcast):
        dims, shape = op.dims, op.result.type.elements
        return lambda n, x: tile_math.broadcast(x, dims, shape)
    if isinstance(op, ir.TileReshape):
        grid, new_grid, tiled = op.x.type.shape, op.result.type.shape, op.result.type.unit.tiled
        return lambda n, x: tile_math.regrid(x, grid, new_grid, tiled)
    if isinstance(op, ir.TileRound):
        fmt = op.result.type.fmt
        return lambda n, x: quantize(x, fmt).to(x.dtype)
    if isinstance(op, ir.TileFill):
        shape = op.result.type.elements
        return lambda n, v: (v.reshape(-1, *([1] * len(shape))) if v.dim() else v).expand(n, *shape)
    raise TypeError(f"not an expression op: {op.name}")
