"""IR thread -> a Python generator that advances a cycle counter: the timing engine's code.

It mirrors the simulator's code generator (:class:`tilecraft.sim.codegen.ThreadCodegen`, whose
scalar and control-flow handlers it inherits) but every data operation becomes arithmetic on
the thread's cycle counter ``t`` instead of a value-graph node:

* a blocking operation is ``while <cannot proceed>: yield t, waitable`` (parked until another
  thread changes the waitable), then ``t = max(t, cycle the condition became true)``;
* an operation on a shared resource (DRAM, NoC, another core's semaphore) first yields
  ``t, None`` while another thread is behind in simulated time, so shared resources are
  claimed in time order (see :mod:`.engine`);
* every cycle is charged to the operation's id: ``BU[i]`` busy cycles, ``ST[i]`` cycles stalled
  (the profiler maps ids to source lines), ``EV`` slices when a trace is requested.
"""

from __future__ import annotations

from typing import Any

from ..dtypes import TILE_ELEMS
from ..ir import ops as ir
from ..ir.program_ir import ProgramIR, ThreadIR
from ..ir.types import BlockType
from ..sim.codegen import ThreadCodegen
from ..sim.fastforward.loop_plan import ThreadPlan, plan_thread

#: raw trace slices a thread records at most (a trace of a real-size run stays openable)
TRACE_LIMIT = 50000
#: scalar operations charged ``scalar_op_cycles`` each, once per execution of their body
SCALAR_OPS = (ir.Assign, ir.Binary, ir.Unary, ir.Compare, ir.Select, ir.KernelParam, ir.CoreCoord)


