"""Run one ProgramIR on its grid: build per-core state, generate thread code, schedule, evaluate.

Phase 1 runs the synchronisation skeleton of every core (no tensor data) and checks every
protocol rule; phase 2 computes the values (:mod:`tilecraft.sim.dataflow.level_evaluator`, or in the exact mode
:class:`~tilecraft.sim.dataflow.graph.Evaluator`). A program with a protocol error or a deadlock is reported before any
tensor is touched.
"""

from __future__ import annotations

from typing import Any, Callable

from ...diagnostics import error, warn
from ...ir import ops as ir
from ...ir.program_ir import ProgramIR
from ...ir.types import BlockType
from ...ir.grid import all_cores, reshape_coords
from ..codegen import GeneratedThread, ThreadCodegen, expression_leaves
from ..fastforward.core_groups import MIN_CORES, CoreGroups, GroupsAbandoned, traced_ops
from ..accuracy import AccuracyLog
from .debug_print import PrintLog
from ..device_math import DeviceMath
from .exprprog import compile_expression
from ..fastforward.advance import FastForward, LoopIter, ThreadLoops
from ..op_table import OpTable
from ..scheduler import Scheduler, SimThread
from .state import CBState, PipeRecv, PipeSend, PipeSlot, SemState, Xfer
from ..dataflow.level_evaluator import evaluator_for
from ...numerics import quantize
from ..dataflow.graph import ComputeSite, ReadSite, Recorder, TensorRef, WriteSite, int_column


class PipeRT:
    """A pipe at run time: its declaration and its landing slot on each destination core."""

    def __init__(self, decl: Any, ready_queue: Any):
        self.decl = decl
        self.slots = {dst: PipeSlot(self, dst, ready_queue) for dst in decl.dsts}
        self.all_slots = list(self.slots.values())
        #: why landing this pipe in place would be wrong, as the run found it
        #: (:mod:`tilecraft.sim.language.direct_landing`)
        self.refusals: list[str] = []

    def check_in_place(self, slots: list[PipeSlot]) -> None:
        """A send lands now: a multicast writes one address, so every destination it lands on in
        place must have posted its receive into the same slot of the same buffer (the buffers are
        at one L1 address on every core)."""
        targets = sorted({(s.posted.cb.decl.name, s.posted.slot) for s in slots if s.posted is not None})
        if len(targets) > 1:
            self.refusals.append(f"its destinations receive one block into different buffer slots "
                                 f"({', '.join(f'{name}[{slot}]' for name, slot in targets)})")


class CoreRuntime:
    """What generated code sees as ``K``: one core's buffers, semaphores, pipes and coordinates."""

    def __init__(self, prog: "ProgramRuntime", core: tuple[int, ...], flat: int):
        self.prog = prog
        self.rec = prog.rec
        self.core = core
        self.flat = flat
        queue = prog.scheduler.ready
        self.cbs = [CBState(cb, core, queue, prog.span_of) for cb in prog.program.cbs]
        self.sems = [SemState(s, core, queue) for s in prog.program.semaphores]
        self.pipes_src = {n.index: [prog.pipes[p.index] for p in n.pipes if p.src == core] for n in prog.program.pipenets}
        self.pipes_dst = {n.index: [prog.pipes[p.index] for p in n.pipes if core in prog.pipes[p.index].slots]
                          for n in prog.program.pipenets}
        self._coords: dict[int, tuple[int, ...]] = {}
        #: while this core is sampled for its group (:mod:`tilecraft.sim.fastforward.core_groups`): what its traced ops report
        self.trace: list[Any] | None = None
        #: per thread: its qualifying loops and the registers they shift (:mod:`tilecraft.sim.fastforward.advance`)
        self.loops = [ThreadLoops(code.plan, code) for code in prog.threads]

    def loop(self, thread: int, loop: int, lo: int, hi: int, step: int) -> LoopIter | range:
        """The iteration of a qualifying loop: advanced by whole periods where the core's run repeats."""
        ff = self.prog.fast_forward
        return range(lo, hi, step) if ff is None else ff.loop(self.loops[thread], loop, lo, hi, step)

    def coords(self, dims: int) -> tuple[int, ...]:
        found = self._coords.get(dims)
        if found is None:
            found = self._coords[dims] = reshape_coords(self.core, self.prog.program.grid, dims)
        return found

    def guard(self, lhs: Any, rhs: Any) -> None:
        """A comparison that depends on the core's coordinates ran: the sign of ``lhs - rhs``."""
        self.trace.append((lhs > rhs) - (lhs < rhs))

    def trips(self, lo: int, hi: int, step: int) -> None:
        """A loop whose bounds depend on the core's coordinates starts: its trip count."""
        self.trace.append(("trips", len(range(lo, hi, step))))

    def pipe_send(self, pipe: PipeRT, cb: CBState, h: int, producer: bool, op: int) -> PipeSend:
        vid = cb.rd_r(h, op) if producer else cb.rd_w(h, op)
        return PipeSend(cb, h % cb.capacity, vid, pipe.all_slots, op)

    def pipe_recv(self, pipe: PipeRT, cb: CBState, h: int, producer: bool, op: int) -> PipeRecv:
        landing = pipe.slots.get(self.core)
        if landing is None:
            raise error("E1116", f"core {self.core} receives from {pipe.decl}, which does not deliver to it",
                        self.prog.span_of(op), hint="receive with ttl.if_pipe_dst; send with ttl.if_pipe_src")
        slot = cb.check(h, producer, op, "receive into")
        if cb.xfers[slot] is not None:
            raise cb.fail("E1104", "block received into while another copy involving it has not been waited", op)
        recv = PipeRecv(cb, slot, landing, op)
        if landing.direct:
            if landing.posted is not None:
                pipe.refusals.append(f"core {self.core} posts a second receive before the first completes")
            landing.posted = recv
            landing.wake()
        return recv

    def sem_remote(self, index: int, core: tuple[int, ...], kind: str, value: int, op: int) -> None:
        target = self.prog.cores.get(core)
        if target is None:
            raise error("E1115", f"core {core} is outside the grid {self.prog.program.grid}", self.prog.span_of(op))
        sem = target.sems[index]
        if kind == "inc":
            sem.inc(value)
        else:
            sem.set(value)

    def sem_mcast(self, index: int, cores: Any, value: int, op: int) -> None:
        for core in cores:
            self.prog.cores[core].sems[index].set(value)


