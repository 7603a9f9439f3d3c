"""IR value types and the program-level declarations operations refer to.

Declarations (buffers, pipe nets, semaphores, tensor parameters) live at program level, created
by kernel-scope Python; thread operations refer to them by object. Registers carry a type so
that the verifier, the simulator's code generator and the emitter agree on what a value is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..dtypes import TILE_COLS, TILE_ROWS, DataFormat


class Type:
    """Base of register types; instances compare by value."""

    #: whether a register of this type holds one number (arithmetic and conditions take these)
    scalar = False

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        return hash((type(self).__name__, tuple(sorted(self.__dict__.items(), key=str))))


class IndexType(Type):
    scalar = True

    def __str__(self) -> str:
        return "index"


class BoolType(Type):
    scalar = True

    def __str__(self) -> str:
        return "i1"


class FloatType(Type):
    scalar = True

    def __str__(self) -> str:
        return "f32"


class GroupType(Type):
    """A ``ttl.GroupTransfer``: transfer handles waited on together."""

    def __str__(self) -> str:
        return "xfer_group"


class XferType(Type):
    """A transfer handle returned by ``ttl.copy``."""

    def __str__(self) -> str:
        return "xfer"


@dataclass(frozen=True)
class ShapeUnit:
    """How a block's shape is counted: in 32x32 tiles (tile layout) or scalars (row-major)."""

    tiled: bool

    def elements(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        """Element extent of a block of ``shape`` units (last two dims are tile dims when tiled)."""
        if not self.tiled or len(shape) < 2:
            return tuple(shape)
        return (*shape[:-2], shape[-2] * TILE_ROWS, shape[-1] * TILE_COLS)


TILE_UNIT = ShapeUnit(True)
SCALAR_UNIT = ShapeUnit(False)


class BlockType(Type):
    """A block acquired from a buffer, a block expression, or a thread-local block.

    A *local* block (``acc = ttl.block.fill(0, shape=...)`` then ``acc += a @ b`` in a loop) is
    a mutable register holding a block value that lives in no buffer; it holds fp32 values, as
    DST does with fp32 accumulation (docs/numerics.md).
    """

    def __init__(self, shape: tuple[int, ...], fmt: DataFormat, unit: ShapeUnit, expr: bool = False,
                 local: bool = False):
        self.shape = tuple(shape)
        self.fmt = fmt
        self.unit = unit
        self.expr = expr
        self.local = local

    @property
    def elements(self) -> tuple[int, ...]:
        return self.unit.elements(self.shape)

    def as_expr(self, shape: tuple[int, ...] | None = None) -> "BlockType":
        return BlockType(self.shape if shape is None else shape, self.fmt, self.unit, expr=True)

    def __str__(self) -> str:
        kind = "local" if self.local else "expr" if self.expr else "block"
        unit = "" if self.unit.tiled else ", scalar"
        return f"{kind}<{'x'.join(map(str, self.shape))}, {self.fmt.name}{unit}>"


@dataclass(eq=False)
class CBDecl:
    """A circular (dataflow) buffer: ``buffer_factor`` blocks of ``shape`` units, per core."""

    index: int
    name: str
    shape: tuple[int, ...]
    fmt: DataFormat
    unit: ShapeUnit
    buffer_factor: int
    span: Any = None
    #: how the program sized it relative to L1 (``block_count=max``, ``shape=1x25%``); None: in numbers
    sizing: str | None = None

    @property
    def block_type(self) -> BlockType:
        return BlockType(self.shape, self.fmt, self.unit)

    @property
    def block_bytes(self) -> int:
        elems = 1
        for extent in self.unit.elements(self.shape):
            elems *= extent
        if self.unit.tiled:
            tiles = elems // (TILE_ROWS * TILE_COLS)
            return tiles * self.fmt.tile_bytes
        return self.fmt.bytes_for(elems)

    @property
    def total_bytes(self) -> int:
        return self.block_bytes * self.buffer_factor

    def __str__(self) -> str:
        return f"@{self.name}"


@dataclass(eq=False)
class TensorDecl:
    """A tensor argument of the program (lives in DRAM; never copied per core)."""

    index: int
    name: str
    shape: tuple[int, ...]
    fmt: DataFormat
    unit: ShapeUnit

    @property
    def unit_shape(self) -> tuple[int, ...]:
        """Shape in the tensor's shape units (tiles for tile layout, padded up)."""
        if not self.unit.tiled:
            return self.shape
        rows, cols = self.shape[-2], self.shape[-1]
        return (*self.shape[:-2], -(-rows // TILE_ROWS), -(-cols // TILE_COLS))

    def __str__(self) -> str:
        return f"%{self.name}"


@dataclass(frozen=True, eq=False)
class PipeDecl:
    """One pipe: a source core and its destination cores (unicast: one; multicast: a range)."""

    index: int
    src: tuple[int, ...]
    dsts: tuple[tuple[int, ...], ...]
    multicast: bool
    span: Any = None

    def __str__(self) -> str:
        if self.multicast:
            return f"pipe#{self.index}({self.src} => {len(self.dsts)} cores)"
        return f"pipe#{self.index}({self.src} -> {self.dsts[0]})"


@dataclass(eq=False)
class PipeNetDecl:
    """An ordered group of pipes that ``if_pipe_src``/``if_pipe_dst`` iterate over."""

    index: int
    pipes: tuple[PipeDecl, ...]
    span: Any = None
    #: proven to land in place (``sim/language/direct_landing.py``, set by the driver per launch);
    #: False: through landing slots (``ir/pipe_protocol.py``)
    direct: bool = False
    #: why it lands as it does ("" until the proof has run)
    landing_reason: str = ""

    def __str__(self) -> str:
        return f"@pipenet{self.index}"


class PipeType(Type):
    def __init__(self, net: int):
        self.net = net

    def __str__(self) -> str:
        return f"pipe<net{self.net}>"


@dataclass(eq=False)
class SemaphoreDecl:
    index: int
    name: str
    initial: int
    span: Any = None

    def __str__(self) -> str:
        return f"@{self.name}"


@dataclass(eq=False)
class CoreRange:
    """A hyper-rectangle of cores, bounds inclusive-exclusive per dim (for multicast)."""

    starts: tuple[int, ...]
    stops: tuple[int, ...]
    cores: tuple[tuple[int, ...], ...] = field(default=())

    def __str__(self) -> str:
        return "[" + ", ".join(f"{a}:{b}" for a, b in zip(self.starts, self.stops)) + "]"


INDEX = IndexType()
BOOL = BoolType()
FLOAT = FloatType()
XFER = XferType()
GROUP = GroupType()
