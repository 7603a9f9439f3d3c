"""Predicted device time of each ttnn op a script runs: the ttnn rows of ``tilecraft profile``.

Every primitive of :mod:`tilecraft.ttnn` has a cost rule in :data:`COSTS` (a
:class:`tilecraft.ttnn.primitives.RuleTable`, so a primitive without one is a test failure). A rule
maps the op's record (:class:`tilecraft.ttnn.op_record.OpCall`: shapes, formats, layouts, DRAM or
L1, parameters) and an architecture to an :class:`OpTime`. Two kinds of rule:

* **kernel** — ops that ttnn 0.81.1 runs with wheel kernels the kernel emulator runs (eltwise binary
  and unary SFPU, reduce, matmul, softmax, layernorm/rmsnorm, tilize/untilize, transpose, concat,
  slice). The op is described as the steps its program's reader, compute and writer repeat on
  each core (:class:`TilePlan`: the pages a step reads and writes, the compute API calls it makes,
  the work split over the compute grid as ``split_work_to_cores`` splits it), and each step is
  costed with the kernel-level model's own rules (:mod:`.kernel_replay`, :mod:`.kernel_costs`,
  :class:`.network.Resources`): an unpack, a math and a pack stage per compute call, a NoC issue per
  page, one barrier per step waiting for the DRAM round trip, a writer that waits for its bytes to
  leave the core. The prediction is that replay's steady state, computed in closed form rather
  than replayed: the busiest core runs ``steps`` periods of its slowest stage plus one step's fill,
  and the whole op cannot beat its DRAM bytes at the chip's bandwidth. It is not a run of the
  kernels (that needs their compiled C++ and a ``--level cpp`` run); docs/performance-model.md
  ("ttnn ops") lists the per-op call sequences.
* **roofline** — every other op: ``max(DRAM bytes / DRAM bandwidth, FLOPs / peak)`` over the
  compute grid, L1-resident tensors at the cores' L1 copy rate, FLOPs at the op's fidelity.
  Reshapes that keep the tiled rows (views) cost nothing (``model`` "view").

An op that ran its own kernels on the emulator (as ``--level cpp`` runs ttnn ops on their 0.81.1
kernels) is instead the replay of those kernels' traces (:func:`replayed_op`, model "kernel-level replay").

Fidelity: the op's ``compute_kernel_config`` when the op passes one, else ttnn's default
configuration's (LoFi; ``tilecraft.ttnn.compute_config``); "-" for an op that does no math.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from ..arch.base import Arch
from ..dtypes import TILE_ELEMS
from ..emu.codes import Ev, Fpu
from ..emu.codes import SfpuBinary as B
from ..emu.codes import SfpuUnary as U
from ..ttnn import PRIMITIVES, RuleTable
from ..ttnn.compute_config import WormholeComputeKernelConfig
from ..ttnn.fidelity import MathFidelity
from ..ttnn.layout import Layout
from ..ttnn.op_record import OpCall, PlacedTensor
from .kernel_costs import CallCosts
from .network import Resources
from .result import Estimate


@dataclass(frozen=True)
class OpTime:
    """One ttnn op's predicted time and what bounds it."""

    op: str
    shape: tuple[int, ...]
    dtype: str
    fidelity: str
    cycles: float
    clock_hz: float
    #: the stage or resource that sets the time ("math", "reader (DRAM round trip per page)", "DRAM", ...)
    bound: str
    #: "kernel" (the wheel kernels' per-step costs), "roofline" or "view" (no kernel runs)
    model: str
    flops: float = 0.0
    dram_bytes: float = 0.0
    cores: int = 1

    @property
    def seconds(self) -> float:
        return self.cycles / self.clock_hz


CostRule = Callable[[OpCall, Arch], OpTime]
COSTS: RuleTable[CostRule] = RuleTable("cost rule")


def time_op(call: OpCall, arch: Arch) -> OpTime:
    """The predicted time of one recorded ttnn op on ``arch`` (every primitive has a rule)."""
    return COSTS[PRIMITIVES[call.name]](call, arch)


