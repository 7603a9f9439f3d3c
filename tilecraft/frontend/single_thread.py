"""Single-threaded operations: the compiler designs the pipeline (docs/language.md section 15).

An ``@ttl.operation`` whose body defines no thread but loads and stores tensor slices is a
single-threaded operation. At launch it becomes an ordinary explicit-thread operation: the body is
split into a reader, a compute and a writer thread (``single_thread_split.py``), every load and
store site gets a dataflow buffer of the slice's shape (``block_count`` blocks, 2 unless the
decorator says otherwise, relative counts such as ``"max"`` included), and the body is wrapped in
the spatial loop over the output blocks that the decorator's metadata declares (``block=``, which
tensor's blocks with ``over=``, and ``schedule="contiguous"`` or ``"strided"`` over the cores).

The generated function is compiled from an AST whose nodes carry the user's file positions, and its
thread sources are registered with :mod:`.source`, so the front end compiles it like any other
operation while every span in the IR (and every diagnostic, at compile or run time) points at the
user's single-threaded lines. ``ast.unparse`` of the same tree is the program ``tilecraft
show-threads`` prints, which runs unchanged.
"""

from __future__ import annotations

import ast
import copy
import inspect
import math
import weakref
from typing import Any, NoReturn, Sequence

from ..diagnostics import KernelError, error, warn
from ..ir.program_ir import GeneratedThreads
from ..lang import block as lang_block, math as lang_math
from ..lang.buffers import is_tile_layout, make_dataflow_buffer_like
from ..lang.dataflow import copy as lang_copy
from ..lang.grid import grid_size, node
from ..lang.kernel import KernelDef
from ..lang.pipes import Pipe, PipeNet
from ..lang.threads import compute, datamovement
from .single_thread_split import (METADATA, SLICE_SHAPE, UNPLACEABLE_REDUCTION, Site, Split, Splitter,
                                  is_block_index_call)
from .single_thread_multicast import SharedLoad, in_writer, multicast_loads, setup as multicast_setup, shared_loads
from .single_thread_schedule import SCHEDULES, Schedule, choose as choose_schedule, lockstep, rectangle_fits
from .generated_ast import parse_at as _parse, place_at as _at, substitute as _substitute
from .source import FunctionSource, absolute, function_source, register_source

#: the decorator options that describe a single-threaded operation (not passed to the threads)
OPTIONS = ("block", "over", "schedule", "block_count", "multicast")
_THREAD_DECORATORS = ("compute", "datamovement")

#: multicast=True with no load that the cores of a grid row or column make alike
NOTHING_SHARED = "W0827"

#: launches already expanded, per operation: (grid, arch, argument signature) -> result
_expanded: "weakref.WeakKeyDictionary[KernelDef, dict[tuple, tuple[KernelDef, GeneratedThreads]]]" = \
    weakref.WeakKeyDictionary()


def is_single_threaded(kdef: KernelDef) -> bool:
    """An operation that defines no thread and calls no ``ttl.Program`` but reads or writes tensor
    slices or asks for ``ttl.block_index()``. Anything else keeps the explicit-thread rules (a body
    with neither is still the ``E0204`` "defines no thread" error)."""
    if kdef.style != "operation":
        return False
    try:
        tree = function_source(kdef.fn).node
    except KernelError:  # no source (E0103): an explicit program built by exec keeps its own errors
        return False
    params = {a.arg for a in tree.args.args}
    for n in ast.walk(tree):
        if isinstance(n, ast.FunctionDef) and n is not tree and any(
                _decorator_name(d) in _THREAD_DECORATORS for d in n.decorator_list):
            return False
        if isinstance(n, ast.Attribute) and n.attr == "Program":
            return False
    return any((isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id in params)
               or (isinstance(n, ast.Attribute) and n.attr == "block_index") for n in ast.walk(tree))


def expand(kdef: KernelDef, args: tuple, kwargs: dict, grid: tuple[int, ...], arch: str) -> tuple[KernelDef, GeneratedThreads]:
    """The explicit-thread operation for this launch of a single-threaded one (cached per shapes)."""
    bound = inspect.signature(kdef.fn).bind(*args, **kwargs)
    bound.apply_defaults()
    key = (grid, arch, tuple((k, tuple(v.shape), str(getattr(v, "dtype", ""))) if hasattr(v, "storage") else (k, repr(v))
                             for k, v in bound.arguments.items()))
    per_kernel = _expanded.setdefault(kdef, {})
    if key not in per_kernel:
        per_kernel[key] = _Expansion(kdef, dict(bound.arguments), grid).build()
    return per_kernel[key]


