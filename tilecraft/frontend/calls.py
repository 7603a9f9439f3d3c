"""Calls in threads: ttl intrinsics, methods of buffers/blocks/semaphores/pipes, helper inlining."""

from __future__ import annotations

import ast
import builtins
import math
from typing import Any, Callable

from ..dtypes import DataFormat, float32, from_torch_dtype
from ..ir import mathops, scalarops
from ..ir.program_ir import DATAMOVEMENT
from ..ir import ops as ir
from ..ir.scalarops import BinaryOp
from ..ir.types import (GROUP, INDEX, XFER, BlockType, CBDecl, CoreRange, PipeDecl, PipeNetDecl,
                        PipeType, SemaphoreDecl)
from ..ir.grid import all_cores, range_bounds
from ..lang.intrinsic import intrinsic_name
from .exprs import FOLDABLE, ExprMixin, SliceV, TupleV, block_extent, describe, is_block
from .value_kinds import CT, RV, BoundMethod, FuncRef, PipeNetV, RemoteSemV, TensorSliceV, operand_of

#: the builtins a thread may call on a run-time number, by the scalar operation each is
_CONVERSIONS = {builtins.int: scalarops.UnaryOp.INT, builtins.abs: scalarops.UnaryOp.ABS,
                builtins.float: scalarops.UnaryOp.FLOAT}


