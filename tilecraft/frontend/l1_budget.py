"""Resolve relative block counts (``block_count="max"`` / ``"25%"``) once the program is known.

Why here and not where the buffer is made: ``"max"`` means "what the other buffers leave", so it
needs every buffer of the program, and the L1 the Metalium lowering adds on top of the user's
buffers (pipe landing slots, intermediates of block expressions). That last figure comes from
the lowering, a later layer: the driver registers the one function that computes a program's L1
need (``metal.lower.program_l1_need``) with :func:`set_program_l1_need` at import (dependency
inversion, as it sets the kernel launcher), so an emitted "max" program fits L1 as well.

Rules (docs/language.md section 4.2): a ``"NN%"`` buffer gets ``floor(NN% x available / block
bytes)`` blocks; the ``"max"`` buffers split what the fixed-size buffers, the shares and the
lowering's own buffers leave equally (by bytes). A relative buffer that gets no block is ``E0401``.
"""

from __future__ import annotations

from typing import Callable

from ..arch import get as get_arch
from ..diagnostics import Note, error
from ..ir.l1 import L1Need, l1_need
from ..ir.program_ir import ProgramIR
from ..ir.types import CBDecl
from ..lang.sizing import RelativeCount

L1NeedOf = Callable[[ProgramIR, str], L1Need]


def _own_buffers(program: ProgramIR, arch: str) -> L1Need:
    return l1_need(program, arch, lowered=False)


_program_l1_need: L1NeedOf = _own_buffers


def set_program_l1_need(need_of: L1NeedOf) -> None:
    """Register the function that gives a program's L1 need with the buffers the Metalium lowering
    adds: the driver registers ``metal.lower.program_l1_need`` once, at import of tilecraft. Until
    then a program's need is its own buffers."""
    global _program_l1_need
    _program_l1_need = need_of


def program_l1_need(program: ProgramIR, arch: str) -> L1Need:
    """A program's L1 need, by the registered function (:func:`set_program_l1_need`)."""
    return _program_l1_need(program, arch)


def resolve_block_counts(program: ProgramIR, requests: dict[int, RelativeCount], arch_name: str) -> None:
    """Set ``buffer_factor`` of every buffer whose count is relative (``requests``: by buffer index).

    The program's relative buffers hold one provisional block while the lowering is asked what it
    adds (its buffers depend on block shapes, not counts).
    """
    if not requests:
        return
    arch = get_arch(arch_name)
    by_index = {cb.index: cb for cb in program.cbs}
    for index in requests:
        by_index[index].buffer_factor = 1
    shares = {i: r for i, r in requests.items() if r.share is not None}
    for index, request in shares.items():
        cb = by_index[index]
        share_bytes = int(request.share * arch.l1_available)  # type: ignore[operator]
        cb.buffer_factor = share_bytes // cb.block_bytes
        _need_one(program, cb, request, arch_name, f"{request.text} of L1 is {share_bytes} B")
    maxed = [by_index[i] for i, r in requests.items() if r.share is None]
    if not maxed:
        return
    used = sum(cb.total_bytes for cb in program.cbs if cb.index not in requests or cb.index in shares)
    internal = program_l1_need(program, arch_name).added_bytes
    left = arch.l1_available - used - internal
    each = max(0, left) // len(maxed)
    for cb in maxed:
        cb.buffer_factor = each // cb.block_bytes
        split = f", split between {len(maxed)} \"max\" buffers" if len(maxed) > 1 else ""
        _need_one(program, cb, requests[cb.index], arch_name, f"the other buffers use {used} B and the Metalium "
                  f"lowering adds {internal} B of {arch.l1_available} B{split}")


def _need_one(program: ProgramIR, cb: CBDecl, request: RelativeCount, arch: str, why: str) -> None:
    if cb.buffer_factor >= 1:
        return
    raise error("E0401", f"buffer '{cb.name}' (block_count={request.text!r}) has room for no block of "
                f"{cb.block_bytes} B on {arch}: {why}", cb.span,
                notes=[Note(f"buffer '{other.name}': {other.total_bytes} B", other.span)
                       for other in program.cbs if other is not cb and other.buffer_factor >= 1],
                hint="make blocks smaller, give the other buffers fewer blocks, or a larger share")
