"""Grid and node coordinates with the published simulator's flatten/pad rules.

``grid_size(dims)`` reshapes the grid to ``dims`` dimensions: asking for fewer keeps the first
``dims - 1`` extents and multiplies the rest into the last one kept; asking for more pads with 1.
``node(dims)`` with fewer dimensions folds the *first* coordinates into one and keeps the last
``dims - 1`` (on (X, Y, Z), ``node(dims=2)`` is ``(x * Y + y, z)`` while ``grid_size(dims=2)`` is
``(X, Y * Z)``: both as the published TT-Lang simulator has them); with more it pads with 0. The
seed's spelling ``ttl.core`` folds the last coordinates, as the seed specification says
(``(x, y * Z + z)``); the two spellings are one function, told apart by how the call is written.
Flattened coordinates are row-major, the last grid dimension varying fastest: on a (X, Y) grid
node (x, y) is ``x * Y + y`` in ``node(dims=1)``. Every per-node table (runtime arguments, the
linear pipe endpoints of ``Pipe(src=3, dst=0)``) uses this numbering (:mod:`tilecraft.ir.grid`).
"""

from __future__ import annotations

import linecache
import re

from . import scope
from .intrinsic import intrinsic
from ..diagnostics import error
from ..ir.grid import fold_last_coords, reshape_coords, reshape_sizes


def _check_dims(dims: object) -> None:
    if not isinstance(dims, int) or isinstance(dims, bool) or dims < 1:
        raise error("E0201", f"dims must be a positive integer, got {dims!r}", scope.caller_span(3))


def _unwrap(values: tuple[int, ...]) -> int | tuple[int, ...]:
    return values[0] if len(values) == 1 else values


@intrinsic("grid_size", host_ok=True)
def grid_size(dims: int = 2, *, dim: int | None = None) -> int | tuple[int, ...]:
    """Size of the kernel's grid in ``dims`` dimensions (``dim=`` is accepted as a synonym)."""
    s = scope.require_scope("ttl.grid_size")
    _check_dims(dim if dim is not None else dims)
    return _unwrap(reshape_sizes(s.grid, dim if dim is not None else dims))


@intrinsic("core", host_ok=True)
def core(dims: int = 2, *, dim: int | None = None) -> int | tuple[int, ...]:
    """This core's coordinates in ``dims`` dimensions (per-core value in kernel scope)."""
    spelling = _core_spelling()
    s = scope.require_scope(spelling)
    s.used_core = True
    _check_dims(dim if dim is not None else dims)
    reshape = fold_last_coords if spelling == "ttl.core" else reshape_coords
    return _unwrap(reshape(s.core, s.grid, dim if dim is not None else dims))


node = core


def _core_spelling() -> str:
    """``ttl.core`` or ``ttl.node`` (one function, two names), as the caller wrote it, for messages."""
    span = scope.caller_span(3)
    text = linecache.getline(span.file, span.line)[span.col - 1:] if span is not None else ""
    return "ttl.core" if re.match(r"(\w+\.)*core\b", text) else "ttl.node"


def block_index() -> int | tuple[int, ...]:
    """The coordinates of the output block this step of a single-threaded operation computes
    (``r, c = ttl.block_index()``; docs/language.md section 15). The compiler replaces the call with
    the spatial loop's block; it is never run as Python."""
    raise error("E0825", "ttl.block_index() names the output block of a single-threaded operation; it is "
                "only meaningful in the body of an @ttl.operation that defines no threads", scope.caller_span(2),
                hint="in a thread, compute the block from ttl.node() and ttl.grid_size()")
