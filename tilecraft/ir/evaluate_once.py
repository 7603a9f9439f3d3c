"""Evaluate once: a block expression that several stores read is computed once, into a block the
compiler adds (docs/language.md section 5.7, "When a block expression is evaluated").

A name bound to a block expression (``s = q @ ttl.transpose(k)``) is not computed where it is
written: each store that consumes it evaluates its tree, so an online-softmax step that reads
``s`` through ``m_new``, ``p`` and ``alpha`` in three stores multiplied ``Q @ K^T`` seven times.
This pass finds, in each compute thread, every expression that two or more statements of one body
consume (or one statement through a buffer-reading operation and another one: ``read_twice``) and
stores it once, right before the first of them, into a local block of its own
(``block.local_set ... once=true``: fp32, as every intermediate of an expression is, so no
rounding point is added and the results keep their bits; an expression the program rounds,
``e = ttl.math.exp(...).to(ttnn.bfloat16)``, in that format); the stores then read that block. The
lowering keeps it in a buffer it adds and counts (``ir/l1.py: Added.EVALUATED_ONCE``).

Computing the value earlier is only the same value when nothing it reads changes in between. When
a block it reads is written, popped or pushed, or a scalar it reads is reassigned, between its
first and last use, each use keeps computing it as written (the language's rule: each use reads
its operands when it runs), and warning ``W0420`` at the expression says why.
"""

from __future__ import annotations

import linecache
import re
from dataclasses import dataclass, fields
from typing import Iterator

from ..diagnostics import warn
from ..dtypes import float32
from . import ops as ir
from .program_ir import ProgramIR
from .types import BlockType

#: expressions cheaper to recompute than to store and read back: no arithmetic of their own
_TRIVIAL = (ir.TileFill, ir.TileReshape)
#: operations that read their block operand from a buffer (the unpacker), not from DST
_BUFFER_OPERANDS = (ir.TileReduce, ir.TileBroadcast, ir.TileTranspose, ir.TileMatmul)


@dataclass
class _Uses:
    """Where an expression is consumed: the body holding every consuming statement, and the
    positions in it of the statements that consume it (directly or inside a nested body)."""

    body: list[ir.Op]
    positions: list[int]


def evaluate_once(program: ProgramIR) -> None:
    """Store every expression that several statements of a compute thread consume once (see the
    module docstring); warn W0420 where the program's structure forbids it."""
    for thread in program.threads:
        _Thread(thread.body).run()


#: the lowering's limits a block added by this pass can break: L1 (E0401), circular buffers (E0410)
LIMITS = ("E0401", "E0410")


def stores_added(program: ProgramIR) -> list[ir.LocalStore]:
    """The stores this pass added to ``program``."""
    return [op for thread in program.threads for op in ir.walk(thread.body)
            if isinstance(op, ir.LocalStore) and op.once]


def warn_over_limit(stores: list[ir.LocalStore], limit: str) -> None:
    """W0420 at each expression the pass would have stored: the program is run as written, because
    the blocks that hold them once break a limit (``limit``, the lowering's message)."""
    for store in stores:
        name = store.result.name.rsplit(".once", 1)[0]
        warn("W0420", f"the block expression '{name}' is computed again by each statement that uses it: the "
             f"blocks that would hold such expressions once do not fit ({limit})", store.loc,
             hint="make the blocks smaller, or store the expression into a block of a buffer of your own")