class CallMixin(ExprMixin):
    grid: tuple[int, ...]
    carried_reads: dict[str, Any]

    def expr_Call(self, node: ast.Call) -> Any:
        func = self.expr(node.func)
        if isinstance(func, BoundMethod):
            return self.call_method(func, node)
        if isinstance(func, FuncRef):
            return self.inline_call(func, node)
        if isinstance(func, CT):
            name = intrinsic_name(func.value)
            if name is not None:
                handler = self.intrinsic_handler(name)
                return handler(node)
            if func.value is builtins.print:
                return self.call_print(node)
            if func.value in (builtins.range,):
                self.fail("E0101", "range() can only be used as the iterable of a for loop")
            return self.fold_call(func.value, node)
        self.fail("E0104", f"{describe(func)} is not callable")

    # ---------------------------------------------------------------- arguments
    def args_of(self, node: ast.Call, names: tuple[str, ...], required: int) -> list[Any]:
        """Positional/keyword arguments bound to ``names`` (missing optional ones are None)."""
        values: list[Any] = [None] * len(names)
        if len(node.args) > len(names):
            self.fail("E0104", f"too many arguments (expected at most {len(names)})")
        for i, arg in enumerate(node.args):
            if isinstance(arg, ast.Starred):
                self.fail("E0101", "*args are not supported in kernel calls", arg)
            values[i] = self.expr(arg)
        for kw in node.keywords:
            if kw.arg is None or kw.arg not in names:
                self.fail("E0104", f"unexpected keyword argument '{kw.arg}'", kw)
            values[names.index(kw.arg)] = self.expr(kw.value)
        for i in range(required):
            if values[i] is None:
                self.fail("E0104", f"missing argument '{names[i]}'")
        return values

    def ct_int_tuple(self, value: Any, what: str) -> tuple[int, ...]:
        if isinstance(value, CT):
            v = value.value
            if isinstance(v, int):
                return (v,)
            if isinstance(v, (tuple, list)) and all(isinstance(x, int) for x in v):
                return tuple(v)
        self.fail("E0104", f"{what} must be a constant tuple of ints, got {describe(value)}")

    # ---------------------------------------------------------------- intrinsics
    def intrinsic_handler(self, name: str) -> Callable[[ast.Call], Any]:
        if name.startswith("math."):
            return lambda node: self.call_math(name[5:], node)
        handler = getattr(self, f"intr_{name}", None)
        if handler is None:
            self.fail("E0101", f"ttl.{name} cannot be used inside a thread")
        return handler

    def dims_arg(self, node: ast.Call) -> int:
        """The ``dims=`` (or ``dim=``) argument of ttl.core / ttl.grid_size: a positive constant."""
        dims, dim = self.args_of(node, ("dims", "dim"), 0)
        n = self.ct_int_tuple(dim or dims or CT(2), "dims")[0]
        if n < 1:
            self.fail("E0201", f"dims must be a positive integer, got {n}", node)
        return n

    def intr_grid_size(self, node: ast.Call) -> Any:
        from ..ir.grid import reshape_sizes
        n = self.dims_arg(node)
        sizes = reshape_sizes(self.grid, n)
        return CT(sizes[0] if n == 1 else sizes)

    def intr_core(self, node: ast.Call) -> Any:
        n = self.dims_arg(node)
        seed_fold = _spelled_core(node.func) and 1 < n < len(self.grid)
        full = len(self.grid) if seed_fold else n
        results = [self.reg(f"core{i}", INDEX) for i in range(full)]
        self.emit(ir.CoreCoord(outs=results, dims=full))
        values = tuple(RV(r) for r in results)
        if seed_fold:  # the seed's ttl.core folds the last coordinates (ir.grid.fold_last_coords)
            flat = values[n - 1]
            for value, extent in zip(values[n:], self.grid[n:]):
                flat = self.arith(BinaryOp.ADD, self.arith(BinaryOp.MUL, flat, CT(extent), node), value, node)
            values = values[:n - 1] + (flat,)
        return values[0] if n == 1 else TupleV(values)

    def intr_copy(self, node: ast.Call) -> Any:
        if self.kind != DATAMOVEMENT:
            self.fail("E0003", "ttl.copy can only be used in a data movement thread",
                      hint="copies run on the data-movement RISC-Vs; the compute thread reads blocks "
                           "with wait() and writes them with store()")
        src, dst = self.args_of(node, ("src", "dst"), 2)
        xfer = self.reg("xf", XFER)
        if isinstance(src, TensorSliceV) and is_block(dst):
            self.check_slice_shape(src, dst.type, node)
            op: ir.Op = ir.CopyTensorToBlock(result=xfer, src=self.tensor_index(src), dst=dst.reg)
        elif is_block(src) and isinstance(dst, TensorSliceV):
            self.check_slice_shape(dst, src.type, node)
            op = ir.CopyBlockToTensor(result=xfer, src=src.reg, dst=self.tensor_index(dst))
        elif is_block(src) and self.is_pipe(dst):
            self.note_pipe_use(dst, "send", src.type, node)
            op = ir.CopyBlockToPipe(result=xfer, src=src.reg, pipe=dst.reg)
        elif self.is_pipe(src) and is_block(dst):
            self.note_pipe_use(src, "recv", dst.type, node)
            op = ir.CopyPipeToBlock(result=xfer, pipe=src.reg, dst=dst.reg)
        elif is_block(src) and is_block(dst):
            if src.reg.name == dst.reg.name:
                self.fail("E0104", "ttl.copy from a block into itself",
                          hint="a local copy goes between blocks of two dataflow buffers")
            if src.type.shape != dst.type.shape:
                self.fail("E0106", f"copy between blocks of shapes {src.type.shape} and {dst.type.shape}")
            op = ir.CopyBlockToBlock(result=xfer, src=src.reg, dst=dst.reg)
        else:
            if any(isinstance(v, PipeNetV) or isinstance(v, CT) and isinstance(v.value, PipeDecl) for v in (src, dst)):
                self.fail("E0107", "a copy to or from a pipe must be inside the function passed to "
                          "net.if_src / net.if_dst (ttl.if_pipe_src / ttl.if_pipe_dst)",
                          hint="write net.if_src(send) with def send(pipe): ttl.copy(blk, pipe).wait(), and copy "
                               "to the pipe the function receives")
            self.fail("E0104", f"ttl.copy cannot copy from {describe(src)} to {describe(dst)}",
                      hint="copies go between a tensor slice and a block, a block and a pipe, or two blocks")
        return self.fresh(op)

    def is_pipe(self, value: Any) -> bool:
        return isinstance(value, RV) and isinstance(value.type, PipeType)

    def tensor_index(self, sl: TensorSliceV) -> ir.TensorIndex:
        return ir.TensorIndex(tensor=sl.decl, bounds=list(sl.bounds), static_extents=sl.extents)

    def check_slice_shape(self, sl: TensorSliceV, block: BlockType, node: ast.AST) -> None:
        if block.unit.tiled != sl.decl.unit.tiled:
            layout = "tile" if sl.decl.unit.tiled else "row-major"
            self.fail("E0106", f"tensor '{sl.decl.name}' has {layout} layout but the block's buffer was "
                      "made like a tensor of the other layout", node)
        if len(block.shape) > len(sl.extents):
            self.fail("E0106", f"a block of rank {len(block.shape)} cannot be copied to or from a slice of "
                      f"the {len(sl.extents)}-D tensor '{sl.decl.name}'", node)
        known = [e for e in sl.extents if e is not None]
        if len(known) < len(sl.extents):
            return  # checked by the simulator when the extents are known
        if squeeze(tuple(known)) != squeeze(block.shape):
            self.fail("E0106", f"tensor slice of shape {tuple(known)} does not match block shape "
                      f"{block.shape}", node, hint="a slice must cover exactly one block "
                      "(in tiles for tile layout)")

    def intr_if_pipe_src(self, node: ast.Call) -> Any:
        return self.pipe_foreach("src", node)

    def intr_if_pipe_dst(self, node: ast.Call) -> Any:
        return self.pipe_foreach("dst", node)

    def pipe_foreach(self, role: str, node: ast.Call, net_value: Any = None, fn: Any = None) -> CT:
        if self.kind != DATAMOVEMENT:
            self.fail("E0003", f"ttl.if_pipe_{role} can only be used in a data movement thread")
        if net_value is None:
            net_value, fn = self.args_of(node, ("pipes", "fn"), 2)
        net = self.pipenet_of(net_value)
        if not isinstance(fn, FuncRef):
            self.fail("E0104", f"the second argument of if_pipe_{role} must be a function taking a pipe")
        var = self.reg("pipe", PipeType(net.index))
        loop = ir.PipeForEach(role=role, net=net, var=var)
        self.emit(loop)
        self.pipe_roles.append((net, role))
        try:
            with self.region(loop.body):
                self.inline_function(fn, [RV(var)], node)
        finally:
            self.pipe_roles.pop()
        return CT(None)

    def pipe_membership(self, net: PipeNetDecl, test: str) -> Any:
        """``net.is_src()`` / ``is_dst()`` / ``is_active()`` in a thread: fixed per core, so a
        constant when every core that can reach the call answers alike, else a per-core runtime
        argument. In the body of ``net.if_src(fn)`` only the net's sources run, so there
        ``net.is_src()`` is True (as the published simulator, which asks on the running node)."""
        cores = all_cores(self.grid)
        values = tuple(_pipe_role(core, net, test) for core in cores)
        reaching = {v for core, v in zip(cores, values)
                    if all(_pipe_role(core, outer, f"is_{role}") for outer, role in self.pipe_roles)}
        if len(reaching or set(values)) == 1:
            return CT((reaching or set(values)).pop())
        return self.env.param(f"pipenet{net.index}.{test}", values)

    def intr_GroupTransfer(self, node: ast.Call) -> Any:  # noqa: N802 - the intrinsic's name
        if self.kind != DATAMOVEMENT:
            self.fail("E0003", "ttl.GroupTransfer can only be used in a data movement thread")
        self.args_of(node, (), 0)
        return self.fresh(ir.GroupNew(result=self.reg("group", GROUP)))

    def intr_signpost(self, node: ast.Call) -> Any:
        (label,) = self.args_of(node, ("label",), 1)
        if not isinstance(label, CT) or not isinstance(label.value, str):
            self.fail("E0104", "ttl.signpost needs a constant string")
        self.emit(ir.Signpost(label=label.value))
        return CT(None)

    # ---------------------------------------------------------------- block math
    def call_math(self, name: str, node: ast.Call) -> Any:
        name = mathops.UNARY_ALIASES.get(name, name)
        if name in mathops.UNARY:
            (x,) = self.args_of(node, ("x",), 1)
            return self.tile_unary(name, x, (), node)
        if name in mathops.UNARY_PARAM:
            return self.tile_unary(name, self.expr(node.args[0]) if node.args else None,
                                   self.math_params(name, node), node)
        if name in mathops.BINARY:
            a, b = self.args_of(node, ("a", "b"), 2)
            return self.tile_binary(name, a, b, node)
        handler = getattr(self, f"math_{name}", None)
        if handler is None:
            self.fail("E0104", f"ttl.math has no function '{name}'")
        self.require_compute(f"ttl.math.{name}")
        return handler(node)

    def math_params(self, name: str, node: ast.Call) -> tuple:
        """Scalar parameters by position or by name, defaults filled in, all constants."""
        names, required = mathops.UNARY_PARAM[name]
        values: dict[str, Any] = {}
        for pname, arg in zip(names, node.args[1:]):
            values[pname] = self.expr(arg)
        if len(node.args) - 1 > len(names):
            self.fail("E0104", f"ttl.math.{name} takes at most {len(names)} parameters: {', '.join(names)}")
        for kw in node.keywords:
            if kw.arg not in names or kw.arg in values:
                self.fail("E0104", f"ttl.math.{name} has no parameter '{kw.arg}' (or it is given twice); its "
                          f"parameters are {', '.join(names)}", kw)
            values[kw.arg] = self.expr(kw.value)
        missing = [p for p in names[:required] if p not in values]
        if missing:
            self.fail("E0104", f"ttl.math.{name} needs {', '.join(missing)}")
        out = []
        for pname in names:
            if pname not in values:
                break  # trailing defaults stay with the implementation
            value = values[pname]
            if not (isinstance(value, CT) and isinstance(value.value, (int, float))):
                self.fail("E0104", f"parameter '{pname}' of ttl.math.{name} must be a constant number")
            out.append(mathops.fp32(value.value))  # the device takes fp32 parameters
        if len(out) < len(values):
            self.fail("E0104", f"ttl.math.{name}: give the parameters before '{pname}' too")
        return tuple(out)

    def math_matmul(self, node: ast.Call) -> Any:
        a, b = self.args_of(node, ("a", "b"), 2)
        return self.tile_matmul(a, b, node)

    def math_where(self, node: ast.Call) -> Any:
        cond, a, b = (self.block_operand(v, node) for v in self.args_of(node, ("cond", "a", "b"), 3))
        blocks = [v for v in (cond, a, b) if is_block(v)]
        if not blocks:
            self.fail("E0104", "ttl.math.where needs at least one block")
        for other in blocks[1:]:
            self.check_same_shape(blocks[0].type, other.type, "where", node)
        result = self.reg("e", blocks[0].type.as_expr())
        return self.fresh(ir.TileWhere(result=result, cond=operand_of(cond), if_true=operand_of(a),
                                       if_false=operand_of(b)))

    def math_mask(self, node: ast.Call) -> Any:
        return self.masked(node, "mask", 0.0)

    def math_mask_posinf(self, node: ast.Call) -> Any:
        return self.masked(node, "mask_posinf", float("inf"))

    def masked(self, node: ast.Call, name: str, replacement: float) -> Any:
        """``mask(x, m)``: ``replacement`` where ``m`` is 1 (non-zero, as ``where`` tests), else ``x``."""
        x, mask = self.args_of(node, ("expr", "mask"), 2)
        if not (is_block(x) and is_block(mask)):
            self.fail("E0104", f"ttl.block.{name} takes two blocks, got {describe(x)} and {describe(mask)}")
        self.check_same_shape(x.type, mask.type, name, node)
        result = self.reg("e", x.type.as_expr())
        return self.fresh(ir.TileWhere(result=result, cond=mask.reg, if_true=ir.Const(replacement), if_false=x.reg))

    def math_squeeze(self, node: ast.Call) -> Any:
        """``squeeze(x, dims)``: remove grid dims of extent 1, ``dims`` counted in ``x``'s shape."""
        x, dims = self.args_of(node, ("block", "dims"), 2)
        shape = self.reshape_operand(x, "squeeze")
        removed = set(self.norm_dims(self.ct_int_tuple(dims, "dims"), len(shape)))
        for d in removed:
            if shape[d] != 1:
                self.fail("E0105", f"cannot squeeze dim {d + len(shape)} of a block of shape {shape}: its extent is "
                          f"{shape[d]}, not 1")
        return self.reshaped(x, tuple(e for d, e in enumerate(shape) if d - len(shape) not in removed))

    def math_unsqueeze(self, node: ast.Call) -> Any:
        """``unsqueeze(x, dims)``: insert grid dims of extent 1, ``dims`` counted in the result's shape."""
        x, dims = self.args_of(node, ("block", "dims"), 2)
        shape = self.reshape_operand(x, "unsqueeze")
        wanted = self.ct_int_tuple(dims, "dims")
        rank = len(shape) + len(wanted)
        inserted = set(self.norm_dims(wanted, rank))
        if len(inserted) != len(wanted):
            self.fail("E0104", f"unsqueeze dims {list(wanted)} name a dim twice")
        rest = iter(shape)
        return self.reshaped(x, tuple(1 if d - rank in inserted else next(rest) for d in range(rank)))

    def reshape_operand(self, x: Any, what: str) -> tuple[int, ...]:
        if not is_block(x):
            self.fail("E0104", f"ttl.block.{what} needs a block, got {describe(x)}")
        return x.type.shape

    def reshaped(self, x: RV, shape: tuple[int, ...]) -> RV:
        if x.type.unit.tiled and len(shape) < 2:
            self.fail("E0105", f"a tile block keeps at least 2 dims; this one would have shape {shape}")
        return self.fresh(ir.TileReshape(result=self.reg("e", x.type.as_expr(shape)), x=x.reg))

    def math_transpose(self, node: ast.Call) -> Any:
        (x,) = self.args_of(node, ("x",), 1)
        if not is_block(x) or len(x.type.shape) != 2:
            self.fail("E0104", "transpose needs a 2-D block")
        result = self.reg("e", x.type.as_expr((x.type.shape[1], x.type.shape[0])))
        return self.fresh(ir.TileTranspose(result=result, x=x.reg))

    def math_fill(self, node: ast.Call) -> Any:
        value, shape = self.args_of(node, ("value", "shape"), 2)
        shape_t = self.ct_int_tuple(shape, "fill shape")
        value = self.block_operand(value, node)
        from ..dtypes import float32
        from ..ir.types import TILE_UNIT
        result = self.reg("e", BlockType(shape_t, float32, TILE_UNIT, expr=True))
        return self.fresh(ir.TileFill(result=result, value=operand_of(value)))

    def math_broadcast(self, node: ast.Call) -> Any:
        # 1.1.6: broadcast(x, dims=, shape=); 1.1.1: broadcast(x, out_blk, dims)
        positional = [self.expr(a) for a in node.args]
        keywords = {k.arg: self.expr(k.value) for k in node.keywords}
        if len(positional) >= 2 and is_block(positional[1]):
            x, out_blk = positional[0], positional[1]
            a2, a3 = out_blk, positional[2] if len(positional) > 2 else keywords.pop("dims", None)
        else:
            x, a2, a3 = self.args_of(node, ("x", "dims", "shape"), 2)
        if is_block(a2):
            target, dims = a2.type.shape, a3
        else:
            dims, target = a2, (self.ct_int_tuple(a3, "shape") if a3 is not None else None)
        if not is_block(x):
            self.fail("E0104", "broadcast needs a block")
        written = self.ct_int_tuple(dims, "dims")
        dims_t = self.norm_dims(written, len(x.type.shape))
        if target is None:
            self.fail("E0104", "broadcast needs the target shape (shape=...)")
        target = tuple(target)
        for d in range(len(target)):
            want = 1 if (d - len(target)) in dims_t else target[d]
            if x.type.shape[d] != want:
                self.fail("E0105", f"cannot broadcast a block of shape {x.type.shape} along dims "
                          f"{list(written)} to {target}", node, hint="broadcast dims must have extent 1 "
                          "in the source; the others must match the target")
        result = self.reg("e", x.type.as_expr(target))
        return self.fresh(ir.TileBroadcast(result=result, x=x.reg, dims=dims_t))

    def norm_dims(self, dims: tuple[int, ...], rank: int) -> tuple[int, ...]:
        out = []
        for d in dims:
            if not -rank <= d < rank:
                self.fail("E0104", f"dim {d} is out of range for a {rank}-D block")
            out.append(d - rank if d >= 0 else d)
        return tuple(sorted(set(out)))

    def reduce(self, kind: str, node: ast.Call) -> Any:
        x = self.expr(node.args[0]) if node.args else None
        rest = [self.expr(a) for a in node.args[1:]]
        kws = {k.arg: self.expr(k.value) for k in node.keywords}
        scaler = None
        if rest and is_block(rest[0]):
            scaler = rest.pop(0)  # 1.1.1: reduce_sum(x, scaler, dims)
        if "scaler" in kws:
            scaler = kws.pop("scaler")
        dims = kws.pop("dims", rest.pop(0) if rest else None)
        shape = kws.pop("shape", rest.pop(0) if rest else None)
        if not is_block(x) or dims is None or rest or kws:
            self.fail("E0104", f"reduce_{kind} takes (block, dims[, shape]) or (block, scaler, dims)")
        dims_t = self.norm_dims(self.ct_int_tuple(dims, "dims"), len(x.type.shape))
        out_shape = tuple(1 if (d - len(x.type.shape)) in dims_t else e for d, e in enumerate(x.type.shape))
        if shape is not None and tuple(self.ct_int_tuple(shape, "shape")) != out_shape:
            self.fail("E0105", f"reduce_{kind} of a {x.type.shape} block over dims {list(dims_t)} has "
                      f"shape {out_shape}, not {self.ct_int_tuple(shape, 'shape')}")
        result = self.reg("e", x.type.as_expr(out_shape))
        return self.fresh(ir.TileReduce(result=result, kind=kind, x=x.reg, dims=dims_t,
                                        scaler=scaler.reg if scaler is not None else None))

    def math_reduce_sum(self, node: ast.Call) -> Any:
        return self.reduce("sum", node)

    def math_reduce_max(self, node: ast.Call) -> Any:
        return self.reduce("max", node)

    # ---------------------------------------------------------------- methods
    def call_method(self, bm: BoundMethod, node: ast.Call) -> Any:
        obj, name = bm.obj, bm.method
        if isinstance(obj, CBDecl):
            return self.cb_method(obj, name, node)
        if isinstance(obj, RV) and isinstance(obj.type, BlockType):
            return self.block_method(obj, name, node)
        if isinstance(obj, RV) and obj.type == GROUP and name in ("add", "wait_all"):
            if name == "add":
                (xfer,) = self.args_of(node, ("xfer",), 1)
                if not (isinstance(xfer, RV) and xfer.type == XFER):
                    self.fail("E0104", f"GroupTransfer.add() takes a transfer handle, got {describe(xfer)}")
                self.emit(ir.GroupAdd(group=obj.reg, xfer=xfer.reg))
            else:
                self.args_of(node, (), 0)
                self.emit(ir.GroupWait(group=obj.reg))
            return CT(None)
        if isinstance(obj, RV) and obj.type == XFER and name == "wait":
            self.args_of(node, (), 0)
            self.emit(ir.XferWait(xfer=obj.reg))
            return CT(None)
        if isinstance(obj, SemaphoreDecl):
            return self.sem_method(obj, name, node)
        if isinstance(obj, RemoteSemV):
            return self.remote_sem_method(obj, name, node)
        if isinstance(obj, PipeNetV) and name in ("if_src", "if_dst"):
            (fn,) = self.args_of(node, ("fn",), 1)
            return self.pipe_foreach(name[3:], node, net_value=obj, fn=fn)
        if isinstance(obj, PipeNetV) and name in ("is_active", "is_src", "is_dst"):
            self.args_of(node, (), 0)
            return self.pipe_membership(obj.decl, name)
        self.fail("E0104", f"{describe(obj)} has no method '{name}' usable in a thread")

    def cb_method(self, cb: CBDecl, name: str, node: ast.Call) -> Any:
        self.args_of(node, (), 0)
        if name in ("reserve", "wait"):
            block = self.reg(f"{cb.name}_blk", cb.block_type)
            op = ir.CBReserve(result=block, cb=cb) if name == "reserve" else ir.CBWait(result=block, cb=cb)
            value = self.fresh(op)
            self.block_origin[block.name] = (cb, name)
            return value
        self.emit(ir.CBPush(cb=cb) if name == "push" else ir.CBPop(cb=cb))
        return CT(None)

    def block_method(self, blk: RV, name: str, node: ast.Call) -> Any:
        origin = self.block_origin.get(blk.reg.name)
        if name == "store":
            self.require_compute("block.store()")
            (value,) = self.args_of(node, ("value",), 1)
            self.store(blk, value, accumulate=False, node=node)
            return CT(None)
        if name == "to":
            return self.rounded(blk, node)
        self.args_of(node, (), 0)
        if origin is None:
            if blk.reg.name in self.carried_reads:  # a buffer's block turned into a loop-carried local
                self.fail_carried(self.carried_reads[blk.reg.name])
            self.fail("E0104", f"block.{name}() needs a block acquired with reserve() or wait()")
        cb, mode = origin
        wanted = {"push": "reserve", "pop": "wait"}[name]
        if mode != wanted:
            self.fail("E0104", f"block.{name}() releases a block obtained by {wanted}(), but this one came from "
                      f"{mode}()", hint="release reserved blocks with push() and waited-for blocks with pop()")
        self.emit(ir.CBPush(cb=cb, block=blk.reg) if name == "push" else ir.CBPop(cb=cb, block=blk.reg))
        return CT(None)

    def rounded(self, x: RV, node: ast.Call) -> RV:
        """``expr.to(ttnn.bfloat16)``: a rounding point the program states (``ir.TileRound``). The
        expression's fp32 value is rounded into the format there, as a store into a block of that
        format rounds it, and what reads it reads the rounded value (docs/language.md section 5.9)."""
        self.require_compute("block.to()")
        (target,) = self.args_of(node, ("dtype",), 1)
        fmt = _data_format(target.value) if isinstance(target, CT) else None
        if fmt is None:
            self.fail("E0130", f"block.to() takes a data format, got {describe(target)}", node.args[0]
                      if node.args else node, hint="write expr.to(ttnn.bfloat16)")
        if x.type.fmt.is_integer:
            self.fail("E0130", f"block.to() rounds floating-point values; this block holds {x.type.fmt.name}", node,
                      hint="integer blocks compute exactly: there is nothing to round")
        if fmt.name not in mathops.ROUNDING_FORMATS:
            why = ("the intermediates of an expression are already fp32: there is nothing to round"
                   if fmt == float32 else "the packer rounds an expression into a bfloat16 buffer for the FPU to read")
            self.fail("E0130", f"block.to() rounds to {', '.join(mathops.ROUNDING_FORMATS)} only, not {fmt.name}",
                      node.args[0] if node.args else node, hint=f"{why}; write .to(ttnn.bfloat16), or leave it out")
        result = self.reg("e", BlockType(x.type.shape, fmt, x.type.unit, expr=True))
        return self.fresh(ir.TileRound(result=result, x=x.reg, fmt=fmt.name))

    def store(self, blk: RV, value: Any, accumulate: bool, node: ast.AST) -> None:
        self.require_compute("block.store()" if not accumulate else "'+=' on a block")
        if not is_block(value):
            if isinstance(value, CT) and isinstance(value.value, (int, float)):
                value = self.fresh(ir.TileFill(result=self.reg("e", blk.type.as_expr()), value=operand_of(value)))
            else:
                self.fail("E0104", f"store() needs a block expression, got {describe(value)}", node)
        if value.type.unit != blk.type.unit:
            if not isinstance(self.producer.get(value.reg.name), ir.TileFill):
                self.fail("E0105", f"cannot store an expression over {block_extent(value.type)} into a block "
                          f"of {block_extent(blk.type)}", node,
                          hint="tile-layout blocks count 32x32 tiles and row-major blocks count elements; make "
                               "the buffers like tensors of the same layout (ttnn.TILE_LAYOUT)")
            # a bare fill takes the unit of the block it fills; its shape is still checked below
            value.reg.type = blk.type.as_expr(value.type.shape)
        if value.type.shape != blk.type.shape:
            self.fail("E0105", f"cannot store an expression of shape {value.type.shape} into a block of "
                      f"shape {blk.type.shape}", node)
        self.emit(ir.BlockStore(block=blk.reg, value=value.reg, accumulate=accumulate))

    def sem_method(self, sem: SemaphoreDecl, name: str, node: ast.Call) -> Any:
        if name == "get_remote":
            (core,) = self.args_of(node, ("core",), 1)
            return RemoteSemV(sem, core=self.core_operands(core))
        if name == "get_remote_multicast":
            (rng,) = self.args_of(node, ("range",), 0)
            return RemoteSemV(sem, cores=self.core_range(rng), multicast=True)
        if self.kind != DATAMOVEMENT:
            self.fail("E0003", f"Semaphore.{name}() can only be used in a data movement thread")
        conds = {"wait_eq": "eq", "wait_for": "eq", "wait_ge": "ge", "wait_for_min": "ge"}
        (value,) = self.args_of(node, ("value",), 1)
        value = self.need_scalar(value, node)
        self.check_semaphore_value(value, node)
        if name in conds:
            self.emit(ir.SemWait(sem=sem, cond=conds[name], value=operand_of(value)))
        elif name == "set":
            self.emit(ir.SemSet(sem=sem, value=operand_of(value)))
        else:
            self.fail("E0104", f"Semaphore has no method '{name}'",
                      hint="use wait_eq/wait_for, wait_ge/wait_for_min, set, get_remote, get_remote_multicast")
        return CT(None)

    def check_semaphore_value(self, value: Any, node: ast.AST) -> None:
        """Semaphores hold 32-bit unsigned values: a constant outside that range is a mistake."""
        if isinstance(value, CT) and not (isinstance(value.value, int) and 0 <= value.value < 2**32):
            self.fail("E0104", f"a semaphore holds a 32-bit unsigned integer; {value.value!r} is not one", node)

    def remote_sem_method(self, rs: RemoteSemV, name: str, node: ast.Call) -> Any:
        if self.kind != DATAMOVEMENT:
            self.fail("E0003", f"remote semaphore {name}() can only be used in a data movement thread")
        (value,) = self.args_of(node, ("value",), 0)
        value = self.need_scalar(value if value is not None else CT(1), node)
        if name == "set":
            self.check_semaphore_value(value, node)
        if rs.multicast:
            if name != "set":
                self.fail("E0104", "a multicast remote semaphore supports only set()")
            self.emit(ir.SemMulticastSet(sem=rs.decl, cores=rs.cores, value=operand_of(value)))
        elif name in ("inc", "set"):
            self.emit(ir.SemRemote(sem=rs.decl, op=name, core=rs.core, value=operand_of(value)))
        else:
            self.fail("E0104", f"a remote semaphore has no method '{name}'")
        return CT(None)

    def core_operands(self, core: Any) -> tuple[Any, ...]:
        items = core.items if isinstance(core, TupleV) else None
        if isinstance(core, CT):
            items = tuple(CT(v) for v in (core.value if isinstance(core.value, tuple) else (core.value,)))
        if items is None or len(items) != len(self.grid):
            self.fail("E0203", f"a core coordinate needs {len(self.grid)} integers to match the grid {self.grid}")
        return tuple(operand_of(self.need_scalar(i, self.node)) for i in items)

    def core_range(self, rng: Any) -> CoreRange:
        if rng is None:
            return CoreRange(tuple(0 for _ in self.grid), tuple(self.grid))
        if not isinstance(rng, CT):
            self.fail("E0203", "a multicast core range must be a constant")
        try:
            return CoreRange(*range_bounds(rng.value, self.grid))
        except ValueError as exc:
            self.fail("E0203", str(exc))

    # ---------------------------------------------------------------- print, folding, inlining
    def call_print(self, node: ast.Call) -> Any:
        """``print(...)`` of strings, constants and runtime scalars, and at most one block or
        dataflow buffer (shown after the other arguments, as the published simulator does)."""
        sep = self.print_separator(node)
        args: list[Any] = []
        shown: list[tuple[Any, ast.AST]] = []
        for arg in node.args:
            value = self.expr(arg)
            if is_block(value) or (isinstance(value, CT) and isinstance(value.value, CBDecl)):
                shown.append((value, arg))
                continue
            # an f-string is one argument whose parts are concatenated; a tuple prints item by item
            parts = value.items if isinstance(value, TupleV) else (value,)
            printed = []
            for part in parts:
                if isinstance(part, CT):
                    printed.append(str(part.value))
                elif isinstance(part, RV) and not is_block(part):
                    printed.append(part.reg)
                else:
                    self.fail("E0104", f"cannot print {describe(part)}",
                              hint="print() in a thread shows numbers, strings, one block or one dataflow buffer")
            if isinstance(arg, ast.JoinedStr):
                args.append(tuple(printed))
            else:
                args.extend(printed)
        if len(shown) > 1:
            self.fail("E0104", "print() shows one block or dataflow buffer at a time", shown[1][1],
                      hint="print them with separate print() calls")
        if sep is not None and len(args) > 1:  # one concatenated argument: the separator between the parts
            joined: list[Any] = []
            for i, arg in enumerate(args):
                joined.extend(([sep] if i else []) + list(arg if isinstance(arg, tuple) else (arg,)))
            args = [tuple(joined)]
        if not shown:
            self.emit(ir.Print(args=args))
        elif is_block(shown[0][0]):
            self.emit(ir.PrintBlock(args=args, block=shown[0][0].reg))
        else:
            self.emit(ir.PrintBuffer(args=args, cb=shown[0][0].value))
        return CT(None)

    def print_separator(self, node: ast.Call) -> str | None:
        """``sep=`` of a print() in a thread (a string known at compile time); ``end`` may only be the
        newline and ``flush`` has no effect: a thread's print is one line."""
        sep = None
        for keyword in node.keywords:
            value = self.expr(keyword.value)
            text = value.value if isinstance(value, CT) else object()
            if keyword.arg == "sep" and (text is None or isinstance(text, str)):
                sep = text
            elif keyword.arg == "end" and text in (None, "\n"):
                pass
            elif keyword.arg != "flush":
                self.fail("E0104", f"print() in a thread takes sep= (a constant string), end='\\n' and flush=, "
                          f"not {keyword.arg}={describe(value)}", keyword.value,
                          hint="a thread's print() writes one line to the terminal")
        return sep

    def fold_call(self, fn: Any, node: ast.Call) -> Any:
        args = [self.expr(a) for a in node.args]
        kwargs = {k.arg: self.expr(k.value) for k in node.keywords}
        if fn is builtins.slice and not kwargs and 1 <= len(args) <= 3:  # a slice kept in a variable
            none = CT(None)
            return SliceV(none, args[0], none) if len(args) == 1 else SliceV(*args, *([none] * (3 - len(args))))
        if fn in (builtins.min, builtins.max) and any(is_block(a) for a in args):
            name = fn.__name__
            self.fail("E0104", f"Python's {name}() compares numbers, not a block", node,
                      hint=f"for the elementwise {name}imum of two blocks (or of a block and a number) use "
                           f"ttl.math.{name}(a, b)")
        if fn in (builtins.min, builtins.max) and not all(isinstance(a, CT) for a in args) and not kwargs:
            result = args[0]
            for other in args[1:]:
                result = self.arith(BinaryOp(fn.__name__), self.need_scalar(result, node), self.need_scalar(other, node), node)
            return result
        if fn is builtins.divmod and len(args) == 2 and not all(isinstance(a, CT) for a in args) and not kwargs:
            a, b = (self.need_scalar(v, node) for v in args)
            return TupleV((self.arith(BinaryOp.FLOORDIV, a, b, node), self.arith(BinaryOp.MOD, a, b, node)))
        if fn in (builtins.zip, builtins.enumerate, builtins.reversed) and args \
                and all(isinstance(a, CT) for a in (*args, *kwargs.values())):
            try:  # over constant sequences: a constant tuple, which a for loop unrolls
                return CT(tuple(fn(*(a.value for a in args), **{k: v.value for k, v in kwargs.items()})))
            except TypeError as exc:
                self.fail("E0104", f"{fn.__name__}() failed: {exc}")
        if fn is builtins.len and len(args) == 1 and is_block(args[0]) and not kwargs:
            return CT(math.prod(args[0].type.shape))  # units in the block, as the published Block.__len__
        if fn is builtins.abs and len(args) == 1 and is_block(args[0]) and not kwargs:
            return self.tile_unary("abs", args[0], (), node)  # abs(blk), as the published Block.__abs__
        if fn in _CONVERSIONS and len(args) == 1 and isinstance(args[0], RV):
            op = _CONVERSIONS[fn]
            return self.fresh(ir.Unary(result=self.reg("t", scalarops.UNARY[op].result or args[0].type), op=op,
                                       operand=args[0].reg))
        if fn not in FOLDABLE or not all(isinstance(a, CT) for a in (*args, *kwargs.values())):
            name = getattr(fn, "__name__", repr(fn))
            self.fail("E0101", f"cannot call {name}() in a kernel thread", hint="threads may call ttl "
                      "functions, helper functions written in the kernel subset, and min/max/abs/int/divmod "
                      "on integers")
        try:
            return self.classify_ct(fn(*(a.value for a in args), **{k: v.value for k, v in kwargs.items()}))
        except Exception as exc:  # noqa: BLE001 - reported at the user's call
            self.fail("E0104", f"{getattr(fn, '__name__', fn)}() failed: {exc}")

    def inline_call(self, fn: FuncRef, node: ast.Call) -> Any:
        if node.keywords:
            self.fail("E0101", "keyword arguments to helper functions are not supported")
        args = [self.expr(a) for a in node.args]
        return self.inline_function(fn, args, node)

    def pipenet_of(self, value: Any) -> PipeNetDecl:
        raise NotImplementedError

    def inline_function(self, fn: FuncRef, args: list[Any], node: ast.AST) -> Any:
        raise NotImplementedError

    def note_pipe_use(self, pipe: RV, kind: str, block: BlockType, node: ast.AST) -> None:
        raise NotImplementedError

    def fail_carried(self, marker: Any) -> None:
        raise NotImplementedError

    block_origin: dict[str, tuple[CBDecl, str]]


