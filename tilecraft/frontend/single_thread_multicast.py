"""Multicast of the loads that the cores of a grid row (or column) make alike.

Under the ``rectangle`` schedule with blocks that divide evenly over the grid
(``single_thread_schedule.lockstep``), the cores of grid row ``y`` compute the same
block rows at every step, so a load whose slice -- and every loop and branch around it -- does
not depend on the block *column* reads the same tiles on all of them at the same step: GEMM's row
panel of ``a``. Likewise a load independent of the block row (``b``'s column panel) is the same
down a grid column. Such a load is read from DRAM once and multicast, as the hand-threaded
multicast matmul does (``examples/autotune_matmul.py``, whose writer thread multicasts ``b``; so
does the generated writer when the reader multicasts ``a``): node ``(0, y)`` reserves a block of a
*fetch* buffer, copies the slice into it and sends it over a pipe of a ``ttl.PipeNet`` to the
whole row, itself included; every node of the row receives it into the load's own buffer, so the
compute thread is unchanged and the results are the same bits.

It is asked for with ``multicast=True`` in the metadata: by the cost model it pays only once the K
loop and the blocks are large (docs/language.md section 15.2; before that the extra hop and the
handshakes of every block cost more than the DRAM reads saved), so plain reads stay the default.

"Does not depend" is a dependence closure over the body's assignments: the names computed, directly
or through other names, from the coordinate (a loop over ``range(n)`` makes its variable depend on
``n``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from .generated_ast import place_at
from .single_thread_schedule import Schedule
from .single_thread_split import Names, Site, Split, load_statement

ROW, COLUMN = "row", "column"


@dataclass
class SharedLoad:
    """A load site multicast along a grid row or column, and the names generated for it."""

    site: Site
    axis: str
    fetch: str
    net: str


def dependents(body: list[ast.stmt], seeds: set[str]) -> set[str]:
    """The names assigned, directly or through others, from ``seeds`` (and the seeds)."""
    edges: list[tuple[set[str], set[str]]] = []  # (names read, names assigned)
    for node in ast.walk(ast.Module(body=body, type_ignores=[])):
        if isinstance(node, ast.Assign):
            edges.append((_reads(node.value), _stores(node.targets)))
        elif isinstance(node, ast.AugAssign):
            edges.append((_reads(node.value), _stores([node.target])))
        elif isinstance(node, ast.For):
            edges.append((_reads(node.iter), _stores([node.target])))
    out = set(seeds)
    changed = True
    while changed:
        changed = False
        for reads, stores in edges:
            if reads & out and not stores <= out:
                out |= stores
                changed = True
    return out


def shared_loads(split: Split, body: list[ast.stmt], lockstep: bool, grid: tuple[int, ...]) -> list[SharedLoad]:
    """The load sites the cores of a grid row or column make alike, with the axis each is sent along
    (``lockstep``: the schedule gives the cores of a row the same block rows at every step)."""
    if not lockstep or split.block_index is None or not isinstance(split.block_index.targets[0], ast.Tuple):
        return []
    row_name, col_name = (e.id for e in split.block_index.targets[0].elts)  # type: ignore[attr-defined]
    varies_along = {ROW: dependents(body, {col_name}), COLUMN: dependents(body, {row_name})}
    cores_along = {ROW: grid[0], COLUMN: grid[1]}
    names = split.names
    out = []
    for site in split.sites:
        if site.kind != "load":
            continue
        read = _reads(site.node.slice).union(*(_reads(c.iter if isinstance(c, ast.For) else c.test)  # type: ignore[attr-defined]
                                                for c in site.control))
        axis = next((a for a in (ROW, COLUMN) if cores_along[a] > 1 and not read & varies_along[a]), None)
        if axis is not None:
            out.append(SharedLoad(site, axis, names.fresh(f"{site.tensor}_fetch"), names.fresh(f"{site.tensor}_net")))
    return out


def setup(shared: list[SharedLoad], schedule: Schedule, block_count: object, names: Names) -> list[ast.Assign]:
    """The fetch buffer and the pipe net of each shared load, for the operation's body."""
    gx, gy = schedule.grid
    lang = schedule.lang
    out = []
    for s in shared:
        i = names.fresh("i")
        pipes = (f"{lang}.Pipe(src=(0, {i}), dst=(slice(0, {gx}), {i})) for {i} in range({gy})" if s.axis == ROW else
                 f"{lang}.Pipe(src=({i}, 0), dst=({i}, slice(0, {gy}))) for {i} in range({gx})")
        text = (f"{s.fetch} = {lang}.make_dataflow_buffer_like({s.site.tensor}, shape={s.site.shape!r}, "
                f"block_count={block_count!r})\n{s.net} = {lang}.PipeNet([{pipes}])")
        out += [place_at(stmt, s.site.node) for stmt in ast.parse(text).body]
    return out


def in_writer(shared: list[SharedLoad]) -> frozenset[int]:
    """The loads for the writer thread to read: the column multicasts, when the reader also
    multicasts along rows (each data-movement thread then waits on one pipe net per step, as in
    the hand-threaded multicast matmul; in one thread the two multicasts would run one after the
    other)."""
    if {s.axis for s in shared} != {ROW, COLUMN}:
        return frozenset()
    return frozenset(s.site.number for s in shared if s.axis == COLUMN)


def multicast_loads(thread: list[ast.stmt], split: Split, shared: list[SharedLoad], lang: str,
                    names: Names) -> list[ast.stmt]:
    """A data-movement thread with each shared load it reads sent by the first core of its row
    (column) to all of it."""
    by_statement: dict[int, list[SharedLoad]] = {}
    for s in shared:
        by_statement.setdefault(id(s.site.load_with), []).append(s)
    return _rewrite(thread, split.sites, by_statement, lang, names)


def _rewrite(body: list[ast.stmt], sites: list[Site], by_statement: dict[int, list[SharedLoad]], lang: str,
             names: Names) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, (ast.For, ast.If)):
            stmt.body = _rewrite(stmt.body, sites, by_statement, lang, names)
            stmt.orelse = _rewrite(stmt.orelse, sites, by_statement, lang, names)
        mine = by_statement.get(id(stmt))
        if mine is None:
            out.append(stmt)
            continue
        sent = {id(s.site) for s in mine}
        rest = [s for s in sites if s.load_with is stmt and id(s) not in sent]
        if rest:
            out.append(load_statement(rest, lang, names, stmt))
        for s in mine:
            out += _send_and_receive(s, lang, names)
    return out


def _send_and_receive(s: SharedLoad, lang: str, names: Names) -> list[ast.stmt]:
    site = s.site
    send, receive, pipe = names.fresh(f"send_{site.tensor}"), names.fresh(f"receive_{site.tensor}"), names.fresh("pipe")
    text = f"""
def {send}({pipe}):
    with {s.fetch}.reserve() as {site.block}:
        {lang}.copy({ast.unparse(site.node)}, {site.block}).wait()
    with {s.fetch}.wait() as {site.block}:
        {lang}.copy({site.block}, {pipe}).wait()

def {receive}({pipe}):
    with {site.buffer}.reserve() as {site.block}:
        {lang}.copy({pipe}, {site.block}).wait()

{s.net}.if_src({send})
{s.net}.if_dst({receive})
"""
    return [place_at(stmt, site.node) for stmt in ast.parse(text).body]


def _reads(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _stores(targets: list[ast.expr]) -> set[str]:
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
