"""Language-level IR operations: one class per operation, each with a dotted name.

The IR is structured (loops and branches own their bodies, as in MLIR's scf dialect) and works
on registers: a register holds one value at a time and may be assigned more than once (a Python
local that is updated in a loop stays one register). Every operation carries the source span
it came from, so the simulator, the profiler and the emitter can all point at the user's line.

Operands are registers (:class:`Reg`) or compile-time constants (:class:`Const`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Iterator, Union

from ..diagnostics import Span
from . import dialects
from .scalarops import BinaryOp, CompareOp, UnaryOp
from .types import (BOOL, FLOAT, INDEX, XFER, BlockType, CBDecl, CoreRange, PipeNetDecl,
                    SemaphoreDecl, TensorDecl, Type)


@dataclass(eq=False)
class Reg:
    name: str
    type: Type

    def __str__(self) -> str:
        return f"%{self.name}"


@dataclass(frozen=True)
class Const:
    value: Any

    @property
    def type(self) -> Type:
        if isinstance(self.value, bool):
            return BOOL
        return FLOAT if isinstance(self.value, float) else INDEX

    def __str__(self) -> str:
        return repr(self.value)


Operand = Union[Reg, Const]
Body = list  # list[Op]


@dataclass(eq=False, kw_only=True)
class Op:
    """Base class; subclasses set ``name`` and declare their fields."""

    name: ClassVar[str] = "op"
    loc: Span | None = None

    def results(self) -> list[Reg]:
        out = []
        for f in fields(self):
            if f.name in ("result", "var"):
                value = getattr(self, f.name)
                if value is not None:
                    out.append(value)
            elif f.name == "outs":
                out.extend(getattr(self, f.name))
        return out

    def regions(self) -> list[Body]:
        return [getattr(self, f.name) for f in fields(self) if f.metadata.get("region")]

    def operands(self) -> Iterator[Operand]:
        """Every register or constant this op reads (not its results, not its regions)."""
        for f in fields(self):
            if f.name in ("result", "outs", "var", "loc") or f.metadata.get("region"):
                continue
            yield from _operands_in(getattr(self, f.name))


def _operands_in(value: Any) -> Iterator[Operand]:
    if isinstance(value, (Reg, Const)):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _operands_in(item)


def region() -> Any:
    return field(default_factory=list, metadata={"region": True})


# ---------------------------------------------------------------- scalar arithmetic
@dataclass(eq=False, kw_only=True)
class Assign(Op):
    name: ClassVar[str] = "arith.assign"
    result: Reg
    value: Operand


@dataclass(eq=False, kw_only=True)
class Binary(Op):
    """Integer/float arithmetic; ``op`` is a Python operator (add, floordiv, min, ...), whose meaning
    is its record in ``scalarops.BINARY``."""

    name: ClassVar[str] = "arith.binary"
    result: Reg
    op: BinaryOp
    lhs: Operand
    rhs: Operand

    def __post_init__(self) -> None:
        self.op = _operator(self.op, BinaryOp)


@dataclass(eq=False, kw_only=True)
class Unary(Op):
    name: ClassVar[str] = "arith.unary"
    result: Reg
    op: UnaryOp  # neg, not, abs, int, float, bool: scalarops.UNARY
    operand: Operand

    def __post_init__(self) -> None:
        self.op = _operator(self.op, UnaryOp)


@dataclass(eq=False, kw_only=True)
class Compare(Op):
    name: ClassVar[str] = "arith.cmp"
    result: Reg
    op: CompareOp  # eq, ne, lt, le, gt, ge: scalarops.COMPARE
    lhs: Operand
    rhs: Operand

    def __post_init__(self) -> None:
        self.op = _operator(self.op, CompareOp)


def _operator(op: str, kind: type[Any]) -> Any:
    """``op`` as its enum member when it names one (the parser reads text); anything else is left for
    the verifier to report."""
    try:
        return kind(op)
    except ValueError:
        return op


@dataclass(eq=False, kw_only=True)
class Select(Op):
    name: ClassVar[str] = "arith.select"
    result: Reg
    cond: Operand
    if_true: Operand
    if_false: Operand


@dataclass(eq=False, kw_only=True)
class KernelParam(Op):
    """A kernel-scope value that differs between cores: a per-core runtime argument."""

    name: ClassVar[str] = "kernel.param"
    result: Reg
    index: int
    label: str


@dataclass(eq=False, kw_only=True)
class CoreCoord(Op):
    """``ttl.core(dims=n)`` / ``ttl.node``: this core's coordinates, flattened or padded to n."""

    name: ClassVar[str] = "ttl.core"
    outs: list[Reg]
    dims: int


