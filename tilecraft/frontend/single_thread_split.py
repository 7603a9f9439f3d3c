"""Split a single-threaded operation's body into a reader, a compute and a writer thread.

The body of a single-threaded operation (docs/language.md section 15) is one sequential program
over tensor slices: loads (a tensor slice used as a value), block math, stores (``y[...] = expr``)
and scalar control flow (``for`` over ``range``, ``if`` on scalars). Every load and every store is
a *site*; each site gets its own dataflow buffer, so the three threads meet only in FIFO order:

* the reader keeps the scalar skeleton (assignments, loops, branches) and, at each load site,
  reserves a block, copies the slice into it and pushes it;
* the compute thread keeps the skeleton and the block math, waiting for each load site's block
  where the statement reads it (a load bound to a name is held until the buffer's next wait) and
  reserving a block of each store site to store the expression into;
* the writer keeps the skeleton and, at each store site, waits for the block and copies it out.

Each thread sees its sites in the same program order, so the FIFOs pair up and the pipeline cannot
deadlock. Scalars are recomputed by every thread that needs them (they are cheap and keep the
threads independent). What cannot be split this way is refused here, at the user's line, with what
to write instead (``E0820``-``E0826``). The nodes made keep the user's source positions, so the IR
compiled from them, and every later diagnostic, points at the single-threaded lines.
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass, field
from typing import Iterable, NoReturn

from ..diagnostics import Note, Span, error
from .source import FunctionSource

#: a tensor read back after the same operation stores it
STORE_READ_BACK = "E0820"
#: a loop trip count, branch or slice index that depends on block values (data-dependent)
DATA_DEPENDENT = "E0821"
#: ``t[...] += expr`` on a tensor slice (read-modify-write of an output)
TENSOR_UPDATE = "E0822"
#: a reduction across output blocks (a store every block makes to the same slice)
UNPLACEABLE_REDUCTION = "E0823"
#: a tensor slice whose shape is not the same on every iteration
SLICE_SHAPE = "E0824"
#: bad single-threaded metadata (block=, over=, schedule=) or a misplaced ttl.block_index()
METADATA = "E0825"
#: a statement the single-threaded form does not take
UNSUPPORTED = "E0826"


class Names:
    """Fresh generated names that collide with none of the user's."""

    def __init__(self, taken: Iterable[str]):
        self.taken = set(taken)

    def fresh(self, base: str) -> str:
        name, n = base, 1
        while name in self.taken:
            n += 1
            name = f"{base}{n}"
        self.taken.add(name)
        return name


@dataclass
class Site:
    """One load or store of a tensor slice, with the buffer and block names generated for it."""

    kind: str  # "load" or "store"
    tensor: str
    node: ast.Subscript
    buffer: str
    block: str
    shape: tuple[int, ...] = ()
    #: the user's ``for`` and ``if`` statements around the site, outermost first
    control: tuple[ast.stmt, ...] = ()
    #: its place in the order the splitter meets the sites (the same on every split of one body)
    number: int = 0
    #: the data-movement thread's statement that loads it (a load site; one statement loads all the
    #: sites of a user's statement that one thread reads)
    load_with: ast.With | None = None


@dataclass
class Split:
    """The three thread bodies (statements with the user's positions) and what they share."""

    reader: list[ast.stmt]
    compute: list[ast.stmt]
    writer: list[ast.stmt]
    sites: list[Site]
    #: the ``ttl.block_index()`` statement (None: the body runs once, as output block 0)
    block_index: ast.Assign | None
    #: names assigned once, to scalar expressions (their definitions, for slice extents)
    scalar_defs: dict[str, ast.expr] = field(default_factory=dict)
    #: names bound by loops or assigned more than once (free symbols of slice extents)
    varying: set[str] = field(default_factory=set)
    #: the user's names and those generated so far (the expansion takes its own from it too)
    names: Names = field(default_factory=lambda: Names(()))


def all_names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | \
        {a.arg for a in ast.walk(node) if isinstance(a, ast.arg)}