def _decorator_name(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    return target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")


class _Expansion:
    def __init__(self, kdef: KernelDef, arguments: dict[str, Any], grid: tuple[int, ...]):
        self.kdef = kdef
        self.arguments = arguments
        self.grid = grid
        self.source = absolute(function_source(kdef.fn))
        self.tensors = {k for k, v in arguments.items() if hasattr(v, "storage")}
        #: the name the script gives the language (``import tilecraft as ttl``), read off the decorator
        self.lang = next((d.func.value.id for d in self.source.node.decorator_list
                          if isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute)
                          and isinstance(d.func.value, ast.Name)), "ttl")
        self.namespace = self._namespace()
        #: the schedule of the output blocks over the grid (chosen with them, in _output_blocks)
        self.schedule = "contiguous"

    def _namespace(self) -> dict[str, Any]:
        fn = self.kdef.fn
        ns = dict(fn.__globals__)
        for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
            ns[name] = cell.cell_contents
        if self.lang not in ns:  # decorated as @operation(...): the generated code says ttl.*
            ns[self.lang] = _Language()
        return ns

    def fail(self, code: str, message: str, node: ast.AST | None, hint: str) -> NoReturn:
        span = self.source.span(node) if node is not None else self.kdef.span
        raise error(code, message, span, hint=hint)

    # ---------------------------------------------------------------- the whole expansion
    def build(self) -> tuple[KernelDef, GeneratedThreads]:
        split = Splitter(self.source, self.tensors, self.lang).split()
        counts, over = self._output_blocks(split)
        for site in split.sites:
            site.shape = self._slice_shape(site, split)
        self._check_stores_move(split, counts)
        shared = self._shared_loads(split, counts)
        if in_writer(shared):  # split again, the column multicasts read by the writer thread
            shapes = [site.shape for site in split.sites]
            split = Splitter(self.source, self.tensors, self.lang, in_writer(shared)).split()
            for site, shape in zip(split.sites, shapes):
                site.shape = shape
            shared = self._shared_loads(split, counts)
        fn_node = self._operation(split, counts, shared)
        options = {k: v for k, v in self.kdef.options.items() if k not in OPTIONS}
        text = self._text(fn_node, options)
        for stmt in fn_node.body:
            # the buffer's name, which the printed program's assignment line gives (the compiled
            # one's lines are the user's, where the buffer's name is not written)
            if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) \
                    and getattr(stmt.value.func, "attr", "") == "make_dataflow_buffer_like":
                buffer = stmt.targets[0].id  # type: ignore[attr-defined]
                stmt.value.keywords.append(ast.keyword(arg="name", value=_at(ast.Constant(buffer), stmt)))
        module = ast.fix_missing_locations(ast.Module(body=[fn_node], type_ignores=[]))
        code = compile(module, self.source.file, "exec")
        exec(code, self.namespace)
        generated = self.namespace.pop(fn_node.name)
        threads = {n.name: n for n in fn_node.body if isinstance(n, ast.FunctionDef)}
        for const in generated.__code__.co_consts:
            if isinstance(const, type(code)) and const.co_name in threads:
                register_source(const, FunctionSource(threads[const.co_name], self.source.file, 0, 0))
        kdef = KernelDef(generated, self.kdef.grid, "operation", options)
        kdef.name, kdef.span = self.kdef.name, self.kdef.span
        first = min([d.lineno for d in self.source.node.decorator_list] + [self.source.node.lineno])
        return kdef, GeneratedThreads(self.kdef.name, self.source.file, first, self.source.node.end_lineno or first,
                                      text, over, counts)

    def _text(self, fn_node: ast.FunctionDef, options: dict[str, Any]) -> str:
        extra = "".join(f", {k}={v!r}" for k, v in options.items())
        return f"@{self.lang}.operation(grid={self.grid!r}{extra})\n{ast.unparse(fn_node)}\n"

    # ---------------------------------------------------------------- metadata
    def option(self, name: str, default: Any) -> Any:
        """A metadata value; a string that names a parameter of the operation (``block=("BM", "BN")``,
        ``block_count="COUNT"``) is that argument's value, so ``@ttl.autotune`` can search it."""
        value = self.kdef.options.get(name, default)
        if name == "over":  # names a tensor parameter itself
            return value
        if isinstance(value, tuple):
            return tuple(self._argument(v) for v in value)
        return self._argument(value)

    def _argument(self, value: Any) -> Any:
        if isinstance(value, str) and value in self.arguments and value not in self.tensors:
            return self.arguments[value]
        return value

    def _output_blocks(self, split: Split) -> tuple[tuple[int, ...], str | None]:
        """How many output blocks in each dimension the spatial loop covers, and of which tensor."""
        if split.block_index is None:
            if math.prod(self.grid) > 1:  # one block, on core 0: the other cores would idle
                self.fail(METADATA, f"{self.kdef.name}() runs on a grid of {math.prod(self.grid)} cores but never "
                          "asks for ttl.block_index(): its whole body would be one block, computed by core 0 alone",
                          None, "spread the work: r, c = ttl.block_index() and index the slices by it (block= says "
                                "how many tiles a block has), or declare grid=(1, 1)")
            return (1,), None
        stored = list(dict.fromkeys(s.tensor for s in split.sites if s.kind == "store"))
        over = self.option("over", stored[0] if len(stored) == 1 else None)
        if over not in self.tensors:
            self.fail(METADATA, f"over={over!r} does not name a tensor argument of {self.kdef.name}(); the output "
                      f"blocks are those of one tensor (this operation stores {', '.join(stored) or 'none'})",
                      split.block_index, "say which tensor's blocks are spread over the grid: "
                                         "@ttl.operation(grid=..., over=\"y\", block=(1, 1))")
        tensor = self.arguments[over]
        tiles = _tiles(tensor)
        block = self.option("block", (1,) * len(tiles))
        if not (isinstance(block, tuple) and len(block) == len(tiles)
                and all(b is None or (isinstance(b, int) and not isinstance(b, bool) and b > 0) for b in block)):
            self.fail(METADATA, f"block={block!r} must be a tuple of {len(tiles)} positive ints or None (tiles per "
                      f"output block of '{over}' in each dimension; None: the whole extent)", split.block_index,
                      "write block=(rows, cols) in tiles")
        block = tuple(t if b is None else b for t, b in zip(tiles, block))
        if any(t % b for t, b in zip(tiles, block)):
            self.fail(METADATA, f"block={block} does not divide '{over}', which is {tiles} tiles",
                      split.block_index, "pick a block shape that divides the tensor's tiles in every dimension")
        counts = tuple(t // b for t, b in zip(tiles, block))
        target = split.block_index.targets[0]
        arity = len(target.elts) if isinstance(target, ast.Tuple) else 1
        if arity not in (1, len(counts)):
            self.fail(METADATA, f"ttl.block_index() gives {len(counts)} coordinates (or one flat index); "
                      f"{arity} names are assigned", target, "r, c = ttl.block_index()")
        schedule = self.option("schedule", None)
        if schedule is None:
            schedule = choose_schedule(counts, self.grid)
        elif schedule not in SCHEDULES or (schedule == "rectangle" and not rectangle_fits(counts, self.grid)):
            self.fail(METADATA, f"schedule={schedule!r} is not one of {', '.join(map(repr, SCHEDULES))}"
                      if schedule not in SCHEDULES else
                      f"schedule='rectangle' needs a 2-D grid over 2-D output blocks (the grid is {self.grid}, "
                      f"the output blocks {counts})", split.block_index,
                      "contiguous: each core takes a run of consecutive blocks; strided: core i takes blocks "
                      "i, i + cores, ...; rectangle: core (x, y) takes a rectangle of block rows and columns")
        self.schedule = schedule
        return counts, over

    # ---------------------------------------------------------------- slice shapes
    def _slice_shape(self, site: Site, split: Split) -> tuple[int, ...]:
        """The tile extent of a slice in each dimension, the same on every iteration (else E0824)."""
        tensor = self.arguments[site.tensor]
        tiles = _tiles(tensor)
        dims = site.node.slice.elts if isinstance(site.node.slice, ast.Tuple) else [site.node.slice]
        if len(dims) != len(tiles):
            return tuple(1 for _ in dims)  # the front end reports the dimension count (E0106)
        extents = []
        for d, (dim, full) in enumerate(zip(dims, tiles)):
            if not isinstance(dim, ast.Slice):
                extents.append(1)
                continue
            if dim.step is not None:
                self.fail(SLICE_SHAPE, "a tensor slice with a step", dim.step, "slice contiguous tiles: t[a:b, c:d]")
            lo = dim.lower or ast.Constant(0)
            hi = dim.upper or ast.Constant(full)
            extent = ast.BinOp(left=hi, op=ast.Sub(), right=lo)
            values = {self._evaluate(extent, split, sample, dim) for sample in range(3)}
            if len(values) != 1 or not isinstance(next(iter(values)), int) or next(iter(values)) <= 0:
                self.fail(SLICE_SHAPE, f"the extent of dimension {d} of this slice of '{site.tensor}' "
                          f"({ast.unparse(dim)}) is not one positive number on every iteration", dim,
                          "write slices as start:start + N with a constant N (the block shape of a buffer is fixed)")
            extents.append(next(iter(values)))
        return tuple(extents)

    def _evaluate(self, expr: ast.expr, split: Split, sample: int, where: ast.AST,
                  vary: set[str] | None = None) -> Any:
        """``expr`` with the scalar definitions substituted, its free names set to a sample."""
        expanded = _substitute(expr, split.scalar_defs, split.varying)
        ns = dict(self.namespace)
        ns.update(self.arguments)
        free = sorted(n for n in _names_in(expanded) if n in split.varying or n not in ns
                      or n in _index_names(split))
        for i, name in enumerate(free):
            ns[name] = 0 if sample == 0 or (vary is not None and name not in vary) else sample * (2 * i + 3) + 1
        try:
            return eval(compile(ast.fix_missing_locations(ast.Expression(expanded)), self.source.file, "eval"), ns)
        except Exception as exc:  # noqa: BLE001 - any failure means the shape is not a constant
            self.fail(SLICE_SHAPE, f"cannot work out the shape of this slice from constants ({type(exc).__name__}: "
                      f"{exc})", where, "write slice bounds from shapes, constants, loop variables and "
                                         "ttl.block_index()")

    def _check_stores_move(self, split: Split, counts: tuple[int, ...]) -> None:
        """With several output blocks, each store must land somewhere that depends on the block: a
        store every block makes to one slice is a reduction across cores the compiler cannot place."""
        if math.prod(counts) <= 1:
            return
        index = _index_names(split)
        for site in split.sites:
            if site.kind != "store":
                continue
            dims = site.node.slice.elts if isinstance(site.node.slice, ast.Tuple) else [site.node.slice]
            starts = [(d.lower or ast.Constant(0)) if isinstance(d, ast.Slice) else d for d in dims]
            start = ast.Tuple(elts=starts, ctx=ast.Load())
            if len({self._evaluate(start, split, s, site.node, vary=index) for s in range(3)}) == 1:
                self.fail(UNPLACEABLE_REDUCTION, f"every output block stores to the same slice of '{site.tensor}' "
                          f"({ast.unparse(site.node)}): combining the blocks' results is a reduction across "
                          "cores that the compiler cannot place", site.node,
                          "index the store by ttl.block_index(), and do the reduction inside one block: loop over "
                          "the reduced extent with for and accumulate in a block (acc += ...), then store once")

    # ---------------------------------------------------------------- the explicit program
    def _shared_loads(self, split: Split, counts: tuple[int, ...]) -> list[SharedLoad]:
        wanted = self.option("multicast", False)
        if not isinstance(wanted, bool):
            self.fail(METADATA, f"multicast={wanted!r} must be True or False", split.block_index,
                      "multicast=True sends each load the cores of a grid row (column) make alike from one core "
                      "to the others (rectangle schedule, blocks dividing the grid)")
        if not wanted:
            return []
        in_step = lockstep(self.schedule, counts, self.grid)
        shared = shared_loads(split, self.source.node.body, in_step, self.grid)
        if not shared:  # asked for, and nothing to share: say why rather than ignore it
            flat = split.block_index is not None and not isinstance(split.block_index.targets[0], ast.Tuple)
            why = ("ttl.block_index() is assigned to one flat index, so no load is known to stay in a grid row "
                   "(r, c = ttl.block_index() names the two coordinates)" if in_step and flat else
                   "no load is the same on every core of a grid row or column (each names both block "
                   "coordinates, or sits in a loop or branch that does)" if in_step else
                   f"the cores do not step through the blocks together: that needs schedule='rectangle' with "
                   f"the {counts} blocks dividing evenly over the {self.grid} grid (schedule={self.schedule!r})")
            warn(NOTHING_SHARED, f"multicast=True, but every load stays a plain read: {why}",
                 self.source.span(split.block_index) if split.block_index is not None else self.kdef.span,
                 hint="pick a block shape that divides the blocks over the grid (or schedule='rectangle'), or "
                      "drop multicast=True")
        return shared

    def _operation(self, split: Split, counts: tuple[int, ...], shared: list[SharedLoad]) -> ast.FunctionDef:
        user = self.source.node
        names = split.names
        at = split.block_index or user
        body: list[ast.stmt] = []
        block_count = self.option("block_count", 2)
        for site in split.sites:
            call = _parse(f"{self.lang}.make_dataflow_buffer_like({site.tensor}, shape={site.shape!r}, "
                          f"block_count={block_count!r})", site.node)
            body.append(ast.copy_location(ast.Assign(targets=[ast.Name(id=site.buffer, ctx=ast.Store())],
                                                     value=call), site.node))
        schedule = Schedule(self.schedule, counts, self.grid, self.lang, names)
        body += multicast_setup(shared, schedule, block_count, names)
        threads = (("reader", "datamovement", multicast_loads(split.reader, split, shared, self.lang, names)),
                   ("compute", "compute", split.compute),
                   ("writer", "datamovement", multicast_loads(split.writer, split, shared, self.lang, names)))
        for name, kind, stmts in threads:
            if not stmts:
                continue
            loop = schedule.loop(self._bind_block_index(stmts, split, schedule), at)
            fn = ast.FunctionDef(name=names.fresh(name), args=_no_args(), body=loop,
                                 decorator_list=[_parse(f"{self.lang}.{kind}()", at)], returns=None, type_comment=None)
            body.append(ast.copy_location(fn, at))
        op = ast.FunctionDef(name=user.name, args=copy.deepcopy(user.args), body=body, decorator_list=[],
                             returns=None, type_comment=None)
        return ast.copy_location(op, user)

    def _bind_block_index(self, stmts: list[ast.stmt], split: Split, schedule: Schedule) -> list[ast.stmt]:
        """``r, c = ttl.block_index()`` becomes the coordinates of the block the schedule gives this step."""
        out: list[ast.stmt] = []
        for stmt in stmts:
            if isinstance(stmt, ast.Assign) and split.block_index is not None \
                    and stmt.lineno == split.block_index.lineno and is_block_index_call(stmt.value):
                target = stmt.targets[0]
                if isinstance(target, ast.Tuple):
                    for elt, expr in zip(target.elts, schedule.coordinates()):
                        out.append(_at(ast.parse(f"{elt.id} = {expr}").body[0], stmt))  # type: ignore[attr-defined]
                else:
                    out.append(_at(ast.parse(f"{target.id} = {schedule.flat_index()}").body[0], stmt))  # type: ignore[attr-defined]
            else:
                out.append(stmt)
        return out


class _Language:
    """The names the generated code uses, for a script that reached the language another way."""

    make_dataflow_buffer_like = staticmethod(make_dataflow_buffer_like)
    copy = staticmethod(lang_copy)
    node = staticmethod(node)
    grid_size = staticmethod(grid_size)
    compute = staticmethod(compute)
    datamovement = staticmethod(datamovement)
    math = lang_math
    block = lang_block
    Pipe = Pipe
    PipeNet = PipeNet


def _tiles(tensor: Any) -> tuple[int, ...]:
    shape = tuple(tensor.shape)
    if not is_tile_layout(tensor):
        return shape
    return (*shape[:-2], -(-shape[-2] // 32), -(-shape[-1] // 32))


def _index_names(split: Split) -> set[str]:
    if split.block_index is None:
        return set()
    return {n.id for n in ast.walk(split.block_index.targets[0]) if isinstance(n, ast.Name)}


def _names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _no_args() -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
                         defaults=[])


def graduated_script(path: str, generated: list[GeneratedThreads],
                     replaced: Sequence[tuple[int, int, list[str]]] = ()) -> str:
    """The script at ``path`` with each single-threaded operation replaced by the explicit-thread
    operation the compiler made of it (its first launch's), indented as the original was: a
    program that runs unchanged and computes the same bits (``tilecraft show-threads``).
    ``replaced`` gives other edits, (first line, last line, the lines that replace them), which
    take the place of any operation inside them (a TileLang kernel and its launch)."""
    lines = open(path, encoding="utf-8").read().splitlines(keepends=True)
    edits: dict[int, tuple[int, list[str]]] = {first: (last, [f"{t}\n" for t in text]) for first, last, text in replaced}
    for g in generated:
        if g.file != path or g.first_line in edits or any(f <= g.first_line <= l for f, l, _ in replaced):
            continue
        line = lines[g.first_line - 1]
        indent = line[:len(line) - len(line.lstrip())]
        head = (f"{indent}# the threads tilecraft generated for the single-threaded operation {g.operation}() "
                f"({'x'.join(map(str, g.blocks))} output blocks{f' of {g.over}' if g.over else ''})\n")
        edits[g.first_line] = (g.last_line, [head] + [f"{indent}{text}\n" if text else "\n"
                                                      for text in g.text.splitlines()])
    out: list[str] = []
    skip_to = 0
    for number, line in enumerate(lines, start=1):
        if number <= skip_to:
            continue
        edit = edits.get(number)
        if edit is None:
            out.append(line)
            continue
        skip_to, text = edit
        out += text
    return "".join(out)