def replayed_op(call: OpCall, replays: Sequence[Estimate]) -> OpTime:
    """The op's row when it ran its own kernels on the emulator (``--level cpp``): the kernel-level
    replays of the programs it ran, one after another; the bound of the longest."""
    longest = max(replays, key=lambda est: est.cycles)
    return OpTime(call.name, tuple(call.output.shape), call.output.dtype.name, longest.fidelity,
                  sum(est.cycles for est in replays), longest.clock_hz, longest.bound, "kernel-level replay",
                  sum(est.flops for est in replays),
                  sum(est.dram_read_bytes + est.dram_write_bytes for est in replays), longest.cores)


# ------------------------------------------------------------------------------------------ fidelity

#: ttnn's default compute kernel configuration (what an op runs with when given none)
DEFAULT_CONFIG = WormholeComputeKernelConfig()


def config_of(call: OpCall) -> WormholeComputeKernelConfig:
    """The compute kernel configuration the op ran with (``compute_kernel_config=``, or attention's ``config``)."""
    for key in ("compute_kernel_config", "config"):
        found = call.params.get(key)
        if isinstance(found, WormholeComputeKernelConfig):
            return found
    return DEFAULT_CONFIG


def fidelity_of(call: OpCall) -> MathFidelity:
    return config_of(call).math_fidelity


# ------------------------------------------------------------------------------------------ kernel level

@dataclass(frozen=True)
class Call:
    """One compute API call of a step, as the emulator's trace records it (``kind`` and operands a..d),
    made ``times`` per step (a fraction: once per row of ``1 / times`` steps)."""

    kind: Ev
    a: int = 0
    b: int = 0
    c: int = 0
    d: int = 0
    times: float = 1.0


@dataclass(frozen=True)
class TilePlan:
    """A wheel kernel program as the step each core repeats (usually one output tile)."""

    #: steps in all, split over the compute grid (the busiest core runs ``ceil(steps / cores)``)
    steps: int
    #: bytes of each page the reader fetches per step before its barrier (DRAM or another core's L1)
    reads: tuple[float, ...]
    calls: tuple[Call, ...]
    #: pages the writer sends per step (a fraction: once every ``1 / write_pages`` steps) and their bytes
    write_pages: float
    write_bytes: float
    #: True when the reader's pages come from DRAM (else L1 of other cores); the writer's go to DRAM
    reads_dram: bool = True
    writes_dram: bool = True
    #: CBs the compute thread waits on / pops per step (unpacker) and reserves / pushes (packer)
    in_cbs: int = 1
    out_cbs: int = 1
    #: steps of reads the reader keeps in flight (1: a barrier per step, as the interleaved readers)
    in_flight: int = 1
    #: reader RISCs, each with its NoC, that share the reads (matmul: A on one, B on the other)
    nocs: int = 1
    #: most cores the program uses (None: the whole compute grid)
    max_cores: int | None = None
    #: DRAM bytes of the whole op when pages are shared by cores (multicast); None: every step's own
    dram_bytes: float | None = None


