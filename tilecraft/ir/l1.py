"""The compile-time L1 budget: every circular buffer of a core must fit the architecture's L1.

Checked twice with one rule: by the front end on the user's buffers, and by the lowering once
it has added its intermediate and partials buffers, so a program cannot pass the first check and
overflow L1 on the device.
"""

from __future__ import annotations

from typing import Mapping

from ..arch import get as get_arch
from ..diagnostics import Note, error
from .program import ProgramIR


def check_l1(program: ProgramIR, arch_name: str, added: Mapping[int, str] | None = None) -> None:
    """Compile-time L1 allocation: every buffer of a core must fit the architecture's L1.

    ``added`` names the buffers the lowering introduced (by buffer index) with what each holds:
    the message then splits the need into the program's own buffers and those, so that a user
    who counts only the buffers they made sees where the rest goes."""
    arch = get_arch(arch_name)
    added = added or {}
    total = sum(cb.total_bytes for cb in program.cbs)
    if total > arch.l1_available:
        notes = [Note(f"buffer '{cb.name}'{_added_note(added, cb.index)}: {cb.buffer_factor} x {cb.block_bytes} B = "
                      f"{cb.total_bytes} B (block {cb.shape}, {cb.fmt.name})", cb.span)
                 for cb in sorted(program.cbs, key=lambda c: -c.total_bytes)]
        compiler = [cb for cb in program.cbs if cb.index in added]
        split = ""
        if compiler:
            extra = sum(cb.total_bytes for cb in compiler)
            split = (f" ({total - extra} B its own buffers, {extra} B the {len(compiler)} buffer"
                     f"{'s' if len(compiler) > 1 else ''} the compiler added: "
                     f"{', '.join(repr(cb.name) for cb in compiler)})")
        raise error("E0401", f"the buffers of program '{program.name}' need {total} B of L1 per core{split} but "
                    f"{arch.name} has {arch.l1_available} B available", program.span, notes=notes,
                    hint="make blocks smaller, lower block_count, or use a narrower data format")


def _added_note(added: Mapping[int, str], index: int) -> str:
    return f", added by the compiler for {added[index]}" if index in added else ""