class _Thread:
    """One compute thread's body, rewritten one shared expression at a time."""

    def __init__(self, body: list[ir.Op]):
        self.top = body
        self.defs = {op.result.name: op for op in ir.walk(body) if isinstance(op, ir.EXPR_OPS)}
        self.buffer_of = {op.result.name: op.cb for op in ir.walk(body) if isinstance(op, (ir.CBReserve, ir.CBWait))}
        self.names = {r.name for op in ir.walk(body) for r in op.results()}
        self.refused: set[str] = set()
        #: each expression's tree (register names), made once between two rewrites
        self.trees: dict[str, frozenset[str]] = {}

    def run(self) -> None:
        while True:
            found = next(self.candidates(), None)
            if found is None:
                return
            expr, uses = found
            why = self.changed_between(expr, uses)
            if why is not None:
                self.refused.add(expr.result.name)
                self.warn_refused(expr, *why)
                continue
            self.materialize(expr, uses)

    def candidates(self) -> Iterator[tuple[ir.Op, _Uses]]:
        """Expressions two or more statements of one body consume, the last written first: an
        expression shared as a whole is stored, not each of its parts."""
        for op in reversed(list(ir.walk(self.top))):
            if not isinstance(op, ir.EXPR_OPS) or isinstance(op, _TRIVIAL) or op.result.name in self.refused:
                continue
            if not self.in_float(op):
                continue  # integers compute exactly in int64, which no fp32 block holds
            uses = self.uses(op.result.name, self.top)
            if uses is not None and (len(uses.positions) > 1 or self.read_twice(op, uses)):
                yield op, uses

    def uses(self, name: str, body: list[ir.Op]) -> _Uses | None:
        """The innermost body whose statements hold every store that consumes ``name``."""
        positions = [i for i, op in enumerate(body) if any(self.consumes(o, name) for o in ir.walk([op]))]
        if len(positions) == 1 and body[positions[0]].regions():
            inner = [u for region in body[positions[0]].regions() if (u := self.uses(name, region)) is not None]
            if len(inner) == 1:  # all of them in one nested body (a loop's): look there
                return inner[0]
        return _Uses(body, positions) if positions else None

    def read_twice(self, expr: ir.Op, uses: _Uses) -> bool:
        """Whether one statement's store reads ``expr`` both through an operation that takes its
        operand from a buffer (a reduce, broadcast, transpose or matmul) and through another one
        (``e * recip(reduce_sum(e))``, the row softmax of a single-threaded operation). The lowering
        shares an expression within a store only among readers of one kind (one intermediate buffer
        for matrix operands, one DST slot for SFPU operands); across the two each path computes it
        again, so it is stored once, as for several statements."""
        name = expr.result.name
        for store in ir.walk([uses.body[uses.positions[0]]]):
            if not self.consumes(store, name):
                continue
            readers = [self.defs[n] for n in self.tree(store.value) if n in self.defs and n != name
                       and any(isinstance(o, ir.Reg) and o.name == name for o in self.defs[n].operands())]
            from_buffer = [r for r in readers if isinstance(r, _BUFFER_OPERANDS)]
            if from_buffer and (len(from_buffer) < len(readers) or store.value.name == name):
                return True
        return False

    def consumes(self, op: ir.Op, name: str) -> bool:
        """Whether ``op`` is a store whose expression tree holds ``name``."""
        return isinstance(op, ir.STORE_OPS) and name in self.tree(op.value)

    def tree(self, value: ir.Operand) -> frozenset[str]:
        """The register names an expression tree reads, its own included."""
        if not isinstance(value, ir.Reg):
            return frozenset()
        found = self.trees.get(value.name)
        if found is None:
            op = self.defs.get(value.name)
            found = frozenset({value.name}).union(*(self.tree(o) for o in (op.operands() if op is not None else ())))
            self.trees[value.name] = found
        return found

    def leaves(self, expr: ir.Op) -> set[str]:
        """What ``expr`` reads that is not an expression: blocks of buffers, local blocks, scalars."""
        return {name for name in self.tree(expr.result) if name not in self.defs}

    def in_float(self, expr: ir.Op) -> bool:
        """Whether ``expr`` and every block it reads are tiles of a floating-point format."""
        blocks = [r.type for op in [expr, *self.subtree_ops(expr)] for r in op.operands()
                  if isinstance(r, ir.Reg) and isinstance(r.type, BlockType)] + [expr.result.type]
        return all(b.unit.tiled and not b.fmt.is_integer for b in blocks)

    def subtree_ops(self, expr: ir.Op) -> list[ir.Op]:
        """The expressions of ``expr``'s tree."""
        return [self.defs[name] for name in self.tree(expr.result) if name in self.defs]

    def changed_between(self, expr: ir.Op, uses: _Uses) -> tuple[str, ir.Op] | None:
        """Why the value of ``expr`` may differ between its first and last use (with the operation
        that changes it), or None. The last consuming store may write what it reads: it reads first."""
        leaves = self.leaves(expr)
        first, last = uses.positions[0], uses.positions[-1]
        for index in range(first, last + 1):
            statement = uses.body[index]
            if index == last and isinstance(statement, ir.STORE_OPS):
                continue
            for op in ir.walk([statement]):
                why = self.changes(op, leaves)
                if why is not None:
                    return why, op
        return None

    def changes(self, op: ir.Op, leaves: set[str]) -> str | None:
        """What ``op`` changes among ``leaves``, in words, or None."""
        if isinstance(op, (ir.CBPop, ir.CBPush)):
            held = [name for name in leaves if self.buffer_of.get(name) is op.cb
                    and (op.block is None or op.block.name == name)]
            if held:
                return f"its block of '{op.cb.name}' is {'popped' if isinstance(op, ir.CBPop) else 'pushed'}"
        if isinstance(op, ir.BlockStore) and op.block.name in leaves:
            return f"block '{_shown(op.block.name)}' is stored into"
        for result in op.results():
            if result.name in leaves:
                return f"'{_shown(result.name)}' is assigned"
        return None

    def warn_refused(self, expr: ir.Op, why: str, where: ir.Op) -> None:
        line = f" at line {where.loc.line}" if where.loc is not None else ""
        name = _user_name(expr)
        warn("W0420", f"the block expression{f' {name!r}' if name else ''} is computed again by each statement "
             f"that uses it: {why}{line} between its uses, and each use reads its operands as they are when it runs",
             expr.loc, hint="to compute it once, store it into a block before the operand changes (or move the "
                            "change after its last use)")

    def materialize(self, expr: ir.Op, uses: _Uses) -> None:
        """Store ``expr`` into a new local block before its first use; every expression that read
        it reads the block instead, moved after that store where it was written before it or
        outside the body (expressions are pure: only the order of definitions changes; an
        expression that feeds no store, as the front end leaves some, moves along)."""
        name = expr.result.name
        block_type = expr.result.type
        # fp32, as an expression's intermediates; a rounded expression (``.to(ttnn.bfloat16)``) in its format
        fmt = block_type.fmt if isinstance(expr, ir.TileRound) else float32
        local = ir.Reg(self.fresh_name(expr), BlockType(block_type.shape, fmt, block_type.unit, local=True))
        store = ir.LocalStore(result=local, value=expr.result, once=True, loc=expr.loc)
        consumers = [op for index in uses.positions for op in ir.walk([uses.body[index]]) if self.consumes(op, name)]
        readers = [op for op in ir.walk(self.top)
                   if isinstance(op, ir.EXPR_OPS) and op is not expr and name in self.tree(op.result)]
        at = uses.positions[0]
        after = {id(op) for op in ir.walk(uses.body[at:])}
        moved = [op for op in readers if id(op) not in after]
        held = {op.result.name for op in moved}
        if any(not isinstance(op, ir.EXPR_OPS) and id(op) not in after and self.reads_any(op, held)
               for op in ir.walk(self.top)):
            self.refused.add(name)  # something else (a print) reads it where it is written: left as is
            return
        uses.body.insert(at, store)
        for op in moved:
            _body_of(self.top, op).remove(op)
        at = next(i for i, op in enumerate(uses.body) if op is store)
        uses.body[at + 1:at + 1] = moved
        for op in readers:
            _replace_operand(op, name, local)
        for op in consumers:
            if op.value.name == name:
                op.value = local
        self.trees.clear()

    @staticmethod
    def reads_any(op: ir.Op, names: set[str]) -> bool:
        return any(isinstance(r, ir.Reg) and r.name in names for r in op.operands())

    def fresh_name(self, expr: ir.Op) -> str:
        base = f"{_user_name(expr) or expr.result.name}.once"
        name, n = base, 1
        while name in self.names:
            n += 1
            name = f"{base}{n}"
        self.names.add(name)
        return name