def kernel_time(call: OpCall, plan: TilePlan, arch: Arch) -> OpTime:
    """The kernel-level model's steady state for ``plan`` (see the module docstring)."""
    figs = arch.costs
    assert figs is not None
    net = Resources(arch)
    grid = arch.compute_grid[0] * arch.compute_grid[1]
    cores = max(1, min(plan.steps, grid if plan.max_cores is None else min(grid, plan.max_cores)))
    per_core = math.ceil(plan.steps / cores)
    fid = fidelity_of(call)
    costs = CallCosts(figs, fid.phases)
    cb = figs.cb_call_cycles

    unpack = cb * 2 * plan.in_cbs
    mathc = 0.0
    pack = cb * 2 * plan.out_cbs
    flops = 0.0
    for c in plan.calls:
        cost = costs.compute(c.kind, c.a, c.b, c.c, c.d)
        unpack += cost.unpack * c.times
        mathc += cost.math * c.times
        pack += cost.pack * c.times
        flops += cost.flops * c.times
    stages = {"unpack": unpack, "math": mathc, "pack": pack}
    if plan.reads:  # each of ``nocs`` reader RISCs issues its share of the pages over its own NoC
        latency = net.dram_latency if plan.reads_dram else 2 * net.dram_hops * figs.noc_hop_cycles
        bank = max(plan.reads) * net.bank_cpb if plan.reads_dram else 0.0
        pages = math.ceil(len(plan.reads) / plan.nocs)
        port = sum(plan.reads) * net.link_cpb / plan.nocs
        trip = figs.noc_issue_cycles * (pages - 1) + max(bank, port) + latency
        # reserve and push per CB filled and the barrier, around the issues or the wait for the pages
        calls = cb * (2 * math.ceil(max(1, plan.in_cbs) / plan.nocs) + 1)
        stages["reader (a DRAM round trip per page)" if plan.reads_dram else "reader (L1 round trip)"] = \
            calls + max(figs.noc_issue_cycles * pages, port, trip / plan.in_flight)
    if plan.write_pages:
        port = plan.write_pages * plan.write_bytes * net.link_cpb
        stages["writer"] = cb * 3 * min(1.0, plan.write_pages) + max(figs.noc_issue_cycles * plan.write_pages, port)
    slowest = max(stages, key=lambda k: stages[k])
    # the other stages of one step fill the pipeline; the writer's last barrier waits for the acknowledgement
    last_ack = net.dram_latency if plan.write_pages and plan.writes_dram else 0.0
    core_cycles = per_core * stages[slowest] + sum(stages.values()) - stages[slowest] + last_ack
    dram_bytes = plan.dram_bytes if plan.dram_bytes is not None else \
        plan.steps * ((sum(plan.reads) if plan.reads_dram else 0.0)
                      + (plan.write_pages * plan.write_bytes if plan.writes_dram else 0.0))
    dram_cycles = dram_bytes * arch.clock_hz / figs.dram_bytes_per_s + net.dram_latency
    if dram_cycles > core_cycles:
        slowest, core_cycles = "DRAM", dram_cycles
    return OpTime(call.name, tuple(call.output.shape), call.output.dtype.name, fid.name if flops else "-", core_cycles,
                  arch.clock_hz, slowest, "kernel", flops * plan.steps, dram_bytes, cores)


def _tile(t: PlacedTensor) -> int:
    return t.dtype.tile_bytes


def _pack(out: PlacedTensor, times: float = 1.0) -> Call:
    return Call(Ev.PACK, _tile(out), times=times)


#: the SFPU operation of each unary ttnn op (its cost entry in kernel_costs)
_UNARY: dict[str, U] = {
    "relu": U.Relu, "silu": U.Silu, "sigmoid": U.Sigmoid, "tanh": U.Tanh, "exp": U.Exp, "log": U.Log,
    "sqrt": U.Sqrt, "rsqrt": U.Rsqrt, "reciprocal": U.Recip, "abs": U.Abs, "neg": U.Neg, "square": U.Square,
    "sin": U.Sin, "cos": U.Cos, "gelu": U.Gelu,
}


def _unary_plan(call: OpCall, arch: Arch) -> TilePlan:
    """eltwise_sfpu.cpp: copy_tile into DST, the SFPU chain (its init and the operation), pack_tile; one
    tile per step."""
    x, out = call.inputs[0], call.output
    op = _UNARY[call.name]
    return TilePlan(out.tiles, (_tile(x),), (Call(Ev.COPY, _tile(x)), Call(Ev.SFPU_INIT), Call(Ev.SFPU_UNARY, op.value),
                                             _pack(out)),
                    1, _tile(out), x.in_dram, out.in_dram)


def _typecast_plan(call: OpCall, arch: Arch) -> TilePlan:
    """The unary program with typecast_tile as its SFPU operation."""
    x, out = call.inputs[0], call.output
    return TilePlan(out.tiles, (_tile(x),), (Call(Ev.COPY, _tile(x)), Call(Ev.TYPECAST), _pack(out)),
                    1, _tile(out), x.in_dram, out.in_dram)


_FPU = {"add": Fpu.ADD, "subtract": Fpu.SUB, "multiply": Fpu.MUL}


