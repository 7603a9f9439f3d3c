"""What every generated program shares: the program record, the two spellings, host tensors.

A :class:`Program` is source text (tagged lines, see ``source.py``) plus what the checks need:
which tensors of the launch are outputs, in which format, and a golden that computes them from
the values the device holds for the inputs (``ttnn.to_torch`` of the input tensors after the
launch). Computing the golden from the held inputs keeps input rounding (bfloat8_b, bfloat16)
out of the comparison: what is left is the kernel's own arithmetic and data movement.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Sequence

import torch

from .source import Source

#: golden: held values of every tensor of the launch (program order) -> {output index: values}
Golden = Callable[[Sequence[torch.Tensor]], dict[int, torch.Tensor]]

TILE = 32


@dataclass(frozen=True)
class Program:
    kind: str
    source: Source
    golden: Golden
    #: output tensor index -> data format name (the tolerance of docs/numerics.md section 7)
    outputs: dict[int, str]
    #: extra ``tilecraft run`` options (``--grid`` for ``grid="auto"`` programs)
    cli_args: tuple[str, ...] = ()
    #: the metal level must run it; False: the emitter documents it cannot (E3001)
    lowers: bool = True
    #: what the program uses, for known-issue filters and the campaign's counts
    features: frozenset[str] = frozenset()
    #: expected standard output lines (programs that print), in any order; None: not checked
    stdout: tuple[str, ...] | None = None

    @property
    def text(self) -> str:
        return self.source.text()


@dataclass(frozen=True)
class Spelling:
    """The seed specification's spelling or the published TT-Lang 1.1 one (docs/language.md)."""

    published: bool

    @property
    def name(self) -> str:
        return "published" if self.published else "seed"

    def decorator(self, grid: str) -> str:
        return f"@ttl.operation(grid={grid})" if self.published else f"@ttl.kernel(grid={grid})"

    def buffer(self, tensor: str, shape: tuple[int, ...], count: int) -> str:
        if self.published:
            return f"ttl.make_dataflow_buffer_like({tensor}, shape={shape}, block_count={count})"
        return f"ttl.make_circular_buffer_like({tensor}, shape={shape}, buffer_factor={count})"

    @property
    def node(self) -> str:
        return "ttl.node" if self.published else "ttl.core"

    def release(self, buffer: str, block: str, kind: str) -> str:
        """The explicit release of a block: ``kind`` is "push" or "pop"."""
        return f"{block}.{kind}()" if self.published else f"{buffer}.{kind}()"

    def launch(self, threads: Sequence[str], tensors: Sequence[str]) -> str | None:
        """The seed's ``return ttl.Program(...)(...)``; the published spelling registers threads."""
        if self.published:
            return None
        return f"return ttl.Program({', '.join(threads)})({', '.join(tensors)})"


SPLITS = ("single", "node1d", "core1d", "node2d")


