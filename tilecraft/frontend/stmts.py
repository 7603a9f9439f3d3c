"""Statement visitors: assignment, loops, branches, ``with`` acquisitions, expression statements."""

from __future__ import annotations

import ast
import builtins
from contextlib import contextmanager
from typing import Any, Iterator

from ..diagnostics import error
from ..dtypes import float32
from ..ir import ops as ir
from ..ir.scalarops import BinaryOp
from ..ir.types import BOOL, FLOAT, INDEX, XFER, BlockType
from ..lang.intrinsic import intrinsic_name
from .calls import CallMixin
from .exprs import TupleV, describe, is_block
from .value_kinds import CT, RV, CarriedBlock, Poison, operand_of, scalar_type


class _Return(Exception):
    """Raised by ``return`` at the end of an inlined function to hand back its value."""

    def __init__(self, value: Any):
        self.value = value


class StmtMixin(CallMixin):
    loop_depth: int = 0

    #: nesting inside runtime control flow (an if decided at run time, a runtime for or while loop)
    #: and with-statements of the function being compiled: a return is allowed only at depth 0,
    #: where it ends the inlined function (an if decided at compile time is no nesting)
    block_depth: int = 0
    #: loops unrolled at compile time that enclose the current statement, innermost last
    unrolled: list = []
    #: runtime loops and with-statements of the function being compiled around the statement: a
    #: helper's return may be nested in runtime branches, not in these
    return_barrier: int = 0
    #: the register an inlined helper's returns inside runtime branches assign (created by the first)
    return_reg: ir.Reg | None = None
    #: the releases of the with-statements around the statement, outermost first (a return in the
    #: thread runs them, as Python runs ``__exit__``)
    with_frames: list = []

    def stmts(self, body: list[ast.stmt]) -> None:
        for i, stmt in enumerate(body):
            visitor = getattr(self, f"stmt_{type(stmt).__name__}", None)
            with self.at(stmt):
                if visitor is None:
                    self.fail("E0101", f"unsupported statement in a kernel thread: {type(stmt).__name__}",
                              hint="threads accept assignments, for/while/if, with, and calls")
                visitor(stmt)

    # ---------------------------------------------------------------- simple statements
    def stmt_Pass(self, node: ast.Pass) -> None:
        pass

    def stmt_Assert(self, node: ast.Assert) -> None:
        """``assert cond[, msg]`` on values known at compile time (shapes, grid sizes, constants), checked
        when the thread is compiled: the published simulator runs it on every node, with the same outcome."""
        cond = self.expr(node.test)
        if not isinstance(cond, CT):
            self.fail("E0101", "assert on a value known only at run time is not supported in a thread",
                      node.test, hint="assert on shapes, grid sizes and constants, or check the value in the "
                                      "operation body")
        if not cond.value:
            message = self.expr(node.msg) if node.msg is not None else None
            detail = f": {message.value}" if isinstance(message, CT) and message.value is not None else ""
            self.fail("E0104", f"assertion failed in a thread{detail}", node.test)

    def stmt_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return  # docstring
        value = self.expr(node.value)
        if isinstance(value, RV) and value.type == XFER:  # a bare ttl.copy(...): waited at once, as in 1.1.6
            self.emit(ir.XferWait(xfer=value.reg))

    def stmt_Return(self, node: ast.Return) -> None:
        value = self.expr(node.value) if node.value is not None else CT(None)
        if not self.inlining():  # the thread's own return: it finishes here (with-blocks released first)
            if not self.block_depth:
                raise _Return(value)
            for frame in reversed(self.with_frames):
                self.release_with(frame, node)
            self.emit(ir.Return())
            return
        if not self.block_depth and self.return_reg is None:
            raise _Return(value)
        if self.return_barrier:
            self.fail("E0101", "return inside a loop or with-statement of a helper is not supported",
                      hint="assign the result to a variable, break out of the loop and return it after")
        if not self.is_scalar(value):
            self.fail("E0101", f"a helper that returns inside a runtime branch must return a number, not "
                      f"{describe(value)}")
        type_ = self.scalar_type_of(value)
        if self.return_reg is None:
            self.return_reg = self.named_reg(self.scope.prefix + "return", type_)
        elif self.return_reg.type != type_ and FLOAT in (self.return_reg.type, type_):
            self.return_reg.type = FLOAT
        self.emit(ir.Assign(result=self.return_reg, value=operand_of(value)))
        if not self.block_depth:
            raise _Return(RV(self.return_reg))

    def inlining(self) -> bool:
        raise NotImplementedError

    def stmt_Break(self, node: ast.Break) -> None:
        if not self.loop_depth:
            self.fail("E0101", "break outside a loop")
        if self.unrolled and self.unrolled[-1] == self.loop_depth:
            self.fail("E0101", "break in a loop over a constant sequence (it is unrolled at compile time)",
                      hint="loop over range(len(seq)) instead")
        self.emit(ir.Break())

    def stmt_Continue(self, node: ast.Continue) -> None:
        if not self.loop_depth:
            self.fail("E0101", "continue outside a loop")
        if self.unrolled and self.unrolled[-1] == self.loop_depth:
            self.fail("E0101", "continue in a loop over a constant sequence (it is unrolled at compile time)",
                      hint="loop over range(len(seq)) instead")
        self.emit(ir.Continue())

    def stmt_FunctionDef(self, node: ast.FunctionDef) -> None:
        from .value_kinds import FuncRef
        if node.decorator_list:
            self.fail("E0101", "decorated functions cannot be defined inside a thread")
        self.scope.bindings[node.name] = FuncRef((None,), scope=(self.scope, self.source), node=node)

    # ---------------------------------------------------------------- assignment
    def stmt_Assign(self, node: ast.Assign) -> None:
        value = self.expr(node.value)
        for target in node.targets:
            self.assign(target, value)

    def stmt_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is None:
            return
        self.assign(node.target, self.expr(node.value))

    def stmt_AugAssign(self, node: ast.AugAssign) -> None:
        if not isinstance(node.target, ast.Name):
            self.fail("E0101", "augmented assignment needs a plain name")
        current = self.expr_Name(ast.Name(id=node.target.id, ctx=ast.Load()))
        if is_block(current) and current.reg.name in self.block_origin:  # a block of a buffer
            rhs = self.expr(node.value)
            if not isinstance(node.op, ast.Add):
                self.fail("E0104", "only '+=' accumulates into a block of a buffer",
                          hint="write blk.store(blk * x), or accumulate in a local block (acc = ttl.block.fill(...))")
            self.store(current, rhs, accumulate=True, node=node)
            return
        value = self.expr(ast.BinOp(left=ast.Name(id=node.target.id, ctx=ast.Load()), op=node.op,
                                    right=node.value, lineno=node.lineno, col_offset=node.col_offset))
        self.assign(node.target, value)

    def assign(self, target: ast.expr, value: Any) -> None:
        if isinstance(target, (ast.Tuple, ast.List)) and any(isinstance(e, ast.Starred) for e in target.elts):
            self.fail("E0101", "starred assignment is not supported in a kernel thread", target,
                      hint="unpack into one name per value")
        if isinstance(target, (ast.Tuple, ast.List)):
            items = self.unpack(value, len(target.elts), target)
            for sub, item in zip(target.elts, items):
                self.assign(sub, item)
            return
        if not isinstance(target, ast.Name):
            self.fail("E0101", "only names can be assigned in a thread", target,
                      hint="blocks are written with blk.store(expr); tensors with ttl.copy")
        self.bind(target.id, value, target)

    def unpack(self, value: Any, n: int, node: ast.AST) -> tuple[Any, ...]:
        if isinstance(value, TupleV):
            items = value.items
        elif isinstance(value, CT) and isinstance(value.value, (tuple, list)):
            items = tuple(self.classify_ct(v) for v in value.value)
        else:
            self.fail("E0104", f"cannot unpack {describe(value)}", node)
        if len(items) != n:
            self.fail("E0104", f"cannot unpack {len(items)} values into {n} names", node)
        return items

    def bind(self, name: str, value: Any, node: ast.AST) -> None:
        """Bind a local: scalars assigned at several places share one mutable register; so do
        block values that live in no buffer (a local block: ``acc = fill(...)``, ``acc += ...``)."""
        scope = self.scope
        if is_block(value) and value.reg.name not in self.block_origin and (name in scope.multi or value.type.local):
            self.bind_local_block(name, value, node)
            return
        if name in scope.multi and self.is_scalar(value):
            existing = scope.bindings.get(name)
            type_ = self.scalar_type_of(value)
            if isinstance(existing, RV) and existing.reg.name == scope.prefix + name:
                reg = existing.reg
                if reg.type != type_ and FLOAT in (reg.type, type_):
                    reg.type = FLOAT
            else:
                reg = self.named_reg(scope.prefix + name, type_)
            self.emit(ir.Assign(result=reg, value=operand_of(value)))
            scope.bindings[name] = RV(reg)
            return
        if isinstance(value, RV) and not value.fresh and value.type in (INDEX, BOOL, FLOAT):
            reg = self.reg(scope.prefix + name, value.type)
            self.emit(ir.Assign(result=reg, value=value.reg))
            value = RV(reg)
        elif isinstance(value, RV) and value.fresh:
            value = RV(value.reg, linear=value.linear)
        scope.bindings[name] = value

    def bind_local_block(self, name: str, value: RV, node: ast.AST) -> None:
        """``name = expr`` for a local block: the value is stored into the name's own register
        (created on first assignment), so a loop can carry it and an alias is a copy, as in Python."""
        own = self.local_block(self.scope, name, value.type, node)
        self.emit(ir.LocalStore(result=own.reg, value=value.reg))
        self.scope.bindings[name] = own

    def local_block(self, scope: Any, name: str, type_: BlockType, node: ast.AST | None) -> RV:
        """The local block register of ``name`` in ``scope``, created for a value of ``type_``."""
        key = (id(scope), name)
        _scope, own = self.local_blocks.get(key, (None, None))
        if own is None:  # the scope is kept with its register, so its id is never reused
            reg = self.reg(scope.prefix + name, BlockType(type_.shape, float32, type_.unit, local=True))
            own = RV(reg)
            self.local_blocks[key] = (scope, own)
        elif own.type.shape != type_.shape:
            self.fail("E0105", f"local block '{name}' has shape {own.type.shape}; it cannot hold a value of "
                      f"shape {type_.shape}", node)
        return own

    # ---------------------------------------------------------------- blocks carried by a loop
    def carry_blocks(self, body: list[ast.stmt], loop: ir.Op) -> list[CarriedBlock]:
        """Mark each block name ``body`` assigns (see :class:`CarriedBlock`); call it after ``loop``
        is emitted and before its body is compiled."""
        markers = []
        rebound = rebound_names(body)
        for name in sorted(assigned_names(body)):
            current = self.scope.bindings.get(name)
            if isinstance(current, RV) and current.reg.name in self.block_origin and name not in rebound:
                continue  # `blk += x` on a buffer's block stores into it; the name keeps the block
            if isinstance(current, CarriedBlock) or (isinstance(current, RV) and is_block(current)):
                marker = CarriedBlock(name, current, loop, self._regions[-1], self.scope)
                self.scope.bindings[name] = marker
                markers.append(marker)
        return markers

    def carried_value(self, marker: CarriedBlock, node: ast.AST | None = None) -> RV:
        """A read of a loop-carried block name: its local block, which gets the value from before
        the loop (a copy ahead of the loop) the first time this is asked."""
        if marker.own is None:
            before = marker.before
            if isinstance(before, CarriedBlock):
                before = self.carried_value(before, node)
            own = self.local_block(marker.scope, marker.name, before.type, node)
            if own.reg is not before.reg:
                copy = ir.LocalStore(result=own.reg, value=before.reg, loc=marker.loop.loc)
                marker.region.insert(marker.region.index(marker.loop), copy)
            marker.own, marker.read_at = own, self.span(node)
            if not before.type.local:  # a buffer's block, now copied: pushing or popping it is a mistake
                self.carried_reads.setdefault(own.reg.name, marker)
        return marker.own

    def merge_carried(self, value: Any, other: Any) -> Any:
        """One branch's binding of a name where the other branch's is ``other``: a loop-carried
        marker becomes the name's local block when the other branch assigned that block (the name
        then holds the local block on both paths) or when it was read already."""
        if isinstance(value, CarriedBlock) and (value.own is not None or isinstance(other, CarriedBlock)
                                                or (isinstance(other, RV) and is_block(other) and other.type.local)):
            return self.carried_value(value)
        return value

    def close_carried(self, markers: list[CarriedBlock]) -> None:
        """After a loop body: the binding each carried name keeps after the loop. A name read before
        the body assigned it must end the body in its local block, or the next iteration would read
        a stale value: a block of a buffer assigned to it is ``E0102`` at that read."""
        for marker in markers:
            final = marker.scope.bindings.get(marker.name)
            if final is marker:  # the body never assigned it (a branch decided at compile time)
                marker.scope.bindings[marker.name] = marker.own if marker.own is not None else marker.before
            elif isinstance(final, CarriedBlock) or (isinstance(final, RV) and is_block(final) and final.type.local):
                if marker.own is not None:
                    marker.scope.bindings[marker.name] = self.carried_value(final) \
                        if isinstance(final, CarriedBlock) else final
                else:
                    marker.scope.bindings[marker.name] = marker
            elif marker.own is not None:
                self.fail_carried(marker)

    def fail_carried(self, marker: CarriedBlock) -> None:
        raise error("E0102", f"'{marker.name}' is read here before the loop assigns it, so its value is carried "
                    "from one iteration into the next: only a local block can be carried (a copy), and the loop "
                    f"uses '{marker.name}' as a block of a dataflow buffer (assigns it one, pushes or pops it)",
                    marker.read_at, hint="acquire the block in the iteration that uses it (with dfb.wait() as "
                    "blk:), or keep the carried value in a name of its own (acc = blk + 0 before the loop, "
                    "acc = ... inside it)")

    def is_mutable(self, value: Any) -> bool:
        """Values that live in a register a later assignment updates: scalars and local blocks."""
        return self.is_scalar(value) or (is_block(value) and value.type.local)

    def is_scalar(self, value: Any) -> bool:
        if isinstance(value, CT):
            return scalar_type(value.value) is not None
        return isinstance(value, RV) and value.type in (INDEX, BOOL, FLOAT)

    def scalar_type_of(self, value: Any) -> Any:
        return scalar_type(value.value) if isinstance(value, CT) else value.type

    # ---------------------------------------------------------------- control flow
    def stmt_For(self, node: ast.For) -> None:
        if node.orelse:
            self.fail("E0101", "for ... else is not supported")
        it = node.iter
        backwards = self.is_builtin_call(it, builtins.reversed) and len(it.args) == 1 and not it.keywords \
            and self.is_builtin_call(it.args[0], builtins.range)
        if backwards:
            it = it.args[0]
        is_range = self.is_builtin_call(it, builtins.range)
        if not is_range:
            seq = self.expr(it)
            if isinstance(seq, CT) and isinstance(seq.value, (tuple, list)):
                self.unrolled = [*self.unrolled, self.loop_depth + 1]
                try:
                    for item in seq.value:  # constant sequence: unrolled
                        self.assign(node.target, self.classify_ct(item))
                        self.loop_body(node.body)
                finally:
                    self.unrolled = self.unrolled[:-1]
                return
            self.fail("E0101", "for loops iterate over range(...) or a constant sequence", it)
        if it.keywords or not 1 <= len(it.args) <= 3:
            self.fail("E0104", "range() takes 1 to 3 positional arguments", it)
        args = [self.need_scalar(self.scalar(a), a) for a in it.args]
        lo, hi, step = (CT(0), args[0], CT(1)) if len(args) == 1 else (args[0], args[1], args[2] if len(args) == 3 else CT(1))
        if isinstance(step, CT) and step.value == 0:
            self.fail("E0104", "range() step must not be zero", it)
        if backwards:
            lo, hi, step = self.reversed_range(lo, hi, step, node.iter)
        if not isinstance(node.target, ast.Name):
            self.fail("E0101", "the loop variable must be a plain name", node.target)
        name = node.target.id
        if name in self.scope.multi:
            var = self.named_reg(self.scope.prefix + name, INDEX)
        else:
            var = self.reg(self.scope.prefix + name, INDEX)
        loop = ir.For(var=var, lo=operand_of(lo), hi=operand_of(hi), step=operand_of(step))
        self.materialise_assigned(node.body)
        self.emit(loop)
        carried = self.poison_loop_carried(node.body)
        blocks = self.carry_blocks(node.body, loop)
        before = dict(self.scope.bindings)
        with self.region(loop.body), self.runtime_nesting(barrier=True):
            self.bump(var)
            self.scope.bindings[name] = RV(var)
            self.loop_body(node.body)
        self.close_carried(blocks)
        self.unpoison_untouched(carried)
        self.poison_changed(before, "was assigned a block or transfer inside a loop and is used after it")

    @contextmanager
    def runtime_nesting(self, barrier: bool = False) -> Iterator[None]:
        self.block_depth += 1
        self.return_barrier += barrier
        try:
            yield
        finally:
            self.block_depth -= 1
            self.return_barrier -= barrier

    def loop_body(self, body: list[ast.stmt]) -> None:
        self.loop_depth += 1
        try:
            self.stmts(body)
        finally:
            self.loop_depth -= 1

    def stmt_While(self, node: ast.While) -> None:
        if node.orelse:
            self.fail("E0101", "while ... else is not supported")
        self.materialise_assigned(node.body)
        loop = ir.While(cond=ir.Const(True))
        self.emit(loop)
        carried = self.poison_loop_carried(node.body)
        blocks = self.carry_blocks(node.body, loop)
        before = dict(self.scope.bindings)
        with self.region(loop.cond_body):
            cond = self.need_scalar(self.expr(node.test), node.test)
        loop.cond = operand_of(cond)
        with self.region(loop.body), self.runtime_nesting(barrier=True):
            self.loop_body(node.body)
        self.close_carried(blocks)
        self.unpoison_untouched(carried)
        self.poison_changed(before, "was assigned a block or transfer inside a loop and is used after it")

    def stmt_If(self, node: ast.If) -> None:
        cond = self.need_scalar(self.expr(node.test), node.test)
        if isinstance(cond, CT):  # decided at compile time (grid size, constants, 1-core grids)
            self.stmts(node.body if cond.value else node.orelse)
            return
        self.materialise_assigned(node.body + node.orelse)
        branch = ir.If(cond=cond.reg)
        self.emit(branch)
        before = dict(self.scope.bindings)
        with self.region(branch.then_body), self.runtime_nesting():
            self.stmts(node.body)
        after_then = dict(self.scope.bindings)
        self.scope.bindings.clear()
        self.scope.bindings.update(before)
        with self.region(branch.else_body), self.runtime_nesting():
            self.stmts(node.orelse)
        for name in set(after_then) | set(self.scope.bindings):
            a, b = after_then.get(name), self.scope.bindings.get(name)
            a, b = self.merge_carried(a, b), self.merge_carried(b, a)
            if a is not b and not (isinstance(a, RV) and isinstance(b, RV) and a.reg is b.reg):
                if a is None or b is None or not self.is_mutable(a) or not self.is_mutable(b):
                    self.scope.bindings[name] = Poison("is assigned differently in the branches of a "
                                                       "runtime if", self.span(node))
                else:
                    self.scope.bindings[name] = a if name in self.scope.multi else Poison(
                        "is assigned in a runtime branch", self.span(node))

    def is_builtin_call(self, node: ast.expr, fn: Any) -> bool:
        """Whether ``node`` calls the Python builtin ``fn`` (by a name that still means it)."""
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and self.lookup(node.func.id) == CT(fn)

    def reversed_range(self, lo: Any, hi: Any, step: Any, node: ast.AST) -> tuple[Any, Any, Any]:
        """``reversed(range(lo, hi, step))`` as a range: from the last value ``lo + (n - 1) * step`` (``n``
        the length) down to ``lo - step``, stepping ``-step``; an empty range stays empty."""
        if not isinstance(step, CT):
            self.fail("E0104", "reversed(range(...)) needs a step known at compile time", node)
        s = step.value
        count = self.arith(BinaryOp.FLOORDIV, self.arith(BinaryOp.ADD, self.arith(BinaryOp.SUB, hi, lo, node),
                                                  CT(s - 1 if s > 0 else s + 1), node), step, node)
        last = self.arith(BinaryOp.ADD, lo, self.arith(BinaryOp.MUL, self.arith(BinaryOp.SUB, count, CT(1), node), step, node), node)
        return last, self.arith(BinaryOp.SUB, lo, step, node), CT(-s)

    def materialise_assigned(self, body: list[ast.stmt]) -> None:
        """Constants reassigned in a loop or branch move into their mutable register first."""
        for name in assigned_names(body):
            current = self.scope.bindings.get(name)
            if name in self.scope.multi and isinstance(current, CT) and self.is_scalar(current):
                self.bind(name, current, self.node)

    def poison_loop_carried(self, body: list[ast.stmt]) -> dict[str, tuple[Any, Poison]]:
        """Names bound to a compile-time object that is not a number (``None``, a buffer, a string)
        and reassigned in a runtime loop: a read in the loop before the reassignment sees the first
        value on the first iteration only (``acc = p if acc is None else acc + p``), which a body
        compiled once cannot say. Such a read is ``E0102``; returns what to restore when the body
        never reassigns the name after all (an assignment in a branch decided at compile time)."""
        carried = {}
        for name in sorted(assigned_names(body)):
            current = self.scope.bindings.get(name)
            if isinstance(current, CT) and not self.is_scalar(current):
                poison = Poison(f"is {describe_constant(current.value)} before this loop and assigned inside it: "
                                "its value here changes between iterations, and a thread decides it when it is "
                                "compiled", self.span(), hint="give it its loop value before the loop (an "
                                "accumulator starts as ttl.block.fill(0, shape=...)), or test the loop index "
                                "(if k == 0:) instead")
                self.scope.bindings[name] = poison
                carried[name] = (current, poison)
        return carried

    def unpoison_untouched(self, carried: dict[str, tuple[Any, Poison]]) -> None:
        for name, (value, poison) in carried.items():
            if self.scope.bindings.get(name) is poison:
                self.scope.bindings[name] = value

    def poison_changed(self, before: dict[str, Any], reason: str) -> None:
        for name, value in list(self.scope.bindings.items()):
            if before.get(name) is not value and not self.is_mutable(value) and name in before:
                self.scope.bindings[name] = Poison(reason, self.span())
            elif name not in before and not self.is_mutable(value):
                self.scope.bindings[name] = Poison(reason, self.span())

    # ---------------------------------------------------------------- with: acquire and release
    def stmt_With(self, node: ast.With) -> None:
        acquired: list[tuple[Any, str, Any]] = []
        for item in node.items:
            with self.at(item.context_expr):
                if self.is_signpost(item.context_expr):  # `with ttl.signpost(...)`: a marked region
                    if item.optional_vars is not None:
                        self.fail("E0101", "ttl.signpost(...) gives no value to bind with `as`")
                    self.expr(item.context_expr)
                    continue
                value = self.expr(item.context_expr)
                origin = self.block_origin.get(value.reg.name) if is_block(value) else None
                if origin is None:
                    self.fail("E0101", "with needs a buffer acquisition: cb.reserve() or cb.wait()",
                              hint="write `with cb.reserve() as blk:` or `with cb.wait() as blk:`")
                if item.optional_vars is not None:
                    self.assign(item.optional_vars, value)
                acquired.append((value, origin[1], origin[0]))
        self.with_frames = [*self.with_frames, acquired]
        try:
            with self.runtime_nesting(barrier=True):
                self.stmts(node.body)
        finally:
            self.with_frames = self.with_frames[:-1]
        self.release_with(acquired, node)

    def release_with(self, acquired: list, node: ast.AST) -> None:
        """The end of a with-statement: its reserved blocks pushed and waited ones popped, last first."""
        with self.at(node):
            for value, mode, cb in reversed(acquired):
                release = ir.CBPush(cb=cb, block=value.reg) if mode == "reserve" else ir.CBPop(cb=cb, block=value.reg)
                release.loc = self.span(node)
                self.emit(release)

    def is_signpost(self, node: ast.expr) -> bool:
        if not isinstance(node, ast.Call):
            return False
        func = self.expr(node.func)
        return isinstance(func, CT) and intrinsic_name(func.value) == "signpost"

    def lookup(self, name: str) -> Any:
        raise NotImplementedError


def describe_constant(value: Any) -> str:
    """A compile-time object as a message names it: ``None``, ``'text'``, or what kind of object it is."""
    if value is None or isinstance(value, (str, tuple)):
        return repr(value)
    return f"a {type(value).__name__}"


def rebound_names(body: list[ast.stmt]) -> set[str]:
    """The names ``body`` assigns other than by an augmented assignment."""
    augmented = {id(node.target) for stmt in body for node in ast.walk(stmt) if isinstance(node, ast.AugAssign)}
    return {node.id for stmt in body for node in ast.walk(stmt)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and id(node) not in augmented}


def assigned_names(body: list[ast.stmt]) -> set[str]:
    names: set[str] = set()
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
    return names