# ---------------------------------------------------------------- structured control flow
@dataclass(eq=False, kw_only=True)
class For(Op):
    name: ClassVar[str] = "scf.for"
    var: Reg
    lo: Operand
    hi: Operand
    step: Operand
    body: Body = region()


@dataclass(eq=False, kw_only=True)
class If(Op):
    name: ClassVar[str] = "scf.if"
    cond: Operand
    then_body: Body = region()
    else_body: Body = region()


@dataclass(eq=False, kw_only=True)
class While(Op):
    """``while cond:``; ``cond_body`` recomputes ``cond`` before every iteration."""

    name: ClassVar[str] = "scf.while"
    cond: Operand
    cond_body: Body = region()
    body: Body = region()


@dataclass(eq=False, kw_only=True)
class Break(Op):
    name: ClassVar[str] = "scf.break"


@dataclass(eq=False, kw_only=True)
class Continue(Op):
    name: ClassVar[str] = "scf.continue"


@dataclass(eq=False, kw_only=True)
class Return(Op):
    """``return`` in a thread before its end: the thread finishes here."""

    name: ClassVar[str] = "scf.return"


# ---------------------------------------------------------------- circular buffers
@dataclass(eq=False, kw_only=True)
class CBReserve(Op):
    name: ClassVar[str] = "cb.reserve"
    result: Reg
    cb: CBDecl


@dataclass(eq=False, kw_only=True)
class CBWait(Op):
    name: ClassVar[str] = "cb.wait"
    result: Reg
    cb: CBDecl


@dataclass(eq=False, kw_only=True)
class CBPush(Op):
    """Release the oldest reserved block to the consumer; ``block`` names it when known."""

    name: ClassVar[str] = "cb.push"
    cb: CBDecl
    block: Reg | None = None


@dataclass(eq=False, kw_only=True)
class CBPop(Op):
    name: ClassVar[str] = "cb.pop"
    cb: CBDecl
    block: Reg | None = None


# ---------------------------------------------------------------- block math (compute thread)
@dataclass(eq=False, kw_only=True)
class TileUnary(Op):
    name: ClassVar[str] = "tile.unary"
    result: Reg
    fn: str
    x: Operand
    params: tuple = ()


@dataclass(eq=False, kw_only=True)
class TileBinary(Op):
    """Elementwise binary; one side may be a scalar operand (broadcast to the block)."""

    name: ClassVar[str] = "tile.binary"
    result: Reg
    fn: str
    lhs: Operand
    rhs: Operand


@dataclass(eq=False, kw_only=True)
class TileMatmul(Op):
    name: ClassVar[str] = "tile.matmul"
    result: Reg
    lhs: Reg
    rhs: Reg

    @staticmethod
    def result_shape(lhs: tuple[int, ...], rhs: tuple[int, ...]) -> tuple[int, ...] | None:
        """The block shape of ``lhs @ rhs`` (in tiles), or None when they do not multiply:
        ``(M, K) @ (K, N) -> (M, N)``, and batched, ``(*B, M, K) @ (*B, K, N) -> (*B, M, N)``
        (block i of the left times block i of the right, as the published simulator's torch
        matmul computes it for equal leading dimensions)."""
        if len(lhs) < 2 or len(lhs) != len(rhs) or lhs[:-2] != rhs[:-2] or lhs[-1] != rhs[-2]:
            return None
        return (*lhs[:-1], rhs[-1])


@dataclass(eq=False, kw_only=True)
class TileReduce(Op):
    name: ClassVar[str] = "tile.reduce"
    result: Reg
    kind: str  # sum, max
    x: Reg
    dims: tuple[int, ...]
    scaler: Reg | None = None


@dataclass(eq=False, kw_only=True)
class TileBroadcast(Op):
    name: ClassVar[str] = "tile.broadcast"
    result: Reg
    x: Reg
    dims: tuple[int, ...]


@dataclass(eq=False, kw_only=True)
class TileTranspose(Op):
    name: ClassVar[str] = "tile.transpose"
    result: Reg
    x: Reg


@dataclass(eq=False, kw_only=True)
class TileReshape(Op):
    """``ttl.block.squeeze`` / ``unsqueeze``: the same tiles, in row-major order of the tile grid,
    on a grid with size-1 dims removed or added (the result's type has the new shape)."""

    name: ClassVar[str] = "tile.reshape"
    result: Reg
    x: Reg


