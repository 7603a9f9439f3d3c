"""Architecture descriptions as data: one module per Tensix generation.

The simulator reads only the limits (L1 size, default compute grid); the cost model (perf/)
reads ``costs``. Adding a generation adds a module and an entry in ``ARCHS``; a board that
narrows a generation (fewer cores or DRAM banks) is an entry in ``BOARDS``.
"""

from __future__ import annotations

from .base import Arch
from .blackhole import BLACKHOLE, P100, P150
from .wormhole_b0 import N150, N300, WORMHOLE_B0

ARCHS: dict[str, Arch] = {a.name: a for a in (WORMHOLE_B0, BLACKHOLE)}
#: board variants of the generations (the cost model accepts these names too)
BOARDS: dict[str, Arch] = {a.board: a for a in (N150, N300, P100, P150) if a.board}


def get(name: str) -> Arch:
    try:
        return ARCHS[name]
    except KeyError:
        raise ValueError(f"unknown architecture {name!r}; known: {', '.join(ARCHS)}") from None
