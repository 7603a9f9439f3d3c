"""Build the ProgramIR of kernel calls without simulating them (for estimates of real sizes).

Why: the timing engine needs only the program, and the program depends only on the tensors'
shapes and formats, so the tests, the benchmarks and a future autotuner call kernels inside
:func:`programs` and estimate what was launched, at any problem size.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from .. import session
from ..ir.program_ir import ProgramIR


@contextmanager
def programs(arch: str = "wormhole_b0", grid: tuple[int, ...] | None = None) -> Iterator[list[ProgramIR]]:
    """Collect every program launched in the block; none of them is simulated."""
    launched: list[ProgramIR] = []
    with session.using(arch=arch, grid=grid, simulate=False, program_hooks=[launched.append]):
        yield launched