class TimingCodegen(ThreadCodegen):
    """One thread; ``ctx`` is the :class:`.engine.TimingRun` (op ids, costs, constants)."""

    def __init__(self, program: ProgramIR, thread: ThreadIR, ctx: Any, noc: int, trace: bool):
        #: loops advanced by whole periods (:mod:`.fastforward`) when the run has a controller
        self.FAST_FORWARD = ctx.fast_forward is not None
        super().__init__(program, thread, ctx)
        self.noc = noc
        self.trace = trace
        self.figs = ctx.figs
        #: transfer register -> the copy that made it (to label what a wait() stalls on)
        self.xfer_ops: dict[str, ir.Op] = {op.result.name: op for op in ir.walk(thread.body)
                                           if isinstance(op, ir.COPY_OPS)}

    FUNCTION_PREFIX = "timed_"
    PARAMETERS = "K, P, BU, ST, EV"
    FILE_TAG = "tilecraft perf"
    RETURN = "return t"

    def loop_plan(self) -> ThreadPlan:
        return plan_thread(self.thread, self.ctx.op_id, clocks=True)

    def loop_head(self) -> None:
        self.line("if FF.due is not None: t = FF.head(t)")

    def wait_for(self, waitable: str) -> str:
        """Park the thread on ``waitable`` (None: until it is next in time order). Where loops are
        advanced by whole periods, the engine sends the clock's shift when it resumes the thread."""
        if self.FAST_FORWARD:
            return f"t += (yield t, {waitable}) or 0.0"
        return f"yield t, {waitable}"

    def prologue(self) -> None:
        self.line("H = K.clock.heap")
        self.line("CLK = K.clock")
        self.line("RES = K.res")
        self.line("FL = K.flops")
        self.line(f"PIN, POUT = K.ports[{self.noc}]")
        self.line("t = 0.0")
        self.line("I = 1")  # the compute stages are idle: no store is in flight

    def body(self, ops: list[ir.Op]) -> None:
        scalars = [op for op in ops if isinstance(op, SCALAR_OPS)]
        if scalars:
            self.charge(scalars[0], len(scalars) * self.figs.scalar_op_cycles)
        super().body(ops)

    # ---------------------------------------------------------------- accounting
    def charge(self, op: ir.Op, cycles: float | str) -> None:
        i = self.oid(op)
        if self.trace:
            self.line(f"if len(EV) < {TRACE_LIMIT}: EV.append(({i}, t, t + {cycles}))")
        self.line(f"t += {cycles}; BU[{i}] += {cycles}", op)

    def stall_until(self, op: ir.Op, when: str, label: str) -> None:
        """``t = max(t, when)``; the difference is stall time of ``op`` (waiting on ``label``)."""
        i = self.oid(op)
        self.ctx.stall_labels[i] = label
        self.line(f"t1 = {when}", op)
        self.line("if t1 > t:")
        self.line(f"    ST[{i}] += t1 - t")
        self.line("    I = 1")
        if self.trace:
            self.line(f"    if len(EV) < {TRACE_LIMIT}: EV.append(({~i}, t, t1))")
        self.line("    t = t1")

    def in_time_order(self) -> None:
        self.line(f"if H and H[0][0] < t: {self.wait_for('None')}")

    # ---------------------------------------------------------------- buffers
    def op_CBReserve(self, op: ir.CBReserve) -> None:
        cb = f"cb{op.cb.index}"
        self.line(f"while not {cb}.free: {self.wait_for(cb)}", op)
        self.stall_until(op, f"{cb}.reserve(t)", f"space in '{op.cb.name}'")
        self.charge(op, self.figs.cb_call_cycles)

    def op_CBWait(self, op: ir.CBWait) -> None:
        cb = f"cb{op.cb.index}"
        self.line(f"while not {cb}.ready: {self.wait_for(cb)}", op)
        self.stall_until(op, f"{cb}.wait(t)", f"data in '{op.cb.name}'")
        self.charge(op, self.figs.cb_call_cycles)

    def op_CBPush(self, op: ir.CBPush) -> None:
        self.charge_lowered(op, self.ctx.lowered_cost(op), self.figs.cb_call_cycles)
        self.line(f"cb{op.cb.index}.push(t)", op)

    def op_CBPop(self, op: ir.CBPop) -> None:
        self.charge_lowered(op, self.ctx.lowered_cost(op), self.figs.cb_call_cycles)
        self.line(f"cb{op.cb.index}.pop(t)", op)

    def charge_lowered(self, op: ir.Op, lowered: tuple[float, float] | None, cycles: float) -> None:
        """Charge ``op`` the calls the lowering emits for it where it has them (``lowered``: steady
        and fill cycles, :meth:`.engine.TimingRun.lowered_cost`), else ``cycles``. The compute
        stages overlap those calls with the work before, unless the thread waited since (``I``)."""
        if lowered is None:
            self.charge(op, cycles)
            return
        steady, fill = round(lowered[0], 3), round(lowered[1], 3)
        self.charge(op, f"({steady} + {fill} * I)" if fill else steady)
        if fill:
            self.line("I = 0", op)

    # ---------------------------------------------------------------- compute
    def op_BlockStore(self, op: ir.BlockStore | ir.LocalStore) -> None:
        cost = self.ctx.store_cost(op, self.defs)
        lowered = None if cost.lowered is None else (cost.lowered, cost.lowered_fill)
        self.charge_lowered(op, lowered, round(cost.cycles, 3))
        if cost.flops:
            self.line(f"FL[0] += {cost.flops}", op)

    op_LocalStore = op_BlockStore

    # ---------------------------------------------------------------- data movement
    def _dram(self, op: ir.Op, index: ir.TensorIndex, block: ir.Reg, write: bool) -> None:
        rank = len(index.bounds)
        shape = block.type.shape
        ext = (1,) * (rank - len(shape)) + tuple(shape)
        decl = self.ctx.constant_value(index.tensor)
        lo = "(" + ", ".join(self.v(lo) for lo, _ in index.bounds) + ",)"
        self.in_time_order()
        self.line(f"{self.v(op.result)} = RES.dram({decl}, {lo}, {ext!r}, t, {'POUT' if write else 'PIN'}, "
                  f"{write})", op)
        pages = _pages(block.type)
        self.charge(op, pages * self.figs.noc_issue_cycles)

    def op_CopyTensorToBlock(self, op: ir.CopyTensorToBlock) -> None:
        self._dram(op, op.src, op.dst, write=False)

    def op_CopyBlockToTensor(self, op: ir.CopyBlockToTensor) -> None:
        self._dram(op, op.dst, op.src, write=True)

    def op_CopyBlockToPipe(self, op: ir.CopyBlockToPipe) -> None:
        nbytes = self.program.cbs[self.blocks[op.src.name][0]].block_bytes
        self.line(f"{self.v(op.result)} = PipeSend({self.v(op.pipe)}, t, {nbytes}, {self.noc}, RES)", op)
        self.charge(op, _pages(op.src.type) * self.figs.noc_issue_cycles)
        # the block lands at the copy (ir/pipe_protocol.py): the thread stalls there until it has
        self.stall_until(op, f"(yield from {self.v(op.result)}.wait(t, CLK))", _transfer_label(op))

    def op_CopyPipeToBlock(self, op: ir.CopyPipeToBlock) -> None:
        nbytes = self.program.cbs[self.blocks[op.dst.name][0]].block_bytes
        self.line(f"{self.v(op.result)} = PipeRecv({self.v(op.pipe)}, K.core, {nbytes}, {self.noc}, RES, t)", op)
        self.charge(op, self.figs.cb_call_cycles)

    def op_CopyBlockToBlock(self, op: ir.CopyBlockToBlock) -> None:
        nbytes = self.program.cbs[self.blocks[op.dst.name][0]].block_bytes
        self.charge(op, self.figs.cb_call_cycles)
        self.line(f"{self.v(op.result)} = t + {nbytes / self.figs.l1_copy_bytes_per_cycle}", op)

    def op_XferWait(self, op: ir.XferWait) -> None:
        x = self.v(op.xfer)
        source = self.xfer_ops.get(op.xfer.name)
        label = _transfer_label(source)
        if op.xfer.name in self.immediate:
            self.stall_until(op, x, label)
        else:
            self.stall_until(op, f"(yield from {x}.wait(t, CLK))", label)

    def op_GroupWait(self, op: ir.GroupWait) -> None:
        """``group.wait_all()``: DRAM and local copies are completion cycles, pipe copies objects."""
        g = self.v(op.group)
        self.line(f"for _x in {g}:", op)
        self.indent += 1
        self.stall_until(op, "_x if _x.__class__ is float else (yield from _x.wait(t, CLK))", "a group of transfers")
        self.indent -= 1
        self.line(f"{g}.clear()", op)

    # ---------------------------------------------------------------- semaphores and debugging
    def op_SemWait(self, op: ir.SemWait) -> None:
        s = f"sem{op.sem.index}"
        test = "!=" if op.cond == "eq" else "<"
        self.line(f"while {s}.value {test} {self.v(op.value)}: {self.wait_for(s)}", op)
        self.stall_until(op, f"{s}.changed", f"semaphore '{op.sem.name}'")

    def op_SemSet(self, op: ir.SemSet) -> None:
        self.in_time_order()
        self.charge(op, self.figs.cb_call_cycles)
        self.line(f"sem{op.sem.index}.update({self.v(op.value)}, t)", op)

    def op_SemRemote(self, op: ir.SemRemote) -> None:
        core = "(" + ", ".join(self.v(c) for c in op.core) + ",)"
        self.in_time_order()
        self.charge(op, self.figs.noc_issue_cycles)
        self.line(f"K.sem_remote({op.sem.index}, {core}, {op.op!r}, {self.v(op.value)}, t)", op)

    def op_SemMulticastSet(self, op: ir.SemMulticastSet) -> None:
        cores = self.ctx.constant_value(_range_cores(op.cores))
        self.in_time_order()
        self.charge(op, self.figs.noc_issue_cycles)
        self.line(f"K.sem_mcast({op.sem.index}, {cores}, {self.v(op.value)}, t)", op)

    def op_Print(self, op: ir.Print) -> None:
        self.line("pass", op)

    op_PrintBlock = op_PrintBuffer = op_Print


def _pages(block_type: Any) -> int:
    """NoC transactions of a block: one per tile, or one per row of a row-major block."""
    if not isinstance(block_type, BlockType):
        return 1
    if block_type.unit.tiled:
        elems = 1
        for extent in block_type.elements:
            elems *= extent
        return max(1, elems // TILE_ELEMS)
    rows = 1
    for extent in block_type.shape[:-1]:
        rows *= extent
    return max(1, rows)


def _transfer_label(op: ir.Op | None) -> str:
    if isinstance(op, ir.CopyTensorToBlock):
        return f"DRAM read of '{op.src.tensor.name}'"
    if isinstance(op, ir.CopyBlockToTensor):
        return f"DRAM write of '{op.dst.tensor.name}'"
    if isinstance(op, ir.CopyBlockToPipe):
        return "pipe send (landing slots)"
    if isinstance(op, ir.CopyPipeToBlock):
        return "pipe receive"
    return "local copy"


def _range_cores(rng: Any) -> list[tuple[int, ...]]:
    cores: list[tuple[int, ...]] = [()]
    for a, b in zip(rng.starts, rng.stops):
        cores = [c + (i,) for c in cores for i in range(a, b)]
    return cores
