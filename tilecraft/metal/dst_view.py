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
on its pages, in ``UnpackToDestFp32`` mode, and the compute kernel's copies into DST read the
view: no L1, no NoC transfer and no pack for the second copy, only page counters. Each index
keeps its own counters, so the view follows the buffer call for call: whichever kernel pushes the
buffer's pages (the reader, a pipe's receiver, the compute kernel itself) then publishes the same
pages under the view (``cb_reserve_back``/``cb_push_back`` of the view: no data moves), and the
compute kernel waits for the view after the buffer and pops it with the buffer. Both read
pointers move together, page for page, and the view's pages are ready as soon as the buffer's
are, so the unpacker never waits on the packer for them (a publish by the compute kernel's own
pack thread would hold each block's unpacking until the previous block was packed).

Only a buffer the compute kernel pops gets a view (it pops the view there too); the lowering's own
buffers read both ways get two packed copies instead (``lower_compute.stage_both_ways``,
``fpu_twins``).
"""

from __future__ import annotations

from typing import Any, Callable

from ..ir import ops as ir
from . import kir
from .formats import buffer_index, float32_reads
from .optable import COPY, TO_DEST_CALLS, UNARY_BCAST, UNPACK_SOURCES

#: the inits that configure the unpacker for a copy into DST, and the position of their buffer argument
_TO_DEST_INITS = {COPY.init: 0, UNARY_BCAST[0]: 0}
#: what follows each call on a buffer for its view, in the compute kernel and in a producer's kernel
COMPUTE_STEPS = {"cb_push_back": ("cb_reserve_back", "cb_push_back"), "cb_wait_front": ("cb_wait_front",),
                 "cb_pop_front": ("cb_pop_front",)}
PRODUCER_STEPS = {"cb_push_back": ("cb_reserve_back", "cb_push_back")}


def read_both_ways(kernel: kir.Kernel, formats: dict[int, str], own: set[int]) -> list[int]:
    """The program's own Float32 buffers (of ``own``) that the compute ``kernel`` copies into DST,
    reads through SrcA/SrcB, and pops."""
    to_dest, through_src = float32_reads(kernel, formats)
    popped = {buffer_index(op.args[0]) for op in ir.walk(kernel.body)
              if isinstance(op, kir.Call) and op.fn == "cb_pop_front"}
    return sorted(to_dest & through_src & own & popped)


def read_views(kernel: kir.Kernel, views: dict[int, int], owner_of: Callable[[ir.Op, ir.Op], None]) -> None:
    """In the compute kernel: point the copies into DST of each buffer of ``views`` (buffer -> its
    view) at the view, and make the view follow the buffer's pushes, waits and pops.
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
    ids = {index: kir.BufferId(view) for index, view in views.items()}
    follow(kernel.body, lambda arg: ids.get(buffer_index(arg)), COMPUTE_STEPS, owner_of)


def follow(body: list[ir.Op], view_of: Callable[[Any], Any], steps: dict[str, tuple[str, ...]],
           owner_of: Callable[[ir.Op, ir.Op], None] = lambda new, beside: None) -> None:
    """After every call of ``steps`` on a buffer that has a view (``view_of(its buffer argument)``:
    the view's argument, or None), the calls ``steps`` names on the view, with the same page count."""
    out: list[ir.Op] = []
    for op in body:
        out.append(op)
        for region in op.regions():
            follow(region, view_of, steps, owner_of)
        if not isinstance(op, kir.Call) or op.fn not in steps:
            continue
        view = view_of(op.args[0])
        if view is None:
            continue
        for fn in steps[op.fn]:
            added = kir.Call(fn=fn, args=[view, op.args[1]], loc=op.loc)
            owner_of(added, op)
            out.append(added)
    body[:] = out