@dataclass(eq=False, kw_only=True)
class TileRound(Op):
    """``expr.to(ttnn.bfloat16)``: a rounding point the program states. The value of ``x`` (fp32, as
    every intermediate of an expression) is rounded into format ``fmt`` as a store into a block of
    that format rounds it (the packer, on the device), and its readers read the rounded value; the
    lowering keeps it in a buffer of that format, which the FPU may read
    (``ir/compute_units.py``)."""

    name: ClassVar[str] = "tile.round"
    result: Reg
    x: Reg
    #: the data format's name, one of ``mathops.ROUNDING_FORMATS``
    fmt: str


@dataclass(eq=False, kw_only=True)
class TileFill(Op):
    name: ClassVar[str] = "tile.fill"
    result: Reg
    value: Operand


@dataclass(eq=False, kw_only=True)
class TileWhere(Op):
    name: ClassVar[str] = "tile.where"
    result: Reg
    cond: Operand
    if_true: Operand
    if_false: Operand


@dataclass(eq=False, kw_only=True)
class BlockStore(Op):
    """Materialise a block expression into a block (``accumulate``: ``block += expr``)."""

    name: ClassVar[str] = "block.store"
    block: Reg
    value: Reg
    accumulate: bool = False


@dataclass(eq=False, kw_only=True)
class LocalStore(Op):
    """``acc = expr`` where ``acc`` is a thread-local block (a mutable block register, fp32)."""

    name: ClassVar[str] = "block.local_set"
    result: Reg
    value: Reg
    #: a block the compiler added to hold a block expression that several statements use, computed
    #: once (``ir/evaluate_once.py``), not one the program names
    once: bool = False
    #: the store interface shared with BlockStore (the value replaces the block's old one)
    accumulate: ClassVar[bool] = False

    @property
    def block(self) -> Reg:
        """The block written, as ``BlockStore.block`` (consumers treat both stores alike)."""
        return self.result


# ---------------------------------------------------------------- data movement
@dataclass(eq=False, kw_only=True)
class TensorIndex:
    """A tensor slice: per dim a half-open ``[lo, hi)`` range in the tensor's shape units.

    Where the compiler proved a dim's extent, ``static_extents`` holds it and that dim's ``hi``
    is None (the range is ``[lo, lo + extent)``); elsewhere the extent is None and ``hi`` is the
    operand the simulator checks the extent with.
    """

    tensor: TensorDecl
    bounds: list[tuple[Operand, Operand | None]]
    static_extents: tuple[int | None, ...] = ()

    def operands(self) -> list[Operand]:
        return [b for pair in self.bounds for b in pair if b is not None]

    def __str__(self) -> str:
        """``%t[%r+:2, 0:1, %a:%b]``: ``lo+:n`` where the extent n is known at compile time (``a:b``
        for a constant start), else ``lo:hi``."""
        def dim(lo: Operand, hi: Operand | None, n: int | None) -> str:
            if n is None:
                return f"{lo}:{hi}"
            return f"{lo.value}:{lo.value + n}" if isinstance(lo, Const) else f"{lo}+:{n}"
        dims = ", ".join(dim(lo, hi, n) for (lo, hi), n in zip(self.bounds, self.static_extents))
        return f"{self.tensor}[{dims}]"


@dataclass(eq=False, kw_only=True)
class CopyTensorToBlock(Op):
    name: ClassVar[str] = "dm.read"
    result: Reg
    src: TensorIndex
    dst: Reg

    def operands(self) -> Iterator[Operand]:
        yield from self.src.operands()
        yield self.dst


@dataclass(eq=False, kw_only=True)
class CopyBlockToTensor(Op):
    name: ClassVar[str] = "dm.write"
    result: Reg
    src: Reg
    dst: TensorIndex

    def operands(self) -> Iterator[Operand]:
        yield self.src
        yield from self.dst.operands()


@dataclass(eq=False, kw_only=True)
class CopyBlockToPipe(Op):
    name: ClassVar[str] = "dm.pipe_send"
    result: Reg
    src: Reg
    pipe: Reg


@dataclass(eq=False, kw_only=True)
class CopyPipeToBlock(Op):
    name: ClassVar[str] = "dm.pipe_recv"
    result: Reg
    pipe: Reg
    dst: Reg


@dataclass(eq=False, kw_only=True)
class CopyBlockToBlock(Op):
    name: ClassVar[str] = "dm.block_copy"
    result: Reg
    src: Reg
    dst: Reg


@dataclass(eq=False, kw_only=True)
class XferWait(Op):
    name: ClassVar[str] = "dm.wait"
    xfer: Reg


@dataclass(eq=False, kw_only=True)
class GroupNew(Op):
    """``ttl.GroupTransfer()``: an empty collection of transfer handles."""

    name: ClassVar[str] = "dm.group_new"
    result: Reg


@dataclass(eq=False, kw_only=True)
class GroupAdd(Op):
    name: ClassVar[str] = "dm.group_add"
    group: Reg
    xfer: Reg


