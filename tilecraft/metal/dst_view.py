"""A second buffer index on the same pages for a Float32 buffer read both by the FPU and into DST.

The unpacker's mode is chosen per buffer index, once, at program creation
(``unpack_to_dest_mode[i]``). In ``UnpackToDestFp32`` mode a Float32 buffer reaches DST with all
32 bits, but no FPU operation can read it: the JIT then programs every unpack of that index to
write Float32, and 0.81.1's ``is_unpacker_format_conversion_supported_dest`` allows Float32 out
only into DST. In the default mode the FPU reads it as TF32, and so does a ``copy_tile``: 13
mantissa bits lost (the emulator's warning E5411). So one index cannot serve ``x`` in
``(x - rowmean(x))``: ``reduce_sum`` reads it through SrcA, the subtraction copies it into DST.

tt-metal lets one ``CircularBufferConfig`` name several indices on one set of L1 pages (matmul's
output and partials buffers share theirs so). Such a buffer here gets a second index, a *view*,
on its pages, in ``UnpackToDestFp32`` mode, and the kernel's copies into DST read the view: no L1,
no NoC traffic and no pack for the second copy, only page counters. Each index keeps its own
counters, so where the compute kernel waits for the buffer's pages it also publishes them under
the view (``cb_reserve_back``/``cb_push_back`` of the view move no data: the pages are there,
behind the wait on the buffer itself) and waits for them there, and it pops both together. The
view's read pointer then moves with the buffer's, page for page, and the buffer's producer (a
reader, a pipe, the compute kernel itself) is unchanged: it sees only the buffer's counters, and
the pages it may overwrite are the ones both indices popped.

The waits this pass pairs are those of the user's blocks (``with dfb.wait()``: one wait, then
its pop); the lowering's own buffers read both ways get two packed copies instead
(``lower_compute.stage_both_ways``, ``fpu_twins``).
"""

from __future__ import annotations

from typing import Callable

from ..ir import ops as ir
from . import kir
from .formats import buffer_index, float32_reads
from .optable import COPY, TO_DEST_CALLS, UNARY_BCAST, UNPACK_SOURCES

#: the inits that configure the unpacker for a copy into DST, and the position of their buffer argument
_TO_DEST_INITS = {COPY.init: 0, UNARY_BCAST[0]: 0}


def read_both_ways(kernel: kir.Kernel, formats: dict[int, str], own: set[int]) -> list[int]:
    """The program's own Float32 buffers (of ``own``) that ``kernel`` copies into DST and also
    reads through SrcA/SrcB."""
    to_dest, through_src = float32_reads(kernel, formats)
    return sorted(to_dest & through_src & own)


def give_views(kernel: kir.Kernel, views: dict[int, int], owner_of: Callable[[ir.Op, ir.Op], None]) -> None:
    """Point the copies into DST of each buffer of ``views`` (buffer -> its view) at the view,
    and publish and pop the view's pages wherever the kernel waits for and pops the buffer's.
    ``owner_of(new, beside)`` records each added call as emitted for what ``beside`` was."""
    for op in ir.walk(kernel.body):
        if not isinstance(op, kir.Call):
            continue
        positions = [_TO_DEST_INITS[op.fn]] if op.fn in _TO_DEST_INITS else \
            [p for p in UNPACK_SOURCES[op.fn] if p is not None] if op.fn in TO_DEST_CALLS else []
        for position in positions:
            view = views.get(buffer_index(op.args[position]))
            if view is not None:
                op.args[position] = kir.BufferId(view)
    _publish(kernel.body, views, owner_of)


def _publish(body: list[ir.Op], views: dict[int, int], owner_of: Callable[[ir.Op, ir.Op], None]) -> None:
    out: list[ir.Op] = []
    for op in body:
        out.append(op)
        for region in op.regions():
            _publish(region, views, owner_of)
        if not isinstance(op, kir.Call) or op.fn not in ("cb_wait_front", "cb_pop_front"):
            continue
        view = views.get(buffer_index(op.args[0]))
        if view is None:
            continue
        pages = op.args[1]
        steps = ("cb_reserve_back", "cb_push_back", "cb_wait_front") if op.fn == "cb_wait_front" else ("cb_pop_front",)
        for fn in steps:
            added = kir.Call(fn=fn, args=[kir.BufferId(view), pages], loc=op.loc)
            owner_of(added, op)
            out.append(added)
    body[:] = out