def _binary_plan(call: OpCall, arch: Arch) -> TilePlan:
    """eltwise_binary_no_bcast.cpp (add/sub/mul on the FPU: one binary call per tile, both operands
    read each step; a broadcast operand is read as often by the broadcast readers); ``divide`` is the
    SFPU binary (both copied into DST); a Python-number operand makes it the unary SFPU program."""
    out = call.output
    if len(call.inputs) == 1:  # x op scalar
        x = call.inputs[0]
        code = {"add": U.AddScalar, "subtract": U.AddScalar, "multiply": U.MulScalar}.get(call.name, U.DivScalar)
        return TilePlan(out.tiles, (_tile(x),), (Call(Ev.COPY, _tile(x)), Call(Ev.SFPU_UNARY, code.value),
                                                 _pack(out)), 1, _tile(out), x.in_dram, out.in_dram)
    a, b = call.inputs[:2]
    reads = (_tile(a), _tile(b))
    if call.name in _FPU:
        calls = (Call(Ev.BINARY, _tile(a), _tile(b), _FPU[call.name].value), _pack(out))
    else:
        calls = (Call(Ev.COPY, _tile(a)), Call(Ev.COPY, _tile(b)), Call(Ev.SFPU_BINARY, B.Div.value), _pack(out))
    return TilePlan(out.tiles, reads, calls, 1, _tile(out), a.in_dram and b.in_dram, out.in_dram, in_cbs=2)