def _data_format(value: Any) -> DataFormat | None:
    """The format a ``block.to()`` argument names: a ttnn data type (``ttnn.bfloat16``, which is a
    :class:`DataFormat`) or a torch dtype; None for anything else."""
    if isinstance(value, DataFormat):
        return value
    try:
        return from_torch_dtype(value)
    except (KeyError, TypeError, ValueError):
        return None


def squeeze(shape: tuple[int, ...]) -> tuple[int, ...]:
    """Drop leading 1s: a slice ``t[0, 2:4, 0:2]`` of a 3-D tensor fits a (2, 2) block."""
    shape = tuple(shape)
    while len(shape) > 1 and shape[0] == 1:
        shape = shape[1:]
    return shape


def _spelled_core(func: ast.expr) -> bool:
    """Whether a coordinate call is written ``ttl.core`` / ``core`` (the seed specification's, which
    folds the last coordinates) rather than ``ttl.node`` (1.1.6's, which folds the first)."""
    return (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) == "core"


def _pipe_role(core: tuple[int, ...], net: PipeNetDecl, test: str) -> bool:
    """Whether ``core`` is a source (``is_src``), a destination (``is_dst``) or either
    (``is_active``) of a pipe of ``net``."""
    src = any(p.src == core for p in net.pipes)
    dst = any(core in p.dsts for p in net.pipes)
    return {"is_src": src, "is_dst": dst, "is_active": src or dst}[test]