class ProgramRuntime(OpTable):
    def __init__(self, program: ProgramIR, tensors: list[Any], exact: bool = False, device: Any = None,
                 group_cores: bool = True, math: DeviceMath | None = None, accuracy: AccuracyLog | None = None):
        self.program = program
        self.tensor_args = tensors
        self.exact = exact
        self.device = device
        #: the device's arithmetic (``--numerics device``), None: the ideal one
        self.math = math
        #: where the device's error at each fidelity is recorded (``tilecraft profile``), None: not measured
        self.accuracy = accuracy
        OpTable.__init__(self)
        for thread in program.threads:
            for op in ir.walk(thread.body):
                self.op_id(op)
        alone = not exact and cores_run_alone(program)
        traced = traced_ops(program, self.op_id) if alone and group_cores \
            and len(all_cores(program.grid)) >= MIN_CORES else None
        self.traced = traced or set()
        self.rec = Recorder()
        self.tensors = {decl.index: TensorRef(t, decl) for decl, t in zip(program.tensors, _unique(tensors))}
        self.rec.tensors = list(self.tensors.values())
        self.scheduler = Scheduler(self.ops)
        self.pipes = {p.index: PipeRT(p, self.scheduler.ready) for n in program.pipenets for p in n.pipes}
        self.sites: list[Any] = []
        prints_blocks = any(isinstance(op, ir.PrintBlock) for t in program.threads for op in ir.walk(t.body))
        self.prints = PrintLog(deferred=prints_blocks)
        self.codegen_globals: dict[str, Any] = {"BCOPY": self.block_copy, "Xfer": Xfer, "PRINT": self.prints.line,
                                                "PRINT_BUFFER": self.prints.buffer, "PRINT_BLOCK": self.prints.block}
        self._consts: list[Any] = []
        self.threads: list[GeneratedThread] = [ThreadCodegen(program, t, self).generate() for t in program.threads]
        #: per thread: the buffers it reserves and those it waits on (the deadlock diagnosis reads them)
        self.buffers_used = [({op.cb.index for op in ir.walk(t.body) if isinstance(op, ir.CBReserve)},
                              {op.cb.index for op in ir.walk(t.body) if isinstance(op, ir.CBWait)})
                             for t in program.threads]
        self.cores = {c: CoreRuntime(self, c, i) for i, c in enumerate(all_cores(program.grid))}
        #: cores run one after the other, each advanced by whole loop periods (None: all cores
        #: interleaved, one operation at a time: the exact mode, and programs whose cores interact)
        self.fast_forward = FastForward(self.rec) if alone else None
        #: phase 1 by boxes of cores with the same decisions (None: every core is run)
        self.core_groups = CoreGroups(self) if traced is not None else None

    @property
    def pack(self) -> Callable[[Any, Any], Any]:
        """How a computed block is rounded into its format: as the default numerics, or as the packer."""
        return quantize if self.math is None else self.math.pack

    # ---------------------------------------------------------------- tables used by codegen
    def constant(self, value: Any) -> str:
        name = f"C{len(self._consts)}"
        cores = _range_cores(value) if hasattr(value, "starts") else value
        self._consts.append(cores)
        self.codegen_globals[name] = cores
        return name

    def _site(self, prefix: str, site: Any) -> Any:
        site.index = len(self.sites)
        self.sites.append(site)
        self.codegen_globals[f"{prefix}{site.index}"] = site
        return site

    def read_site(self, op: ir.CopyTensorToBlock) -> ReadSite:
        block: BlockType = op.dst.type
        tref = self.tensors[op.src.tensor.index]
        extents = _slice_extents(block.shape, len(op.src.bounds))
        site = ReadSite(0, tref, extents, block.unit.tiled, block.fmt, block.elements)
        site.span = op.loc
        if None in op.src.static_extents:
            site.his = int_column()
        self.rec.reads.append(site)
        return self._site("R", site)

    def write_site(self, op: ir.CopyBlockToTensor) -> WriteSite:
        block: BlockType = op.src.type
        tref = self.tensors[op.dst.tensor.index]
        site = WriteSite(0, tref, _slice_extents(block.shape, len(op.dst.bounds)), block.unit.tiled)
        site.span = op.loc
        if None in op.dst.static_extents:
            site.his = int_column()
        self.rec.writes.append(site)
        return self._site("W", site)

    def compute_site(self, op: ir.BlockStore | ir.LocalStore, defs: dict[str, ir.Op]) -> tuple[ComputeSite, list[Any]]:
        leaves = expression_leaves(op.value, defs)
        if op.accumulate:
            leaves = [op.block] + [leaf for leaf in leaves if leaf.name != op.block.name]
        evaluate = compile_expression(op.value, defs, leaves, op.accumulate, self.math)
        block: BlockType = op.block.type
        is_block = tuple(isinstance(leaf.type, BlockType) for leaf in leaves)
        site = ComputeSite(0, evaluate, is_block, block.fmt, _prod(block.elements), self.pack)
        if self.accuracy is not None:
            site.audit = self.accuracy.auditor(self.program.name, op.loc, op.value, defs, leaves, op.accumulate,
                                               block.fmt)
        self.rec.computes.append(site)
        return self._site("S", site), leaves

    def convert_site(self, op: ir.CopyBlockToBlock) -> ComputeSite | None:
        src, dst = op.src.type, op.dst.type
        if src.fmt == dst.fmt:
            return None
        site = ComputeSite(0, lambda values, n, device: values[0], (True,), dst.fmt, _prod(dst.elements), self.pack)
        self.rec.computes.append(site)
        return self._site("S", site)

    # ---------------------------------------------------------------- called by generated code
    def block_copy(self, site: ComputeSite | None, vid: int, dst: CBState, h: int, producer: bool, op: int) -> Xfer:
        """A local block-to-block copy: done at once (converted when the formats differ)."""
        if site is not None:
            vid = self.rec.compute(site, (vid,), self.rec.depth[vid] + 1)
        (dst.wr_r if producer else dst.wr_w)(h, vid, op)
        return Xfer(None, 0, False, op)

    # ---------------------------------------------------------------- running
    def generated_source(self) -> str:
        """The Python generated for every thread (what ``tilecraft show-ir --generated`` prints)."""
        return "\n".join(f"# {code.filename}\n{code.source}" for code in self.threads)

    def start_threads(self, core: tuple[int, ...], k: CoreRuntime) -> None:
        params = self.program.params
        values = [p.values[k.flat] if len(p.values) > 1 else p.values[0] for p in params]
        for ir_thread, code, loops, (reserves, waits) in zip(self.program.threads, self.threads, k.loops,
                                                            self.buffers_used):
            loops.thread = SimThread(core, ir_thread.name, ir_thread.kind, code.fn(k, values), code, reserves, waits)
            self.scheduler.add(loops.thread)

    def run_skeleton(self) -> None:
        """Phase 1. Cores that cannot affect each other run one after the other (the result does not
        depend on the order: each thread sees the same sequence of blocks), so that the
        fast-forward controller watches one core's threads at a time; where they differ only in their
        coordinates, a few per box of the grid run and the others' recordings are derived
        (:mod:`tilecraft.sim.fastforward.core_groups`)."""
        if self.fast_forward is None:
            for core, k in self.cores.items():
                self.start_threads(core, k)
            self.scheduler.run()
            return
        if self.core_groups is not None:
            self.core_groups.run()
            return
        for core, k in self.cores.items():
            self.start_threads(core, k)
            self.fast_forward.begin_group(k.loops, k.cbs, self.scheduler.ready)
            self.scheduler.drain()
        self.scheduler.finish()

    def run(self) -> None:
        evaluator = None
        try:
            try:
                self.run_skeleton()
            except GroupsAbandoned:  # a sampled core failed: report it as the core-by-core run does
                self.fast_forward = self.core_groups = None
                self.rec.release()  # the samples' partial recording
                ProgramRuntime(self.program, self.tensor_args, self.exact, self.device, group_cores=False,
                               math=self.math, accuracy=self.accuracy).run()
                return
            self.fast_forward = None  # phase 1 is over; it holds the recorder's columns too
            self.check_end()
            self.check_some_output()
            self.rec.keep = self.prints.vids
            evaluator = evaluator_for(self.rec, self.exact, self.device)
            evaluator.run()
        finally:
            self.prints.flush(evaluator.value if evaluator is not None and evaluator.done else None)
            evaluator = None  # its last slabs go before the memory is handed back
            self.rec.release()

    def check_some_output(self) -> None:
        """A program whose copies into tensors all ran zero times computed nothing anyone can see
        (e.g. a problem split over so many nodes that every share is empty): say so."""
        if self.rec.writes and not any(site.vids for site in self.rec.writes):
            tensors = sorted({f"'{site.tensor.decl.name}'" for site in self.rec.writes})
            warn("W1201", f"program '{self.program.name}' ran without writing to any tensor: its copies into "
                 f"{', '.join(tensors)} ran zero times on every core", self.program.span,
                 hint="check the loop bounds and the share of the work each node gets (a share can be empty "
                      "when the problem is small for the grid)")

    def check_end(self) -> None:
        """Nothing may be left over: held blocks, unwaited copies, pipe messages. Blocks pushed and
        never consumed are only a warning (W1105, once per buffer): the device leaves their pages in
        L1 when the program ends, and the published simulator accepts them."""
        unconsumed: dict[int, list[tuple[tuple[int, ...], Any]]] = {}
        for core, k in self.cores.items():
            for cb in k.cbs:
                for slot, xfer in enumerate(cb.xfers):
                    if xfer is not None:
                        raise error("E1104", f"a copy involving a block of '{cb.decl.name}' on core {core} was "
                                    "never waited", self.span_of(xfer.op), hint="call wait() on every transfer handle")
                held = cb.nres - cb.npush or cb.nwait - cb.npop
                if held:
                    what = "reserved but never pushed" if cb.nres > cb.npush else "waited for but never popped"
                    slot = (cb.npush if cb.nres > cb.npush else cb.npop) % cb.capacity
                    raise error("E1105", f"a block of '{cb.decl.name}' on core {core} was {what}",
                                self.span_of(cb.ops[slot]), hint="release every acquired block (push after "
                                "reserve, pop after wait), or use `with`")
                if cb.ready:  # the oldest unconsumed block's slot was last touched by its push
                    unconsumed.setdefault(cb.decl.index, []).append((core, cb))

        for leftovers in unconsumed.values():
            core, cb = leftovers[0]
            others = f" (and on {len(leftovers) - 1} other cores)" if len(leftovers) > 1 else ""
            warn("W1105", f"{cb.ready} block(s) pushed into '{cb.decl.name}' on core {core}{others} were never "
                 "consumed: the device leaves them in L1 when the program ends", self.span_of(cb.ops[cb.nwait %
                 cb.capacity]), hint="if a consumer should read every block, it is missing a wait() and pop()")
        for pipe in self.pipes.values():
            for dst, slot in pipe.slots.items():
                if slot.vid >= 0:
                    raise error("E2114", f"a block sent on {pipe.decl} was never received by core {dst}",
                                pipe.decl.span, hint="each destination must ttl.copy(pipe, blk) every block sent")