def is_block_index_call(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "block_index")


def _is_block_call(node: ast.AST) -> bool:
    """``ttl.math.f(...)`` / ``ttl.block.f(...)``: a call that makes a block."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return False
    owner = node.func.value
    return isinstance(owner, ast.Attribute) and owner.attr in ("math", "block")


class Splitter:
    def __init__(self, source: FunctionSource, tensors: set[str], lang: str = "ttl",
                 writer_loads: frozenset[int] = frozenset()):
        self.source = source
        #: the load sites (by number) the writer thread reads instead of the reader (each
        #: data-movement thread then waits on one multicast; single_thread_multicast.py)
        self.writer_loads = writer_loads
        self.tensors = tensors
        #: the script's name for the language (the generated copies are spelt ``{lang}.copy``)
        self.lang = lang
        self.names = Names(all_names(source.node))
        self.sites: list[Site] = []
        self.blocks: set[str] = set()
        self.block_index: ast.Assign | None = None
        self.assigned: dict[str, int] = {}
        self.scalar_defs: dict[str, ast.expr] = {}
        self.varying: set[str] = set()
        self.loaded: dict[str, ast.AST] = {}
        self.stored: dict[str, ast.AST] = {}
        #: names assigned so far, in the order the body is written (an accumulation needs a start)
        self.bound: set[str] = set()
        #: ids of the scalar statements copied into every thread (each thread keeps those it needs)
        self.scalar_copies: set[int] = set()
        #: the user's loops and branches around the statement being split
        self.control: list[ast.stmt] = []

    # ---------------------------------------------------------------- diagnostics
    def span(self, node: ast.AST) -> Span:
        return self.source.span(node)

    def fail(self, code: str, message: str, node: ast.AST, hint: str, notes: tuple[Note, ...] = ()) -> NoReturn:
        raise error(code, message, self.span(node), hint=hint, notes=notes)

    # ---------------------------------------------------------------- classification
    def is_load(self, node: ast.AST) -> bool:
        return (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
                and node.value.id in self.tensors)

    def is_block_expr(self, node: ast.AST) -> bool:
        for n in ast.walk(node):
            if self.is_load(n) or _is_block_call(n) or (isinstance(n, ast.Name) and n.id in self.blocks):
                return True
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.MatMult):
                return True
        return False

    def scalar_only(self, node: ast.AST, what: str) -> None:
        """A trip count, condition or index must not depend on block values (E0821)."""
        for n in ast.walk(node):
            if self.is_load(n) or (isinstance(n, ast.Name) and n.id in self.blocks):
                self.fail(DATA_DEPENDENT, f"{what} depends on block data ('{ast.unparse(n)}'): the compiler "
                          "cannot pipeline a loop or branch whose shape is known only once the data has arrived",
                          n, "write trip counts, conditions and slice indices from loop variables, "
                             "ttl.block_index() and constants; compute on the data with block math "
                             "(ttl.math.where for a data-dependent choice)")

    # ---------------------------------------------------------------- entry
    def split(self) -> Split:
        self._count_assignments(self.source.node.body)
        body = list(self.source.node.body)
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]  # docstring
        reader, compute, writer = self.stmts(body, depth=0)
        self._check_read_back()
        reader, compute, writer = (prune(t, self.scalar_copies) for t in (reader, compute, writer))
        return Split(reader, compute, writer, self.sites, self.block_index, self.scalar_defs, self.varying, self.names)

    def _count_assignments(self, body: list[ast.stmt]) -> None:
        for node in ast.walk(ast.Module(body=body, type_ignores=[])):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AugAssign):
                targets = [node.target, node.target]  # an update is a second assignment
            elif isinstance(node, ast.For):
                targets = [node.target, node.target]
            for t in targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
                        self.assigned[n.id] = self.assigned.get(n.id, 0) + 1
        self.varying = {n for n, count in self.assigned.items() if count > 1}

    def _check_read_back(self) -> None:
        for name, store in self.stored.items():
            load = self.loaded.get(name)
            if load is not None:
                self.fail(STORE_READ_BACK, f"tensor '{name}' is stored by this operation and read back here: the "
                          "reader runs ahead of the writer, so a load cannot see a store of the same operation",
                          load, f"keep the value in a block (x = ...; use x) instead of reading '{name}' back, "
                                "or split the work into two operations (the second reads what the first stored)",
                          notes=(Note(f"'{name}' is stored here", self.span(store)),))

    # ---------------------------------------------------------------- statements
    def stmts(self, body: list[ast.stmt], depth: int) -> tuple[list, list, list]:
        """The statements of each thread (reader, compute, writer) for ``body``."""
        r: list[ast.stmt] = []
        c: list[ast.stmt] = []
        w: list[ast.stmt] = []
        for stmt in body:
            sr, sc, sw = self.stmt(stmt, depth)
            r += sr
            c += sc
            w += sw
        return r, c, w

    def stmt(self, stmt: ast.stmt, depth: int) -> tuple[list, list, list]:
        for target in (stmt.targets if isinstance(stmt, ast.Assign) else
                       [stmt.target] if isinstance(stmt, ast.For) else []):
            self.bound |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        if isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
            return [], [], []
        if isinstance(stmt, ast.Assign):
            return self.assign(stmt, depth)
        if isinstance(stmt, ast.AugAssign):
            return self.aug_assign(stmt)
        if isinstance(stmt, ast.For):
            return self.for_loop(stmt, depth)
        if isinstance(stmt, ast.If):
            return self.branch(stmt, depth)
        if isinstance(stmt, ast.While):
            self.fail(DATA_DEPENDENT, "a while loop in a single-threaded operation: its trip count is known only "
                      "while it runs, so the reader and the writer cannot follow it", stmt,
                      "write a for loop over range(n) with a trip count from shapes and constants")
        if isinstance(stmt, ast.Expr):  # prints and bare expressions run once, on the compute thread
            return self.compute_stmt(stmt, keep_named_load=False)
        if isinstance(stmt, ast.Return) and stmt.value is None and depth == 0:
            return [], [], []
        self.fail(UNSUPPORTED, f"'{type(stmt).__name__.lower()}' is not part of a single-threaded operation",
                  stmt, "write loads (x = t[...]), block math, stores (y[...] = expr), scalar assignments, "
                        "for loops over range() and if on scalars; or write the threads yourself "
                        "(tilecraft show-threads prints this operation as threads to start from)")

    def everywhere(self, stmt: ast.stmt) -> tuple[list, list, list]:
        """A scalar statement: copied into every thread; each keeps it only if it needs it."""
        copies = [copy.deepcopy(stmt) for _ in range(3)]
        self.scalar_copies.update(id(c) for c in copies)
        return [copies[0]], [copies[1]], [copies[2]]

    def assign(self, stmt: ast.Assign, depth: int) -> tuple[list, list, list]:
        if len(stmt.targets) != 1:
            self.fail(UNSUPPORTED, "chained assignment in a single-threaded operation", stmt,
                      "assign one target per statement")
        target = stmt.targets[0]
        if is_block_index_call(stmt.value):
            if depth != 0 or self.block_index is not None:
                self.fail(METADATA, "ttl.block_index() must be called once, at the top level of the operation's "
                          "body", stmt, "assign the output block's coordinates once, before the loops: "
                                        "r, c = ttl.block_index()")
            self.block_index = stmt
            return self.everywhere(stmt)  # single_thread.py binds the names from the spatial loop
        if isinstance(target, ast.Subscript):
            return self.store(stmt, target)
        if self.is_block_expr(stmt.value):
            if not isinstance(target, ast.Name):
                self.fail(UNSUPPORTED, "a block value must be assigned to one name", target,
                          "assign the block expression to a single name")
            self.blocks.add(target.id)
            return self.compute_stmt(stmt, keep_named_load=True)
        if isinstance(target, ast.Name) and self.assigned.get(target.id, 0) == 1:
            self.scalar_defs[target.id] = stmt.value
        return self.everywhere(stmt)

    def aug_assign(self, stmt: ast.AugAssign) -> tuple[list, list, list]:
        if self.is_load(stmt.target):
            self.fail(TENSOR_UPDATE, f"'{ast.unparse(stmt.target)} {_op_text(stmt.op)}= ...' reads and writes a tensor "
                      "slice: the reader and the writer cannot order that", stmt,
                      "accumulate in a block (acc = ttl.block.fill(0, shape=...); acc += ...) and store it once "
                      f"({ast.unparse(stmt.target)} = acc)")
        if isinstance(stmt.target, ast.Name) and (stmt.target.id in self.blocks or self.is_block_expr(stmt.value)):
            if stmt.target.id not in self.bound:
                self.fail(UNPLACEABLE_REDUCTION, f"'{stmt.target.id}' accumulates block values but has no value before "
                          "its first update, so the reduction has no block to live in", stmt,
                          f"start it before the loop: {stmt.target.id} = ttl.block.fill(0, shape=...) (the shape "
                          "of the blocks it sums)")
            self.blocks.add(stmt.target.id)
            return self.compute_stmt(stmt, keep_named_load=False)
        return self.everywhere(stmt)

    def for_loop(self, stmt: ast.For, depth: int) -> tuple[list, list, list]:
        it = stmt.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"):
            self.fail(UNSUPPORTED, f"a for loop over '{ast.unparse(it)}': a single-threaded operation loops "
                      "over range() only", it, "loop over range(n) (tiles and blocks are indexed by integers)")
        if stmt.orelse:
            self.fail(UNSUPPORTED, "for ... else in a single-threaded operation", stmt.orelse[0],
                      "move the else body after the loop")
        self.scalar_only(it, "the trip count of this loop")
        self.control.append(stmt)
        bodies = self.stmts(stmt.body, depth + 1)
        self.control.pop()
        out = []
        for body in bodies:
            node = copy.copy(stmt)
            node.body = body
            out.append([node])
        return out[0], out[1], out[2]

    def branch(self, stmt: ast.If, depth: int) -> tuple[list, list, list]:
        self.scalar_only(stmt.test, "this condition")
        self.control.append(stmt)
        bodies = self.stmts(stmt.body, depth + 1)
        others = self.stmts(stmt.orelse, depth + 1)
        self.control.pop()
        out = []
        for body, other in zip(bodies, others):
            node = copy.copy(stmt)
            node.test = copy.deepcopy(stmt.test)
            node.body = body
            node.orelse = other
            out.append([node])
        return out[0], out[1], out[2]

    # ---------------------------------------------------------------- loads and stores
    def store(self, stmt: ast.Assign, target: ast.Subscript) -> tuple[list, list, list]:
        if not self.is_load(target):
            self.fail(UNSUPPORTED, f"'{ast.unparse(target)} = ...' stores into something that is not a tensor "
                      "argument of the operation", target, "store into a slice of a tensor argument: y[r, c] = expr")
        tensor = target.value.id  # type: ignore[union-attr]
        self.scalar_only(target.slice, "the index of this store")
        self.stored.setdefault(tensor, target)
        site = self.new_site("store", tensor, target)
        r, c, w = self.compute_stmt(stmt, keep_named_load=False, store=site)
        dst = _as_load(target)
        w += [_with([(_call_method(site.buffer, "wait", stmt), site.block)],
                   _copy_and_wait([(_name(site.block, stmt), dst, target)], self.lang, self.names), stmt)]
        return r, c, w

    def new_site(self, kind: str, tensor: str, node: ast.Subscript) -> Site:
        suffix = "out" if kind == "store" else "in"
        site = Site(kind, tensor, node, self.names.fresh(f"{tensor}_{suffix}"), self.names.fresh(f"{tensor}_blk"),
                    control=tuple(self.control), number=len(self.sites))
        self.sites.append(site)
        return site

    def compute_stmt(self, stmt: ast.stmt, keep_named_load: bool,
                     store: Site | None = None) -> tuple[list, list, list]:
        """The statement on the compute thread, its loads on the reader (those of ``writer_loads`` on
        the writer)."""
        pure_load = keep_named_load and isinstance(stmt, ast.Assign) and self.is_load(stmt.value)
        stmt = copy.deepcopy(stmt)
        loads: list[Site] = []
        splitter = self

        class Replace(ast.NodeTransformer):
            def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
                if not splitter.is_load(node):
                    return self.generic_visit(node)
                tensor = node.value.id  # type: ignore[union-attr]
                splitter.scalar_only(node.slice, "the index of this load")
                splitter.loaded.setdefault(tensor, node)
                site = splitter.new_site("load", tensor, node)
                loads.append(site)
                return ast.copy_location(ast.Name(id=site.block, ctx=ast.Load()), node)

        stmt.value = Replace().visit(stmt.value)  # type: ignore[attr-defined]
        reader: list[ast.stmt] = []
        writer: list[ast.stmt] = []
        for thread, mine in ((reader, [s for s in loads if s.number not in self.writer_loads]),
                             (writer, [s for s in loads if s.number in self.writer_loads])):
            if mine:
                thread.append(load_statement(mine, self.lang, self.names, stmt))
                for s in mine:
                    s.load_with = thread[-1]
        if pure_load:
            # x = t[...]: the block is held under the user's name until the buffer's next wait
            # (the published rule for a block acquired without ``with``; frontend/auto_release.py)
            stmt.value = _call_method(loads[0].buffer, "wait", loads[0].node)  # type: ignore[attr-defined]
            return reader, [stmt], writer
        body: list[ast.stmt] = [stmt]
        if store is not None:
            call = ast.Call(func=ast.Attribute(value=_name(store.block, stmt), attr="store", ctx=ast.Load()),
                            args=[stmt.value], keywords=[])  # type: ignore[attr-defined]
            body = [ast.copy_location(ast.Expr(value=ast.copy_location(call, stmt)), stmt)]
        items = [(_call_method(s.buffer, "wait", s.node), s.block) for s in loads]
        if store is not None:
            items.append((_call_method(store.buffer, "reserve", stmt), store.block))
        return reader, ([_with(items, body, stmt)] if items else body), writer


def load_statement(loads: list[Site], lang: str, names: Names, where: ast.AST) -> ast.With:
    """The reader's statement for the loads of one statement: reserve a block of each, issue every
    copy, then wait for them all."""
    pairs = [(_as_load(s.node), _name(s.block, s.node), s.node) for s in loads]
    return _with([(_call_method(s.buffer, "reserve", s.node), s.block) for s in loads],
                 _copy_and_wait(pairs, lang, names), where)


def prune(body: list[ast.stmt], scalar_copies: set[int]) -> list[ast.stmt]:
    """Drop the scalar copies a thread does not need, then the loops and branches left empty.

    A name is needed when a statement that is not a scalar copy reads it (a slice index, a trip
    count, block math), or a needed scalar copy does (a fixpoint over the definitions)."""
    copies = [n for n in _walk_stmts(body) if id(n) in scalar_copies]
    needed: set[str] = set()
    for stmt in _walk_stmts(body):
        if id(stmt) in scalar_copies:
            continue
        if isinstance(stmt, ast.For):
            needed |= _reads(stmt.iter)
        elif isinstance(stmt, ast.If):
            needed |= _reads(stmt.test)
        else:
            needed |= _reads(stmt)
    changed = True
    while changed:
        changed = False
        for stmt in copies:
            if _targets(stmt) & needed and not _reads(stmt) <= needed:
                needed |= _reads(stmt)
                changed = True
    keep = {id(s) for s in copies if _targets(s) & needed}
    return _drop(body, scalar_copies - keep)


def _drop(body: list[ast.stmt], dead: set[int]) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for stmt in body:
        if id(stmt) in dead:
            continue
        if isinstance(stmt, ast.For):
            stmt.body = _drop(stmt.body, dead)
            if not stmt.body:
                continue
        elif isinstance(stmt, ast.If):
            stmt.body, stmt.orelse = _drop(stmt.body, dead), _drop(stmt.orelse, dead)
            if not stmt.body and not stmt.orelse:
                continue
            stmt.body = stmt.body or [ast.copy_location(ast.Pass(), stmt)]
        out.append(stmt)
    return out


def _walk_stmts(body: list[ast.stmt]) -> Iterable[ast.stmt]:
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.For, ast.If)):
            yield from _walk_stmts(stmt.body)
            yield from _walk_stmts(stmt.orelse)


def _reads(node: ast.AST) -> set[str]:
    """Names a statement (without its nested statements) or an expression reads."""
    if isinstance(node, ast.AugAssign):
        return _reads(node.value) | _reads(node.target) | ({node.target.id} if isinstance(node.target, ast.Name) else set())
    if isinstance(node, ast.Assign):
        return _reads(node.value) | set().union(*(_reads(t) for t in node.targets))
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _targets(stmt: ast.stmt) -> set[str]:
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]  # type: ignore[attr-defined]
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _as_load(node: ast.Subscript) -> ast.Subscript:
    out = copy.deepcopy(node)
    out.ctx = ast.Load()
    return out


def _op_text(op: ast.operator) -> str:
    return {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}.get(type(op), "?")


def _name(name: str, where: ast.AST) -> ast.Name:
    return ast.copy_location(ast.Name(id=name, ctx=ast.Load()), where)


def _call_method(owner: str, method: str, where: ast.AST) -> ast.Call:
    return ast.copy_location(ast.Call(func=ast.Attribute(value=_name(owner, where), attr=method, ctx=ast.Load()),
                                      args=[], keywords=[]), where)


def _with(items: list[tuple[ast.expr, str]], body: list[ast.stmt], where: ast.AST) -> ast.With:
    return ast.copy_location(ast.With(items=[ast.withitem(context_expr=e, optional_vars=ast.Name(id=n, ctx=ast.Store()))
                                             for e, n in items], body=body), where)


def _copy_and_wait(copies: list[tuple[ast.expr, ast.expr, ast.AST]], lang: str, names: Names) -> list[ast.stmt]:
    """``ttl.copy(src, dst)`` for each (src, dst, the slice's node), every transfer issued before the
    first wait; each copy is placed at its slice, so a run-time error there names the slice."""
    if len(copies) == 1:
        src, dst, at = copies[0]
        return [ast.copy_location(ast.Expr(value=_wait(_ttl_copy(src, dst, at, lang), at)), at)]
    handles = [names.fresh(f"{_tensor_name(src, dst)}_xf") for src, dst, _ in copies]
    issue = [ast.copy_location(ast.Assign(targets=[ast.Name(id=h, ctx=ast.Store())],
                                          value=_ttl_copy(src, dst, at, lang)), at)
             for h, (src, dst, at) in zip(handles, copies)]
    waits = [ast.copy_location(ast.Expr(value=_wait(_name(h, at), at)), at) for h, (_, _, at) in zip(handles, copies)]
    return issue + waits


def _tensor_name(src: ast.expr, dst: ast.expr) -> str:
    """The tensor a copy reads or writes (the side that is a slice)."""
    side = src if isinstance(src, ast.Subscript) else dst
    return side.value.id if isinstance(side, ast.Subscript) and isinstance(side.value, ast.Name) else "xf"


def _ttl_copy(src: ast.expr, dst: ast.expr, where: ast.AST, lang: str) -> ast.Call:
    func = ast.Attribute(value=ast.Name(id=lang, ctx=ast.Load()), attr="copy", ctx=ast.Load())
    return ast.copy_location(ast.Call(func=func, args=[src, dst], keywords=[]), where)


def _wait(handle: ast.expr, where: ast.AST) -> ast.Call:
    return ast.copy_location(ast.Call(func=ast.Attribute(value=handle, attr="wait", ctx=ast.Load()),
                                      args=[], keywords=[]), where)
