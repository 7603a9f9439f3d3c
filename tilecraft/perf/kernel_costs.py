"""Cycles of one kernel API call on its Tensix stage: the kernel-level model's cost table.

The figures are the language-level model's (:mod:`.compute_cost`, :class:`tilecraft.arch.base.CostFigures`)
applied per call instead of per block store, so that the two levels agree on the same work:

* unpack: a tile's bytes over ``unpack_bytes_per_cycle``; srcA and srcB unpack in parallel, so a
  binary call costs its larger operand; ``matmul_block`` keeps one operand and streams a tile of the
  other per product (:func:`.compute_cost.subblock_unpack_tiles`);
* math: FPU ``eltwise_cycles_per_phase`` per tile (times the fidelity phases for multiplies and
  reductions), ``matmul_cycles_per_phase x phases`` per tile product; SFPU ``(loads + 1 + body)``
  passes of ``1024 / sfpu_lanes`` cycles, ``body`` from :data:`.compute_cost.SFPU_BODY`;
* pack: a tile's bytes over ``pack_bytes_per_cycle``;
* configuration calls (``*_init``, reconfigs, startup) and DST hand-offs: ``cb_call_cycles``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache

from ..arch.base import CostFigures
from ..dtypes import TILE_ELEMS
from ..emu.codes import Ev, Fpu
from ..emu.codes import SfpuBinary as B
from ..emu.codes import SfpuTernary as T
from ..emu.codes import SfpuUnary as U
from ..sim import emu_sfpu
from .compute_cost import SFPU_BODY, SFPU_DEFAULT_BODY, subblock_unpack_tiles

#: the cost entry of each emulator SFPU operation the lowering never emits (ttnn's own kernels run on the
#: emulator): scalar forms and variants charged as the function they compute
_EMULATOR_ONLY: dict[Enum, str] = {
    U.FillBits: "fill", U.Isposinf: "isinf", U.Isneginf: "isinf", U.Gtz: "gt", U.Ltz: "lt", U.Gez: "ge",
    U.Lez: "le", U.Eqz: "eq", U.Nez: "ne", U.UnaryEq: "eq", U.UnaryNe: "ne", U.UnaryGt: "gt", U.UnaryGe: "ge",
    U.UnaryLt: "lt", U.UnaryLe: "le", U.UnaryMax: "max", U.UnaryMin: "min", U.Identity: "abs", U.Rpow: "pow",
    U.Hardshrink: "threshold", U.Softshrink: "threshold", U.Heaviside: "sign", U.Threshold: "threshold",
    U.Cbrt: "power", U.Tanhshrink: "tanh", U.Rdiv: "div", U.PowerIterative: "power", U.DivScalar: "mul",
    B.Rsub: "sub", B.Atan2: "atan", B.Xlogy: "log", B.Fmod: "div", B.Mask: "where", B.MaskPosinf: "where",
    T.Lerp: "where",
}
#: the emulator's SFPU operations by trace kind
_KINDS: dict[int, type[Enum]] = {Ev.SFPU_UNARY: U, Ev.SFPU_BINARY: B, Ev.SFPU_TERNARY: T}


def cost_names() -> dict[Enum, str]:
    """Each emulator SFPU operation with a cost entry -> that entry's name in :data:`SFPU_BODY`:
    the function the lowering computes with it (:func:`tilecraft.sim.emu_sfpu.function_names`, so
    both levels charge one function alike), else :data:`_EMULATOR_ONLY`'s."""
    return {**_EMULATOR_ONLY, **emu_sfpu.function_names()}


_COST_NAMES = cost_names()


@cache
def _sfpu_body(kind: int, code: int) -> int:
    ops = _KINDS[kind]
    if code >= len(ops):
        return SFPU_DEFAULT_BODY
    name = _COST_NAMES.get(ops(code))
    return SFPU_DEFAULT_BODY if name is None else SFPU_BODY.get(name, SFPU_DEFAULT_BODY)


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
        if kind in (Ev.COPY, Ev.UNARY_BCAST, Ev.TRANSPOSE):
            return CallCost(unpack=a * self.unpack_cpb, math=eltwise)
        if kind == Ev.BINARY:
            return CallCost(unpack=max(a, b) * self.unpack_cpb, math=eltwise * (phases if c == Fpu.MUL else 1),
                            flops=TILE_ELEMS)
        if kind == Ev.REUSE_DEST:
            return CallCost(unpack=a * self.unpack_cpb, math=eltwise * (phases if c == Fpu.MUL else 1),
                            flops=TILE_ELEMS)
        if kind == Ev.MATMUL:
            ct, rt = max(1, c), max(1, d)
            products = ct * rt
            a_tiles, b_tiles = subblock_unpack_tiles(rt, ct)
            return CallCost(unpack=max(a_tiles * a, b_tiles * b) * self.unpack_cpb,
                            math=products * figs.matmul_cycles_per_phase * phases, flops=products * 2 * 32 ** 3)
        if kind == Ev.REDUCE:
            return CallCost(unpack=max(a, b) * self.unpack_cpb, math=eltwise * phases, flops=TILE_ELEMS)
        if kind in (Ev.TILIZE, Ev.UNTILIZE):
            return CallCost(unpack=a * b * self.unpack_cpb, math=eltwise * b, pack=c * b * self.pack_cpb)
        if kind == Ev.PACK:
            return CallCost(pack=a * self.pack_cpb)
        if kind == Ev.SFPU_UNARY:
            return CallCost(math=self.sfpu_pass * (2 + _sfpu_body(kind, a)), flops=TILE_ELEMS)
        if kind == Ev.SFPU_BINARY:
            return CallCost(math=self.sfpu_pass * (3 + _sfpu_body(kind, a)), flops=TILE_ELEMS)
        if kind == Ev.SFPU_TERNARY:
            return CallCost(math=self.sfpu_pass * (4 + _sfpu_body(kind, a)), flops=TILE_ELEMS)
        if kind in (Ev.TYPECAST, Ev.COPY_DEST):
            return CallCost(math=self.sfpu_pass * 3)
        return CallCost(math=figs.cb_call_cycles)  # init, reconfig, startup