def cores_run_alone(program: ProgramIR) -> bool:
    """Whether no core can see another's work while the program runs: no pipes, no semaphores, no
    tensor both read and written (a read could see another core's write), and no print (whose
    lines come out in the order the cores run)."""
    if program.pipenets or program.semaphores:
        return False
    read: set[int] = set()
    written: set[int] = set()
    for thread in program.threads:
        for op in ir.walk(thread.body):
            if isinstance(op, (ir.Print, ir.PrintBlock, ir.PrintBuffer)):
                return False
            if isinstance(op, ir.CopyTensorToBlock):
                read.add(op.src.tensor.index)
            elif isinstance(op, ir.CopyBlockToTensor):
                written.add(op.dst.tensor.index)
    return not read & written


def _unique(tensors: list[Any]) -> list[Any]:
    seen: set[int] = set()
    out = []
    for t in tensors:
        if id(t) not in seen:
            seen.add(id(t))
            out.append(t)
    return out


def _slice_extents(block_shape: tuple[int, ...], rank: int) -> tuple[int, ...]:
    return (1,) * (rank - len(block_shape)) + tuple(block_shape)


def _prod(values: tuple[int, ...]) -> int:
    n = 1
    for v in values:
        n *= v
    return n


def _range_cores(rng: Any) -> list[tuple[int, ...]]:
    cores = [()]
    for a, b in zip(rng.starts, rng.stops):
        cores = [c + (i,) for c in cores for i in range(a, b)]
    return cores
