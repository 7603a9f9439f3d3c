"""Relative memory sizes: a buffer sized by what fits in L1 instead of by a number.

Seed 004 asks for "relative memory sizing instead of explicit memory sizing", resolved per
architecture at compile time, so that one program uses Wormhole's and Blackhole's L1 fully.
Two spellings (docs/language.md section 4.2):

* ``block_count="max"``: as many blocks as fit in the L1 the fixed-size buffers (and what the
  Metalium lowering adds, pipe landing slots and intermediates) leave; several ``"max"`` buffers
  split that L1 equally. ``block_count="25%"``: as many blocks as fit in 25% of the core's
  available L1. Both are resolved once the whole program is known (``frontend/l1_budget.py``).
* ``shape=(1, "25%")``: one block extent given as a share of L1. It is resolved when the buffer is
  created, because kernel-scope code reads ``dfb.shape`` to size its loops: the largest extent
  that divides the tensor's extent in that dimension and with which ``block_count`` blocks fit in
  the share. One dimension at most, and the block count must then be a number.

This module parses the spellings and resolves relative shapes; it needs only the base layers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..arch import get as get_arch
from ..diagnostics import Span, error
from ..ir.types import SCALAR_UNIT, TILE_UNIT, CBDecl

_SHARE = re.compile(r"\s*(\d+(?:\.\d*)?)\s*%\s*")


@dataclass(frozen=True)
class RelativeCount:
    """``block_count="max"`` (``share`` None) or ``block_count="NN%"`` (``share`` in (0, 1])."""

    text: str
    share: float | None = None


@dataclass(frozen=True)
class Share:
    """A block extent given as a share of the core's available L1 (``"25%"``)."""

    text: str
    fraction: float


def parse_share(value: Any) -> float | None:
    """``"25%"`` -> 0.25; None if ``value`` is not a percentage in (0, 100]."""
    if not isinstance(value, str):
        return None
    found = _SHARE.fullmatch(value)
    if found is None:
        return None
    fraction = float(found.group(1)) / 100
    return fraction if 0 < fraction <= 1 else None


def parse_count(value: Any, span: Span | None) -> int | RelativeCount:
    """A block count: a positive int, ``"max"`` or a share of L1 like ``"25%"`` (else ``E0202``)."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value
    if value == "max":
        return RelativeCount("max")
    share = parse_share(value)
    if share is not None:
        return RelativeCount(value.strip(), share)
    raise error("E0202", f"block_count must be a positive integer, \"max\" or a share of L1 "
                f"such as \"25%\"; got {value!r}", span,
                hint="\"max\" takes what the other buffers leave; \"25%\" a quarter of the core's L1")


def parse_shape(shape: Any, span: Span | None) -> tuple[int | Share, ...]:
    """A block shape: positive ints, at most one of them a share of L1 like ``"25%"``."""
    if isinstance(shape, (int, str)):
        shape = (shape,)
    if not isinstance(shape, (tuple, list)) or not shape:
        raise error("E0202", f"buffer shape must be a tuple of positive integers, got {shape!r}", span)
    out: list[int | Share] = []
    for extent in shape:
        share = parse_share(extent)
        if share is not None:
            out.append(Share(extent.strip(), share))
        elif isinstance(extent, int) and not isinstance(extent, bool) and extent > 0:
            out.append(extent)
        else:
            raise error("E0202", f"buffer shape must be a tuple of positive integers (one of them may be a share "
                        f"of L1 such as \"25%\"), got {tuple(shape)!r}", span)
    if sum(isinstance(e, Share) for e in out) > 1:
        raise error("E0202", f"buffer shape {tuple(shape)!r} gives more than one extent as a share of L1", span,
                    hint="give one extent relative to L1 and the others as numbers")
    return tuple(out)


def resolve_shape(request: tuple[int | Share, ...], unit_extents: tuple[int, ...], fmt: Any, tiled: bool,
                  count: int | RelativeCount, arch: str, span: Span | None) -> tuple[int, ...]:
    """The block shape for ``request`` on ``arch``: its relative extent becomes the largest divisor of
    the tensor's extent (in shape units) with which ``count`` blocks fit in the share of L1."""
    relative = [i for i, e in enumerate(request) if isinstance(e, Share)]
    if not relative:
        return tuple(e for e in request if isinstance(e, int))
    if isinstance(count, RelativeCount):
        raise error("E0202", f"a buffer with a relative shape needs a number of blocks, not block_count="
                    f"{count.text!r}", span, hint="give block_count as an int (e.g. 2) when an extent is relative")
    dim = relative[0]
    share = request[dim]
    assert isinstance(share, Share)
    offset = len(unit_extents) - len(request)
    extent = unit_extents[dim + offset] if 0 <= dim + offset < len(unit_extents) else 1
    budget = share.fraction * get_arch(arch).l1_available
    unit = TILE_UNIT if tiled else SCALAR_UNIT
    for candidate in sorted((d for d in range(1, extent + 1) if extent % d == 0), reverse=True):
        shape = tuple(candidate if i == dim else e for i, e in enumerate(request))
        if CBDecl(0, "", shape, fmt, unit, count).total_bytes <= budget:  # type: ignore[arg-type]
            return shape  # type: ignore[return-value]
    raise error("E0401", f"no block of shape {_show(request)} fits {share.text} of L1 on {arch} "
                f"({int(budget)} B) with {count} blocks", span,
                hint="raise the share, lower block_count, or make the other extents smaller")


def describe(count: int | RelativeCount, shape: tuple[int | Share, ...]) -> str | None:
    """How a buffer was sized, for the IR and the tuner's table (None when fully explicit)."""
    parts = []
    if any(isinstance(e, Share) for e in shape):
        parts.append(f"shape={_show(shape)}")
    if isinstance(count, RelativeCount):
        parts.append(f"block_count={count.text}")
    return " ".join(parts) or None


def _show(shape: tuple[int | Share, ...]) -> str:
    return "x".join(e.text if isinstance(e, Share) else str(e) for e in shape)