@dataclass(eq=False, kw_only=True)
class GroupWait(Op):
    """``group.wait_all()``: wait for every transfer added so far."""

    name: ClassVar[str] = "dm.group_wait"
    group: Reg


@dataclass(eq=False, kw_only=True)
class PipeForEach(Op):
    """Run ``body`` once per pipe of ``net`` whose source (role=src) or destination is this core."""

    name: ClassVar[str] = "pipe.foreach"
    role: str
    net: PipeNetDecl
    var: Reg
    body: Body = region()


@dataclass(eq=False, kw_only=True)
class PipeEnd(Op):
    """``pipe.src`` / ``pipe.dst`` in a ``pipe.foreach`` body: the source core, or the (unicast)
    destination core, of the pipe the body is on, numbered in ``dims`` dimensions as
    ``ttl.node(dims=...)`` numbers cores."""

    name: ClassVar[str] = "pipe.end"
    outs: list[Reg]
    pipe: Reg
    end: str  # src, dst
    dims: int


# ---------------------------------------------------------------- semaphores
@dataclass(eq=False, kw_only=True)
class SemWait(Op):
    name: ClassVar[str] = "sem.wait"
    sem: SemaphoreDecl
    cond: str  # eq, ge
    value: Operand


@dataclass(eq=False, kw_only=True)
class SemSet(Op):
    name: ClassVar[str] = "sem.set"
    sem: SemaphoreDecl
    value: Operand


@dataclass(eq=False, kw_only=True)
class SemRemote(Op):
    """Unicast change of another core's semaphore: ``op`` is inc or set."""

    name: ClassVar[str] = "sem.remote"
    sem: SemaphoreDecl
    op: str
    core: tuple[Operand, ...]
    value: Operand


@dataclass(eq=False, kw_only=True)
class SemMulticastSet(Op):
    name: ClassVar[str] = "sem.mcast_set"
    sem: SemaphoreDecl
    cores: CoreRange
    value: Operand


# ---------------------------------------------------------------- debugging aids
@dataclass(eq=False, kw_only=True)
class Print(Op):
    name: ClassVar[str] = "debug.print"
    #: each argument: a string, a register, or a tuple of them (an f-string, concatenated)
    args: list


@dataclass(eq=False, kw_only=True)
class PrintBlock(Op):
    """``print(..., blk)``: the other arguments as ``debug.print`` shows them, then the block's
    shape and values (known once the values are computed)."""

    name: ClassVar[str] = "debug.print_block"
    args: list
    block: Reg


@dataclass(eq=False, kw_only=True)
class PrintBuffer(Op):
    """``print(..., dfb)``: the other arguments, then the buffer's shape, size and current state."""

    name: ClassVar[str] = "debug.print_buffer"
    args: list
    cb: CBDecl


@dataclass(eq=False, kw_only=True)
class Signpost(Op):
    name: ClassVar[str] = "debug.signpost"
    label: str


STORE_OPS = (BlockStore, LocalStore)
EXPR_OPS = (TileUnary, TileBinary, TileMatmul, TileReduce, TileBroadcast, TileTranspose, TileReshape, TileFill,
            TileWhere, TileRound)
COPY_OPS = (CopyTensorToBlock, CopyBlockToTensor, CopyBlockToPipe, CopyPipeToBlock, CopyBlockToBlock)

#: the language-level dialects (docs/architecture.md, "The IR")
DIALECTS = tuple(dialects.Dialect(name, ops) for name, ops in (
    ("arith", (Assign, Binary, Unary, Compare, Select)),
    ("kernel", (KernelParam,)),
    ("ttl", (CoreCoord,)),
    ("scf", (For, If, While, Break, Continue, Return)),
    ("cb", (CBReserve, CBWait, CBPush, CBPop)),
    ("tile", EXPR_OPS),
    ("block", STORE_OPS),
    ("dm", COPY_OPS + (XferWait, GroupNew, GroupAdd, GroupWait)),
    ("pipe", (PipeForEach, PipeEnd)),
    ("sem", (SemWait, SemSet, SemRemote, SemMulticastSet)),
    ("debug", (Print, PrintBlock, PrintBuffer, Signpost)),
))
dialects.register(*DIALECTS)


def walk(body: Body) -> Iterator[Op]:
    """Every op of ``body`` in program order, nested regions included."""
    for op in body:
        yield op
        for sub in op.regions():
            yield from walk(sub)


def is_block(operand: Operand) -> bool:
    return isinstance(operand, Reg) and isinstance(operand.type, BlockType)


__all__ = [name for name in dir() if not name.startswith("_")] + ["XFER"]