@dataclass(frozen=True)
class WorkSplit:
    """How the nodes share an R x C grid of work items (blocks): every thread walks the same items.

    "single": one node does everything (a 1x1 grid); "node1d": ``node(dims=1)`` in each thread,
    a contiguous range of the linear index per node; "core1d": the same range computed in kernel
    scope from ``core(dims=1)`` (the body then runs once per core and the range reaches the
    threads as runtime arguments); "node2d": ``node(dims=2)``, a rectangle of items per node.
    """

    kind: str
    grid: tuple[int, int]
    rows: int
    cols: int

    @property
    def nodes(self) -> int:
        return self.grid[0] * self.grid[1]

    @property
    def items(self) -> int:
        return self.rows * self.cols

    @property
    def per_node(self) -> int:
        return math.ceil(self.items / self.nodes)

    def kernel_prologue(self, src: Source, spelling: "Spelling", names: dict[str, str]) -> None:
        if self.kind == "core1d":
            src.add(f"{names['node']} = {spelling.node}(dims=1)", kernel_first="")
            src.add(f"{names['start']} = {names['node']} * {self.per_node}")
            src.add(f"{names['end']} = min({names['start']} + {self.per_node}, {self.items})")

    def loop(self, src: Source, spelling: "Spelling", names: dict[str, str], site: str,
             body: Callable[[], None]) -> None:
        """The item loop of one thread: ``names['b']`` (linear), ``['r']``, ``['c']`` bound for ``body``."""
        b, r, c = names["b"], names["r"], names["c"]
        first = {f"{site}_first": "", "thread_first": site}
        loop_tag = {f"{site}_loop": ""}
        if self.kind == "node2d":
            nx, ny = names["nx"], names["ny"]
            rp, cp = math.ceil(self.rows / self.grid[1]), math.ceil(self.cols / self.grid[0])
            src.add(f"{nx}, {ny} = {spelling.node}(dims=2)", **first)
            with src.block(f"for {r} in range({ny} * {rp}, min({ny} * {rp} + {rp}, {self.rows})):", **loop_tag):
                with src.block(f"for {c} in range({nx} * {cp}, min({nx} * {cp} + {cp}, {self.cols})):"):
                    src.add(f"{b} = {r} * {self.cols} + {c}")
                    body()
            return
        per, items = self.per_node, self.items
        if self.kind == "single":
            header = f"for {b} in range({items}):"
        elif self.kind == "node1d":
            node = names["node"]
            src.add(f"{node} = {spelling.node}(dims=1)", **first)
            first = {}
            header = f"for {b} in range({node} * {per}, min({node} * {per} + {per}, {items})):"
        else:  # core1d: the range was computed in kernel scope
            header = f"for {b} in range({names['start']}, {names['end']}):"
        with src.block(header, **loop_tag, **first):
            src.add(f"{r} = {b} // {self.cols}")
            src.add(f"{c} = {b} % {self.cols}")
            body()


DTYPES = ("bfloat16", "float32", "bfloat8_b")
TORCH_OF = {"bfloat16": torch.bfloat16, "float32": torch.float32, "bfloat8_b": torch.bfloat16, "int32": torch.int32}


@dataclass(frozen=True)
class HostTensor:
    """A ttnn tensor the host script creates: random values in [lo, hi), or zeros."""

    var: str
    shape: tuple[int, ...]
    dtype: str
    tiled: bool
    lo: float = 0.0
    hi: float = 0.0
    creator: str = "from_torch"  # "from_torch" | "zeros" | "empty" | "rand" (ttnn.rand)

    def create(self) -> str:
        layout = "ttnn.TILE_LAYOUT" if self.tiled else "ttnn.ROW_MAJOR_LAYOUT"
        dtype = f"ttnn.{self.dtype}"
        shape = self.shape
        if self.creator in ("zeros", "empty"):
            return f"{self.var} = ttnn.{self.creator}({shape}, dtype={dtype}, layout={layout})"
        if self.creator == "rand":
            return f"{self.var} = ttnn.rand({shape}, dtype={dtype}, layout={layout}, low={self.lo}, high={self.hi})"
        if self.dtype == "int32":
            values = f"torch.randint({int(self.lo)}, {int(self.hi)}, {shape}, dtype=torch.int32)"
        elif self.lo == self.hi:
            values = f"torch.zeros({shape})"
        else:
            values = f"torch.rand({shape}) * {self.hi - self.lo!r} + {self.lo!r}"
        return f"{self.var} = ttnn.from_torch({values}, dtype={dtype}, layout={layout})"


def host_script(src: Source, tensors: Sequence[HostTensor], call: str, seed: int) -> None:
    """The host part: seeded inputs, output tensors, the kernel call."""
    src.add()
    src.add()
    src.add(f"torch.manual_seed({seed})")
    for tensor in tensors:
        src.add(tensor.create(), host_tensor=tensor.var)
    src.add(call, host_call="")


def prelude(src: Source) -> None:
    src.add("import torch")
    src.add()
    src.add("import ttl")
    src.add("import ttnn")
    src.add()
    src.add()


@dataclass
class Features:
    """A set of feature words, collected while a program is written."""

    words: set[str] = field(default_factory=set)

    def add(self, *words: str) -> None:
        self.words.update(words)

    def frozen(self) -> frozenset[str]:
        return frozenset(self.words)
