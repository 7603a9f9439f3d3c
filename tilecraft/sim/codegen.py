"""IR thread -> a Python generator function: how the simulator executes the IR.

Each IR operation becomes a few lines of Python that call the device state objects of one core
(:mod:`tilecraft.sim.language.state`) and the value recorder (:mod:`tilecraft.sim.dataflow.graph`). Blocking operations become
``while <cannot proceed>: yield (waitable, op)``, so a thread runs until it really blocks.
One function is generated per thread and shared by every core (per-core values arrive as
arguments), and every generated line maps back to the operation (and source span) it came from.
"""

from __future__ import annotations

import linecache
import math
import re
from typing import Any, Callable

from ..ir import ops as ir
from ..ir import scalarops
from ..ir.program_ir import ProgramIR, ThreadIR
from ..ir.grid import reshape_coords
from ..ir.names import Identifiers
from ..ir.types import BOOL, BlockType
from .fastforward.loop_plan import ThreadPlan, plan_thread
from .op_table import RUNAWAY_ITERATIONS


class GeneratedThread:
    def __init__(self, name: str, fn: Callable[..., Any], source: str, line_ops: dict[int, int], filename: str,
                 names: Identifiers, plan: ThreadPlan):
        self.name = name
        self.fn = fn
        self.source = source
        self.line_ops = line_ops
        self.filename = filename
        #: register name -> the generated function's local that holds it
        self.names = names
        #: the loops that may be fast-forwarded and the registers kept outside the frame for it
        self.plan = plan


