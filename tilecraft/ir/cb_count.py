"""The circular-buffer count: every buffer of a core takes one of its ``NUM_CIRCULAR_BUFFERS``
indices (32 on Wormhole, 64 on Blackhole: ``Arch.circular_buffers``).

Checked with one rule, like the L1 budget: by the front end on the user's buffers (reported at
the first buffer beyond the count), and by the lowering once it has added its own (pipe landing
slots and flags, intermediates), which the message names. The emulator checks the indices of a
hand-written ``ProgramDescriptor`` against the same count (E5101).
"""

from __future__ import annotations

from typing import Sequence

from ..arch import get as get_arch
from ..diagnostics import error
from .program_ir import ProgramIR
from .types import CBDecl


def check_cb_count(program: ProgramIR, arch_name: str, added: Sequence[CBDecl] = ()) -> None:
    """Every buffer of ``program`` (and those the compiler ``added``) must have an index below the
    architecture's count of circular buffers per core (E0410)."""
    arch = get_arch(arch_name)
    cbs = [*program.cbs, *added]
    beyond = sorted((cb for cb in cbs if cb.index >= arch.circular_buffers), key=lambda cb: cb.index)
    if not beyond:
        return
    ours = f", {len(added)} of them added by the compiler ({', '.join(cb.name for cb in added)})" if added else ""
    first = beyond[0]
    raise error("E0410", f"program '{program.name}' needs {len(cbs)} circular buffers per core{ours}, but a "
                f"{arch.name} core has {arch.circular_buffers} (NUM_CIRCULAR_BUFFERS)",
                first.span or program.span,
                hint="merge buffers (one buffer can carry blocks of one shape and format for several uses in "
                     "turn), or split the work into programs that each need fewer")
