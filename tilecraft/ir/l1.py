"""A program's L1 need per core, itemized, and the compile-time budget it must fit (``E0401``).

One record, :class:`L1Need`, says what a core's L1 holds: the program's own buffers and the ones
the compiler adds when it lowers the program to Metalium (partial results of a block read back,
local blocks, expressions computed once for several statements, intermediates of an expression,
the reduce scaler, pipe landing slots and flags),
each with what it is for. Every tool reads its figures from it: the launch and ``tilecraft
emit`` / ``profile`` (through the lowering, which builds the complete need), the tuner's pruning
and its "L1 use" column, and ``block_count="max"`` sizing. The complete need comes from the
lowering (``metal.lower.program_l1_need``), a layer above this one; this module holds the record,
the arithmetic and the check, so the front end can apply the same rule to the user's buffers
before anything is lowered.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Iterable

from ..arch import get as get_arch
from ..diagnostics import Note, Span, error
from .program_ir import ProgramIR
from .types import CBDecl


class Added(enum.Enum):
    """Why the compiler added a buffer to a program; the text reads on into the buffer's subject."""

    #: a reserved block read back (``+=``, or as an operand) keeps its value in two blocks
    PARTIALS = "partial results of"
    #: ``acc = ttl.block.fill(...)``: a block local to the compute thread, two blocks (or one block
    #: and one DST chunk, when its value rotates through the buffer chunk by chunk)
    LOCAL_BLOCK = "the value of local block"
    #: a block expression several statements use, computed once (ir/evaluate_once.py), two blocks
    EVALUATED_ONCE = "the value, computed once, of block expression"
    #: a computed operand that the matrix unit must read from L1 (fp32)
    INTERMEDIATE = "a computed operand in"
    #: the tile of ones ``reduce_tile`` multiplies by
    REDUCE_SCALER = "the reduce scaler of"
    #: the tile of zeros a row broadcast adds onto (Wormhole, fp32 DST; metal/lower_compute.py)
    ZERO_TILE = "the zero tile of"
    #: one block per pipe of a net on each destination (docs/emit.md, pipes)
    PIPE_LANDING = "landing slots of"
    #: one flag word per landing slot
    PIPE_FLAGS = "arrival flags of"


@dataclass(frozen=True)
class L1Buffer:
    """One buffer of a core's L1: the program's own (``added`` None) or one the compiler added."""

    name: str
    blocks: int
    block_bytes: int
    shape: tuple[int, ...]
    fmt: str
    span: Span | None = None
    added: Added | None = None
    #: what an added buffer serves: the block or buffer whose partials it holds, the pipe net, ...
    subject: str = ""
    #: a rotating buffer's room for one DST chunk beyond its blocks (the next value's chunk is
    #: packed there while the current value's chunk is still read)
    chunk_bytes: int = 0

    @property
    def nbytes(self) -> int:
        return self.blocks * self.block_bytes + self.chunk_bytes

    @property
    def why(self) -> str:
        """Why the compiler added it ("" for the program's own)."""
        return "" if self.added is None else f"{self.added.value} {self.subject}"

    def describe(self) -> str:
        """The buffer, its size and, for an added one, why (E0401's notes, ``tilecraft show-ir``)."""
        chunk = f" + one DST chunk of {self.chunk_bytes} B" if self.chunk_bytes else ""
        sizes = f"{self.blocks} x {self.block_bytes} B{chunk} = {self.nbytes} B (block {self.shape}, {self.fmt})"
        if self.added is None:
            return f"buffer '{self.name}': {sizes}"
        return f"buffer '{self.name}' (added by the compiler: {self.why}): {sizes}"

    @classmethod
    def of(cls, cb: CBDecl, added: Added | None = None, subject: str = "", chunk_bytes: int = 0) -> "L1Buffer":
        return cls(cb.name, cb.buffer_factor, cb.block_bytes, tuple(cb.shape), cb.fmt.name, cb.span, added, subject,
                   chunk_bytes)


@dataclass(frozen=True)
class L1Need:
    """What one core of ``program`` needs in L1 on ``arch``, buffer by buffer.

    ``lowered`` says whether the compiler's buffers are counted: False for a program that does not
    lower to Metalium (``tilecraft run`` simulates it, ``emit`` rejects it), whose need is its own.
    """

    program: str
    arch: str
    available: int
    buffers: tuple[L1Buffer, ...]
    span: Span | None = None
    lowered: bool = True

    @property
    def total(self) -> int:
        return sum(b.nbytes for b in self.buffers)

    @property
    def own(self) -> tuple[L1Buffer, ...]:
        return tuple(b for b in self.buffers if b.added is None)

    @property
    def added(self) -> tuple[L1Buffer, ...]:
        return tuple(b for b in self.buffers if b.added is not None)

    @property
    def added_bytes(self) -> int:
        return sum(b.nbytes for b in self.added)

    @property
    def fits(self) -> bool:
        return self.total <= self.available

    def check(self) -> None:
        """``E0401`` unless the buffers fit: every buffer a note (largest first), the compiler's named."""
        if self.fits:
            return
        message = (f"the buffers of program '{self.program}' need {self.total} B of L1 per core but {self.arch} "
                   f"has {self.available} B available")
        added = sorted(self.added, key=lambda b: -b.nbytes)
        if added:
            message += (f": its own buffers take {self.total - self.added_bytes} B and the compiler adds "
                        f"{self.added_bytes} B ({', '.join(f'{b.name}: {b.why}' for b in added)})")
        notes = [Note(b.describe(), b.span) for b in sorted(self.buffers, key=lambda b: -b.nbytes)]
        hint = "make blocks smaller, lower block_count, or use a narrower data format"
        if any(b.added is Added.PARTIALS for b in added):
            hint += "; a block that is read back (+=) keeps its partial results in a buffer of two blocks"
        if any(b.added is Added.LOCAL_BLOCK for b in added):
            hint += ("; a local block (acc = ttl.block.fill(...)) too large for DST lives in L1 in float32, in two "
                     "blocks (its value and the next one), or in one block and one DST chunk when it is only "
                     "accumulated into (acc = acc + a @ b) and copied out once final: accumulating into the reserved output block instead "
                     "(y_blk += a_blk @ b_blk) keeps the two blocks in the output's format (each step's sum then rounds "
                     "to it)")
        raise error("E0401", message, self.span, notes=notes, hint=hint)


def l1_need(program: ProgramIR, arch_name: str, added: Iterable[L1Buffer] = (), lowered: bool = True) -> L1Need:
    """The need of ``program``'s own buffers plus ``added`` (the compiler's) on ``arch_name``."""
    arch = get_arch(arch_name)
    own = tuple(L1Buffer.of(cb) for cb in program.cbs)
    return L1Need(program.name, arch.name, arch.l1_available, own + tuple(added), program.span, lowered)


def check_l1(program: ProgramIR, arch_name: str) -> None:
    """The budget on the program's own buffers: the front end's early check, at the program, before
    anything is lowered (the lowering checks the complete need again)."""
    l1_need(program, arch_name, lowered=False).check()
