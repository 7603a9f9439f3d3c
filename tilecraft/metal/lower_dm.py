"""Lower a data-movement thread: buffers -> cb_* calls, copies -> NoC tile reads/writes through
``TensorAccessor``, transfer waits -> barriers (one per batch), semaphores -> noc_semaphore_*.

Blocks become L1 addresses (``get_write_ptr``/``get_read_ptr`` of their buffer); a copy of an
(r x c)-tile block is a loop over its tiles in row-major order, each tile landing at
``address + index * tile_bytes``.
"""

from __future__ import annotations

from typing import Any

from ..ir import ops as ir
from ..ir.scalarops import BinaryOp
from ..ir import pipe_protocol
from ..ir.types import BlockType, CBDecl, TensorDecl
from . import kir
from .dst_view import PRODUCER_STEPS, follow
from .lower_common import KernelLowering
from .lower_pipes import PipeLowering
from .optable import DATAFLOW_HEADER

_READ_BARRIER = "noc_async_read_barrier"
_WRITE_BARRIER = "noc_async_write_barrier"


class DataMovementLowering(PipeLowering, KernelLowering):
    def lower(self) -> kir.Kernel:
        self.kernel.includes.add(DATAFLOW_HEADER)
        self.addresses: dict[str, ir.Reg] = {}
        self.accessors: dict[int, ir.Reg] = {}
        self.cb_ids: dict[int, ir.Reg] = {}
        self.sem_ptrs: dict[int, ir.Reg] = {}
        self.xfer_kind: dict[str, str] = {}
        #: transfer groups -> the barriers their copies need
        self.groups: dict[str, set[str]] = {}
        #: kernel arguments and accessors go first, in the order they were needed
        self.header_end = 0
        self.pipes: dict[str, Any] = {}
        self.pending: dict[str, Any] = {}
        self.pipe_tables: dict[tuple[int, str], tuple[int, int]] = {}
        self.initialise_receivers()
        self.lower_body(self.thread.body)
        return self.kernel

    # ---------------------------------------------------------------- buffers
    def cb(self, decl: CBDecl) -> ir.Reg:
        """The buffer's id: a compile-time argument (``constexpr uint32_t cb_x =
        get_compile_time_arg_val(i)``), so a host may renumber buffers without recompiling the
        source; the accessors' compile-time arguments follow the ids."""
        found = self.cb_ids.get(decl.index)
        if found is None:
            position = self.kernel.compile_arg(decl.index)
            found = self.reg(f"cb_{decl.name}")
            self.emit_header([kir.Arg(result=found, source="ct", index=position, label=f"buffer '{decl.name}'")])
            self.cb_ids[decl.index] = found
        return found

    def emit_header(self, ops: list[ir.Op]) -> None:
        """Kernel arguments, accessors and pointers go first, in the order they were needed."""
        self.kernel.body[self.header_end:self.header_end] = ops
        self.header_end += len(ops)

    def tiles_of(self, block_type: BlockType) -> int:
        n = 1
        for extent in block_type.shape:
            n *= extent
        return n if block_type.unit.tiled else 1

    def lower_CBReserve(self, op: ir.CBReserve) -> None:
        self.call("cb_reserve_back", self.cb(op.cb), ir.Const(self.tiles_of(op.cb.block_type)))
        addr = self.reg(f"{op.result.name}_addr")
        self.call("get_write_ptr", self.cb(op.cb), result=addr)
        self.addresses[op.result.name] = addr

    def lower_CBWait(self, op: ir.CBWait) -> None:
        self.call("cb_wait_front", self.cb(op.cb), ir.Const(self.tiles_of(op.cb.block_type)))
        addr = self.reg(f"{op.result.name}_addr")
        self.call("get_read_ptr", self.cb(op.cb), result=addr)
        self.addresses[op.result.name] = addr

    def lower_CBPush(self, op: ir.CBPush) -> None:
        self.call("cb_push_back", self.cb(op.cb), ir.Const(self.tiles_of(op.cb.block_type)))

    def lower_CBPop(self, op: ir.CBPop) -> None:
        self.call("cb_pop_front", self.cb(op.cb), ir.Const(self.tiles_of(op.cb.block_type)))

    def push_views(self, views: list[tuple[CBDecl, int]]) -> None:
        """Where this kernel pushes the pages of a buffer that has a view ((view, its buffer's
        index), metal/dst_view.py), it publishes them under the view too."""
        pushed = {op.args[0].name for op in ir.walk(self.kernel.body) if isinstance(op, kir.Call)
                  and op.fn == "cb_push_back" and isinstance(op.args[0], ir.Reg)}
        ids = {self.cb_ids[owner].name: view for view, owner in views
               if owner in self.cb_ids and self.cb_ids[owner].name in pushed}
        regs = {name: self.cb(view) for name, view in ids.items()}  # before the body is rewritten
        follow(self.kernel.body, lambda arg: regs.get(arg.name) if isinstance(arg, ir.Reg) else None, PRODUCER_STEPS)

    # ---------------------------------------------------------------- tensor copies
    def accessor(self, tensor: TensorDecl) -> ir.Reg:
        found = self.accessors.get(tensor.index)
        if found is None:
            # the same on every core: a common runtime argument
            addr_index = self.kernel.common(f"{tensor.name}_addr", ("buffer_address", tensor.index))
            addr = ir.Reg(f"{tensor.name}_addr", kir.U32)
            offset = self.ctx.accessor_offset(self.kernel, tensor)
            found = ir.Reg(f"{tensor.name}_acc", kir.ACCESSOR)
            self.emit_header([kir.Arg(result=addr, source="common", index=addr_index, label=f"{tensor.name}_addr"),
                              kir.Accessor(result=found, tensor=tensor, ct_offset=offset, addr=addr,
                                           page_bytes=self.ctx.page_bytes(tensor))])
            self.accessors[tensor.index] = found
        return found

    def copy_tiles(self, fn: str, index: ir.TensorIndex, block: ir.Reg) -> None:
        tensor = index.tensor
        if None in index.static_extents:
            self.fail("a tensor slice whose extent is only known at run time", hint="write slices whose "
                      "extent the compiler can prove, e.g. t[r*g:(r+1)*g]")
        block_type: BlockType = block.type
        if block_type.fmt != tensor.fmt:
            self.fail(f"a copy between tensor '{tensor.name}' ({tensor.fmt.name}) and a {block_type.fmt.name} "
                      "block (NoC copies move bytes, they do not convert)",
                      hint="make the buffer like the tensor it copies")
        acc = self.accessor(tensor)
        addr = self.addresses[block.name]
        extents = index.static_extents
        unit = tensor.unit_shape
        if tensor.unit.tiled:
            self.tile_loops(fn, acc, addr, [lo for lo, _ in index.bounds], extents, unit, block_type.fmt.tile_bytes)
        else:
            self.row_copies(fn, acc, addr, [lo for lo, _ in index.bounds], extents, unit, block_type.fmt)

    def tile_loops(self, fn: str, acc: ir.Reg, addr: ir.Reg, los: list, extents: tuple, unit: tuple,
                   tile_bytes: int) -> None:
        """One NoC tile transfer per tile of the block, in row-major tile order."""
        strides = [1] * len(unit)
        for d in range(len(unit) - 2, -1, -1):
            strides[d] = strides[d + 1] * unit[d + 1]
        body_stack = []
        indices: list = []
        for d, extent in enumerate(extents):
            if extent == 1:
                indices.append(ir.Const(0))
                continue
            var, body = self.loop("ijkl"[d] if d < 4 else f"i{d}", extent)
            body_stack.append(body)
            self._stack.append(body)
            indices.append(var)
        tile = ir.Const(0)
        slot = ir.Const(0)
        for d, (lo, idx) in enumerate(zip(los, indices)):
            tile = self.arith(BinaryOp.ADD, tile, self.arith(BinaryOp.MUL, self.arith(BinaryOp.ADD, lo, idx, "row"),
                                                        ir.Const(strides[d]), "t"), "tile")
            block_stride = 1
            for e in extents[d + 1:]:
                block_stride *= e
            slot = self.arith(BinaryOp.ADD, slot, self.arith(BinaryOp.MUL, idx, ir.Const(block_stride)), "slot")
        l1 = self.arith(BinaryOp.ADD, addr, self.arith(BinaryOp.MUL, slot, ir.Const(tile_bytes)), "l1")
        self.call(fn, tile, acc, l1)
        for _ in body_stack:
            self._stack.pop()

    def row_copies(self, fn: str, acc: ir.Reg, addr: ir.Reg, los: list, extents: tuple, unit: tuple, fmt) -> None:
        """Row-major tensors: one transfer per tensor row (page) the block covers."""
        esize = fmt.element_bits // 8
        row_bytes = extents[-1] * esize
        indices = []
        stack_depth = 0
        for d, extent in enumerate(extents[:-1]):
            if extent == 1:
                indices.append(ir.Const(0))
                continue
            var, body = self.loop(f"r{d}", extent)
            self._stack.append(body)
            stack_depth += 1
            indices.append(var)
        page = ir.Const(0)
        slot = ir.Const(0)
        for d, (lo, idx) in enumerate(zip(los[:-1], indices)):
            stride = 1
            for u in unit[d + 1:-1]:
                stride *= u
            page = self.arith(BinaryOp.ADD, page, self.arith(BinaryOp.MUL, self.arith(BinaryOp.ADD, lo, idx), ir.Const(stride)), "page")
            block_stride = 1
            for e in extents[d + 1:-1]:
                block_stride *= e
            slot = self.arith(BinaryOp.ADD, slot, self.arith(BinaryOp.MUL, idx, ir.Const(block_stride)), "slot")
        noc = self.reg("noc_addr", kir.U64)
        self.call("get_noc_addr", page, acc, self.arith(BinaryOp.MUL, los[-1], ir.Const(esize)), result=noc)
        l1 = self.arith(BinaryOp.ADD, addr, self.arith(BinaryOp.MUL, slot, ir.Const(row_bytes)), "l1")
        if fn == "read":
            self.call("noc_async_read", noc, l1, ir.Const(row_bytes))
        else:
            self.call("noc_async_write", l1, noc, ir.Const(row_bytes))
        for _ in range(stack_depth):
            self._stack.pop()

    def lower_CopyTensorToBlock(self, op: ir.CopyTensorToBlock) -> None:
        self.emit(kir.Comment(text=f"copy {op.src} -> block"))
        fn = "noc_async_read_page" if op.src.tensor.unit.tiled else "read"
        self.copy_tiles(fn, op.src, op.dst)
        self.xfer_kind[op.result.name] = _READ_BARRIER

    def lower_CopyBlockToTensor(self, op: ir.CopyBlockToTensor) -> None:
        self.emit(kir.Comment(text=f"copy block -> {op.dst}"))
        fn = "noc_async_write_page" if op.dst.tensor.unit.tiled else "write"
        self.copy_tiles(fn, op.dst, op.src)
        self.xfer_kind[op.result.name] = _WRITE_BARRIER

    def lower_XferWait(self, op: ir.XferWait) -> None:
        if self.wait_pipe(op.xfer.name):
            return
        barrier = self.xfer_kind.get(op.xfer.name)
        if barrier is None:
            self.fail("waiting on this transfer")
        if self.last_call() != barrier:  # consecutive waits share one barrier
            self.call(barrier)

    def lower_GroupNew(self, op: ir.GroupNew) -> None:
        self.groups[op.result.name] = set()

    def lower_GroupAdd(self, op: ir.GroupAdd) -> None:
        barrier = self.xfer_kind.get(op.xfer.name)
        if barrier is None:
            self.fail("waiting on this transfer")
        self.groups.setdefault(op.group.name, set()).add(barrier)

    def lower_GroupWait(self, op: ir.GroupWait) -> None:
        for barrier in sorted(self.groups.get(op.group.name, ())):
            if self.last_call() != barrier:
                self.call(barrier)

    def lower_CopyBlockToBlock(self, op: ir.CopyBlockToBlock) -> None:
        src, dst = self.addresses[op.src.name], self.addresses[op.dst.name]
        block: BlockType = op.src.type
        if op.src.type.fmt != op.dst.type.fmt:
            self.fail("a block copy that converts formats")
        nbytes = self.ctx.block_bytes(block)
        noc = self.reg("local_noc_addr", kir.U64)
        self.call("get_noc_addr", src, result=noc)
        self.call("noc_async_read", noc, dst, ir.Const(nbytes))
        self.xfer_kind[op.result.name] = _READ_BARRIER

    # ---------------------------------------------------------------- semaphores
    def sem_ptr(self, sem) -> ir.Reg:
        found = self.sem_ptrs.get(sem.index)
        if found is None:
            found = ir.Reg(f"{sem.name}_ptr", kir.SEM_PTR)
            self.emit_header([kir.Call(result=found, fn="reinterpret_cast<volatile tt_l1_ptr uint32_t*>",
                                       args=[kir.SemAddr(sem.index)])])
            self.sem_ptrs[sem.index] = found
        return found

    def lower_SemWait(self, op: ir.SemWait) -> None:
        fn = "noc_semaphore_wait" if op.cond == "eq" else "noc_semaphore_wait_min"
        self.call(fn, self.sem_ptr(op.sem), op.value)

    def lower_SemSet(self, op: ir.SemSet) -> None:
        self.call("noc_semaphore_set", self.sem_ptr(op.sem), op.value)

    def noc_xy(self, coord: tuple) -> tuple[ir.Reg, ir.Reg]:
        if len(self.program.grid) != 2:
            self.fail("a remote semaphore on a grid that is not 2-D (multi-chip grids)")
        x, y = self.reg("noc_x"), self.reg("noc_y")
        self.call("noc_x_of", coord[0], result=x)
        self.call("noc_y_of", coord[1], result=y)
        self.ctx.needs_noc_tables(self.kernel)
        return x, y

    def lower_SemRemote(self, op: ir.SemRemote) -> None:
        x, y = self.noc_xy(op.core)
        remote = self.reg(f"{op.sem.name}_remote", kir.U64)
        self.call("get_noc_addr", x, y, kir.SemAddr(op.sem.index), result=remote)
        if op.op == "inc":
            self.call("noc_semaphore_inc", remote, op.value)
        else:
            scratch = self.sem_ptr(self.ctx.scratch_semaphore())
            self.call("noc_semaphore_set", scratch, op.value)
            self.call("noc_semaphore_set_remote", kir.SemAddr(self.ctx.scratch_semaphore().index), remote)

    def lower_SemMulticastSet(self, op: ir.SemMulticastSet) -> None:
        rng = op.cores
        low = self.noc_xy((ir.Const(rng.starts[0]), ir.Const(rng.starts[1])))
        high = self.noc_xy((ir.Const(rng.stops[0] - 1), ir.Const(rng.stops[1] - 1)))
        first, _ = pipe_protocol.multicast_corners(self.kernel.noc)
        start, end = (low, high) if first == "min" else (high, low)
        mcast = self.reg(f"{op.sem.name}_mcast", kir.U64)
        self.call("get_noc_multicast_addr", *start, *end, kir.SemAddr(op.sem.index), result=mcast)
        scratch_sem = self.ctx.scratch_semaphore()
        self.call("noc_semaphore_set", self.sem_ptr(scratch_sem), op.value)
        count = (rng.stops[0] - rng.starts[0]) * (rng.stops[1] - rng.starts[1])
        # the multicast may include this core: the loopback form writes the source core too
        self.call("noc_semaphore_set_multicast_loopback_src", kir.SemAddr(scratch_sem.index), mcast, ir.Const(count))
        self.call(_WRITE_BARRIER)

