"""Lower pipes: the pipe protocol of :mod:`tilecraft.ir.pipe_protocol`, built from NoC writes and
semaphores.

Every pipe net gets, on every core, a landing area with one block slot per landing slot of the
net (``pipe_protocol.landing_slots``: pipes that share a destination land in different slots, a
multicast lands in one slot on all its destinations) and one flag word per slot, and one ready
semaphore per ready counter (``pipe_protocol.ready_counters``: each pipe a core sends counts its
free destinations on its own semaphore). A receiver starts by clearing its flags and telling
each of its senders that its slot is free (``noc_semaphore_inc`` on the pipe's ready semaphore on
the sender). A send (at its ``wait()``, as in the simulator) waits until all destinations have
freed their slot, multicasts the block into their slots (the loopback form when the sender is
among them), then sets their flags; a receive (at its ``wait()``) waits for its flag, copies the
slot into the block, clears the flag and frees the slot again.

A net the driver proved may land in place (``PipeNetDecl.direct``, ``sim/language/direct_landing.py``)
takes the direct protocol instead (only nets where no sender is among its own destinations): a
destination, at its receive's ``ttl.copy``, writes the address of the block it reserved into the
sender's address word for the pipe (one word per ready counter, after the flags) and counts itself
ready; the send waits for every destination, multicasts the block to that address and sets their
flags; a receive's ``wait()`` waits for its flag and clears it -- no slot, no copy.

Which pipes a core sends or receives is per core, so the kernel walks a table in its runtime
arguments: a count, then per pipe its landing slot, ready counter, destination count,
destination rectangle (smaller corner first), loopback flag (the sender is a destination) and
source core.
"""

from __future__ import annotations

from typing import Any

from ..ir import ops as ir
from ..ir.scalarops import BinaryOp
from ..ir import pipe_protocol
from ..ir.types import BlockType, CBDecl, PipeNetDecl
from ..ir.grid import all_cores
from . import kir

#: per-pipe fields of the runtime table
FIELDS = ("slot", "counter", "count", "x0", "y0", "x1", "y1", "loopback", "src_x", "src_y")
FLAG_STRIDE = 16  # bytes between flag words (L1 alignment of NoC writes)


class PipeNetResources:
    """What one pipe net needs on every core: landing slots, flag words, ready semaphores, and
    each pipe's landing slot and ready counter (by position in the net)."""

    def __init__(self, landing: CBDecl, flags: CBDecl, ready_base: int, block: BlockType, block_bytes: int,
                 slots: list[int], counters: list[int], direct: bool = False):
        self.landing = landing
        self.flags = flags
        self.ready_base = ready_base
        self.block = block
        self.block_bytes = block_bytes
        self.slots = slots
        self.counters = counters
        #: the net lands in place (``PipeNetDecl.direct``): the direct protocol of the module docstring
        self.direct = direct
        #: the flag-word index of ready counter 0's address word (after the slots' flags)
        self.address_words = max(slots) + 1


