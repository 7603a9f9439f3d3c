"""The IR of one kernel program: its declarations, its threads and its per-core arguments."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Span
from .ops import Body
from .types import CBDecl, PipeNetDecl, SemaphoreDecl, TensorDecl

COMPUTE = "compute"
DATAMOVEMENT = "datamovement"


@dataclass(eq=False)
class ThreadIR:
    name: str
    kind: str  # COMPUTE or DATAMOVEMENT
    body: Body
    span: Span | None = None


@dataclass(eq=False)
class ParamDecl:
    """A per-core runtime argument: one value for every core (flat core index)."""

    index: int
    label: str
    values: tuple[Any, ...]


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

    @property
    def num_cores(self) -> int:
        n = 1
        for extent in self.grid:
            n *= extent
        return n
