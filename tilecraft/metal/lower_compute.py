"""Lower a compute thread: block stores -> tile loops over DST with inferred init calls.

A store's expression tree is planned once (:class:`Plan`): each node gets a DST slot (children
first; an operation reuses its first operand's slot), and the tree's slot count bounds how
many output tiles fit one ``tile_regs_acquire`` (half of DST: 4 tiles, DST holding fp32); a
slot holds the node's tiles of the chunk one after another. Emission is operation-major: for
each node, its init call (only when the unpack/math configuration changes) then a loop over the
tiles of the chunk, so one init serves a whole block. Binary operations on two buffer operands use the FPU (``add_tiles``, with the
broadcast forms when the right operand is a ``broadcast``); everything in DST uses the SFPU.
An operand that the FPU, matmul, reduce or transpose must read from a buffer but that is a
computed expression is first stored into an intermediate buffer introduced by lowering.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator

from ..arch import get as get_arch
from ..diagnostics import error, warn
from ..dtypes import DataFormat, bfloat16, float32, int32, uint32
from ..ir import mathops, patterns
from ..ir.compute_units import Operand, Unit, binary_unit
from ..ir.l1 import Added
from ..ir import ops as ir
from ..ir.scalarops import BinaryOp
from ..ir.types import BOOL, FLOAT, TILE_UNIT, BlockType, CBDecl
from . import kir
from .lower_common import KernelLowering
from .pack_order import repacked_stores
from .optable import (COMPOSITE_UNARY, MIRRORED_UNARY, COMPUTE_PREFIX, DST_FORMAT, COPY, FILL, FILL_INT, FPU_BINARY,
                      FPU_HEADERS, INT_DATA_FORMATS, INT_SFPU_BINARY, INT_UNARY, MATMUL,
                      MATMUL_BLOCK, POOL, CB_ARGUMENTS,
                      REDUCE_DIM, REDUCE, UNARY_BCAST, exact_reciprocal, SCALAR_BINARY, SFPU_BINARY, TRANSPOSE, UNARY, WHERE,
                      float_bits)


#: a matmul node's ``value`` when its right operand is read transposed (``a @ transpose(b)``)
TRANSPOSED_RHS = "transposed rhs"


@dataclass(eq=False)
class Node:
    """One node of a store's expression tree, planned for tile-wise evaluation."""

    kind: str  # leaf, const, unary, fpu, fpu_bcast, sfpu, scalar, matmul, reduce, bcast, transpose, fill, where
    op: Any
    shape: tuple[int, ...]
    children: list["Node"] = field(default_factory=list)
    cb: CBDecl | None = None
    slot: int = 0
    value: Any = None
    #: a leaf read only where this flag holds: elsewhere its value is zero, which DST's cleared
    #: tiles already are (the first step of ``y.store(fill(0)); for k: y += a @ b``); a constant
    #: False: never read (the only step of such a loop that runs once)
    guard: ir.Reg | ir.Const | None = None
    #: on a store's root: expressions the tree reads several times, computed once per chunk into
    #: DST slots of their own before the tree (:meth:`ComputeLowering.share_in_dst`)
    prelude: list["Node"] = field(default_factory=list)
    #: a broadcast whose every tile of the chunk being evaluated is the same tile (a column vector
    #: across one tile row, a scalar): computed into the first tile of its slot only, and read
    #: there by its SFPU reader (:meth:`ComputeLowering.mark_invariant`)
    invariant: bool = False


