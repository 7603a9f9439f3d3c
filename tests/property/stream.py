"""Streaming kernels: a reader, a compute thread and a writer over a grid of blocks.

The shape of most TT-Lang programs: the tensors are cut into R x C blocks of BH x BW units
(tiles, or elements for row-major tensors); the work is split over the nodes of the grid; the
reader copies each block of every input into its buffer, the compute thread stores one block
expression per block (elementwise, with broadcasts, reduced, or transposed), the writer copies
the result out. Every choice the real programs make varies here: the spelling, ``with`` or
explicit release, how copies are waited for, one or two data movement threads, how the nodes
split the blocks (none, ``node(dims=1)`` in the threads, ``core(dims=1)`` in kernel scope,
``node(dims=2)`` tiles), the buffer sizes, ``grid="auto"`` with ``--grid``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import torch

from .expressions import Broadcast, Expr, Leaf, inexact_functions
from .programs import TILE, Features, HostTensor, Program, Spelling, WorkSplit, host_script, prelude
from .source import Source

STREAM_KINDS = ("elementwise", "broadcast", "reduce", "transpose", "integer", "row_major")

# roles of an operand: how its tensor and its block relate to the R x C grid of blocks
FULL, ROW, COL, SCALAR = "full", "row", "col", "scalar"
RED_COLS, RED_ROWS, RED_ALL, TRANSPOSED = "red_cols", "red_rows", "red_all", "transposed"


@dataclass(frozen=True)
class Operand:
    tensor: str
    role: str
    dtype: str
    lo: float = 0.0
    hi: float = 0.0
    #: logical rows of a ROW operand / columns of a COL operand (1: the rest of the tile is padding)
    thin: int = TILE


@dataclass(frozen=True)
class Root:
    """What the compute thread stores: the expression, a reduction of it, or its transpose."""

    kind: str = "store"  # "store" | "reduce" | "transpose"
    fn: str = ""  # reduce_sum | reduce_max
    along: str = ""  # cols | rows | both
    dims_text: str = ""
    namespace: str = "ttl.math"
    scaler: str | None = None  # tensor of a SCALAR operand
    scaler_keyword: bool = False
    shape_keyword: bool = False
    post_scale: float | None = None


@dataclass(frozen=True)
class StreamSpec:
    kind: str
    spelling: Spelling
    grid: tuple[int, int]
    grid_auto: bool
    split: str
    tiled: bool
    R: int
    C: int
    BH: int
    BW: int
    inputs: tuple[Operand, ...]
    output: Operand
    expr: Expr
    root: Root
    explicit: bool  # explicit reserve/push/wait/pop instead of `with`
    copy_wait: str  # "inline" | "handle" | "group"
    factors: tuple[int, ...]  # one per buffer: inputs, then the output
    one_dm: bool
    named_expr: bool  # `e = expr` then `store(e)`
    #: how many stores of the named expression (2: computed once, into a block the compiler adds)
    named_uses: int
    names: dict[str, str]
    seed: int
    thread_order: tuple[int, int, int]
    #: how the host makes the inputs ("from_torch" | "rand") and the output ("zeros" | "empty")
    creators: tuple[str, str] = ("from_torch", "zeros")

    @property
    def unit(self) -> int:
        return TILE if self.tiled else 1

    @property
    def work(self) -> WorkSplit:
        return WorkSplit(self.split, self.grid, self.R, self.C)

    # ------------------------------------------------------------------ shapes
    def units(self, op: Operand) -> tuple[int, int]:
        R, C, BH, BW = self.R, self.C, self.BH, self.BW
        return {FULL: (R * BH, C * BW), ROW: (1, C * BW), COL: (R * BH, 1), SCALAR: (1, 1),
                RED_COLS: (R * BH, C), RED_ROWS: (R, C * BW), RED_ALL: (R, C),
                TRANSPOSED: (C * BW, R * BH)}[op.role]

    def block(self, op: Operand) -> tuple[int, int]:
        BH, BW = self.BH, self.BW
        return {FULL: (BH, BW), ROW: (1, BW), COL: (BH, 1), SCALAR: (1, 1), RED_COLS: (BH, 1),
                RED_ROWS: (1, BW), RED_ALL: (1, 1), TRANSPOSED: (BW, BH)}[op.role]

    def elements(self, op: Operand) -> tuple[int, int]:
        rows, cols = (u * self.unit for u in self.units(op))
        if op.role == ROW:
            rows = op.thin
        if op.role in (COL,):
            cols = op.thin
        if op.role == SCALAR:
            rows, cols = op.thin, op.thin
        return rows, cols

    def slice(self, op: Operand, r: str, c: str, mistake: str = "") -> str:
        """``[rows, cols]`` of block (r, c) of ``op``'s tensor; with a ``mistake`` the first entry is
        one unit too long ("shape") or lies past the end of the tensor ("bounds")."""
        BH, BW = self.BH, self.BW

        def span(index: str, extent: int) -> tuple[str, str]:
            return (f"{index} * {extent}", f"({index} + 1) * {extent}") if extent > 1 else (index, f"{index} + 1")

        entries: list[tuple[str, ...]] = {
            FULL: [span(r, BH), span(c, BW)], ROW: [("0",), span(c, BW)], COL: [span(r, BH), ("0",)],
            SCALAR: [("0",), ("0",)], RED_COLS: [span(r, BH), (c,)], RED_ROWS: [(r,), span(c, BW)],
            RED_ALL: [(r,), (c,)], TRANSPOSED: [span(c, BW), span(r, BH)]}[op.role]
        first = entries[0]
        if mistake == "shape":
            entries[0] = (first[0], f"{first[-1]} + 2") if len(first) == 2 else (first[0], f"{first[0]} + 2")
        elif mistake == "bounds":
            past = self.units(op)[0]
            entries[0] = tuple(f"{part} + {past}" for part in first)
        return "[" + ", ".join(":".join(entry) for entry in entries) + "]"


# ---------------------------------------------------------------------------- source
def build(spec: StreamSpec) -> Program:
    src = Source()
    features = Features({spec.kind, spec.spelling.name, spec.split, "explicit" if spec.explicit else "with",
                         f"copy_{spec.copy_wait}", "tile" if spec.tiled else "row_major"})
    if spec.one_dm:
        features.add("one_dm")
    if spec.named_expr and spec.named_uses > 1:
        features.add("named_twice")
    prelude(src)
    n = spec.names
    ops = [*spec.inputs, spec.output]
    buffers = [f"{op.tensor}_{n['buffer']}" for op in ops]
    grid = '"auto"' if spec.grid_auto else repr(spec.grid)
    src.add(spec.spelling.decorator(grid), kernel_decorator="")
    params = ", ".join(op.tensor for op in ops)
    with src.block(f"def {n['kernel']}({params}):", kernel_def=""):
        spec.work.kernel_prologue(src, spec.spelling, n)
        for op, buf, factor in zip(ops, buffers, spec.factors):
            src.add(f"{buf} = {spec.spelling.buffer(op.tensor, spec.block(op), factor)}",
                    kernel_buffer=buf, **({} if spec.split == "core1d" or op is not ops[0] else {"kernel_first": ""}))
        src.add()
        writers = {"read": lambda: _reader(src, spec, buffers), "compute": lambda: _compute(src, spec, buffers),
                   "write": lambda: _writer(src, spec, buffers)}
        names = ["compute", "read"] if spec.one_dm else ["compute", "read", "write"]
        order = [names[i] for i in spec.thread_order if i < len(names)]
        for name in order:
            writers[name]()
            src.add()
        launch = spec.spelling.launch([n[t] for t in order], [op.tensor for op in ops])
        if launch:
            src.add(launch, kernel_launch="")
    in_creator, out_creator = spec.creators
    hosts = [HostTensor(op.tensor, spec.elements(op), op.dtype, spec.tiled, op.lo, op.hi,
                        creator=in_creator if op.dtype != "int32" else "from_torch") for op in spec.inputs]
    hosts.append(HostTensor(spec.output.tensor, spec.elements(spec.output), spec.output.dtype, spec.tiled,
                            creator=out_creator))
    host_script(src, hosts, f"{n['kernel']}({params})", spec.seed)
    features.add(*(f"dtype_{op.dtype}" for op in ops), f"out_{spec.output.dtype}", *_computed_operands(spec))
    if inexact_functions(spec.expr):
        features.add("inexact_functions")
    if all(op.dtype != "float32" for op in ops):  # the metal level's intermediate buffers are then bfloat16
        features.add("no_float32")
    cli = ("--grid", f"{spec.grid[0]},{spec.grid[1]}") if spec.grid_auto else ()
    if spec.grid_auto:
        features.add("grid_auto")
    if spec.work.nodes > 1:
        features.add("multinode")
    return Program(spec.kind, src, lambda values: {len(spec.inputs): golden(spec, values)},
                   {len(spec.inputs): spec.output.dtype}, cli, lowers=spec.tiled,
                   features=features.frozen())


def _computed_operands(spec: StreamSpec) -> set[str]:
    """"computed_broadcast" etc.: a broadcast, reduction or transpose of a computed operand."""
    words = set()
    if spec.root.kind in ("reduce", "transpose") and not isinstance(spec.expr, Leaf):
        words.add(f"computed_{spec.root.kind}")

    if any(isinstance(e, Broadcast) and not isinstance(e.child, Leaf) for e in spec.expr.walk()):
        words.add("computed_broadcast")
    return words


def _thread(src: Source, spec: StreamSpec, kind: str, name: str) -> None:
    decorator = "@ttl.compute()" if kind == "compute" else "@ttl.datamovement()"
    src.add(decorator, thread_decorator=name)


def _loop(src: Source, spec: StreamSpec, site: str, body: Callable[[], None]) -> None:
    spec.work.loop(src, spec.spelling, spec.names, site, body)


def _reader(src: Source, spec: StreamSpec, buffers: Sequence[str]) -> None:
    n = spec.names
    _thread(src, spec, "dm", n["read"])
    with src.block(f"def {n['read']}():", thread_def=n["read"]):
        def body() -> None:
            _read_blocks(src, spec, buffers)
            if spec.one_dm:
                _write_block(src, spec, buffers)
        _loop(src, spec, "read", body)


def _read_blocks(src: Source, spec: StreamSpec, buffers: Sequence[str]) -> None:
    n = spec.names
    blocks = [f"{op.tensor}_{n['blk']}" for op in spec.inputs]
    handles = [f"{op.tensor}_{n['xf']}" for op in spec.inputs]

    def copy(op: Operand, blk: str, mistake: str = "") -> str:
        return f"ttl.copy({op.tensor}{spec.slice(op, n['r'], n['c'], mistake)}, {blk})"

    def copy_and_wait() -> None:
        if spec.copy_wait == "group":
            src.add(f"{n['group']} = ttl.GroupTransfer()")
        for op, blk, handle in zip(spec.inputs, blocks, handles):
            wrong = {"shape_mistake": copy(op, blk, "shape"), "bounds_mistake": copy(op, blk, "bounds")}
            if spec.copy_wait == "inline":
                wrong = {key: f"{text}.wait()" for key, text in wrong.items()}
                # the handle of the unwaited form is kept: a bare ttl.copy(...) statement is waited at once
                src.add(f"{copy(op, blk)}.wait()", read_copy=blk, read_wait=blk, unwaited=f"{handle} = {copy(op, blk)}",
                        **wrong)
            else:
                wrong = {key: f"{handle} = {text}" for key, text in wrong.items()}
                src.add(f"{handle} = {copy(op, blk)}", read_copy=blk, **wrong)
                if spec.copy_wait == "group":
                    src.add(f"{n['group']}.add({handle})", read_wait=blk)
        if spec.copy_wait == "handle":
            for blk, handle in zip(blocks, handles):
                src.add(f"{handle}.wait()", read_wait=blk)
        elif spec.copy_wait == "group":
            src.add(f"{n['group']}.wait_all()")

    if spec.explicit:
        for buf, blk in zip(buffers, blocks):
            src.add(f"{blk} = {buf}.reserve()", read_acquire=blk)
        copy_and_wait()
        for buf, blk in zip(buffers, blocks):
            src.add(spec.spelling.release(buf, blk, "push"), read_release=blk)
    else:
        items = ", ".join(f"{buf}.reserve() as {blk}" for buf, blk in zip(buffers, blocks))
        with src.block(f"with {items}:", read_acquire=blocks[0], read_release=",".join(blocks)):
            copy_and_wait()


def _compute(src: Source, spec: StreamSpec, buffers: Sequence[str]) -> None:
    n = spec.names
    _thread(src, spec, "compute", n["compute"])
    in_blocks = [f"{op.tensor}_{n['blk']}" for op in spec.inputs]
    out_block = f"{spec.output.tensor}_{n['blk']}"
    value = _root(spec, out_block)
    with src.block(f"def {n['compute']}():", thread_def=n["compute"]):
        def body() -> None:
            def store() -> None:
                if spec.named_expr:
                    src.add(f"{n['e']} = {value}")
                    for _ in range(spec.named_uses - 1):  # stored again below: computed once
                        src.add(f"{out_block}.store({n['e']})", compute_store=out_block)
                    src.add(f"{out_block}.store({n['e']})", compute_store=out_block)
                else:
                    src.add(f"{out_block}.store({value})", compute_store=out_block)
            if spec.explicit:
                for buf, blk in zip(buffers, in_blocks):
                    src.add(f"{blk} = {buf}.wait()", compute_acquire=blk)
                src.add(f"{out_block} = {buffers[-1]}.reserve()", compute_reserve=out_block)
                store()
                src.add(spec.spelling.release(buffers[-1], out_block, "push"), compute_release=out_block)
                for buf, blk in zip(buffers, in_blocks):
                    src.add(spec.spelling.release(buf, blk, "pop"), compute_pop=blk)
            else:
                items = [f"{buf}.wait() as {blk}" for buf, blk in zip(buffers, in_blocks)]
                items.append(f"{buffers[-1]}.reserve() as {out_block}")
                with src.block(f"with {', '.join(items)}:", compute_acquire=in_blocks[0],
                               compute_release=out_block):
                    store()
        _loop(src, spec, "compute", body)


def _root(spec: StreamSpec, out_block: str) -> str:
    expr = spec.expr.render()
    root = spec.root
    if root.kind == "transpose":
        return f"{root.namespace}.transpose({expr})"
    if root.kind == "reduce":
        args = [expr]
        scaler = f"{root.scaler}_{spec.names['blk']}" if root.scaler else None
        if scaler and not root.scaler_keyword:
            args.append(scaler)
        args.append(f"dims={root.dims_text}")
        if scaler and root.scaler_keyword:
            args.append(f"scaler={scaler}")
        if root.shape_keyword:
            args.append(f"shape={spec.block(spec.output)}")
        text = f"{root.namespace}.{root.fn}({', '.join(args)})"
        return f"{text} * {root.post_scale!r}" if root.post_scale is not None else text
    return expr


def _writer(src: Source, spec: StreamSpec, buffers: Sequence[str]) -> None:
    n = spec.names
    _thread(src, spec, "dm", n["write"])
    with src.block(f"def {n['write']}():", thread_def=n["write"]):
        _loop(src, spec, "write", lambda: _write_block(src, spec, buffers))


def _write_block(src: Source, spec: StreamSpec, buffers: Sequence[str]) -> None:
    n = spec.names
    out = spec.output
    blk = f"{out.tensor}_{n['blk']}"
    copy = f"ttl.copy({blk}, {out.tensor}{spec.slice(out, n['r'], n['c'])})"
    if spec.explicit:
        src.add(f"{blk} = {buffers[-1]}.wait()", write_acquire=blk)
        src.add(f"{copy}.wait()", write_copy=blk)
        src.add(spec.spelling.release(buffers[-1], blk, "pop"), write_release=blk)
    else:
        with src.block(f"with {buffers[-1]}.wait() as {blk}:", write_acquire=blk, write_release=blk):
            src.add(f"{copy}.wait()", write_copy=blk)


# ---------------------------------------------------------------------------- golden
def golden(spec: StreamSpec, values: Sequence[torch.Tensor]) -> torch.Tensor:
    full = spec.elements(Operand("", FULL, ""))
    env: dict[str, torch.Tensor] = {}
    for op, value in zip(spec.inputs, values):
        env[op.tensor] = value.to(torch.float32)
    rows, cols = full
    unit = spec.unit
    block_row = torch.arange(rows) // (spec.BH * unit)
    block_col = torch.arange(cols) // (spec.BW * unit)
    env["__b__"] = (block_row[:, None] * spec.C + block_col[None, :]).to(torch.float32)
    value = spec.expr.golden(env).expand(full).to(torch.float32)
    if spec.output.dtype == "int32":  # an int32 store truncates toward zero (docs/numerics.md section 3)
        value = value.trunc()
    root = spec.root
    if root.kind == "transpose":
        return value.T.contiguous()
    if root.kind == "store":
        return value
    if root.scaler:
        value = value * env[root.scaler][0, 0]
    return _reduce(spec, value.to(torch.float64), root).to(torch.float32) * (
        root.post_scale if root.post_scale is not None else 1.0)


def _reduce(spec: StreamSpec, value: torch.Tensor, root: Root) -> torch.Tensor:
    """Each block reduced on its own; the result sits at index 0 of the reduced dim's tile."""
    R, C, H, W = spec.R, spec.C, spec.BH * TILE, spec.BW * TILE
    blocks = value.reshape(R, H, C, W)
    op = (lambda t, d: t.sum(d)) if root.fn == "reduce_sum" else (lambda t, d: t.amax(d))
    if root.along == "cols":
        out = torch.zeros(R, H, C, TILE, dtype=value.dtype)
        out[..., 0] = op(blocks, 3)
        return out.reshape(R * H, C * TILE)
    if root.along == "rows":
        out = torch.zeros(R, TILE, C, W, dtype=value.dtype)
        out[:, 0] = op(blocks, 1)
        return out.reshape(R * TILE, C * W)
    out = torch.zeros(R, TILE, C, TILE, dtype=value.dtype)
    out[:, 0, :, 0] = op(op(blocks, 3), 1)
    return out.reshape(R * TILE, C * TILE)