class PipeLowering:
    """Mixin for :class:`~.lower_dm.DataMovementLowering`: pipe copies, waits, initialisation."""

    def pipe_table(self, net: PipeNetDecl, role: str) -> tuple[int, int]:
        """Runtime-argument table of this core's pipes in ``role``; returns (base index, max count)."""
        key = (net.index, role)
        if key not in self.pipe_tables:
            self.pipe_tables[key] = self.build_pipe_table(net, role)
        return self.pipe_tables[key]

    def build_pipe_table(self, net: PipeNetDecl, role: str) -> tuple[int, int]:
        grid = self.program.grid
        if len(grid) != 2:
            self.fail("a pipe on a grid that is not 2-D", code="E3003")
        res = self.ctx.pipe_resources(net, self.program)
        cores = all_cores(grid)
        rows_per_core = []
        for core in cores:
            rows = []
            for p, pipe in enumerate(net.pipes):
                if (pipe.src == core) if role == "src" else (core in pipe.dsts):
                    rect = pipe_protocol.destination_rectangle(pipe)
                    if rect is None:
                        self.loc = pipe.span
                        self.fail(f"a pipe whose destinations {', '.join(map(str, pipe.dsts))} are not a rectangle",
                                  code="E3003")
                    rows.append((res.slots[p], res.counters[p], len(pipe.dsts), *rect, int(pipe.src in pipe.dsts),
                                 *pipe.src))
            rows_per_core.append(rows)
        width = max(len(r) for r in rows_per_core)
        base = len(self.kernel.rt_args)
        self.kernel.rt_args.append(kir.ArgDecl(f"pipenet{net.index}_{role}_count",
                                               tuple(len(r) for r in rows_per_core)))
        for k in range(width):
            for f, name in enumerate(FIELDS):
                values = tuple(r[k][f] if k < len(r) else 0 for r in rows_per_core)
                self.kernel.rt_args.append(kir.ArgDecl(f"pipenet{net.index}_{role}[{k}].{name}", values))
        return base, width

    def pipe_fields(self, base: int, k: ir.Reg) -> dict[str, ir.Reg]:
        """Registers holding row ``k`` of the pipe table that starts at runtime argument ``base``."""
        row = self.arith(BinaryOp.ADD, ir.Const(base + 1), self.arith(BinaryOp.MUL, k, ir.Const(len(FIELDS))), "row")
        return {name: self.arg_at(self.arith(BinaryOp.ADD, row, ir.Const(f)), f"pipe_{name}") for f, name in enumerate(FIELDS)}

    def arg_at(self, index: Any, hint: str) -> ir.Reg:
        reg = self.reg(hint)
        self.call("get_arg_val<uint32_t>", index, result=reg)
        return reg

    def lower_PipeForEach(self, op: ir.PipeForEach) -> None:
        res = self.ctx.pipe_resources(op.net, self.program)
        base, _width = self.pipe_table(op.net, op.role)
        if op.net.landing_reason:
            how = "lands in place" if res.direct else "lands in landing slots"
            self.emit(kir.Comment(text=f"pipe net {op.net.index} {how}: {op.net.landing_reason}"))
        count = self.arg_at(ir.Const(base), f"{op.role}_pipes")
        k = self.reg("k", kir.I32)
        loop = ir.For(var=k, lo=ir.Const(0), hi=count, step=ir.Const(1), loc=op.loc)
        self.emit(loop)
        with self.into(loop.body):
            fields = self.pipe_fields(base, k)
            self.pipes[op.var.name] = (fields, res)
            self.lower_body(op.body)

    def lower_PipeEnd(self, op: ir.PipeEnd) -> None:
        """``pipe.src`` / ``pipe.dst`` from this pipe's row of the table (x, y on the 2-D grid),
        folded into ``op.dims`` dimensions as ``ttl.node`` folds them."""
        fields, _res = self.pipes[op.pipe.name]
        x, y = (fields["src_x"], fields["src_y"]) if op.end == "src" else (fields["x0"], fields["y0"])
        rows = self.program.grid[1]
        values = [self.arith(BinaryOp.ADD, self.arith(BinaryOp.MUL, x, ir.Const(rows)), y, "node")] if op.dims == 1 \
            else [x, y] + [ir.Const(0)] * (op.dims - 2)
        for out, value in zip(op.outs, values):
            self.emit(ir.Assign(result=out, value=value))

    def lower_CopyBlockToPipe(self, op: ir.CopyBlockToPipe) -> None:
        """The send happens at the copy (ir/pipe_protocol.py); its ``wait()`` emits nothing."""
        fields, res = self.pipes[op.pipe.name]
        self.send(self.addresses[op.src.name], fields, res)
        self.pending[op.result.name] = ("sent", None, fields, res)

    def lower_CopyPipeToBlock(self, op: ir.CopyPipeToBlock) -> None:
        addr = self.addresses[op.dst.name]
        fields, res = self.pipes[op.pipe.name]
        if res.direct:
            self.publish(addr, fields, res)
        self.pending[op.result.name] = ("recv", addr, fields, res)

    def wait_pipe(self, xfer: str) -> bool:
        """Emit the wait of a pipe transfer; False when ``xfer`` is not one."""
        found = self.pending.get(xfer)
        if found is None:
            return False
        kind, addr, fields, res = found
        if kind == "recv":
            if res.direct:
                self.receive_in_place(fields, res)
            else:
                self.receive(addr, fields, res)
        return True

    def slot_address(self, res: PipeNetResources, fields: dict) -> Any:
        base = self.reg("landing")
        self.call("get_write_ptr", self.cb(res.landing), result=base)
        return self.arith(BinaryOp.ADD, base, self.arith(BinaryOp.MUL, fields["slot"], ir.Const(res.block_bytes)), "slot")

    def flag_address(self, res: PipeNetResources, fields: dict) -> Any:
        return self.flag_word(res, fields["slot"], "flag")

    def address_word(self, res: PipeNetResources, fields: dict) -> Any:
        """Where, on the sender, receivers of a net that lands in place publish the address of
        the block they reserved: one word per ready counter, after the slots' flags."""
        return self.flag_word(res, self.arith(BinaryOp.ADD, fields["counter"], ir.Const(res.address_words)), "address")

    def flag_word(self, res: PipeNetResources, index: Any, hint: str) -> Any:
        base = self.reg("flags")
        self.call("get_write_ptr", self.cb(res.flags), result=base)
        return self.arith(BinaryOp.ADD, base, self.arith(BinaryOp.MUL, index, ir.Const(FLAG_STRIDE)), hint)

    def ready_semaphore(self, res: PipeNetResources, fields: dict) -> ir.Reg:
        """The L1 address of this pipe's ready semaphore (the same id on every core)."""
        addr = self.reg("ready_addr")
        self.call("get_semaphore", self.arith(BinaryOp.ADD, ir.Const(res.ready_base), fields["counter"], "ready_id"),
                  result=addr)
        return addr

    def rectangle(self, fields: dict, addr: Any) -> ir.Reg:
        """The multicast address of the pipe's destination rectangle, its corners in the order the
        kernel's NoC routes (``pipe_protocol.multicast_corners``)."""
        noc = {}
        for name in ("x0", "y0", "x1", "y1"):
            noc[name] = self.reg(f"n{name}")
            self.call("noc_x_of" if name[0] == "x" else "noc_y_of", fields[name], result=noc[name])
        self.ctx.needs_noc_tables(self.kernel)
        first, _ = pipe_protocol.multicast_corners(self.kernel.noc)
        corners = ("x0", "y0", "x1", "y1") if first == "min" else ("x1", "y1", "x0", "y0")
        mcast = self.reg("mcast", kir.U64)
        self.call("get_noc_multicast_addr", *(noc[c] for c in corners), addr, result=mcast)
        return mcast

    def wait_ready(self, fields: dict, res: PipeNetResources) -> None:
        """Wait until every destination has freed its slot (or, landing in place, posted its
        receive), and count again from zero."""
        ready = self.reg("ready_ptr", kir.SEM_PTR)
        self.call("reinterpret_cast<volatile tt_l1_ptr uint32_t*>", self.ready_semaphore(res, fields), result=ready)
        self.call("noc_semaphore_wait", ready, fields["count"])
        self.call("noc_semaphore_set", ready, ir.Const(0))

    def send(self, addr: Any, fields: dict, res: PipeNetResources) -> None:
        if res.direct:
            self.send_in_place(addr, fields, res)
            return
        self.emit(kir.Comment(text="pipe send: wait until every destination slot is free"))
        self.wait_ready(fields, res)
        data = self.rectangle(fields, self.slot_address(res, fields))
        scratch, flag = self.flag_source(fields, res)
        branch = ir.If(cond=fields["loopback"])  # the sender among the destinations: loopback forms
        self.emit(branch)
        for body, suffix in ((branch.then_body, "_loopback_src"), (branch.else_body, "")):
            with self.into(body):
                self.multicast_with_flag(addr, data, scratch, flag, fields, res, suffix)
        self.call("noc_async_write_barrier")

    def flag_source(self, fields: dict, res: PipeNetResources) -> tuple[Any, Any]:
        """The scratch semaphore set to 1 (what a flag multicast writes) and the destinations'
        flag rectangle."""
        scratch = self.ctx.scratch_semaphore()
        flag = self.rectangle(fields, self.flag_address(res, fields))
        self.call("noc_semaphore_set", self.sem_ptr(scratch), ir.Const(1))
        return scratch, flag

    def multicast_with_flag(self, addr: Any, data: Any, scratch: Any, flag: Any, fields: dict,
                            res: PipeNetResources, suffix: str = "") -> None:
        """The block multicast to ``data``, then the flag to ``flag``. Linked: the flag multicast
        takes the same path on the same NoC and VC, so it lands after the block without a barrier
        between them (tt-metal's multicast matmul); Blackhole needs the block's writes flushed from
        the command buffer first."""
        self.call(f"noc_async_write_multicast{suffix}", addr, data, ir.Const(res.block_bytes),
                  fields["count"], ir.Const(True))
        if self.ctx.arch == "blackhole":
            self.call("noc_async_writes_flushed")
        self.call(f"noc_semaphore_set_multicast{suffix}", kir.SemAddr(scratch.index), flag, fields["count"])

    def receive(self, addr: Any, fields: dict, res: PipeNetResources) -> None:
        self.emit(kir.Comment(text="pipe receive: wait for the flag, copy the slot, free it"))
        flag = self.wait_flag(fields, res)
        local = self.reg("slot_noc", kir.U64)
        self.call("get_noc_addr", self.slot_address(res, fields), result=local)
        self.call("noc_async_read", local, addr, ir.Const(res.block_bytes))
        self.call("noc_async_read_barrier")
        self.call("noc_semaphore_set", flag, ir.Const(0))
        self.free_slot(fields, res)

    def wait_flag(self, fields: dict, res: PipeNetResources) -> ir.Reg:
        flag = self.reg("flag_ptr", kir.SEM_PTR)
        self.call("reinterpret_cast<volatile tt_l1_ptr uint32_t*>", self.flag_address(res, fields), result=flag)
        self.call("noc_semaphore_wait", flag, ir.Const(1))
        return flag

    # ---------------------------------------------------------------- landing in place
    def publish(self, addr: Any, fields: dict, res: PipeNetResources) -> None:
        """At a receive's ``ttl.copy`` on a net that lands in place: write the address of the block
        this core reserved into the sender's address word, then count itself ready (the write
        barrier between: the address is there before the count that announces it)."""
        self.emit(kir.Comment(text="pipe receive, landing in place: publish the reserved block to the sender"))
        remote = self.reg("address_noc", kir.U64)
        self.call("get_noc_addr", *self.source_noc(fields), self.address_word(res, fields), result=remote)
        self.call("noc_inline_dw_write", remote, addr)
        self.call("noc_async_write_barrier")
        self.free_slot(fields, res)

    def receive_in_place(self, fields: dict, res: PipeNetResources) -> None:
        """The sender has written the block into the reserved block: wait for the flag, clear it."""
        self.emit(kir.Comment(text="pipe receive, landing in place: wait for the flag"))
        flag = self.wait_flag(fields, res)
        self.call("noc_semaphore_set", flag, ir.Const(0))

    def send_in_place(self, addr: Any, fields: dict, res: PipeNetResources) -> None:
        """Wait until every destination has published its block, multicast the block to the
        published address and set their flags."""
        self.emit(kir.Comment(text="pipe send, landing in place: wait until every destination has reserved its block"))
        self.wait_ready(fields, res)
        word = self.reg("address_ptr", kir.SEM_PTR)
        self.call("reinterpret_cast<volatile tt_l1_ptr uint32_t*>", self.address_word(res, fields), result=word)
        target = self.reg("target")
        self.call(kir.L1_WORD, word, result=target)
        data = self.rectangle(fields, target)
        scratch, flag = self.flag_source(fields, res)
        self.multicast_with_flag(addr, data, scratch, flag, fields, res)
        self.call("noc_async_write_barrier")

    def source_noc(self, fields: dict) -> tuple[ir.Reg, ir.Reg]:
        sx, sy = self.reg("src_nx"), self.reg("src_ny")
        self.call("noc_x_of", fields["src_x"], result=sx)
        self.call("noc_y_of", fields["src_y"], result=sy)
        self.ctx.needs_noc_tables(self.kernel)
        return sx, sy

    def free_slot(self, fields: dict, res: PipeNetResources) -> None:
        """Count one more ready destination on the pipe's ready semaphore on the sender."""
        remote = self.reg("ready_noc", kir.U64)
        self.call("get_noc_addr", *self.source_noc(fields), self.ready_semaphore(res, fields), result=remote)
        self.call("noc_semaphore_inc", remote, ir.Const(1))

    def initialise_receivers(self) -> None:
        """At kernel start: clear this core's flags and free its slots, for every net it receives."""
        nets = {op.net.index: op.net for op in ir.walk(self.thread.body)
                if isinstance(op, ir.PipeForEach) and op.role == "dst"}
        for net in nets.values():
            res = self.ctx.pipe_resources(net, self.program)
            base, _ = self.pipe_table(net, "dst")
            # landing in place, a destination is ready only at its receive (``publish``)
            ready = "" if res.direct else ", tell senders the slots are free"
            self.emit(kir.Comment(text=f"pipe net {net.index}: clear flags{ready}"))
            count = self.arg_at(ir.Const(base), "dst_pipes")
            k = self.reg("k", kir.I32)
            loop = ir.For(var=k, lo=ir.Const(0), hi=count, step=ir.Const(1))
            self.emit(loop)
            with self.into(loop.body):
                fields = self.pipe_fields(base, k)
                flag = self.reg("flag_ptr", kir.SEM_PTR)
                self.call("reinterpret_cast<volatile tt_l1_ptr uint32_t*>", self.flag_address(res, fields), result=flag)
                self.call("noc_semaphore_set", flag, ir.Const(0))
                if not res.direct:
                    self.free_slot(fields, res)
