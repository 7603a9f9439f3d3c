"""The IR of one kernel program: its declarations, its threads and its per-core arguments."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Span
from ..text_enum import TextEnum
from .ops import Body
from .types import CBDecl, PipeNetDecl, SemaphoreDecl, TensorDecl

class ThreadKind(TextEnum):
    """What a thread (and the kernel lowered from it) does: block math on the compute RISC-Vs, or
    transfers on a data-movement RISC-V. The value is the word the decorators (``@ttl.compute()``,
    ``@ttl.datamovement()``), the IR text and PyKernel's kernel kinds use."""

    COMPUTE = "compute"
    DATAMOVEMENT = "datamovement"


#: the two kinds by their short names (``program_ir.COMPUTE``), as most readers spell them
COMPUTE, DATAMOVEMENT = ThreadKind.COMPUTE, ThreadKind.DATAMOVEMENT


@dataclass(eq=False)
class ThreadIR:
    name: str
    kind: ThreadKind
    body: Body
    span: Span | None = None


@dataclass(eq=False)
class ParamDecl:
    """A per-core runtime argument: one value for every core (flat core index)."""

    index: int
    label: str
    values: tuple[Any, ...]


@dataclass(frozen=True)
class GeneratedThreads:
    """The explicit-thread operation the compiler made of a single-threaded one: its source text
    (``tilecraft show-threads`` prints it in place of lines ``first_line``..``last_line`` of
    ``file``), which tensor's output blocks are spread over the grid and how many there are."""

    operation: str
    file: str
    first_line: int
    last_line: int
    text: str
    over: str | None
    blocks: tuple[int, ...]


@dataclass(eq=False)
class ProgramIR:
    name: str
    grid: tuple[int, ...]
    tensors: list[TensorDecl] = field(default_factory=list)
    cbs: list[CBDecl] = field(default_factory=list)
    pipenets: list[PipeNetDecl] = field(default_factory=list)
    semaphores: list[SemaphoreDecl] = field(default_factory=list)
    threads: list[ThreadIR] = field(default_factory=list)
    params: list[ParamDecl] = field(default_factory=list)
    span: Span | None = None
    #: the grid was the device's (``grid="auto"``/``"full"``), not written in the program: the
    #: emitted host checks it against the device it runs on
    grid_from_device: bool = False
    #: the threads the compiler generated, for a single-threaded operation (else None)
    generated_threads: GeneratedThreads | None = None

    @property
    def num_cores(self) -> int:
        n = 1
        for extent in self.grid:
            n *= extent
        return n
