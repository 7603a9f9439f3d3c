"""The compile-time L1 budget: every circular buffer of a core must fit the architecture's L1.

Checked twice with one rule: by the front end on the user's buffers, and by the lowering once
it has added its intermediate and partials buffers, so a program cannot pass the first check and
overflow L1 on the device.
"""

from __future__ import annotations

from ..arch import get as get_arch
from ..diagnostics import Note, error
from .program import ProgramIR


def check_l1(program: ProgramIR, arch_name: str) -> None:
    """Compile-time L1 allocation: every buffer of a core must fit the architecture's L1."""
    arch = get_arch(arch_name)
    total = sum(cb.total_bytes for cb in program.cbs)
    if total > arch.l1_available:
        notes = [Note(f"buffer '{cb.name}': {cb.buffer_factor} x {cb.block_bytes} B = {cb.total_bytes} B "
                      f"(block {cb.shape}, {cb.fmt.name})", cb.span)
                 for cb in sorted(program.cbs, key=lambda c: -c.total_bytes)]
        raise error("E0401", f"the buffers of program '{program.name}' need {total} B of L1 per core but "
                    f"{arch.name} has {arch.l1_available} B available", program.span, notes=notes,
                    hint="make blocks smaller, lower block_count, or use a narrower data format")