def _body_of(body: list[ir.Op], target: ir.Op) -> list[ir.Op]:
    """The body (of ``body`` or nested in it) that holds ``target``."""
    if any(op is target for op in body):
        return body
    for op in body:
        for region in op.regions():
            found = _body_of(region, target)
            if found is not None:
                return found
    return None  # type: ignore[return-value]


def _replace_operand(op: ir.Op, name: str, new: ir.Reg) -> None:
    """Make expression ``op`` read ``new`` where it read register ``name``."""
    for f in fields(op):
        current = getattr(op, f.name)
        if f.name != "result" and isinstance(current, ir.Reg) and current.name == name:
            setattr(op, f.name, new)


def _user_name(expr: ir.Op) -> str | None:
    """The name the user bound the expression to (``s`` of ``s = q @ k``), read from the source
    line at the expression's span; None where the expression is not a whole assignment's value."""
    span = expr.loc
    if span is None:
        return None
    text = linecache.getline(span.file, span.line)
    match = re.match(r"\s*([A-Za-z_]\w*)\s*=\s*", text)
    whole = span.end_col is None or span.end_col >= len(text.split("#")[0].rstrip())
    return match.group(1) if match and match.end() == span.col - 1 and whole else None


def _shown(register: str) -> str:
    """A register as the user named it (``acc.1`` -> ``acc``, ``x_dfb_blk`` stays)."""
    return register.split(".")[0]
