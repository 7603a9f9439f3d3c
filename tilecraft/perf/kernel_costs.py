"""Cycles of one kernel API call on its Tensix stage: the kernel-level model's cost table.

The figures are the language-level model's (:mod:`.compute_cost`, :class:`tilecraft.arch.base.CostFigures`)
applied per call instead of per block store, so that the two levels agree on the same work:

* unpack: a tile's bytes over ``unpack_bytes_per_cycle``; srcA and srcB unpack in parallel, so a
  binary call costs its larger operand; ``matmul_block`` unpacks ``rt`` tiles of in0 and ``ct`` of in1;
* math: FPU ``eltwise_cycles_per_phase`` per tile (times the fidelity phases for multiplies and
  reductions), ``matmul_cycles_per_phase x phases`` per tile product; SFPU ``(loads + 1 + body)``
  passes of ``1024 / sfpu_lanes`` cycles, ``body`` from :data:`.compute_cost.SFPU_BODY`;
* pack: a tile's bytes over ``pack_bytes_per_cycle``;
* configuration calls (``*_init``, reconfigs, startup) and DST hand-offs: ``cb_call_cycles``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ..arch.base import CostFigures
from ..dtypes import TILE_ELEMS
from ..emu import trace as tr
from .compute_cost import SFPU_BODY, SFPU_DEFAULT_BODY

#: emulator SFPU operation names whose cost entry has another name (scalar forms, aliases)
_SFPU_ALIASES = {
    "log_with_base": "log2", "add_scalar": "add", "sub_scalar": "sub", "mul_scalar": "mul", "div_scalar": "mul",
    "rsub_scalar": "rsub", "fill_bits": "fill", "isposinf": "isinf", "isneginf": "isinf", "gtz": "gt", "ltz": "lt",
    "gez": "ge", "lez": "le", "eqz": "eq", "nez": "ne", "unary_eq": "eq", "unary_ne": "ne", "unary_gt": "gt",
    "unary_ge": "ge", "unary_lt": "lt", "unary_le": "le", "unary_max": "max", "unary_min": "min", "identity": "abs",
    "rpow": "pow", "hardshrink": "threshold", "softshrink": "threshold", "heaviside": "sign", "atan2": "atan",
    "xlogy": "log", "fmod": "div", "remainder": "div", "lerp": "where",
}
#: FPU operation codes of the emulator (tc::Fpu): Add, Sub, Mul
_FPU_MUL = 2


@cache
def _sfpu_body(kind: str, code: int) -> int:
    names = tr.sfpu_names(kind)
    if code >= len(names):
        return SFPU_DEFAULT_BODY
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", names[code]).lower()
    return SFPU_BODY.get(_SFPU_ALIASES.get(snake, snake), SFPU_DEFAULT_BODY)


@dataclass(frozen=True)
class CallCost:
    """Cycles of one call on the unpacker, the math engine (FPU or SFPU) and the packer, and its FLOPs."""

    unpack: float = 0.0
    math: float = 0.0
    pack: float = 0.0
    flops: int = 0


class CallCosts:
    """The cost of each compute call of a trace, at one fidelity (``phases``)."""

    def __init__(self, figs: CostFigures, phases: int):
        self.figs = figs
        self.phases = phases
        self.unpack_cpb = 1.0 / figs.unpack_bytes_per_cycle
        self.pack_cpb = 1.0 / figs.pack_bytes_per_cycle
        self.sfpu_pass = TILE_ELEMS / figs.sfpu_lanes

    def compute(self, kind: int, a: int, b: int, c: int, d: int) -> CallCost:
        figs, phases = self.figs, self.phases
        eltwise = figs.eltwise_cycles_per_phase
        if kind in (tr.COPY, tr.UNARY_BCAST, tr.TRANSPOSE):
            return CallCost(unpack=a * self.unpack_cpb, math=eltwise)
        if kind == tr.BINARY:
            return CallCost(unpack=max(a, b) * self.unpack_cpb, math=eltwise * (phases if c == _FPU_MUL else 1),
                            flops=TILE_ELEMS)
        if kind == tr.REUSE_DEST:
            return CallCost(unpack=a * self.unpack_cpb, math=eltwise * (phases if c == _FPU_MUL else 1),
                            flops=TILE_ELEMS)
        if kind == tr.MATMUL:
            ct, rt = max(1, c), max(1, d)
            products = ct * rt
            return CallCost(unpack=max(rt * a, ct * b) * self.unpack_cpb,
                            math=products * figs.matmul_cycles_per_phase * phases, flops=products * 2 * 32 ** 3)
        if kind == tr.REDUCE:
            return CallCost(unpack=max(a, b) * self.unpack_cpb, math=eltwise * phases, flops=TILE_ELEMS)
        if kind in (tr.TILIZE, tr.UNTILIZE):
            return CallCost(unpack=a * b * self.unpack_cpb, math=eltwise * b, pack=c * b * self.pack_cpb)
        if kind == tr.PACK:
            return CallCost(pack=a * self.pack_cpb)
        if kind == tr.SFPU_UNARY:
            return CallCost(math=self.sfpu_pass * (2 + _sfpu_body("UNARY", a)), flops=TILE_ELEMS)
        if kind == tr.SFPU_BINARY:
            return CallCost(math=self.sfpu_pass * (3 + _sfpu_body("BINARY", a)), flops=TILE_ELEMS)
        if kind == tr.SFPU_TERNARY:
            return CallCost(math=self.sfpu_pass * (4 + _sfpu_body("TERNARY", a)), flops=TILE_ELEMS)
        if kind in (tr.TYPECAST, tr.COPY_DEST):
            return CallCost(math=self.sfpu_pass * 3)
        return CallCost(math=figs.cb_call_cycles)  # init, reconfig, startup
