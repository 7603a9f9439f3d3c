"""The spatial loop of a single-threaded operation: which output blocks each core computes.

Three schedules spread the output blocks (numbered row-major) over the grid's cores:

* ``contiguous``: core ``i`` of ``ttl.node(dims=1)`` takes a run of consecutive blocks;
* ``strided``: core ``i`` takes blocks ``i, i + cores, ...`` (the TileLang-Tenstorrent
  compiler's two ``tt.schedule`` kinds);
* ``rectangle`` (a 2-D grid over 2-D output blocks): core ``(x, y)`` of ``ttl.node(dims=2)``
  takes a rectangle of block rows ``y * rows ...`` and block columns ``x * cols ...``, as the
  hand-threaded multi-node examples do. The cores of one grid row then compute the same block
  rows at the same steps, which is what lets them share a load by multicast
  (``single_thread_multicast.py``), and a rectangle reads neighbouring tiles of every tensor.

Without ``schedule=`` the compiler picks the rectangle when its busiest core has no more blocks
than the contiguous schedule's (the time of a balanced spatial loop is that of its busiest core),
else the contiguous runs.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass

from .generated_ast import place_at
from .single_thread_split import Names

SCHEDULES = ("contiguous", "strided", "rectangle")


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def rectangle_fits(counts: tuple[int, ...], grid: tuple[int, ...]) -> bool:
    """Rectangles need a 2-D grid over 2-D output blocks."""
    return len(counts) == 2 and len(grid) == 2


def choose(counts: tuple[int, ...], grid: tuple[int, ...]) -> str:
    """The default schedule: rectangles unless they leave the busiest core more blocks."""
    if not rectangle_fits(counts, grid) or math.prod(grid) == 1:
        return "contiguous"
    rectangle = _ceil(counts[0], grid[1]) * _ceil(counts[1], grid[0])
    return "rectangle" if rectangle <= _ceil(math.prod(counts), math.prod(grid)) else "contiguous"


def lockstep(kind: str, counts: tuple[int, ...], grid: tuple[int, ...]) -> bool:
    """Every core runs the same steps, and the cores of a grid row (column) compute the same block
    rows (columns) at each step: rectangles that divide the blocks evenly."""
    return kind == "rectangle" and counts[0] % grid[1] == 0 and counts[1] % grid[0] == 0


@dataclass
class Schedule:
    """One schedule of ``counts`` output blocks over ``grid``, and the names its loops use."""

    kind: str
    counts: tuple[int, ...]
    grid: tuple[int, ...]
    lang: str
    names: Names

    def __post_init__(self) -> None:
        fresh = self.names.fresh
        if self.kind == "rectangle":
            self.node_x, self.node_y, self.row_step, self.col_step = (
                fresh("node_x"), fresh("node_y"), fresh("block_row"), fresh("block_col"))
            self.rows_per_core = _ceil(self.counts[0], self.grid[1])
            self.cols_per_core = _ceil(self.counts[1], self.grid[0])
        else:
            self.block_id, self.first = fresh("block_id"), fresh("first")

    # ---------------------------------------------------------------- coordinates
    def coordinates(self) -> list[str]:
        """The expression of each coordinate of the block this step computes."""
        if self.kind == "rectangle":
            return [self._rect_coordinate(self.node_y, self.rows_per_core, self.row_step),
                    self._rect_coordinate(self.node_x, self.cols_per_core, self.col_step)]
        out = []
        total = math.prod(self.counts)
        for i, count in enumerate(self.counts):
            stride = math.prod(self.counts[i + 1:])
            if stride * count == total:
                out.append(f"{self.block_id} // {stride}" if stride > 1 else self.block_id)
            else:
                out.append(f"{self.block_id} // {stride} % {count}" if stride > 1 else f"{self.block_id} % {count}")
        return out

    def flat_index(self) -> str:
        """The block's row-major number."""
        if self.kind == "rectangle":
            row, col = self.coordinates()
            return f"({row}) * {self.counts[1]} + {col}"
        return self.block_id

    @staticmethod
    def _rect_coordinate(node: str, per_core: int, step: str) -> str:
        return node if per_core == 1 else f"{node} * {per_core} + {step}"

    # ---------------------------------------------------------------- the loop
    def loop(self, inner: list[ast.stmt], at: ast.AST) -> list[ast.stmt]:
        """The statements that run ``inner`` once for each block of this core."""
        if self.kind == "rectangle":
            return self._rectangle_loop(inner, at)
        cores, blocks = math.prod(self.grid), math.prod(self.counts)
        if self.kind == "strided":
            head = [f"for {self.block_id} in range({self.lang}.node(dims=1), {blocks}, {cores}):\n    pass"]
        else:
            per = _ceil(blocks, cores)
            head = [f"{self.first} = {self.lang}.node(dims=1) * {per}",
                    f"for {self.block_id} in range({self.first}, min({self.first} + {per}, {blocks})):\n    pass"]
        stmts = [place_at(ast.parse(h).body[0], at) for h in head]
        stmts[-1].body = inner  # type: ignore[attr-defined]
        return stmts

    def _rectangle_loop(self, inner: list[ast.stmt], at: ast.AST) -> list[ast.stmt]:
        row, col = self.coordinates()
        bounds = [f"{c} < {n}" for c, n, per, cores in ((row, self.counts[0], self.rows_per_core, self.grid[1]),
                                                      (col, self.counts[1], self.cols_per_core, self.grid[0]))
                  if per * cores != n]
        body = inner
        if bounds:
            guard = place_at(ast.parse(f"if {' and '.join(bounds)}:\n    pass").body[0], at)
            guard.body = body
            body = [guard]
        for step, per in ((self.col_step, self.cols_per_core), (self.row_step, self.rows_per_core)):
            if per > 1:
                loop = place_at(ast.parse(f"for {step} in range({per}):\n    pass").body[0], at)
                loop.body = body
                body = [loop]
        read = {n.id for stmt in body for n in ast.walk(stmt) if isinstance(n, ast.Name)}
        if not read & {self.node_x, self.node_y}:  # a thread that needs no coordinate
            return body
        head = place_at(ast.parse(f"{self.node_x}, {self.node_y} = {self.lang}.node(dims=2)").body[0], at)
        return [head, *body]