def _rows(x: PlacedTensor) -> tuple[int, int]:
    """(tile rows, tiles per row) of a tensor's last two dims, batch dims folded into the rows."""
    wt = max(1, -(-x.shape[-1] // 32)) if x.shape.rank else 1
    return max(1, x.tiles // wt), wt


def _reduce_plan(call: OpCall, arch: Arch) -> TilePlan:
    """reduce.cpp over the last dim (sum, mean, max): one reduce_tile per input tile into the row's
    DST tile, one pack per output tile; the scaler tile is read once."""
    x, out = call.inputs[0], call.output
    rows, wt = _rows(x)
    return TilePlan(x.tiles, (_tile(x),), (Call(Ev.REDUCE, _tile(x), _tile(x)), _pack(out, 1 / wt)),
                    1 / wt, _tile(out), x.in_dram, out.in_dram)


def _softmax_plan(call: OpCall, arch: Arch) -> TilePlan:
    """softmax.cpp over rows held in L1: per tile, reduce max, x - max (broadcast), exp, reduce sum,
    the product with 1/sum (broadcast), three packs (x - max, exp, the result); per row the
    reciprocal on the SFPU."""
    x, out = call.inputs[0], call.output
    rows, wt = _rows(x)
    t = _tile(x)
    calls = (Call(Ev.REDUCE, t, t), Call(Ev.BINARY, t, t, Fpu.SUB.value), Call(Ev.SFPU_UNARY, U.Exp.value),
             Call(Ev.REDUCE, t, t), Call(Ev.BINARY, t, t, Fpu.MUL.value), Call(Ev.PACK, t, times=3),
             Call(Ev.SFPU_UNARY, U.Recip.value, times=1 / wt))
    return TilePlan(x.tiles, (t,), calls, 1, _tile(out), x.in_dram, out.in_dram)


def _norm_plan(call: OpCall, arch: Arch) -> TilePlan:
    """layernorm.cpp (RMSNORM defined for rms_norm): per tile x^2 (FPU multiply), its reduce, the
    product with 1/rms (broadcast), the gamma product (and for layer_norm: the mean's reduce, x - mean,
    + beta), a pack per pass; per row the SFPU's rsqrt of (mean square + eps). A residual adds a pass."""
    x, out = call.inputs[0], call.output
    rows, wt = _rows(x)
    t = _tile(x)
    present = tuple(call.params.get("present", ()))
    mul, add, sub = Fpu.MUL.value, Fpu.ADD.value, Fpu.SUB.value
    calls = [Call(Ev.BINARY, t, t, mul), Call(Ev.REDUCE, t, t), Call(Ev.BINARY, t, t, mul),
             Call(Ev.SFPU_UNARY, U.Rsqrt.value, times=1 / wt)]
    passes = 2
    if not call.params.get("rms", True):
        calls += [Call(Ev.REDUCE, t, t), Call(Ev.BINARY, t, t, sub)]
        passes += 1
    for name, fn in (("residual", add), ("weight", mul), ("bias", add)):
        if name in present:
            calls.append(Call(Ev.BINARY, t, t, fn))
            passes += 1
    calls.append(Call(Ev.PACK, t, times=passes))
    reads = (t,) * (1 + ("residual" in present))
    return TilePlan(x.tiles, reads, tuple(calls), 1, _tile(out), x.in_dram, out.in_dram)


#: the K block (``in0_block_w``) assumed when the op has no program config: the largest divisor of
#: K's tiles up to this (ttnn's automatic configs pick a few tiles; its exact choice is not modelled)
AUTO_K_BLOCK = 8


def _matmul_plan(call: OpCall, arch: Arch) -> TilePlan:
    """bmm_large_block_zm_fused_bias_activation.cpp on the 2D multicast program: each core of the
    grid computes a block of output tiles in DST sub-blocks of at most half of DST; one step is one K
    block of ``in0_block_w`` tiles: a matmul_block call per sub-block and K tile, the block's A row
    tiles and B column tiles arriving from the two reader RISCs over the two NoCs (double-buffered K
    blocks: reads overlap the math). The bias add and the pack of the output block are spread over the
    steps; A and B are read from DRAM once (multicast reuse)."""
    a, b, out = call.inputs[0], call.inputs[1], call.output
    transpose_a = bool(call.params.get("transpose_a"))
    transpose_b = bool(call.params.get("transpose_b"))
    m = a.shape[-1] if transpose_a else a.shape[-2]
    k = a.shape[-2] if transpose_a else a.shape[-1]
    n = b.shape[-2] if transpose_b else b.shape[-1]
    mt, kt, nt = (max(1, -(-d // 32)) for d in (m, k, n))
    batch = max(1, out.tiles // (mt * nt))
    cols, rows = arch.compute_grid
    pm = math.ceil(batch * mt / rows)
    pn = math.ceil(nt / cols)
    cores = math.ceil(batch * mt / pm) * math.ceil(nt / pn)
    dst = arch.dst_tiles_per_phase(config_of(call).fp32_dest_acc_en)
    sub_w = max(w for w in range(1, min(pn, dst) + 1) if pn % w == 0)
    sub_h = max(h for h in range(1, min(pm, dst // sub_w) + 1) if pm % h == 0)
    subblocks = (pm // sub_h) * (pn // sub_w)
    configured = getattr(call.params.get("program_config"), "in0_block_w", None)
    kw = configured or max(w for w in range(1, min(kt, AUTO_K_BLOCK) + 1) if kt % w == 0)
    blocks = math.ceil(kt / kw)
    ta, tb, to = _tile(a), _tile(b), _tile(out)
    calls = [Call(Ev.MATMUL, ta, tb, sub_w, sub_h, times=subblocks * kw), Call(Ev.PACK, to, times=pm * pn / blocks)]
    if len(call.inputs) > 2:  # the bias: one broadcast add per output tile, once
        calls.append(Call(Ev.BINARY, to, to, Fpu.ADD.value, times=pm * pn / blocks))
    # DRAM traffic: A, B (and the bias) once each (multicast), the output once
    once = sum(t.nbytes for t in call.inputs) + out.nbytes
    return TilePlan(blocks * cores, (ta,) * (pm * kw) + (tb,) * (pn * kw), tuple(calls), pm * pn / blocks, to,
                    a.in_dram and b.in_dram, out.in_dram, in_cbs=2, in_flight=2, nocs=2, max_cores=cores,
                    dram_bytes=once)


def _transpose_plan(call: OpCall, arch: Arch) -> TilePlan:
    """transpose_wh.cpp (the last two dims): transpose_wh_tile per tile; other dims move data only."""
    x, out = call.inputs[0], call.output
    dims = {int(call.params["dim0"]) % x.shape.rank, int(call.params["dim1"]) % x.shape.rank}
    calls: tuple[Call, ...] = ()
    if dims == {x.shape.rank - 1, x.shape.rank - 2}:
        calls = (Call(Ev.TRANSPOSE, _tile(x)), _pack(out))
    return TilePlan(out.tiles, (_tile(x),), calls, 1, _tile(out), x.in_dram, out.in_dram)


def _layout_plan(call: OpCall, arch: Arch) -> TilePlan | None:
    """tilize.cpp / untilize.cpp: a tile's 32 row-major sticks read (written) as 32 pages, one tilize
    (untilize) call per tile. None when the layout does not change (no kernel runs)."""
    x, out = call.inputs[0], call.output
    if x.layout is out.layout and x.dtype is out.dtype:
        return None
    if x.layout is out.layout:  # a format change only: the typecast program
        return _typecast_plan(call, arch)
    t_in, t_out = _tile(x), _tile(out)
    if out.layout is Layout.TILE:
        return TilePlan(out.tiles, (x.dtype.bytes_for(TILE_ELEMS) / 32,) * 32,
                        (Call(Ev.TILIZE, t_in, 1, t_out),), 1, t_out, x.in_dram, out.in_dram)
    return TilePlan(out.tiles, (t_in,), (Call(Ev.UNTILIZE, t_in, 1, t_out),),
                    32, out.dtype.bytes_for(TILE_ELEMS) / 32, x.in_dram, out.in_dram)


def _copy_plan(call: OpCall, arch: Arch) -> TilePlan:
    """The data-movement kernels of concat and slice (reader and writer only): each output tile read
    from its input and written once."""
    out = call.output
    src = call.inputs[0]
    return TilePlan(out.tiles, (_tile(src),), (), 1, _tile(out), all(t.in_dram for t in call.inputs), out.in_dram,
                    in_cbs=0, out_cbs=0)


#: the step plan of each op whose wheel kernels the emulator runs
_PLANS: dict[str, Callable[[OpCall, Arch], TilePlan | None]] = {
    **{name: _unary_plan for name in _UNARY}, "typecast": _typecast_plan,
    **{name: _binary_plan for name in ("add", "subtract", "multiply", "divide")},
    **{name: _reduce_plan for name in ("sum", "mean", "max")}, "softmax": _softmax_plan,
    "layer_norm": _norm_plan, "rms_norm": _norm_plan, "matmul": _matmul_plan, "linear": _matmul_plan,
    "transpose": _transpose_plan, **{name: _layout_plan for name in ("to_layout", "tilize", "untilize")},
    "concat": _copy_plan, "slice": _copy_plan,
}


def kernel_plan(call: OpCall, arch: Arch) -> TilePlan | None:
    """The wheel program's step plan for ``call`` (None: no kernel runs, or the op is costed by a roofline)."""
    plan = _PLANS.get(call.name)
    return None if plan is None else plan(call, arch)


def _kernel_rule(call: OpCall, arch: Arch) -> OpTime:
    found = kernel_plan(call, arch)
    return _view(call, arch) if found is None else kernel_time(call, found, arch)


# ------------------------------------------------------------------------------------------ roofline

def roofline(call: OpCall, arch: Arch, flops: float = 0.0, matrix: bool = False,
             nbytes: Iterable[tuple[float, bool]] | None = None) -> OpTime:
    """``max(memory, math)`` on the whole compute grid: DRAM bytes at the chip's bandwidth, L1 bytes at
    every core's L1 copy rate; ``flops`` at the matrix unit's peak (``matrix``) or the FPU's elementwise
    peak, at the op's fidelity. ``nbytes``: (bytes, in DRAM) moved (default: every input and the output once)."""
    figs = arch.costs
    assert figs is not None
    cores = arch.compute_grid[0] * arch.compute_grid[1]
    fid = fidelity_of(call)
    moved = list(nbytes) if nbytes is not None else \
        [(t.nbytes, t.in_dram) for t in (*call.inputs, call.output)]
    dram = sum(n for n, d in moved if d)
    l1 = sum(n for n, d in moved if not d)
    mem_cycles = dram * arch.clock_hz / figs.dram_bytes_per_s + l1 / (figs.l1_copy_bytes_per_cycle * cores)
    if matrix:
        per_cycle = cores * figs.matmul_flops_per_cycle(fid.phases)
    else:
        per_cycle = cores * TILE_ELEMS / figs.eltwise_cycles_per_phase
    math_cycles = flops / per_cycle
    bound = "compute" if math_cycles > mem_cycles else ("DRAM" if dram >= l1 else "L1")
    return OpTime(call.name, tuple(call.output.shape), call.output.dtype.name, fid.name if flops else "-",
                  max(math_cycles, mem_cycles), arch.clock_hz, bound, "roofline", flops, dram, cores)


def _elements(t: PlacedTensor) -> int:
    return t.tiles * TILE_ELEMS


def _elementwise_roofline(per_element: float) -> CostRule:
    return lambda call, arch: roofline(call, arch, flops=per_element * _elements(call.output))


def _movement_roofline(call: OpCall, arch: Arch) -> OpTime:
    return roofline(call, arch)


def _view(call: OpCall, arch: Arch) -> OpTime:
    return OpTime(call.name, tuple(call.output.shape), call.output.dtype.name, "-", 0.0, arch.clock_hz,
                  "none (no kernel)", "view")


def _reshape(call: OpCall, arch: Arch) -> OpTime:
    """A reshape or squeeze that keeps the last dim (and, tiled, the rows' tiling) is a view in ttnn."""
    x, out = call.inputs[0], call.output
    same_rows = x.shape[-1:] == out.shape[-1:] and (x.layout is Layout.ROW_MAJOR or x.tiles == out.tiles)
    return _view(call, arch) if same_rows else roofline(call, arch)


def _attention_flops(call: OpCall) -> float:
    """q k^T and p v: 4 b h sq sk d (the causal half is not skipped by the model)."""
    q, k = call.inputs[0], call.inputs[1]
    b, h, sq, d = q.shape[0], q.shape[1], q.shape[-2], q.shape[-1]
    return 4.0 * b * h * sq * k.shape[-2] * d


def _matmul_flops(call: OpCall) -> float:
    a, out = call.inputs[0], call.output
    k = a.shape[-2] if call.params.get("transpose_a") else a.shape[-1]
    return 2.0 * math.prod(out.shape) * k


def _register(names: Sequence[str], rule: CostRule) -> None:
    for name in names:
        COSTS.register(PRIMITIVES[name])(rule)


_register(tuple(_PLANS), _kernel_rule)
_register(("reshape", "squeeze"), _reshape)
_register(("pow", "floor_div", "remainder", "maximum", "minimum", "gt", "lt", "ge", "le", "eq", "ne",
           "logical_and", "logical_or", "logical_not", "clamp", "where"), _elementwise_roofline(1))
_register(("rms_norm_pre_all_gather", "rms_norm_post_all_gather", "group_norm"), _elementwise_roofline(4))
_register(("rotary_embedding", "rotary_embedding_llama"), _elementwise_roofline(3))
_register(("argmax", "topk"), _elementwise_roofline(1))
_register(("clone", "to_memory_config", "repeat", "permute", "pad", "interleaved_to_sharded",
           "sharded_to_interleaved", "reshard", "upsample", "fold", "split_heads", "join_heads", "all_gather",
           "all_reduce"), _movement_roofline)
_register(("avg_pool2d",), _elementwise_roofline(1))
_register(("embedding",), lambda call, arch: roofline(call, arch, nbytes=_embedding_bytes(call)))
_register(("conv2d", "attn_matmul", "group_attn_matmul"),
          lambda call, arch: roofline(call, arch, flops=_conv_or_matmul_flops(call), matrix=True))
_register(("scaled_dot_product_attention", "scaled_dot_product_attention_decode"),
          lambda call, arch: roofline(call, arch, flops=_attention_flops(call), matrix=True))


def _embedding_bytes(call: OpCall) -> list[tuple[float, bool]]:
    """The ids, the table rows they pick (as many bytes as the output, not the whole table), the output."""
    ids, table = call.inputs[0], call.inputs[1]
    out = call.output
    return [(ids.nbytes, ids.in_dram), (out.nbytes, table.in_dram), (out.nbytes, out.in_dram)]


def _conv_or_matmul_flops(call: OpCall) -> float:
    if call.name != "conv2d":
        return _matmul_flops(call)
    weight = call.inputs[1]  # [out_channels, in_channels / groups, kh, kw]
    return 2.0 * math.prod(call.output.shape) * math.prod(weight.shape[1:])