class ThreadCodegen:
    """Generates one thread; ``sites`` is shared by all threads of a program (the value graph)."""

    def __init__(self, program: ProgramIR, thread: ThreadIR, ctx: Any):
        self.program = program
        self.thread = thread
        self.ctx = ctx  # the engine's ProgramRuntime: sites, tensors, op table
        self.lines: list[str] = []
        self.line_ops: dict[int, int] = {}
        #: register -> Python local; the prefix keeps them apart from the code's own names (K, REC, ...)
        self.names = Identifiers(prefix="v_").reserve_names(
            r.name for op in ir.walk(thread.body) for r in (*op.results(), *op.operands()) if isinstance(r, ir.Reg))
        self.indent = 1
        self.defs: dict[str, ir.Op] = {}
        #: block register -> (buffer index, acquired by reserve)
        self.blocks: dict[str, tuple[int, bool]] = {}
        #: transfer registers of copies that never block (tensor and local copies)
        self.immediate: set[str] = set()
        for op in ir.walk(thread.body):
            if isinstance(op, (ir.CopyTensorToBlock, ir.CopyBlockToTensor, ir.CopyBlockToBlock)):
                self.immediate.add(op.result.name)
            for r in op.results():
                if isinstance(op, ir.EXPR_OPS):
                    self.defs[r.name] = op
            if isinstance(op, (ir.CBReserve, ir.CBWait)):
                self.blocks[op.result.name] = (op.cb.index, isinstance(op, ir.CBReserve))
        self.thread_index = program.threads.index(thread) if self.FAST_FORWARD else -1
        self.plan = self.loop_plan() if self.FAST_FORWARD else ThreadPlan()

    # ---------------------------------------------------------------- output
    def line(self, text: str, op: ir.Op | None = None) -> None:
        self.lines.append("    " * self.indent + text)
        if op is not None:
            self.line_ops[len(self.lines) + 1] = self.ctx.op_id(op)  # +1: the def line comes first

    #: the generated function's name prefix, parameters and pseudo-file tag, and what it returns;
    #: the timing engine's subclass passes its cycle accumulators and returns the thread's clock
    FUNCTION_PREFIX = "thread_"
    PARAMETERS = "K, P"
    FILE_TAG = "tilecraft"
    RETURN = "return"
    #: qualifying loops iterate through ``K.loop`` and the registers they assign live in the list
    #: ``R`` (:mod:`tilecraft.sim.fastforward.advance` advances and shifts them); the other engines keep plain loops
    FAST_FORWARD = True

    def prologue(self) -> None:
        """Locals the generated body reads from the per-core state ``K`` (buffers, semaphores follow)."""
        self.line("REC = K.rec")

    def loop_plan(self) -> ThreadPlan:
        """Which loops may be advanced by whole periods, and the registers kept in ``R`` for it."""
        return plan_thread(self.thread, self.ctx.op_id)

    def loop_head(self) -> None:
        """Lines at the head of each qualifying loop's body (the timing model's checkpoint)."""

    def generate(self) -> GeneratedThread:
        self.prologue()
        if self.plan.shifted:
            self.line(f"R = K.loops[{self.thread_index}].regs")
        for cb in self.program.cbs:
            self.line(f"cb{cb.index} = K.cbs[{cb.index}]")
        for sem in self.program.semaphores:
            self.line(f"sem{sem.index} = K.sems[{sem.index}]")
        self.body(self.thread.body)
        self.line(self.RETURN)
        self.line("yield")
        name = self.FUNCTION_PREFIX + re.sub(r"[^0-9a-zA-Z_]", "_", self.thread.name)
        filename = f"<{self.FILE_TAG} {self.program.name}.{self.thread.name}>"
        source = f"def {name}({self.PARAMETERS}):\n" + "\n".join(self.lines) + "\n"
        namespace = dict(self.ctx.codegen_globals, NOPROGRESS=self.ctx.no_progress, RESHAPE=reshape_coords)
        # registered like a file, so that a traceback through it (an internal error) shows its lines
        linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
        exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - our own generated code
        return GeneratedThread(self.thread.name, namespace[name], source, self.line_ops, filename, self.names,
                               self.plan)

    def body(self, ops: list[ir.Op]) -> None:
        if not ops:
            self.line("pass")
            return
        for op in ops:
            getattr(self, f"op_{type(op).__name__}")(op)

    # ---------------------------------------------------------------- operands
    def v(self, operand: ir.Operand | None) -> str:
        if isinstance(operand, ir.Const):
            value = operand.value
            finite = not isinstance(value, float) or math.isfinite(value)
            return repr(value) if finite else f"float({str(value)!r})"  # inf and nan have no literal
        assert operand is not None
        shifted = self.plan.shifted.get(operand.name)
        return self.names(operand.name) if shifted is None else f"R[{shifted}]"

    def block(self, reg: ir.Reg) -> tuple[str, bool]:
        """The buffer variable of a block register and whether it was reserved (else waited)."""
        index, reserved = self.blocks[reg.name]
        return f"cb{index}", reserved

    def rd(self, reg: ir.Reg, i: int) -> str:
        cb, reserved = self.block(reg)
        return f"{cb}.rd_{'r' if reserved else 'w'}({self.v(reg)}, {i})"

    def oid(self, op: ir.Op) -> int:
        return self.ctx.op_id(op)

    # ---------------------------------------------------------------- scalars and control flow
    def op_Assign(self, op: ir.Assign) -> None:
        self.line(f"{self.v(op.result)} = {self.v(op.value)}", op)

    def op_Binary(self, op: ir.Binary) -> None:
        rule = scalarops.BINARY[op.op]
        template = rule.logical_python if rule.logical_python and op.result.type == BOOL else rule.python
        self.line(f"{self.v(op.result)} = {template.format(a=self.v(op.lhs), b=self.v(op.rhs))}", op)

    def op_Unary(self, op: ir.Unary) -> None:
        self.line(f"{self.v(op.result)} = {scalarops.UNARY[op.op].python.format(a=self.v(op.operand))}", op)

    def op_Compare(self, op: ir.Compare) -> None:
        self.line(f"{self.v(op.result)} = {self.v(op.lhs)} {scalarops.COMPARE[op.op].symbol} {self.v(op.rhs)}", op)
        if self.oid(op) in self.ctx.traced:
            self.line(f"K.guard({self.v(op.lhs)}, {self.v(op.rhs)})", op)

    def op_Select(self, op: ir.Select) -> None:
        self.line(f"{self.v(op.result)} = {self.v(op.if_true)} if {self.v(op.cond)} else {self.v(op.if_false)}", op)

    def op_KernelParam(self, op: ir.KernelParam) -> None:
        self.line(f"{self.v(op.result)} = P[{op.index}]", op)

    def op_CoreCoord(self, op: ir.CoreCoord) -> None:
        names = ", ".join(self.v(r) for r in op.outs)
        self.line(f"{names}, = K.coords({op.dims})", op)

    def op_For(self, op: ir.For) -> None:
        bounds = f"{self.v(op.lo)}, {self.v(op.hi)}, {self.v(op.step)}"
        i = self.oid(op)
        if i in self.ctx.traced:
            self.line(f"K.trips({bounds})", op)
        if i in self.plan.loops:
            self.line(f"for {self.v(op.var)} in K.loop({self.thread_index}, {i}, {bounds}):", op)
            self.indent += 1
            self.loop_head()
            self.indent -= 1
        else:
            self.line(f"for {self.v(op.var)} in range({bounds}):", op)
        self.nested(op.body)

    def nested(self, ops: list[ir.Op]) -> None:
        self.indent += 1
        self.body(ops)
        self.indent -= 1

    def op_If(self, op: ir.If) -> None:
        self.line(f"if {self.v(op.cond)}:", op)
        self.nested(op.then_body)
        if op.else_body:
            self.line("else:")
            self.nested(op.else_body)

    def op_While(self, op: ir.While) -> None:
        """A while loop, watched for never ending (Brent's cycle detection on its variables):
        control flow depends only on the thread's registers, so if the registers the loop
        assigns come back to an earlier state, the loop repeats forever (E2115)."""
        i = self.oid(op)
        state = sorted({self.v(r) for sub in (*ir.walk(op.cond_body), *ir.walk(op.body)) for r in sub.results()})
        # locals read through locals(): a register first assigned inside a branch may not be bound yet
        parts = "".join(f"{name}, " if name.startswith("R[") else f"L.get({name!r}), " for name in state)
        snapshot = f"(lambda L: ({parts}))(locals())" if state else "()"
        n, mark, saved = f"_n{i}", f"_p{i}", f"_s{i}"
        self.line(f"{n}, {mark}, {saved} = 0, 1, None", op)
        self.line("while True:", op)
        self.indent += 1
        self.line(f"{n} += 1")
        self.line(f"if {n} == {mark}:")
        self.line(f"    {saved}, {mark} = {snapshot}, 2 * {mark}")
        self.line(f"    if {n} >= {RUNAWAY_ITERATIONS}: raise NOPROGRESS({i}, {n}, -1)")
        self.line(f"elif {snapshot} == {saved}: raise NOPROGRESS({i}, {n}, {mark} // 2)")
        for sub in op.cond_body:
            getattr(self, f"op_{type(sub).__name__}")(sub)
        self.line(f"if not {self.v(op.cond)}:", op)
        self.line("    break")
        self.indent -= 1
        self.nested(op.body)

    def op_Break(self, op: ir.Break) -> None:
        self.line("break", op)

    def op_Continue(self, op: ir.Continue) -> None:
        self.line("continue", op)

    def op_Return(self, op: ir.Return) -> None:
        self.line(self.RETURN, op)

    # ---------------------------------------------------------------- buffers
    def op_CBReserve(self, op: ir.CBReserve) -> None:
        cb, i = f"cb{op.cb.index}", self.oid(op)
        self.line(f"while not {cb}.free: yield ({cb}, {i})", op)
        self.line(f"{self.v(op.result)} = {cb}.reserve({i})", op)

    def op_CBWait(self, op: ir.CBWait) -> None:
        cb, i = f"cb{op.cb.index}", self.oid(op)
        self.line(f"while not {cb}.ready: yield ({cb}, {i})", op)
        self.line(f"{self.v(op.result)} = {cb}.wait({i})", op)

    def op_CBPush(self, op: ir.CBPush) -> None:
        block = self.v(op.block) if op.block is not None else "None"
        self.line(f"cb{op.cb.index}.push({block}, {self.oid(op)})", op)

    def op_CBPop(self, op: ir.CBPop) -> None:
        block = self.v(op.block) if op.block is not None else "None"
        self.line(f"cb{op.cb.index}.pop({block}, {self.oid(op)})", op)

    # ---------------------------------------------------------------- block math
    def _expr_op(self, op: ir.Op) -> None:
        """Expression ops emit nothing: the store that consumes them evaluates the whole tree."""

    op_TileUnary = op_TileBinary = op_TileMatmul = op_TileReduce = _expr_op
    op_TileBroadcast = op_TileTranspose = op_TileReshape = op_TileFill = op_TileWhere = _expr_op
    op_TileRound = _expr_op

    def leaves(self, op: ir.Op) -> tuple[Any, str]:
        """The compute site of a store and the tuple of its leaves' value ids (as Python source):
        buffer blocks are read through their buffer (checked), local blocks and scalars directly."""
        i = self.oid(op)
        site, leaves = self.ctx.compute_site(op, self.defs)
        parts = [self.rd(leaf, i) if isinstance(leaf.type, BlockType) and not leaf.type.local else self.v(leaf)
                 for leaf in leaves]
        return site, "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"

    def op_BlockStore(self, op: ir.BlockStore) -> None:
        site, tup = self.leaves(op)
        cb, reserved = self.block(op.block)
        self.line(f"{cb}.wr_{'r' if reserved else 'w'}({self.v(op.block)}, REC.store(S{site.index}, {tup}), "
                  f"{self.oid(op)})", op)

    def op_LocalStore(self, op: ir.LocalStore) -> None:
        site, tup = self.leaves(op)
        self.line(f"{self.v(op.result)} = REC.store(S{site.index}, {tup})", op)

    # ---------------------------------------------------------------- data movement
    def _bounds(self, index: ir.TensorIndex) -> tuple[str, str]:
        """The slice's starts and ends as Python tuples (ends of proven extents are lo + extent)."""
        lo = ", ".join(self.v(lo) for lo, _ in index.bounds)
        hi = ", ".join(self.v(hi) if hi is not None else f"{self.v(lo)} + {n}"
                       for (lo, hi), n in zip(index.bounds, index.static_extents))
        return f"({lo},)", f"({hi},)"

    def op_CopyTensorToBlock(self, op: ir.CopyTensorToBlock) -> None:
        site = self.ctx.read_site(op)
        lo, hi = self._bounds(op.src)
        # extents proven by the compiler: only the start is recorded
        vid = f"REC.read(R{site.index}, {lo})" if site.his is None else f"REC.read_dynamic(R{site.index}, {lo}, {hi})"
        cb, reserved = self.block(op.dst)
        fill = f"{cb}.copy_in_{'r' if reserved else 'w'}"
        self.line(f"{self.v(op.result)} = {fill}({self.v(op.dst)}, {vid}, {self.oid(op)})", op)

    def op_CopyBlockToTensor(self, op: ir.CopyBlockToTensor) -> None:
        site = self.ctx.write_site(op)
        lo, hi = self._bounds(op.dst)
        i = self.oid(op)
        vid = self.rd(op.src, i)
        if site.his is None:
            self.line(f"REC.write(W{site.index}, {vid}, {lo})", op)
        else:
            self.line(f"REC.write_dynamic(W{site.index}, {vid}, {lo}, {hi})", op)
        cb, _ = self.block(op.src)
        self.line(f"{self.v(op.result)} = {cb}.copy_out({self.v(op.src)}, {i})", op)

    def op_CopyBlockToPipe(self, op: ir.CopyBlockToPipe) -> None:
        cb, reserved = self.block(op.src)
        self.line(f"{self.v(op.result)} = K.pipe_send({self.v(op.pipe)}, {cb}, {self.v(op.src)}, {reserved}, "
                  f"{self.oid(op)})", op)
        self.land_send(op.result, self.oid(op), op)

    def op_CopyPipeToBlock(self, op: ir.CopyPipeToBlock) -> None:
        cb, reserved = self.block(op.dst)
        self.line(f"{self.v(op.result)} = K.pipe_recv({self.v(op.pipe)}, {cb}, {self.v(op.dst)}, {reserved}, "
                  f"{self.oid(op)})", op)

    def op_CopyBlockToBlock(self, op: ir.CopyBlockToBlock) -> None:
        site = self.ctx.convert_site(op)
        target = f"S{site.index}" if site is not None else "None"
        i = self.oid(op)
        cb, reserved = self.block(op.dst)
        self.line(f"{self.v(op.result)} = BCOPY({target}, {self.rd(op.src, i)}, {cb}, {self.v(op.dst)}, {reserved}, {i})", op)

    def op_XferWait(self, op: ir.XferWait) -> None:
        x, i = self.v(op.xfer), self.oid(op)
        if op.xfer.name in self.immediate:
            self.line(f"{x}.try_complete({i})", op)
        else:
            self.land_send(op.xfer, i, op)

    def land_send(self, xfer: ir.Reg, i: int, op: ir.Op) -> None:
        """Block until the transfer completes: at a pipe send's ``ttl.copy`` (its block lands in
        every destination slot there, :mod:`tilecraft.ir.pipe_protocol`) and at any ``wait()``."""
        x = self.v(xfer)
        self.line(f"while not {x}.try_complete({i}): yield ({x}.waitable, {i})", op)

    def op_GroupNew(self, op: ir.GroupNew) -> None:
        self.line(f"{self.v(op.result)} = []", op)

    def op_GroupAdd(self, op: ir.GroupAdd) -> None:
        self.line(f"{self.v(op.group)}.append({self.v(op.xfer)})", op)

    def op_GroupWait(self, op: ir.GroupWait) -> None:
        g, i = self.v(op.group), self.oid(op)
        self.line(f"for _x in {g}:", op)
        self.line(f"    while not _x.try_complete({i}): yield (_x.waitable, {i})", op)
        self.line(f"{g}.clear()", op)

    def op_PipeEnd(self, op: ir.PipeEnd) -> None:
        core = f"{self.v(op.pipe)}.decl.src" if op.end == "src" else f"{self.v(op.pipe)}.decl.dsts[0]"
        names = ", ".join(self.v(r) for r in op.outs)
        self.line(f"{names}, = RESHAPE({core}, {tuple(self.program.grid)!r}, {op.dims})", op)

    def op_PipeForEach(self, op: ir.PipeForEach) -> None:
        self.line(f"for {self.v(op.var)} in K.pipes_{op.role}[{op.net.index}]:", op)
        self.nested(op.body)

    # ---------------------------------------------------------------- semaphores and debugging
    def op_SemWait(self, op: ir.SemWait) -> None:
        s, i = f"sem{op.sem.index}", self.oid(op)
        test = "!=" if op.cond == "eq" else "<"
        self.line(f"while {s}.value {test} {self.v(op.value)}: yield ({s}, {i})", op)

    def op_SemSet(self, op: ir.SemSet) -> None:
        self.line(f"sem{op.sem.index}.set({self.v(op.value)})", op)

    def op_SemRemote(self, op: ir.SemRemote) -> None:
        core = "(" + ", ".join(self.v(c) for c in op.core) + ",)"
        self.line(f"K.sem_remote({op.sem.index}, {core}, {op.op!r}, {self.v(op.value)}, {self.oid(op)})", op)

    def op_SemMulticastSet(self, op: ir.SemMulticastSet) -> None:
        rng = self.ctx.constant(op.cores)
        self.line(f"K.sem_mcast({op.sem.index}, {rng}, {self.v(op.value)}, {self.oid(op)})", op)

    def print_args(self, args: list) -> str:
        """``print``'s arguments as Python source for a call's argument list."""
        def text(arg: Any) -> str:
            if isinstance(arg, tuple):  # an f-string: its parts joined without separators
                return "''.join((" + ", ".join(repr(p) if isinstance(p, str) else f"str({self.v(p)})"
                                              for p in arg) + ",))"
            return repr(arg) if isinstance(arg, str) else self.v(arg)
        return ", ".join(text(a) for a in args)

    def op_Print(self, op: ir.Print) -> None:
        self.line(f"PRINT({self.print_args(op.args)})", op)

    def op_PrintBuffer(self, op: ir.PrintBuffer) -> None:
        self.line(f"PRINT_BUFFER(({self.print_args(op.args)}{',' if op.args else ''}), cb{op.cb.index})", op)

    def op_PrintBlock(self, op: ir.PrintBlock) -> None:
        block = op.block
        vid = self.v(block) if block.type.local else self.rd(block, self.oid(op))
        self.line(f"PRINT_BLOCK(({self.print_args(op.args)}{',' if op.args else ''}), {vid}, "
                  f"{self.ctx.constant(block.type)})", op)

    def op_Signpost(self, op: ir.Signpost) -> None:
        self.line("pass", op)


def expression_leaves(root: ir.Reg, defs: dict[str, ir.Op]) -> list[Any]:
    """Leaves of the expression tree under ``root`` in first-use order (blocks and scalars)."""
    leaves: list[Any] = []
    seen: set[str] = set()

    def visit(operand: Any) -> None:
        if isinstance(operand, ir.Reg) and operand.name in defs:
            for sub in defs[operand.name].operands():
                visit(sub)
        elif isinstance(operand, ir.Reg) and operand.name not in seen:
            seen.add(operand.name)
            leaves.append(operand)

    visit(root)
    return leaves