class ComputeLowering(KernelLowering):
    def lower(self) -> kir.Kernel:
        self.kernel.includes.update(COMPUTE_PREFIX + h for h in ("common.h", "tile_move_copy.h", "pack.h", "reg_api.h",
                                                                  "cb_api.h", "compute_kernel_hw_startup.h"))
        self.defs = {r.name: op for op in ir.walk(self.thread.body) if isinstance(op, ir.EXPR_OPS)
                     for r in op.results()}
        self.origin: dict[str, CBDecl] = {op.result.name: op.cb for op in ir.walk(self.thread.body)
                                          if isinstance(op, (ir.CBReserve, ir.CBWait))}
        self.capacity = get_arch(self.ctx.arch).dst_tiles_per_phase(self.ctx.fp32_dest_acc)
        self.shadows: dict[str, CBDecl] = {}
        #: blocks whose partials buffer is empty here on every path (reserved, not stored since)
        self.known_unwritten: set[str] = set()
        #: blocks whose final value a DST-resident K loop packed into the block itself
        self.packed_into_block: set[str] = set()
        #: blocks whose value is zero while their written flag is false (their zero-fill was dropped)
        self.zero_until_written: set[str] = set()
        #: the last store of a block in a K loop pushed right after it, with that loop: its last
        #: iteration packs into the block's own buffer instead of the partials buffer
        self.final_steps: dict[ir.Op, ir.For] = {}
        self.written: dict[str, ir.Reg] = {}
        reserved = {op.result.name for op in ir.walk(self.thread.body) if isinstance(op, ir.CBReserve)}
        read = {leaf.name for op in ir.walk(self.thread.body) if isinstance(op, ir.BlockStore)
                for leaf in self.leaf_blocks(op.value)}
        for op in ir.walk(self.thread.body):
            # a reserved block that is read back (+=, or as an operand) keeps its value in a
            # partials buffer: compute kernels can only read a buffer at its front
            needs = op.block.name in reserved and (op.accumulate or op.block.name in read) \
                if isinstance(op, ir.BlockStore) else False
            if needs and op.block.name not in self.shadows:
                cb = self.origin[op.block.name]
                # two blocks: the new partial result is packed behind the current one
                self.shadows[op.block.name] = self.ctx.new_cb(f"{cb.name}_partial", cb.shape, cb.fmt, Added.PARTIALS,
                                                              f"'{cb.name}'", blocks=2, span=op.loc)
                self.written[op.block.name] = ir.Reg(f"{op.block.name}_written", BOOL)
        # a local block (acc = fill(...); acc += a @ b) lives in a buffer of its own, in fp32, with
        # room for the next value behind the current one, as a partials buffer; or, where its value
        # can rotate through the buffer chunk by chunk, room for one DST chunk of it (rotation_chunk)
        local_blocks = {op.result.name: op for op in ir.walk(self.thread.body) if isinstance(op, ir.LocalStore)}
        #: blocks holding an expression computed once: read as a computed operand always was (no W3002)
        self.computed_once = {name for name, store in local_blocks.items() if store.once}
        #: local blocks whose buffer holds one block and one DST chunk: name -> tiles per chunk
        self.rotating: dict[str, int] = {}
        for name, store in local_blocks.items():
            shape = store.result.type.shape
            chunk = 0 if store.once else self.rotation_chunk(name, shape)
            if chunk:
                self.rotating[name] = chunk
            why = Added.EVALUATED_ONCE if store.once else Added.LOCAL_BLOCK
            self.shadows[name] = self.ctx.new_cb(f"{name}_local", shape, store.result.type.fmt, why,
                                                 f"'{name.split('.')[0]}'", blocks=1 if chunk else 2, span=store.loc,
                                                 chunk_tiles=chunk)
            self.written[name] = self.reg(f"{name}_written", BOOL)
        #: of the blocks computed once, those read both through the FPU's source registers and in
        #: DST: a second buffer the FPU reads, packed from the same DST tiles at the block's store
        #: (:meth:`store_partial`) and released with it, so no statement copies one into the other
        self.fpu_twins: dict[str, CBDecl] = {
            name: self.ctx.new_cb(f"{name}_fpu", local_blocks[name].result.type.shape, float32, Added.EVALUATED_ONCE,
                                  f"'{name.split('.')[0]}' (the copy the FPU reads)", blocks=2,
                                  span=local_blocks[name].loc)
            for name in sorted(self.read_both_ways({n for n in self.computed_once
                                                    if local_blocks[n].result.type.fmt == float32}))}
        #: stores packing into a block already packed since its reserve: they address its pages
        #: (``pack_tile<true>``), as in-order packing would go on past them (:mod:`.pack_order`)
        self.repacked = repacked_stores(self.thread.body, lambda store: store.block.name not in self.shadows)
        self.state: Any = None
        #: the expressions the store being lowered has evaluated into intermediate buffers, by register
        self.staged: dict[str, Node] = {}
        #: of those, the ones also read into DST: a second, copy-only copy (UnpackToDestFp32), so
        #: that read keeps every bit (:meth:`stage_both_ways`)
        self.staged_exact: dict[str, Node] = {}
        #: one-tile buffers of a constant the kernel fills at its start (:meth:`constant_tile`), by name
        self._constants: dict[str, CBDecl] = {}
        startup = self.startup_buffers()
        self.call("compute_kernel_hw_startup", *map(kir.BufferId, startup))
        for name in local_blocks:
            self.emit(ir.Assign(result=self.written[name], value=ir.Const(False)))
        self.local_block_names = list(local_blocks)
        self.lower_body(self.thread.body)
        self.release_local_blocks()
        return self.kernel

    def rotation_chunk(self, name: str, shape: tuple[int, ...]) -> int:
        """The tiles of one DST chunk of local block ``name`` when its value can rotate through a
        buffer of one block and one chunk, else 0 (it takes two blocks).

        Rotating, a store packs each chunk of the new value behind the current value and pops the
        current value's chunk it replaced, so the buffer's pages turn around it; the unpacker reads
        a page at the read pointer plus its index, without wrapping at the buffer's end, so every
        read of the block must be of the chunk at the front. That holds when the block is written
        only by a fill or by ``acc = acc + a @ b`` (each output chunk reads only its own chunk of the
        old value) and read elsewhere only by a copy of its final value (``y.store(acc)``) after
        which the value is dead, so that the copy can pop each chunk it has read."""
        rows, cols = _grid(shape)
        chunk_rows, chunk_cols = _chunk(rows, cols, self.capacity, rows)
        chunk = chunk_rows * chunk_cols
        if len(shape) != 2 or chunk >= rows * cols:
            return 0
        for op in ir.walk(self.thread.body):
            if not isinstance(op, ir.STORE_OPS):
                if not isinstance(op, ir.EXPR_OPS) and _reads(op, name):
                    return 0
                continue
            reads = name in {leaf.name for leaf in self.leaf_blocks(op.value)}
            if op.block.name == name:
                fill = isinstance(self.defs.get(op.value.name), ir.TileFill)
                if not (fill or self.accumulates_plain_product(op)):
                    return 0
            elif reads and (op.value.name != name or op.accumulate or op.block.name in self.shadows
                            or not self.dead_after(op, name)):
                return 0
        return chunk

    def accumulates_plain_product(self, store: ir.Op) -> bool:
        """``acc = acc + a @ b`` with ``a`` and ``b`` 2-D blocks read from their buffers."""
        matmul = self.accumulated_product(store)
        return matmul is not None and not store.accumulate and len(matmul.lhs.type.shape) == 2 and all(
            r.name not in self.defs and r.name != store.block.name for r in (matmul.lhs, matmul.rhs))

    def dead_after(self, store: ir.Op, name: str) -> bool:
        """Whether the value of block ``name`` that ``store`` reads is read by nothing after it: on
        every path the next op that touches ``name`` replaces it without reading it, or none does
        (a loop's body runs again from its start; anything in a nested region counts as a read)."""
        path = _path(self.thread.body, store)
        for ops, index, owner in reversed(path):
            after = self.first_touch(ops[index + 1:], name)
            if after is not None:
                return after
            if isinstance(owner, (ir.For, ir.While)) and not self.first_touch(ops[:index], name):
                return False  # the next iteration reads it before anything replaces it
        return True

    def first_touch(self, ops: list[ir.Op], name: str) -> bool | None:
        """True when the first op of ``ops`` that touches block ``name`` replaces it without reading
        it, False when it reads it (or touches it in a nested region), None when none touches it."""
        for op in ops:
            if isinstance(op, ir.LocalStore) and op.block.name == name:
                return name not in {leaf.name for leaf in self.leaf_blocks(op.value)}
            if any(_reads(o, name) or (isinstance(o, ir.STORE_OPS) and o.block.name == name) for o in ir.walk([op])):
                return False
        return None

    def unused_buffers(self) -> list[CBDecl]:
        """The partials buffers the kernel never names (a K loop kept the block in DST and packed
        it into the block itself): the program need not allocate them."""
        named = {arg.value for op in ir.walk(self.kernel.body) if isinstance(op, kir.Call)
                 for position in CB_ARGUMENTS.get(op.fn, ()) if position < len(op.args)
                 for arg in [op.args[position]] if isinstance(arg, ir.Const)}
        return [cb for cb in self.shadows.values() if cb.index not in named]

    def release_local_blocks(self) -> None:
        """The last value of each local block leaves its buffer (at the end, and at a return)."""
        for name in self.local_block_names:
            self.release_partial(name, wait=True)

    def lower_Return(self, op: ir.Return) -> None:
        self.release_local_blocks()
        self.emit(ir.Return())

    def buffer_of(self, block: ir.Reg) -> CBDecl:
        """The buffer a block is read from: its partials or local buffer, else its own buffer."""
        return self.shadows.get(block.name) or self.origin[block.name]

    def startup_buffers(self) -> tuple[int, int, int]:
        """The buffers of the first store: hardware start-up configures unpack and pack for them."""
        for op in ir.walk(self.thread.body):
            if isinstance(op, ir.STORE_OPS):
                leaves = [self.buffer_of(r).index for r in self.leaf_blocks(op.value)] or [self.buffer_of(op.block).index]
                return leaves[0], leaves[1 if len(leaves) > 1 else 0], self.buffer_of(op.block).index
        first = self.program.cbs[0].index if self.program.cbs else 0
        return first, first, first

    def scaler(self) -> CBDecl:
        """A one-tile buffer of ones that reduce_tile multiplies by, filled once at kernel start."""
        return self.constant_tile("reduce_scaler", "1.0f", Added.REDUCE_SCALER, "reduce scaler: one tile of 1.0")

    def constant_tile(self, name: str, value: str, why: Added, what: str) -> CBDecl:
        """A one-tile bfloat16 buffer holding ``value`` everywhere, filled once at kernel start."""
        if name not in self._constants:
            self._constants[name] = cb = self.ctx.new_cb(name, (1, 1), bfloat16, why, f"kernel '{self.kernel.name}'")
            one = ir.Const(0)
            code = [kir.Comment(text=f"{what}, filled once"),
                    kir.Call(fn="cb_reserve_back", args=[kir.BufferId(cb.index), ir.Const(1)]),
                    kir.Call(fn="tile_regs_acquire"), kir.Call(fn=FILL.init),
                    kir.Call(fn=FILL.call, args=[one, ir.Const(value)]), kir.Call(fn="tile_regs_commit"),
                    kir.Call(fn="tile_regs_wait"), kir.Call(fn="pack_tile", args=[one, kir.BufferId(cb.index)]),
                    kir.Call(fn="tile_regs_release"), kir.Call(fn="cb_push_back", args=[kir.BufferId(cb.index), ir.Const(1)]),
                    kir.Call(fn="cb_wait_front", args=[kir.BufferId(cb.index), ir.Const(1)])]
            self.include(FILL.header)
            self.kernel.body[1:1] = code
        return self._constants[name]

    def leaf_blocks(self, reg: ir.Reg) -> list[ir.Reg]:
        op = self.defs.get(reg.name)
        if op is None:
            return [reg] if isinstance(reg.type, BlockType) else []
        return [leaf for sub in op.operands() if isinstance(sub, ir.Reg) for leaf in self.leaf_blocks(sub)]

    # ---------------------------------------------------------------- buffers
    def lower_CBReserve(self, op: ir.CBReserve) -> None:
        self.call("cb_reserve_back", kir.BufferId(op.cb.index), ir.Const(_tiles(op.cb.shape)))
        if op.result.name in self.shadows:
            self.emit(ir.Assign(result=self.written[op.result.name], value=ir.Const(False)))
            self.known_unwritten.add(op.result.name)

    def lower_CBWait(self, op: ir.CBWait) -> None:
        self.call("cb_wait_front", kir.BufferId(op.cb.index), ir.Const(_tiles(op.cb.shape)))

    def lower_CBPush(self, op: ir.CBPush) -> None:
        shadow = self.shadows.get(op.block.name) if op.block is not None else None
        if shadow is not None and op.block.name in self.packed_into_block:  # packed there from DST
            self.packed_into_block.discard(op.block.name)
            shadow = None
        if op.block is None and any(self.origin.get(name) is op.cb for name in self.shadows):
            self.fail("cb.push() of a block accumulated with '+=' (name the block: blk.push() or `with`)")
        if shadow is not None:  # the accumulated value moves from its partial buffer into the block
            n = ir.Const(_tiles(shadow.shape))
            self.emit(kir.Comment(text=f"{op.block.name}: final value from its partial buffer"))
            self.call("cb_wait_front", kir.BufferId(shadow.index), n)
            leaf = Node("leaf", op.block, shadow.shape, cb=shadow)
            self.evaluate(Node("copy", None, shadow.shape, [leaf]), op.cb, accumulate=None)
            self.call("cb_pop_front", kir.BufferId(shadow.index), n)
        self.call("cb_push_back", kir.BufferId(op.cb.index), ir.Const(_tiles(op.cb.shape)))

    def lower_CBPop(self, op: ir.CBPop) -> None:
        self.call("cb_pop_front", kir.BufferId(op.cb.index), ir.Const(_tiles(op.cb.shape)))

    def lower_expression(self, op: ir.Op) -> None:
        """Expression ops produce nothing by themselves: the store that consumes them does."""

    lower_TileUnary = lower_TileBinary = lower_TileMatmul = lower_TileReduce = lower_expression
    lower_TileBroadcast = lower_TileTranspose = lower_TileReshape = lower_TileFill = lower_TileWhere = lower_expression
    lower_TileRound = lower_expression

    # control flow: every nested body (a loop's, each branch of an if) starts with the
    # configuration unknown, and so does the code after it; prune_redundant_inits then drops the
    # inits that the paths into them already hold
    @contextmanager
    def into(self, body: list[ir.Op]) -> Iterator[None]:
        self.state = None
        self.known_unwritten.clear()  # a nested body may run again, after a store
        with super().into(body):
            yield
        self.state = None
        self.known_unwritten.clear()

    # ---------------------------------------------------------------- K loops in DST
    def lower_body(self, ops: list[ir.Op]) -> None:
        for index, op in enumerate(ops):
            self.following = ops[index + 1] if index + 1 < len(ops) else None
            super().lower_body([op])

    #: the op after the one being lowered, in its body (None at the end)
    following: ir.Op | None = None

    def lower_For(self, op: ir.For) -> None:
        store = self.resident_accumulation(op)
        if store is not None:
            self.accumulate_in_dst(op, store)
            return
        final = self.final_step_store(op)
        if final is not None:
            self.final_steps[final] = op
        zero, self.starts_at_zero = self.starts_at_zero, None
        if zero is not None:
            self.zero_until_written.add(zero)
            if final is not None and _trip_count(op) == 1 and [final] == [
                    o for o in ir.walk(op.body) if isinstance(o, ir.STORE_OPS) and o.block.name == zero]:
                self.zero_only_step = final
        super().lower_For(op)
        self.zero_until_written.discard(zero)

    def zeroes_a_resident_block(self, op: ir.Op) -> bool:
        """``y.store(fill(0))`` right before a loop that only adds products into ``y``: DST starts
        at zero (tile_regs_release clears it), so the store is only the drop of ``y``'s old value.
        A loop that keeps ``y`` in DST starts from the cleared DST; any other such loop (with at
        least one iteration) skips copying ``y`` into DST while ``y`` is still unwritten."""
        fill = self.defs.get(getattr(op.value, "name", None))
        if not (isinstance(fill, ir.TileFill) and isinstance(fill.value, ir.Const) and fill.value.value == 0
                and not op.accumulate and isinstance(self.following, ir.For)):
            return False
        store = self.resident_accumulation(self.following)
        if store is not None:
            return store.block.name == op.block.name
        return self.only_accumulates_products(self.following, op.block.name)

    def only_accumulates_products(self, loop: ir.For, name: str) -> bool:
        """Whether ``loop`` runs at least once and touches block ``name`` only through
        ``name += a @ b`` (or ``name = name + a @ b``): then its value is only ever read as the
        addend DST holds before a matmul, which a cleared DST stands for while it is zero."""
        if not _stores_every_iteration(loop, name) or name not in self.shadows:
            return False
        stores = [o for o in ir.walk(loop.body) if isinstance(o, ir.STORE_OPS) and o.block.name == name]
        if any(self.accumulated_product(s) is None for s in stores):
            return False
        sums = {id(self.defs.get(s.value.name)) for s in stores}  # the `name + a @ b` of a local block
        return not any(_reads(o, name) for o in ir.walk(loop.body)
                       if not isinstance(o, ir.STORE_OPS) and id(o) not in sums)

    def final_step_store(self, loop: ir.For) -> ir.Op | None:
        """The store whose last iteration can pack into the block's own buffer: the last store
        of the block pushed right after ``loop``, in the loop's own body, with nothing after it
        there touching the block. None when there is no such store or the loop may not run."""
        pushed = self.following
        if not (isinstance(pushed, ir.CBPush) and pushed.block is not None):
            return None
        name = pushed.block.name
        if name not in self.shadows or name not in self.origin or not _stores_every_iteration(loop, name):
            return None
        stores = [o for o in loop.body if isinstance(o, ir.STORE_OPS) and o.block.name == name]
        rest = loop.body[loop.body.index(stores[-1]) + 1:]
        if any(_reads(o, name) for o in ir.walk(rest)):
            return None
        return stores[-1]

    def resident_accumulation(self, op: ir.For) -> ir.Op | None:
        """The store of a K loop whose body only waits for operand blocks, adds their product
        into one reserved (or local) block, ``y += a @ b``, and pops them; None for any other loop.
        Such a loop keeps ``y`` in DST across its iterations when ``y`` fits there."""
        stores = [o for o in op.body if isinstance(o, ir.STORE_OPS)]
        if len(stores) != 1:
            return None
        if any(not isinstance(o, (ir.CBWait, ir.CBPop, *ir.STORE_OPS, *ir.EXPR_OPS)) for o in op.body):
            return None
        store = stores[0]
        matmul = self.accumulated_product(store)
        shadow = self.shadows.get(store.block.name)
        if matmul is None or shadow is None or _tiles(shadow.shape) > self.capacity or shadow.fmt != float32 \
                or len(matmul.lhs.type.shape) > 2:
            return None  # (a block of another format rounds each partial sum as it is stored; a batched product)
        operands = (self.defs.get(r.name) for r in (matmul.lhs, matmul.rhs))
        if any(o is not None for o in operands) or {matmul.lhs.name, matmul.rhs.name} & set(self.shadows):
            return None  # computed operands, or another accumulated block: the general path
        return store

    def accumulated_product(self, store: ir.Op) -> ir.TileMatmul | None:
        """The matmul of ``y += a @ b`` or of ``acc = acc + a @ b`` (a local block), else None."""
        if store.accumulate:
            return patterns.accumulates_into(store.value, True, self.defs)
        value = self.defs.get(store.value.name)
        fused = patterns.accumulated_matmul(value, self.defs) if value is not None else None
        if fused is None or getattr(fused[0], "name", None) != store.block.name:
            return None
        return fused[1]

    def accumulate_in_dst(self, op: ir.For, store: ir.Op) -> None:
        """``for k: y += a @ b`` with ``y`` held in DST: its current value is copied in once, each
        iteration's ``matmul_block`` accumulates onto it, and it is packed once after the loop (the
        general path packs and unpacks ``y`` through its partials buffer on every iteration)."""
        name = store.block.name
        shadow = self.shadows[name]
        pushed = self.following  # read before the body's lowering moves it
        n = ir.Const(_tiles(shadow.shape))
        rows, cols = _grid(shadow.shape)
        self.chunk_tiles = rows * cols
        self.emit(kir.Comment(text=f"{name} stays in DST across the loop: the products accumulate there"))
        self.call("tile_regs_acquire")
        if self.starts_at_zero != name:  # the value so far, if any, is copied in once
            current = ir.If(cond=self.written[name])
            self.emit(current)
            with self.into(current.then_body):
                self.call("cb_wait_front", kir.BufferId(shadow.index), n)
                leaf = Node("leaf", store.block, shadow.shape, cb=shadow)
                self.emit_copy(Node("copy", None, shadow.shape, [leaf]), ir.Const(0), ir.Const(0), rows, cols, 1)
                self.call("cb_pop_front", kir.BufferId(shadow.index), n)
        self.starts_at_zero = None
        self.resident = store
        try:
            super().lower_For(op)
        finally:
            self.resident = None
        direct = isinstance(pushed, ir.CBPush) and pushed.block is not None and pushed.block.name == name \
            and name in self.origin  # pushed right after the loop: packed into the block itself
        self.call("tile_regs_commit")
        self.call("tile_regs_wait")
        out = self.origin[name] if direct else shadow
        if not direct:
            self.call("cb_reserve_back", kir.BufferId(shadow.index), n)
        self.tiles(rows, cols, ir.Const(0), ir.Const(0), lambda i, j, t, _: self.call(
            "pack_tile", t, kir.BufferId(out.index), self.tile_index(i, j, cols)))
        self.call("tile_regs_release")
        if direct:
            self.packed_into_block.add(name)
        else:
            self.call("cb_push_back", kir.BufferId(shadow.index), n)
        self.emit(ir.Assign(result=self.written[name], value=ir.Const(not direct)))
        if not direct:
            self.known_unwritten.discard(name)

    #: the store of the K loop being lowered with its block in DST (``accumulate_in_dst``)
    resident: ir.Op | None = None
    #: the block whose zero-fill right before its DST-resident loop was dropped
    starts_at_zero: str | None = None
    #: the one store of a block in a K loop that runs once, right after the block's zero-fill was
    #: dropped: its addend is DST's zero and it packs into the block, so the partials buffer is unused
    zero_only_step: ir.Op | None = None

    # ---------------------------------------------------------------- planning
    def node(self, operand: Any, root: bool = False) -> Node:
        """The plan of ``operand``'s expression tree (``root``: the value a store packs)."""
        if isinstance(operand, ir.Const):
            return Node("const", None, (), value=operand.value)
        staged = self.staged_exact.get(operand.name) or self.staged.get(operand.name)
        if staged is not None:  # this store already evaluated it into an intermediate buffer
            return Node("leaf", staged.op, staged.shape, cb=staged.cb)
        op = self.defs.get(operand.name)
        if op is None:
            if not isinstance(operand.type, BlockType):
                return Node("const", None, (), value=operand)  # a runtime scalar register
            cb = self.shadows.get(operand.name) or self.origin[operand.name]
            return Node("leaf", operand, operand.type.shape, cb=cb)
        shape = op.result.type.shape
        fmt = _integer_format(op)
        if fmt is not None:
            return self.integer_node(op, shape, fmt)
        if isinstance(op, ir.TileUnary) and op.fn in MIRRORED_UNARY:  # -g(-x): threshold from threshold_le
            inner, transform = MIRRORED_UNARY[op.fn]
            negated = Node("unary", ir.TileUnary(result=op.result, fn="neg", x=op.x), shape, [self.node(op.x)])
            mirrored = Node("unary", ir.TileUnary(result=op.result, fn=inner, x=op.x, params=transform(*op.params)),
                            shape, [negated])
            return Node("unary", ir.TileUnary(result=op.result, fn="neg", x=op.x), shape, [mirrored])
        if isinstance(op, ir.TileUnary) and op.fn in COMPOSITE_UNARY:  # e.g. x * hardsigmoid(x)
            inner, combine = COMPOSITE_UNARY[op.fn]
            x = self.node(op.x)
            first = Node("unary", ir.TileUnary(result=op.result, fn=inner, x=op.x), shape, [self.node(op.x)])
            return Node("sfpu", _Binary(combine), shape, [x, first])
        if isinstance(op, ir.TileUnary):
            if op.fn not in UNARY:
                self.fail(f"ttl.math.{op.fn}")
            return Node("unary", op, shape, [self.node(op.x)])
        if isinstance(op, ir.TileBinary):
            return self.binary_node(op, shape)
        if isinstance(op, ir.TileMatmul):
            transposed = self.transposed_operand(op)
            rhs = self.buffered(transposed.x) if transposed is not None else self.buffered(op.rhs)
            operands = [self.buffered(op.lhs), rhs]
            self.warn_tf32("a matmul", op.loc, *operands)
            return Node("matmul", op, shape, operands, value=TRANSPOSED_RHS if transposed is not None else None)
        if isinstance(op, ir.TileReduce):
            if op.scaler is not None:
                self.fail("a reduce with a scaler block")
            node = Node("reduce", op, shape, [self.buffered(op.x)], cb=self.scaler())
            self.warn_tf32(f"reduce_{op.kind}", op.loc, *node.children)
            if op.kind == "sum" and not root:
                # a sum leaves partial sums outside its result row/column, which only the packer's
                # reduce mask clears: packed through a buffer, the operand is the clean tile
                return self.through_buffer(node, op.result)
            return node
        if isinstance(op, ir.TileBroadcast):
            return Node("bcast", op, shape, [self.buffered(op.x)])
        if isinstance(op, ir.TileTranspose):
            operand = self.buffered(op.x)
            self.warn_tf32("transpose", op.loc, operand)
            return Node("transpose", op, shape, [operand])
        if isinstance(op, ir.TileReshape):  # the same tiles in the same order: the buffer on another grid
            source = self.buffered(op.x)
            return Node("leaf", source.op, shape, cb=source.cb)
        if isinstance(op, ir.TileRound):  # the program's rounding point: packed into a buffer of its format
            inner = self.node(op.x)
            if inner.kind == "leaf" and inner.cb.fmt == op.result.type.fmt:
                return inner  # a block already in that format: nothing to round
            return self.through_buffer(inner, op.result, op.result.type.fmt)
        if isinstance(op, ir.TileFill):
            return Node("fill", op, shape, [self.node(op.value)])
        if isinstance(op, ir.TileWhere):  # a number operand is filled into a DST tile of its own
            children = [self.node(o) for o in (op.cond, op.if_true, op.if_false)]
            return Node("where", op, shape, [Node("fill", None, shape, [c]) if c.kind == "const" else c
                                             for c in children])
        self.fail(f"'{op.name}'")

    def integer_node(self, op: ir.TileUnary | ir.TileBinary | ir.TileWhere, shape: tuple[int, ...],
                     fmt: DataFormat) -> Node:
        """Block math on Int32/UInt32 blocks, with 0.81.1's integer SFPU calls (``optable.INT_*``):
        every operand is in DST, in ``fmt`` (a number is filled in with ``fill_tile_int``), and the
        node's ``value`` is ``fmt``, which selects the integer calls. The float calls would compute
        on the integers' bit patterns as floats (and the FPU cannot read 32-bit integers), so what
        has no integer call stops here (E3001) with what 0.81.1 lacks."""
        what = f"block math ('{op.fn}') on {fmt.metal_name} blocks" if not isinstance(op, ir.TileWhere) \
            else f"'where' on {fmt.metal_name} blocks"
        for operand in op.operands():
            if isinstance(operand, ir.Const) and not _fits(operand.value, fmt):
                self.fail(f"{what} with the number {operand.value!r}", hint=_INTEGER_NUMBERS.format(fmt=fmt.name))
            if isinstance(operand, ir.Reg) and not isinstance(operand.type, BlockType):
                self.fail(f"{what} with a runtime scalar", hint="fill_tile_int takes a number the kernel knows; "
                          "compute in a float format, or run at the language level")
            if isinstance(operand, ir.Reg) and operand.type.fmt != fmt:
                self.fail(f"{what} mixed with a {operand.type.fmt.name} block", hint="0.81.1's integer calls take "
                          "operands of one format: convert the other block first")
        if isinstance(op, ir.TileWhere):
            children = [self.integer_operand(o, shape, fmt) for o in (op.cond, op.if_true, op.if_false)]
            return Node("where", op, shape, children, value=fmt)
        if isinstance(op, ir.TileUnary) and op.fn in INTEGER_COMPOSITES:  # x * x, v - x
            binary, operands = INTEGER_COMPOSITES[op.fn](op.x, *mathops.full_params(op.fn, op.params))
            for number in (o for o in operands if not isinstance(o, ir.Reg) and not _fits(o, fmt)):
                self.fail(f"{what} with the number {number!r}", hint=_INTEGER_NUMBERS.format(fmt=fmt.name))
            return Node("sfpu", _Binary(binary), shape, [self.integer_operand(o, shape, fmt) for o in operands],
                        value=fmt)
        if isinstance(op, ir.TileUnary):
            if (op.fn, fmt.name) not in INT_UNARY:
                self.fail(what, hint=f"0.81.1 has no {fmt.name} form of '{op.fn}' (its integer unary calls are "
                          f"{', '.join(s.call for s in INT_UNARY.values())}): compute in a float format, or run "
                          "at the language level")
            return Node("unary", op, shape, [self.integer_operand(op.x, shape, fmt)], value=fmt)
        if (op.fn, fmt.name) not in INT_SFPU_BINARY:
            self.fail(what, hint=f"0.81.1 has no {fmt.name} SFPU call for '{op.fn}' (its integer binaries are "
                      "add_int_tile, sub_int_tile, mul_int_tile, binary_max/min_int32/uint32_tile and the "
                      "comparisons *_int_tile): compute in a float format, or run at the language level")
        return Node("sfpu", op, shape, [self.integer_operand(o, shape, fmt) for o in (op.lhs, op.rhs)], value=fmt)

    def integer_operand(self, operand: Any, shape: tuple[int, ...], fmt: DataFormat) -> Node:
        """An operand of integer block math: a number is filled into a DST tile of ``fmt``; a
        broadcast, reduce, transpose or matmul of integers (the FPU's paths) is refused."""
        node = self.node(operand if isinstance(operand, (ir.Reg, ir.Const)) else ir.Const(operand))
        if node.kind not in ("const", "leaf", "fill", "sfpu", "unary", "where"):
            self.fail(f"a {node.kind} of {fmt.metal_name} blocks in block math", hint="it reads the blocks through "
                      "the FPU's source registers, which cannot hold 32-bit integers: compute in a float format")
        return Node("fill", None, shape, [node], value=fmt) if node.kind == "const" else node

    def transposed_operand(self, op: ir.TileMatmul) -> ir.TileTranspose | None:
        """``a @ transpose(k)`` (attention's ``q @ k^T``) with ``k`` two-dimensional: the matrix unit
        transposes each tile of ``k`` as it unpacks it (``matmul_block``'s transpose flag, as ttnn's
        SDPA kernel reads K), so no transpose pass and no buffer for ``k^T``. The values are those of
        the transpose pass, which reads the same tiles through the same source register."""
        rhs = self.defs.get(op.rhs.name) if isinstance(op.rhs, ir.Reg) else None
        if not isinstance(rhs, ir.TileTranspose) or op.rhs.name in self.staged:
            return None
        if len(op.lhs.type.shape) != 2 or len(rhs.x.type.shape) != 2:
            return None
        return rhs

    def warn_tf32(self, what: str, loc: Any, *operands: Node) -> None:
        """W3002 at the store: the FPU reads this user's Float32 block as TF32 on the device
        (no UnpackToDestFp32 path exists for matmul, reduce or transpose), which the language
        level, computing in fp32, does not show."""
        for leaf in operands:
            name = getattr(leaf.op, "name", None)
            if leaf.cb.fmt == float32 and (name in self.origin or name in self.shadows) and name not in self.computed_once:
                block = f"a block of '{self.origin[name].name}'" if name in self.origin else f"block '{name}'"
                warn("W3002", f"{what} reads {block.replace('block', 'Float32 block', 1)} through the FPU's source registers, which hold "
                     "TF32 on the device: the low 13 mantissa bits of every value are dropped there, while "
                     "tilecraft run computes with all of them", loc or self.loc,
                     hint="expect TF32 precision (about 3 decimal digits) from this operation on the device "
                     "(docs/numerics.md section 4), or keep the block in bfloat16 if that precision is enough")

    def binary_node(self, op: ir.TileBinary, shape: tuple[int, ...]) -> Node:
        lhs, rhs = self.node(op.lhs), self.node(op.rhs)
        reciprocal = exact_reciprocal(rhs.value) if op.fn == "div" and rhs.kind == "const" else None
        if reciprocal is not None and lhs.kind != "const":  # x / 2.0 is x * 0.5, bit for bit
            return Node("scalar", _Binary("mul"), shape, [lhs, Node("const", None, (), value=reciprocal)])
        if rhs.kind == "const" and op.fn in SCALAR_BINARY and lhs.kind != "const":
            return Node("scalar", op, shape, [lhs, rhs])
        if rhs.kind == "const" and op.fn == "pow" and isinstance(rhs.value, float) and rhs.value.is_integer():
            return Node("power", op, shape, [lhs, rhs])
        fused = patterns.accumulated_matmul(op, self.defs)
        if fused is not None:  # x + a @ b: x goes into the slot matmul_tiles accumulates into
            addend_on_left = fused[0] is op.lhs
            addend, mm = (lhs, rhs) if addend_on_left else (rhs, lhs)
            return Node("matmul_acc", op, shape, [addend, *mm.children], value=mm.value)
        if binary_unit(op.fn, routing_operand(lhs), routing_operand(rhs)) is Unit.FPU:
            if rhs.kind == "leaf":
                return Node("fpu", op, shape, [lhs, rhs])
            return Node("fpu_bcast", op, shape, [lhs, rhs.children[0]], value=rhs.op.dims)
        if op.fn == "floordiv":
            self.fail("'//' between blocks", hint="Metalium 0.81.1 has no floor division of tiles (nor does the "
                      "published TT-Lang compiler); write ttl.math.floor(a / b) if that rounding is what you need")
        if op.fn not in SFPU_BINARY:
            self.fail(f"block '{op.fn}' with these operands")
        # a number without a scalar form of the operation (c - x, x ** 2.5, max(x, 0), x > 0) is
        # filled into a DST tile of its own, and the SFPU combines the two tiles
        lhs, rhs = (Node("fill", None, shape, [o]) if o.kind == "const" else o for o in (lhs, rhs))
        return Node("sfpu", op, shape, [lhs, rhs])

    def buffered(self, operand: ir.Reg) -> Node:
        """A node that must be read from a buffer: computed operands go through an intermediate one
        (once per store: a second operand of the same expression reads the same buffer)."""
        if operand.name in self.staged:  # the copy the FPU's source registers read
            staged = self.staged[operand.name]
            return Node("leaf", staged.op, staged.shape, cb=staged.cb)
        node = self.node(operand)
        if operand.name in self.fpu_twins:  # packed beside the block at its store
            return Node("leaf", operand, node.shape, cb=self.fpu_twins[operand.name])
        if node.kind == "leaf":
            return node
        return self.through_buffer(node, operand)

    def read_both_ways(self, names: set[str]) -> set[str]:
        """The blocks of ``names`` that the kernel copies into DST and also reads through the FPU's
        source registers (matmul, reduce, transpose). A Float32 buffer reaches DST whole only when
        the kernel only copies it (UnpackToDestFp32): such a block is also packed, from the same
        DST tiles, into a second buffer for the FPU's reads (:attr:`fpu_twins`), which then lose
        what they always lost (TF32, as a computed operand's intermediate), and its other reads
        keep every bit, as DST held it before."""
        through_fpu, copied = set(), set()
        for op in ir.walk(self.thread.body):
            fpu = {r.name for r in ((op.lhs, op.rhs) if isinstance(op, ir.TileMatmul) else
                                    (op.x,) if isinstance(op, (ir.TileReduce, ir.TileTranspose)) else ())}
            through_fpu |= fpu & names
            copied |= {r.name for r in op.operands() if isinstance(r, ir.Reg) and r.name in names} - fpu
        return through_fpu & copied

    def read_by_both_units(self, value: Any) -> list[ir.Reg]:
        """The computed expressions of one store's tree that an operation reading buffers (matmul,
        reduce, broadcast, transpose) reads and another operation reads in DST (softmax's ``e`` in
        ``e * recip(reduce_sum(e))``), innermost first."""
        from_buffer: dict[str, ir.Reg] = {}
        in_dst: set[str] = set()
        order: list[str] = []

        def walk(reg: Any) -> None:
            op = self.defs.get(reg.name) if isinstance(reg, ir.Reg) else None
            if op is None or reg.name in order:
                return
            for r in op.operands():
                walk(r)
            order.append(reg.name)
            reads_buffers = (op.lhs, op.rhs) if isinstance(op, ir.TileMatmul) else \
                (op.x,) if isinstance(op, (ir.TileReduce, ir.TileBroadcast, ir.TileTranspose)) else ()
            for r in op.operands():
                if not isinstance(r, ir.Reg) or r.name not in self.defs:
                    continue
                if any(r is b for b in reads_buffers):
                    from_buffer[r.name] = r
                else:
                    in_dst.add(r.name)
        walk(value)
        return [from_buffer[name] for name in order if name in from_buffer and name in in_dst
                and not isinstance(self.defs[name], (ir.TileReshape, ir.TileBroadcast, ir.TileTranspose, ir.TileRound))]

    def stage_both_ways(self, operand: ir.Reg) -> None:
        """Evaluate ``operand`` once and pack it into two intermediate buffers: one the FPU's source
        registers read (TF32, as every computed operand of theirs), one the kernel only copies into
        DST (UnpackToDestFp32: all 32 bits, the value DST held), where it would otherwise be
        computed again for its reads in DST. Both hold the same fp32 tiles: the bits are those of
        computing it at each use."""
        node = self.node(operand)
        tiles = ir.Const(_tiles(node.shape))
        fpu, exact = (self.ctx.intermediate_cb(self.kernel, operand.type) for _ in range(2))
        self.emit(kir.Comment(text=f"intermediate buffers {fpu.index} (read by the FPU) and {exact.index} "
                                   f"(copied into DST) hold one computed operand"))
        for cb in (fpu, exact):
            self.call("cb_reserve_back", kir.BufferId(cb.index), tiles)
        self.evaluate(node, fpu, accumulate=None, also=exact)
        for cb in (fpu, exact):
            self.call("cb_push_back", kir.BufferId(cb.index), tiles)
            self.call("cb_wait_front", kir.BufferId(cb.index), tiles)
            self.pending_pops.append(cb)
        self.staged[operand.name] = Node("leaf", operand, node.shape, cb=fpu)
        self.staged_exact[operand.name] = Node("leaf", operand, node.shape, cb=exact)

    def through_buffer(self, node: Node, operand: ir.Reg, fmt: DataFormat = float32) -> Node:
        """Evaluate ``node`` into an intermediate buffer (of ``fmt``: fp32 unless the program rounds
        the operand) now; the leaf that reads it back."""
        cb = self.ctx.intermediate_cb(self.kernel, operand.type, fmt)
        self.emit(kir.Comment(text=f"intermediate buffer {cb.index} holds a computed operand"))
        self.call("cb_reserve_back", kir.BufferId(cb.index), ir.Const(_tiles(node.shape)))
        self.evaluate(node, cb, accumulate=None)
        self.call("cb_push_back", kir.BufferId(cb.index), ir.Const(_tiles(node.shape)))
        self.call("cb_wait_front", kir.BufferId(cb.index), ir.Const(_tiles(node.shape)))
        self.pending_pops.append(cb)
        self.staged[operand.name] = Node("leaf", operand, node.shape, cb=cb)
        return Node("leaf", operand, node.shape, cb=cb)

    def allocate(self, node: Node, free: int = 0) -> int:
        """Assign DST slots from ``free`` up; returns one past the highest slot used.

        SFPU binaries and ``where`` hold every operand in DST (buffer operands are copied in);
        unary-like nodes work in place on their operand's slot; FPU, matmul, reduce, broadcast,
        transpose and fill read buffers (or nothing) and write one slot.
        """
        use = _DST_USE[node.kind]
        if use == "held":  # computed before the tree; its slot is the expression's (allocate_all)
            return free
        if use == "operands":
            used, live = free, free
            for child in node.children:
                if child.kind == "held":
                    continue
                used = max(used, self.allocate(child, live))
                live += 1
            if node.children[0].kind == "held":  # the shared value stays: the result takes a slot of its own
                node.slot = live
                return max(used, live + 1)
            node.slot = node.children[0].slot
            return max(used, live)
        if use == "in_place":
            used = self.allocate(node.children[0], free)
            node.slot = node.children[0].slot
            return used
        node.slot = free
        return free + 1

    # ---------------------------------------------------------------- emission
    def lower_BlockStore(self, op: ir.BlockStore) -> None:
        self.staged, self.staged_exact = {}, {}  # intermediates live for one store (popped at its end)
        for block in (op.block, *self.leaf_blocks(op.value)):
            if not block.type.unit.tiled:
                self.fail("block math on a row-major (scalar-unit) block", hint="the compute engine works on "
                          "32x32 tiles: make the buffer like a tile-layout tensor")
        if self.zeroes_a_resident_block(op):
            self.emit(kir.Comment(text=f"{op.block.name} starts at zero in DST: only its old value is dropped"))
            if op.block.name not in self.known_unwritten:
                self.release_partial(op.block.name)
                self.emit(ir.Assign(result=self.written[op.block.name], value=ir.Const(False)))
            self.starts_at_zero = op.block.name
            return
        if op is self.resident:  # the product lands on the block's value held in DST
            matmul = self.node(self.accumulated_product(op).result)
            rows, cols = _grid(matmul.shape)
            self.emit_matmul_block(matmul, ir.Const(0), ir.Const(0), rows, cols, ir.Const(0))
            return
        self.pending_pops: list[CBDecl] = []
        shadow = self.shadows.get(op.block.name)
        only_step = op is self.zero_only_step
        if only_step:
            self.zero_only_step = None
        # blocks accumulated with += (and local blocks) are read from their partials buffers: wait
        # for their values before the expression is built, since building it evaluates computed
        # operands of broadcasts and reductions into intermediate buffers right away
        for name in dict.fromkeys(leaf.name for leaf in self.leaf_blocks(op.value)):
            if name in self.shadows and not (only_step and name == op.block.name):
                self.wait_current(name)
        value = self.unrounded(op)
        for shared in self.read_by_both_units(value):
            self.stage_both_ways(shared)
        root = self.node(value, root=True)
        if shadow is None:
            final = op.value.name if op.value.name in self.rotating else None  # a local block's final value
            self.evaluate(root, self.origin[op.block.name], accumulate=None, rotating=final,
                          out_of_order=op in self.repacked)
            if final is not None:  # each chunk was popped as it was copied out
                self.emit(ir.Assign(result=self.written[final], value=ir.Const(False)))
        else:
            if op.accumulate:
                if root.kind == "reduce" and root.op.kind == "sum":  # an operand of the +: clean it
                    root = self.through_buffer(root, op.value)
                current = Node("leaf", op.block, shadow.shape, cb=shadow)
                fused = patterns.accumulates_into(op.value, True, self.defs) is not None
                root = (Node("matmul_acc", None, root.shape, [current, *root.children]) if fused
                        else Node("sfpu", _ADD, root.shape, [current, root], value=_integer(shadow.fmt)))
                if not only_step:
                    self.wait_current(op.block.name)
            if op.block.name in self.zero_until_written and root.kind == "matmul_acc":
                root.children[0].guard = ir.Const(False) if only_step else self.written[op.block.name]
            loop = self.final_steps.pop(op, None)
            if loop is None:
                self.store_partial(op.block.name, root)
            else:
                self.store_final_step(op.block.name, loop, root, only_step)
        for cb in self.pending_pops:
            self.call("cb_pop_front", kir.BufferId(cb.index), ir.Const(_tiles(cb.shape)))
        self.staged, self.staged_exact = {}, {}

    lower_LocalStore = lower_BlockStore

    def unrounded(self, store: ir.Op) -> ir.Reg:
        """The value ``store`` packs into its buffer (``patterns.packed_value``)."""
        return patterns.packed_value(store, self.defs, self.buffer_of(store.block).fmt)

    def wait_current(self, name: str) -> None:
        """Wait for the value of ``name`` at the front of its partials buffer (only once it was
        written, for a block whose zero-fill was dropped)."""
        shadow = self.shadows[name]
        body = self._stack[-1]
        if name in self.zero_until_written:
            written = ir.If(cond=self.written[name])
            self.emit(written)
            body = written.then_body
        with super().into(body):
            for cb in (shadow, *self.twin_of(name)):
                self.call("cb_wait_front", kir.BufferId(cb.index), ir.Const(_tiles(cb.shape)))

    def twin_of(self, name: str) -> tuple[CBDecl, ...]:
        """The FPU's copy of block ``name`` (:attr:`fpu_twins`), if it has one."""
        twin = self.fpu_twins.get(name)
        return (twin,) if twin is not None else ()

    def store_final_step(self, name: str, loop: ir.For, root: Node, only_step: bool = False) -> None:
        """The store of ``name`` in ``loop`` whose last iteration packs ``root`` straight into the
        block's own (reserved) buffer, as hand-written kernels pack their last K block into the
        output buffer; the other iterations store into the partials buffer (a loop that runs
        once has only the last step; ``only_step``: nor anything in the partials buffer to drop)."""
        first, _, step = _bounds(loop)
        trips = _trip_count(loop)
        last_body = else_body = self._stack[-1]
        if trips > 1:
            last = self.reg(f"{name}_last_step", BOOL)
            self.emit(ir.Compare(result=last, op="eq", lhs=self.loop_counters[loop],
                                 rhs=ir.Const(first + (trips - 1) * step)))
            branch = ir.If(cond=last)
            self.emit(branch)
            last_body, else_body = branch.then_body, branch.else_body
        with self.into(last_body):
            self.emit(kir.Comment(text=f"{name}: the last step packs its final value into the block"))
            self.evaluate(root, self.origin[name], accumulate=None)
            if not only_step:
                self.release_partial(name)
            self.emit(ir.Assign(result=self.written[name], value=ir.Const(False)))
        if trips > 1:
            with self.into(else_body):
                self.store_partial(name, root)
        self.packed_into_block.add(name)

    def store_partial(self, name: str, root: Node) -> None:
        """Evaluate ``root`` into the partials (or local) buffer of ``name``, behind its current
        value, then drop the current value: the buffer's front always holds the latest one."""
        shadow = self.shadows[name]
        # a local block's value may never have been read (a running max set again before the
        # next query block reads it): wait for it, as a pop needs (the emulator's E5202)
        wait = name in self.local_block_names
        if name in self.rotating:
            if not any(leaf.cb is shadow for leaf in _leaves(root)):  # a fill: the old value is dropped first
                self.release_partial(name, wait=wait)
                self.emit(ir.Assign(result=self.written[name], value=ir.Const(False)))
            self.evaluate(root, shadow, accumulate=None, rotating=name)
        else:
            n = ir.Const(_tiles(shadow.shape))
            buffers = (shadow, *self.twin_of(name))
            for cb in buffers:
                self.call("cb_reserve_back", kir.BufferId(cb.index), n)
            self.evaluate(root, shadow, accumulate=None, also=self.fpu_twins.get(name))
            for cb in buffers:
                self.call("cb_push_back", kir.BufferId(cb.index), n)
            self.release_partial(name, wait=wait)
        self.emit(ir.Assign(result=self.written[name], value=ir.Const(True)))
        self.known_unwritten.discard(name)

    def release_partial(self, name: str, wait: bool = False) -> None:
        """Pop the value at the front of ``name``'s partials buffer, if one was stored; ``wait``
        first when that value may not have been waited for (the last value of a local block
        whose final store did not read it)."""
        shadow = self.shadows[name]
        drop = ir.If(cond=self.written[name])
        self.emit(drop)
        with self.into(drop.then_body):
            if wait:
                self.call("cb_wait_front", kir.BufferId(shadow.index), ir.Const(_tiles(shadow.shape)))
            for twin in self.twin_of(name):  # its FPU copy may not have been read: waited for first
                self.call("cb_wait_front", kir.BufferId(twin.index), ir.Const(_tiles(twin.shape)))
                self.call("cb_pop_front", kir.BufferId(twin.index), ir.Const(_tiles(twin.shape)))
            chunk = self.rotating.get(name)
            if chunk is None:
                self.call("cb_pop_front", kir.BufferId(shadow.index), ir.Const(_tiles(shadow.shape)))
            else:  # a rotating buffer is popped a chunk at a time, as it is pushed
                _, body = self.loop("chunk", _tiles(shadow.shape) // chunk)
                with self.into(body):
                    self.call("cb_pop_front", kir.BufferId(shadow.index), ir.Const(chunk))

    def evaluate(self, root: Node, out: CBDecl, accumulate: Any, rotating: str | None = None,
                 also: CBDecl | None = None, out_of_order: bool = False) -> None:
        """Compute every tile of ``root`` into DST, chunk by chunk, and pack them into ``out`` (and
        into ``also``, from the same DST tiles); ``out_of_order``: ``out`` may already hold packed
        tiles, so each pack addresses its page (``pack_tile<true>``).

        ``rotating``: a local block whose buffer rotates (:meth:`rotation_chunk`), which this store
        reads at its front or writes: each chunk written is reserved, packed and pushed on its own,
        and the chunk of its current value read for it is popped once packed."""
        if root.kind == "leaf":
            root = Node("copy", None, root.shape, [root])
        self.current_out = out.index
        self.share_in_dst(root)
        slots = self.fit_dst(root)
        self.current_out = out.index
        rows, cols = _grid(root.shape)
        batch_rows = _batched_matmul_rows(root) or rows  # a chunk multiplies rows of one batch's blocks
        chunk_rows, chunk_cols = _chunk(rows, cols, max(1, self.capacity // slots), batch_rows)
        if rotating is not None and chunk_rows * chunk_cols != self.rotating[rotating]:
            self.fail(f"a store of local block '{rotating}' in chunks of {chunk_rows * chunk_cols} tiles, not the "
                      f"{self.rotating[rotating]} its buffer rotates by")
        outer = []
        if rows // chunk_rows > 1:
            outer.append(("r0", rows // chunk_rows, chunk_rows))
        if cols // chunk_cols > 1:
            outer.append(("c0", cols // chunk_cols, chunk_cols))
        bases = {"r0": ir.Const(0), "c0": ir.Const(0)}
        depth = 0
        for name, count, step in outer:
            var, body = self.loop(name, count)
            self._stack.append(body)
            depth += 1
            bases[name] = self.arith(BinaryOp.MUL, var, ir.Const(step), f"{name}_base")
        self.state = None if outer else self.state
        self.chunk_tiles = chunk_rows * chunk_cols
        self.mark_invariant(root, chunk_rows, chunk_cols)
        self.call("tile_regs_acquire")
        for shared in root.prelude:
            self.emit_node(shared, bases["r0"], bases["c0"], chunk_rows, chunk_cols, slots, cols)
        self.emit_node(root, bases["r0"], bases["c0"], chunk_rows, chunk_cols, slots, cols)
        self.call("tile_regs_commit")
        self.call("tile_regs_wait")
        into_rotating = rotating is not None and out is self.shadows[rotating]
        chunk = ir.Const(chunk_rows * chunk_cols)
        if into_rotating:
            self.call("cb_reserve_back", kir.BufferId(out.index), chunk)
        for target in (out, also) if also is not None else (out,):
            self.tiles(chunk_rows, chunk_cols, bases["r0"], bases["c0"], lambda i, j, t, d, target=target: self.call(
                "pack_tile", self.dst(t, slots, root.slot), kir.BufferId(target.index),
                t if into_rotating else self.tile_index(i, j, cols), template=("true",) if out_of_order else ()))
        if into_rotating:
            self.call("cb_push_back", kir.BufferId(out.index), chunk)
        self.call("tile_regs_release")
        if rotating is not None:  # the chunk of the current value read for this one is done with
            drop = ir.If(cond=self.written[rotating])
            self.emit(drop)
            with self.into(drop.then_body):
                self.call("cb_pop_front", kir.BufferId(self.shadows[rotating].index), chunk)
        if self.reduce_in_dst:  # the packs of the reduce result are done: clear its edge mask
            self.reduce_in_dst = False
            self.state = None
            self.call("reduce_uninit")
        for _ in range(depth):
            self._stack.pop()

    def mark_invariant(self, root: Node, rows: int, cols: int) -> None:
        """Flag the broadcasts that are one tile across a ``rows`` x ``cols`` chunk and that only
        an SFPU binary reads, as its second operand (the first operand's slot takes the result, so
        a tile read by every output tile must not be there): each is unpacked once per chunk, as a
        hand-written kernel broadcasts a row statistic once, instead of once per output tile."""
        readers: dict[int, int] = {}
        for node in _walk(root):
            node.invariant = False
            for child in node.children:
                readers[id(child)] = readers.get(id(child), 0) + 1
        for parent in _walk(root):
            if parent.kind != "sfpu":
                continue
            b = parent.children[1]
            if b.kind == "bcast" and readers[id(b)] == 1:
                x_rows, x_cols = _grid(b.children[0].shape)
                b.invariant = (x_rows == 1 or rows == 1) and (x_cols == 1 or cols == 1)

    def fit_dst(self, root: Node) -> int:
        """Slots ``root`` needs per output tile, made to fit DST: while it needs more than DST holds,
        the operand subtree that needs the most is evaluated first into an fp32 intermediate buffer
        (which the kernel only copies into DST, whole: no rounding point is added) and read from
        there. An operation whose operands alone do not fit is ``E0411`` at the store's line."""
        slots = self.allocate_all(root)
        while slots > self.capacity:
            spilled = _largest_operand(root, self.allocate)
            if spilled is None:
                raise error("E0411", f"this store's expression has an operation that needs {slots} DST tiles "
                            f"per output tile with every operand read from a buffer, and DST holds "
                            f"{self.capacity} ({self.ctx.arch}, fp32)", self.loc,
                            hint="split the operation's operands over several stores")
            parent, index = spilled
            child = parent.children[index]
            fmt = _integer(child.value) or float32
            held = ir.Reg(f"dst_spill{len(self.ctx.internal)}", BlockType(child.shape, fmt, TILE_UNIT, expr=True))
            parent.children[index] = self.through_buffer(child, held, fmt)
            slots = self.allocate_all(root)
        return slots

    def allocate_all(self, root: Node) -> int:
        """Slots of ``root``'s tree, then of its prelude's expressions above them (held to the end)."""
        slots = self.allocate(root)
        for shared in root.prelude:
            slots = self.allocate(shared, slots)
        for node in _walk(root):
            if node.kind == "held":
                node.slot = node.value.slot
        return slots

    def share_in_dst(self, root: Node) -> None:
        """An elementwise expression the tree reads several times, each time as an operand of an
        SFPU binary or ``where`` (which read DST slots and write another), is computed once per
        chunk into slots of its own, where it stays until the tree is done; its readers read that
        slot (a ``held`` node). Only when the tree still fits DST that way: else each reads its own."""
        groups: dict[int, list[tuple[Node, int]]] = {}
        for parent in _walk(root):
            for index, child in enumerate(parent.children):
                if child.kind in _SHAREABLE and getattr(child.op, "result", None) is not None:
                    groups.setdefault(id(child.op), []).append((parent, index))
        for refs in groups.values():
            live = {id(n) for n in _walk(root)}
            refs = [(parent, index) for parent, index in refs if id(parent) in live]
            if len(refs) < 2:
                continue
            first = refs[0][0].children[refs[0][1]]
            if any(parent.kind not in ("sfpu", "where") for parent, _ in refs) \
                    or any(n.kind not in _ELEMENTWISE for n in _walk(first)):
                continue
            before = [(parent, index, parent.children[index]) for parent, index in refs]
            for parent, index in refs:
                parent.children[index] = Node("held", first.op, first.shape, children=[])
            root.prelude.append(first)
            for parent, index in refs:
                parent.children[index].value = first  # read from its slot
            if self.allocate_all(root) > self.capacity:  # no room: each reader computes it again
                root.prelude.pop()
                for parent, index, node in before:
                    parent.children[index] = node

    def dst(self, t: Any, slots: int, slot: int) -> Any:
        """The DST tile of chunk tile ``t`` for a node in ``slot``: slot-major, so the chunk's
        tiles of one node are consecutive (one ``matmul_block`` fills them)."""
        return self.arith(BinaryOp.ADD, ir.Const(slot * self.chunk_tiles), t, "dst")

    #: output tiles in the chunk being evaluated (each node's tiles take that many DST tiles)
    chunk_tiles = 1

    def tile_index(self, i: Any, j: Any, cols: int) -> Any:
        return self.arith(BinaryOp.ADD, self.arith(BinaryOp.MUL, i, ir.Const(cols)), j, "tile")

    def tiles(self, rows: int, cols: int, r0: Any, c0: Any, body: Any) -> None:
        """Run ``body(i, j, t, None)`` for every tile of a chunk (i, j absolute; t within the chunk)."""
        pushed = 0
        ri: Any = ir.Const(0)
        ci: Any = ir.Const(0)
        if rows > 1:
            ri, inner = self.loop("i", rows)
            self._stack.append(inner)
            pushed += 1
        if cols > 1:
            ci, inner = self.loop("j", cols)
            self._stack.append(inner)
            pushed += 1
        t = self.arith(BinaryOp.ADD, self.arith(BinaryOp.MUL, ri, ir.Const(cols)), ci, "t")
        body(self.arith(BinaryOp.ADD, r0, ri, "i_abs"), self.arith(BinaryOp.ADD, c0, ci, "j_abs"), t, None)
        for _ in range(pushed):
            self._stack.pop()

    def init(self, key: Any, fn: str, *args: Any, template: tuple = ()) -> None:
        if self.state != key:
            self.call(fn, *args, template=template)
            self.state = key

    def emit_node(self, node: Node, r0: Any, c0: Any, rows: int, cols: int, slots: int, out_cols: int) -> None:
        for child in node.children:
            if child.kind not in ("leaf", "const", "held"):
                self.emit_node(child, r0, c0, rows, cols, slots, out_cols)
        getattr(self, f"emit_{node.kind}")(node, r0, c0, rows, cols, slots)

    def include(self, header: str) -> None:
        self.kernel.includes.add(COMPUTE_PREFIX + header)

    def emit_copy(self, node: Node, r0, c0, rows, cols, slots) -> None:
        leaf = node.children[0]
        self.include(COPY.header)
        self.init(("copy", leaf.cb.index), COPY.init, kir.BufferId(leaf.cb.index))
        leaf_cols = _grid(leaf.shape)[1]
        front = leaf.cb.index in {self.shadows[name].index for name in self.rotating}  # its chunk is at the front
        self.tiles(rows, cols, r0, c0, lambda i, j, t, _: self.call(
            COPY.call, kir.BufferId(leaf.cb.index), t if front else self.tile_index(i, j, leaf_cols),
            self.dst(t, slots, node.slot)))

    def emit_unary(self, node: Node, r0, c0, rows, cols, slots) -> None:
        child = node.children[0]
        if child.kind == "leaf":  # the operand comes from a buffer: copy it into DST first
            child.slot = node.slot
            self.emit_copy(Node("copy", None, node.shape, [child], slot=node.slot), r0, c0, rows, cols, slots)
        sfpu = UNARY[node.op.fn] if node.value is None else INT_UNARY[(node.op.fn, node.value.name)]
        self.include(sfpu.header)
        self.init(("sfpu", sfpu.init), sfpu.init, template=self.template(sfpu.init_template))
        params = [ir.Const(float_bits(p)) if sfpu.params == "bits" else ir.Const(int(p))
                  for p in mathops.full_params(node.op.fn, node.op.params)] + [ir.Const(c) for c in sfpu.fixed]
        call_template = self.template(sfpu.call_template)
        self.tiles(rows, cols, r0, c0, lambda i, j, t, _: self.call(sfpu.call, self.dst(t, slots, node.slot), *params,
                                                                     template=call_template))

    def template(self, arguments: tuple[str, ...]) -> tuple[str, ...]:
        """Template arguments with the data format of DST filled in."""
        fmt = "DataFormat::Float32" if self.ctx.fp32_dest_acc else "DataFormat::Float16_b"
        return tuple(a.replace(DST_FORMAT, fmt) for a in arguments)

    def emit_scalar(self, node: Node, r0, c0, rows, cols, slots) -> None:
        self.operand_to_dst(node.children[0], node, r0, c0, rows, cols, slots)
        sfpu = SCALAR_BINARY[node.op.fn]
        self.include(sfpu.header)
        self.init(("sfpu", sfpu.init), sfpu.init)
        value = node.children[1].value
        if isinstance(value, ir.Reg):
            param = self.reg("scalar_bits")
            self.call("__builtin_bit_cast", ir.Const("uint32_t"), self.float_of(value), result=param)
        else:
            param = ir.Const(float_bits(value))
        self.tiles(rows, cols, r0, c0, lambda i, j, t, _: self.call(sfpu.call, self.dst(t, slots, node.slot), param))

    def float_of(self, value: ir.Reg) -> ir.Reg:
        if value.type == FLOAT:
            return value
        converted = self.reg("scalar", FLOAT)
        self.emit(ir.Unary(result=converted, op="float", operand=value))
        return converted

    def emit_power(self, node: Node, r0, c0, rows, cols, slots) -> None:
        self.operand_to_dst(node.children[0], node, r0, c0, rows, cols, slots)
        sfpu = UNARY["power"]
        self.include(sfpu.header)
        self.init(("sfpu", sfpu.init), sfpu.init)
        exponent = ir.Const(float_bits(node.children[1].value))
        self.tiles(rows, cols, r0, c0, lambda i, j, t, _: self.call(sfpu.call, self.dst(t, slots, node.slot), exponent))

    def operand_to_dst(self, child: Node, node: Node, r0, c0, rows, cols, slots) -> None:
        if child.kind == "leaf":
            self.emit_copy(Node("copy", None, node.shape, [child], slot=node.slot), r0, c0, rows, cols, slots)

    def emit_fpu(self, node: Node, r0, c0, rows, cols, slots) -> None:
        a, b = node.children
        fpu = FPU_BINARY[node.op.fn]
        for h in FPU_HEADERS:
            self.include(h)
        self.init(("fpu", fpu.init, a.cb.index, b.cb.index), fpu.init, kir.BufferId(a.cb.index), kir.BufferId(b.cb.index))
        ca, cb_ = _grid(a.shape)[1], _grid(b.shape)[1]
        self.tiles(rows, cols, r0, c0, lambda i, j, t, _: self.call(
            fpu.call, kir.BufferId(a.cb.index), kir.BufferId(b.cb.index), self.tile_index(i, j, ca),
            self.tile_index(i, j, cb_), self.dst(t, slots, node.slot)))

    def emit_fpu_bcast(self, node: Node, r0, c0, rows, cols, slots) -> None:
        a, b = node.children
        init, call = FPU_BINARY[node.op.fn].bcast[node.value]
        for h in FPU_HEADERS:
            self.include(h)
        self.init(("bcast", init, a.cb.index, b.cb.index), init, kir.BufferId(a.cb.index), kir.BufferId(b.cb.index))
        ca = _grid(a.shape)[1]
        b_rows, b_cols = _grid(b.shape)
        zero = ir.Const(0)
        self.tiles(rows, cols, r0, c0, lambda i, j, t, _: self.call(
            call, kir.BufferId(a.cb.index), kir.BufferId(b.cb.index), self.tile_index(i, j, ca),
            self.tile_index(i if b_rows > 1 else zero, j if b_cols > 1 else zero, b_cols),
            self.dst(t, slots, node.slot)))

    def emit_sfpu(self, node: Node, r0, c0, rows, cols, slots) -> None:
        a, b = node.children
        for child in (a, b):
            if child.kind == "leaf":  # operands in buffers are copied into their DST slots first
                self.emit_copy(Node("copy", None, node.shape, [child], slot=child.slot), r0, c0, rows, cols, slots)
        sfpu = SFPU_BINARY[node.op.fn] if node.value is None else INT_SFPU_BINARY[(node.op.fn, node.value.name)]
        self.include(sfpu.header)
        self.init(("sfpu", sfpu.init, sfpu.init_template), sfpu.init, template=sfpu.init_template)
        self.tiles(rows, cols, r0, c0, lambda i, j, t, _: self.call(
            sfpu.call, self.dst(t, slots, a.slot), self.dst(ir.Const(0) if b.invariant else t, slots, b.slot),
            self.dst(t, slots, node.slot), template=sfpu.call_template))

    def emit_matmul_acc(self, node: Node, r0, c0, rows, cols, slots) -> None:
        addend, a, b = node.children
        if addend.guard is None:
            self.operand_to_dst(addend, node, r0, c0, rows, cols, slots)
        elif isinstance(addend.guard, ir.Const):  # never written yet: the cleared DST is the addend
            self.init_matmul(a, b, rows, cols, node.value)
        else:  # while the addend is unwritten it is zero: the cleared DST already holds it
            # the matmul configuration is set on both paths (again after the copy), so the
            # init-pruning pass keeps it once before the loops and once in the copying branch
            self.init_matmul(a, b, rows, cols, node.value)
            copy = ir.If(cond=addend.guard)
            self.emit(copy)
            with self.into(copy.then_body):
                self.operand_to_dst(addend, node, r0, c0, rows, cols, slots)
                self.init_matmul(a, b, rows, cols, node.value)
        self.emit_matmul(Node("matmul", node.op, node.shape, [a, b], slot=node.slot, value=node.value), r0, c0, rows,
                         cols, slots)

    def emit_matmul(self, node: Node, r0, c0, rows, cols, slots) -> None:
        a, b = node.children
        k_tiles = a.shape[-1]
        if node.value == TRANSPOSED_RHS:
            self.emit_matmul_transposed(node, r0, c0, rows, cols, slots)
            return
        if rows * cols > 1:  # the node's tiles are consecutive in DST: one matmul_block per K step
            self.emit_matmul_block(node, r0, c0, rows, cols, self.dst(ir.Const(0), slots, node.slot))
            return
        self.init_matmul(a, b, rows, cols)
        call = MATMUL[1]

        def body(i, j, t, _):
            k, inner = self.loop("k", k_tiles) if k_tiles > 1 else (ir.Const(0), None)
            if inner is not None:
                self._stack.append(inner)
            self.call(call, kir.BufferId(a.cb.index), kir.BufferId(b.cb.index), self.tile_index(i, k, k_tiles),
                      self.rhs_tile(a, b, i, k, j), self.dst(t, slots, node.slot))
            if inner is not None:
                self._stack.pop()
        self.tiles(rows, cols, r0, c0, body)

    def init_matmul(self, a: Node, b: Node, rows: int, cols: int, form: str | None = None) -> list[ir.Const]:
        """Configure for the product of a chunk of rows x cols output tiles: ``matmul_block`` for a
        chunk of several tiles, ``matmul_tiles`` for one, ``matmul_block`` one tile at a time with
        the transpose flag for a transposed right operand (``form`` TRANSPOSED_RHS); the
        ``matmul_block`` dimensions (transpose, ct, rt, kt) are returned."""
        k_tiles = a.shape[-1]
        dims = [ir.Const(0), ir.Const(cols), ir.Const(rows), ir.Const(k_tiles)]
        ins = kir.BufferId(a.cb.index), kir.BufferId(b.cb.index)
        if form == TRANSPOSED_RHS:
            dims = [ir.Const(1), ir.Const(1), ir.Const(1), ir.Const(k_tiles)]
            init, _, header = MATMUL_BLOCK
            self.include(header)
            self.init(("matmul_block", a.cb.index, b.cb.index, 1, 1, k_tiles, TRANSPOSED_RHS), init, *ins, *dims)
        elif rows * cols > 1:
            init, _, header = MATMUL_BLOCK
            self.include(header)
            self.init(("matmul_block", a.cb.index, b.cb.index, cols, rows, k_tiles), init, *ins, *dims)
        else:
            init, _, header = MATMUL
            self.include(header)
            self.init(("matmul", a.cb.index, b.cb.index), init, *ins)
        return dims

    def emit_matmul_block(self, node: Node, r0, c0, rows, cols, first: Any) -> None:
        """The chunk (rows x cols output tiles in DST first..) as one sub-block: per K step one
        ``matmul_block`` multiplies in0's rows r0.. by in1's columns c0.. and accumulates into DST,
        where hand-written kernels call it (tt-metal's bmm_large_block_zm), not matmul_tiles per tile."""
        a, b = node.children
        k_tiles = a.shape[-1]
        call = MATMUL_BLOCK[1]
        dims = self.init_matmul(a, b, rows, cols)
        k, inner = self.loop("k", k_tiles) if k_tiles > 1 else (ir.Const(0), None)
        if inner is not None:
            self._stack.append(inner)
        self.call(call, kir.BufferId(a.cb.index), kir.BufferId(b.cb.index), self.tile_index(r0, k, k_tiles),
                  self.rhs_tile(a, b, r0, k, c0), first, *dims)
        if inner is not None:
            self._stack.pop()

    def emit_matmul_transposed(self, node: Node, r0, c0, rows, cols, slots) -> None:
        """``a @ transpose(b)``: output tile (i, j) sums, over K, tile (i, k) of ``a`` times tile
        (j, k) of ``b`` transposed as it is unpacked. The tiles of ``b^T`` a K step needs are not
        consecutive in ``b``'s buffer, so each output tile is its own one-tile ``matmul_block``."""
        a, b = node.children
        k_tiles = a.shape[-1]
        dims = self.init_matmul(a, b, rows, cols, TRANSPOSED_RHS)

        def body(i, j, t, _):
            k, inner = self.loop("k", k_tiles) if k_tiles > 1 else (ir.Const(0), None)
            if inner is not None:
                self._stack.append(inner)
            self.call(MATMUL_BLOCK[1], kir.BufferId(a.cb.index), kir.BufferId(b.cb.index),
                      self.tile_index(i, k, k_tiles), self.tile_index(j, k, k_tiles), self.dst(t, slots, node.slot),
                      *dims)
            if inner is not None:
                self._stack.pop()
        self.tiles(rows, cols, r0, c0, body)

    def rhs_tile(self, a: Node, b: Node, row: Any, k: Any, col: Any) -> Any:
        """The tile of the right operand that output row ``row`` (counted over the batch: a
        ``(B, M, N)`` product has ``B * M`` rows, as the left operand's tiles lie) meets at K step
        ``k`` and column ``col``: in a batched product, in the right block of ``row``'s batch."""
        index = self.tile_index(k, col, b.shape[-1])
        if len(b.shape) == 2:
            return index
        batch = self.arith(BinaryOp.FLOORDIV, row, ir.Const(a.shape[-2]), "batch")
        return self.arith(BinaryOp.ADD, self.arith(BinaryOp.MUL, batch, ir.Const(b.shape[-2] * b.shape[-1])), index, "tile")

    def emit_reduce(self, node: Node, r0, c0, rows, cols, slots) -> None:
        (x,) = node.children
        dims = tuple(node.op.dims)
        if dims not in REDUCE_DIM:
            self.fail(f"a reduce over dims {list(dims)}")
        template = (POOL[node.op.kind], REDUCE_DIM[dims])
        init, call, header = REDUCE
        self.include(header)
        self.init(("reduce", template, x.cb.index), init, kir.BufferId(x.cb.index),
                  kir.BufferId(node.cb.index), kir.BufferId(self.current_out), template=template)
        x_rows, x_cols = _grid(x.shape)

        def body(i, j, t, _):
            span_rows = x_rows if -2 in dims else 1
            span_cols = x_cols if -1 in dims else 1
            rr, inner_r = self.loop("rr", span_rows) if span_rows > 1 else (i, None)
            if inner_r is not None:
                self._stack.append(inner_r)
            cc, inner_c = self.loop("cc", span_cols) if span_cols > 1 else (j, None)
            if inner_c is not None:
                self._stack.append(inner_c)
            self.call(call, kir.BufferId(x.cb.index), kir.BufferId(node.cb.index), self.tile_index(rr, cc, x_cols),
                      ir.Const(0), self.dst(t, slots, node.slot), template=template)
            for inner in (inner_c, inner_r):
                if inner is not None:
                    self._stack.pop()
        self.tiles(rows, cols, r0, c0, body)
        self.reduce_in_dst = True  # reduce_uninit() clears the packer's edge mask: after the packs

    current_out = 0
    #: a reduce wrote DST since the last pack: reduce_uninit() follows the packs
    reduce_in_dst = False

    def emit_bcast(self, node: Node, r0, c0, rows, cols, slots) -> None:
        (x,) = node.children
        kinds = {(-1,): "BroadcastType::COL", (-2,): "BroadcastType::ROW", (-2, -1): "BroadcastType::SCALAR"}
        kind = kinds.get(tuple(node.op.dims))
        if kind is None:
            self.fail(f"a broadcast over dims {list(node.op.dims)}")
        if kind == "BroadcastType::ROW" and self.row_bcast_is_broken(x):
            self.emit_row_bcast_on_fpu(node, r0, c0, rows, cols, slots)
            return
        init, call, header = UNARY_BCAST
        self.include(header)
        self.init(("ubcast", kind, x.cb.index), init, kir.BufferId(x.cb.index), template=(kind,))
        x_rows, x_cols = _grid(x.shape)
        zero = ir.Const(0)

        def one(i: Any, j: Any, t: Any, _: Any) -> None:
            self.call(call, kir.BufferId(x.cb.index),
                      self.tile_index(i if x_rows > 1 else zero, j if x_cols > 1 else zero, x_cols),
                      self.dst(t, slots, node.slot), template=(kind,))
        if node.invariant:  # the chunk's first tile stands for all of them
            one(r0, c0, zero, None)
        else:
            self.tiles(rows, cols, r0, c0, one)

    def row_bcast_is_broken(self, x: Node) -> bool:
        """``unary_bcast<ROW>`` of a 16-bit buffer into a Float32 DST is wrong on Wormhole: the
        LLK moves the row with MOVB2D, which writes 16-bit DST rows (MOVB2D.md) while the rest of
        the kernel reads DST as 32-bit, so the tile comes out garbled (rows 16-31 zero). The LLK's
        own test skips it ("Row broadcast with dest_acc=Yes broken on Wormhole for
        Float16_b/Bfp8_b", tt-llk tests/python_tests/test_bcast.py). A Float32 buffer goes to DST
        by its 32-bit path (UnpackToDestFp32) and is right."""
        return self.ctx.fp32_dest_acc and self.ctx.arch.startswith("wormhole") and x.cb.fmt != float32

    def emit_row_bcast_on_fpu(self, node: Node, r0, c0, rows, cols, slots) -> None:
        """The row broadcast of :meth:`row_bcast_is_broken` on the matrix unit instead:
        ``add_tiles_bcast_rows`` of a tile of zeros and the row (ELWADD with SrcB's row 0 on
        every row, as the LLK's own column and scalar broadcasts add onto zeros), exact at any
        fidelity, as ttnn adds a matmul's bias row."""
        (x,) = node.children
        zeros = self.constant_tile("zero_tile", "0.0f", Added.ZERO_TILE, "zeros for a row broadcast: one tile of 0.0")
        init, call = FPU_BINARY["add"].bcast[(-2,)]
        for h in FPU_HEADERS:
            self.include(h)
        self.init(("bcast", init, zeros.index, x.cb.index), init, kir.BufferId(zeros.index), kir.BufferId(x.cb.index))
        x_rows, x_cols = _grid(x.shape)
        zero = ir.Const(0)

        def one(i: Any, j: Any, t: Any, _: Any) -> None:
            self.call(call, kir.BufferId(zeros.index), kir.BufferId(x.cb.index), zero,
                      self.tile_index(i if x_rows > 1 else zero, j if x_cols > 1 else zero, x_cols),
                      self.dst(t, slots, node.slot))
        if node.invariant:
            one(r0, c0, zero, None)
        else:
            self.tiles(rows, cols, r0, c0, one)

    def emit_transpose(self, node: Node, r0, c0, rows, cols, slots) -> None:
        (x,) = node.children
        init, call, header = TRANSPOSE
        self.include(header)
        self.init(("transpose", x.cb.index), init, kir.BufferId(x.cb.index))
        x_cols = _grid(x.shape)[1]
        self.tiles(rows, cols, r0, c0, lambda i, j, t, _: self.call(
            call, kir.BufferId(x.cb.index), self.tile_index(j, i, x_cols), self.dst(t, slots, node.slot)))

    def emit_fill(self, node: Node, r0, c0, rows, cols, slots) -> None:
        value = node.children[0].value
        self.include(FILL.header)
        self.init(("sfpu", FILL.init), FILL.init)
        if node.value is not None:  # an integer: its two's complement bits, in DST as the block's format
            bits = int(value) & 0xFFFFFFFF
            arg, fill, template = ir.Const(f"0x{bits:08x}u"), FILL_INT.call, (INT_DATA_FORMATS[node.value.name],)
        else:
            arg, fill, template = ir.Const(float(value)) if not isinstance(value, ir.Reg) else value, FILL.call, ()
        self.tiles(rows, cols, r0, c0, lambda i, j, t, _: self.call(fill, self.dst(t, slots, node.slot), arg,
                                                                     template=template))

    def emit_where(self, node: Node, r0, c0, rows, cols, slots) -> None:
        for child in node.children:
            if child.kind == "leaf":
                self.emit_copy(Node("copy", None, node.shape, [child], slot=child.slot), r0, c0, rows, cols, slots)
        init, call, header = WHERE
        self.include(header)
        self.init(("sfpu", init), init)
        c, a, b = node.children
        self.tiles(rows, cols, r0, c0, lambda i, j, t, _: self.call(
            call, self.dst(t, slots, c.slot), self.dst(t, slots, a.slot), self.dst(t, slots, b.slot),
            self.dst(t, slots, node.slot),
            template=(INT_DATA_FORMATS[node.value.name],) if node.value is not None else self.template((DST_FORMAT,))))


#: how each node kind uses DST (``allocate``): "operands" holds every operand in a slot of its own
#: and writes the first one's; "in_place" works on its first operand's slot; "own" reads buffers
#: (or nothing) and writes one fresh slot
_DST_USE = {
    "sfpu": "operands", "where": "operands", "held": "held",
    "matmul_acc": "in_place", "unary": "in_place", "scalar": "in_place", "power": "in_place",
    **{kind: "own" for kind in ("leaf", "const", "fpu", "fpu_bcast", "matmul", "reduce", "bcast", "transpose",
                                "fill", "copy")},
}


#: node kinds an expression shared in DST may be (:meth:`ComputeLowering.share_in_dst`): computed
#: in DST from buffers or numbers, no matrix unit, no reduce mask
_ELEMENTWISE = frozenset({"unary", "sfpu", "scalar", "power", "fill", "where", "fpu", "fpu_bcast", "bcast",
                          "leaf", "const"})
#: the roots such an expression may have (a leaf or a number is read where it is)
_SHAREABLE = _ELEMENTWISE - {"leaf", "const"}


def _walk(node: Node) -> list[Node]:
    """``node`` and every node below it (prelude excluded)."""
    out = [node]
    for child in node.children:
        out += _walk(child)
    return out


class _Binary:
    """Stands for the IR op of a binary the lowering adds (``+`` of ``blk += expr``, the combining
    step of a composite function)."""

    def __init__(self, fn: str):
        self.fn = fn


_ADD = _Binary("add")


def _largest_operand(root: Node, need: Any) -> tuple[Node, int] | None:
    """The computed operand (parent, index) of ``root``'s tree that needs the most DST slots
    (``need(node)``), the first such in the tree; None when every operand is a leaf or a number."""
    best: tuple[int, Node, int] | None = None
    stack = [root]
    while stack:
        node = stack.pop()
        for index, child in enumerate(node.children):
            if child.kind in ("leaf", "const", "held") or (child.kind == "fill" and child.children[0].kind == "const"):
                continue
            slots = need(child)
            if best is None or slots > best[0]:
                best = (slots, node, index)
            stack.append(child)
    return None if best is None else (best[1], best[2])


def _bounds(loop: ir.For) -> tuple[int, int, int] | None:
    """A loop's (lo, hi, step) when all three are constant, else None."""
    values = [getattr(o, "value", None) if isinstance(o, ir.Const) else None for o in (loop.lo, loop.hi, loop.step)]
    return tuple(values) if all(isinstance(v, int) for v in values) else None  # type: ignore[return-value]


def _trip_count(loop: ir.For) -> int:
    """How many times ``loop`` runs when that is known before it runs, else 0."""
    bounds = _bounds(loop)
    if bounds is None or bounds[2] <= 0:
        return 0
    lo, hi, step = bounds
    return max(0, -(-(hi - lo) // step))


def _stores_every_iteration(loop: ir.For, name: str) -> bool:
    """Whether ``loop`` runs at least once, every iteration runs to its end (no break, continue
    or return in it), and its own body (not a branch or an inner loop) stores block ``name``."""
    if not _trip_count(loop) or any(isinstance(o, (ir.Break, ir.Continue, ir.Return)) for o in ir.walk(loop.body)):
        return False
    return any(isinstance(o, ir.STORE_OPS) and o.block.name == name for o in loop.body)


def _chunk(rows: int, cols: int, per_chunk: int, batch_rows: int) -> tuple[int, int]:
    """The DST chunk of a rows x cols block when DST holds ``per_chunk`` output tiles: whole rows
    where they fit, else part of one row (so a chunk's tiles are consecutive in the block), each
    extent dividing the block's (and the rows dividing ``batch_rows``)."""
    chunk_rows = max(1, min(rows, per_chunk // cols)) if cols <= per_chunk else 1
    chunk_cols = cols if cols <= per_chunk else per_chunk
    while cols % chunk_cols:
        chunk_cols -= 1
    while rows % chunk_rows or batch_rows % chunk_rows:
        chunk_rows -= 1
    return chunk_rows, chunk_cols


def _path(body: list[ir.Op], target: ir.Op, owner: ir.Op | None = None) -> list[tuple[list[ir.Op], int, ir.Op | None]]:
    """The op lists from ``body`` down to ``target``: (list, index in it, the op owning the list)."""
    for index, op in enumerate(body):
        if op is target:
            return [(body, index, owner)]
        for region in op.regions():
            inner = _path(region, target, op)
            if inner:
                return [(body, index, owner), *inner]
    return []


def _leaves(node: Node) -> list[Node]:
    return [node] if node.kind == "leaf" else [leaf for child in node.children for leaf in _leaves(child)]


def _reads(op: ir.Op, name: str) -> bool:
    return any(isinstance(r, ir.Reg) and r.name == name for r in op.operands())


def _tiles(shape: tuple[int, ...]) -> int:
    n = 1
    for extent in shape:
        n *= extent
    return n


def _grid(shape: tuple[int, ...]) -> tuple[int, int]:
    if len(shape) == 1:
        return 1, shape[0]
    rows = 1
    for extent in shape[:-1]:
        rows *= extent
    return rows, shape[-1]


def _batched_matmul_rows(node: Node) -> int:
    """The rows (M, in tiles) of a batched matmul in ``node``'s tree, which an evaluation chunk
    must not straddle; 0 when there is none."""
    if node.kind in ("matmul", "matmul_acc") and len(node.shape) > 2:
        return node.shape[-2]
    return next((rows for child in node.children if (rows := _batched_matmul_rows(child))), 0)


def _integer(fmt: Any) -> DataFormat | None:
    """``fmt`` if it is Int32 or UInt32 (DST holds such values as 32-bit integers), else None."""
    return fmt if fmt in (int32, uint32) else None


#: unary functions of integers computed with an integer binary: name -> (x, params) -> (binary, operands)
INTEGER_COMPOSITES: dict[str, Any] = {
    "square": lambda x: ("mul", (x, x)),
    "rsub": lambda x, value: ("sub", (value, x)),
}


_INTEGER_NUMBERS = ("the integer SFPU calls take {fmt} numbers (fill_tile_int): write an integer in that range, or "
                    "compute in a float format")


def _fits(value: Any, fmt: DataFormat) -> bool:
    """Whether the number ``value`` is an integer of ``fmt``'s range (the frontend makes every
    number of a block expression a float)."""
    lo, hi = (-(2**31), 2**31 - 1) if fmt == int32 else (0, 2**32 - 1)
    return isinstance(value, (int, float)) and not isinstance(value, bool) and float(value).is_integer() \
        and lo <= value <= hi


def _integer_format(op: ir.Op) -> DataFormat | None:
    """The Int32/UInt32 format of a block operand of elementwise math ``op``, if it has one: such
    math takes the integer SFPU calls (:meth:`ComputeLowering.integer_node`)."""
    if not isinstance(op, (ir.TileUnary, ir.TileBinary, ir.TileWhere)):
        return None
    return next((o.type.fmt for o in op.operands() if isinstance(o, ir.Reg) and isinstance(o.type, BlockType)
                 and _integer(o.type.fmt)), None)


def routing_operand(node: Node) -> Operand:
    """What :func:`binary_unit` needs of an operand's plan: a leaf is read from its buffer, a
    broadcast reads its (buffered) block; the FPU reads both through SrcA/SrcB, where Float32 data
    is TF32, so a Float32 one goes to DST whole (UnpackToDestFp32) and the SFPU combines them."""
    if node.kind == "leaf":
        return Operand(from_buffer=True, shape=node.shape, fp32=node.cb is not None and node.cb.fmt == float32)
    if node.kind == "bcast":
        source = node.children[0]
        return Operand(fp32=source.cb is not None and source.cb.fmt == float32, broadcast=node.op.dims)
    return Operand()
