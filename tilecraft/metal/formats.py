"""Data formats through a compute kernel: the start-up configuration and the reconfigs.

The unpacker's SrcA and SrcB and the packer each hold one data format at a time, set by
``compute_kernel_hw_startup`` and changed only by the ``reconfig_data_format*`` calls (the
``*_init`` calls of 0.81.1 leave them alone). An unpack through a register configured for
another format misreads the tiles; a pack writes tiles of the configured format, so a Float32
pack into a bfloat16 buffer writes 4096-byte tiles into 2048-byte pages.

``configure_formats`` runs after lowering. It chooses the start-up buffers from the first
unpack and the first pack of the kernel (in matmul's order, ``SrcOrder::Reverse``, when the
first unpack is a matmul), then follows the three formats through the body (a forward analysis
over the structured control flow, as ``passes.prune_redundant_inits`` does for inits) and inserts
a reconfig wherever a call needs a format that is not the one in force. A loop whose body leaves
a register in the format it first needs gets that reconfig once, before the loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..ir import ops as ir
from . import kir
from .optable import (COMPUTE_PREFIX, PACK, RECONFIG_BOTH, RECONFIG_PACK, RECONFIG_SRCA, RECONFIG_SRCB, SWAPPED_REDUCE,
                      TO_DEST_CALLS, UNPACK_SOURCES)

#: the format of a register on paths that disagree (or of a buffer the pass cannot name)
UNKNOWN = "<unknown>"
#: marks an unpack configuration that writes Float32 into DST (``UnpackToDestFp32``)
TO_DEST = "(unpacked to DST)"
SRCA, SRCB, PACKER = 0, 1, 2
_RECONFIG = {SRCA: RECONFIG_SRCA, SRCB: RECONFIG_SRCB, PACKER: RECONFIG_PACK}

State = tuple[str, str, str]


@dataclass(frozen=True)
class Need:
    """One register a call needs in a buffer's format."""

    register: int
    cb: Any  # the call's argument naming the buffer (a Const index, or a named register)
    fmt: str


def unpack_to_dest_buffers(kernel: kir.Kernel, formats: dict[int, str]) -> set[int]:
    """The Float32 buffers that only ``copy_tile``/``unary_bcast`` read: unpacked straight into
    DST (``UnpackToDestFp32``) they keep all 32 bits; through SrcA/SrcB they would be TF32."""
    to_dest, through_src = float32_reads(kernel, formats)
    return to_dest - through_src


def float32_reads(kernel: kir.Kernel, formats: dict[int, str]) -> tuple[set[int], set[int]]:
    """The Float32 buffers ``kernel`` copies into DST, and those it reads through SrcA/SrcB."""
    to_dest: set[int] = set()
    through_src: set[int] = set()
    for op in ir.walk(kernel.body):
        if not isinstance(op, kir.Call) or op.fn not in UNPACK_SOURCES:
            continue
        for position in UNPACK_SOURCES[op.fn]:
            index = buffer_index(op.args[position]) if position is not None else None
            if index is not None and formats.get(index) == "Float32":
                (to_dest if op.fn in TO_DEST_CALLS else through_src).add(index)
    return to_dest, through_src


def configure_formats(kernel: kir.Kernel, formats: dict[int, str], to_dest: set[int]) -> int:
    """Set the start-up buffers and insert the reconfigs ``kernel`` needs; returns how many."""
    analysis = _Formats(formats, to_dest)
    startup = next((op for op in kernel.body if isinstance(op, kir.Call) and op.fn == "compute_kernel_hw_startup"),
                   None)
    if startup is None:
        return 0
    first = analysis.first_needs(kernel.body)
    fallback = next(iter(first.values()), None)
    if fallback is None:
        return 0
    a, b, out = (first.get(r, fallback) for r in (SRCA, SRCB, PACKER))
    first_call = next((op for op in ir.walk(kernel.body) if isinstance(op, kir.Call) and op.fn in UNPACK_SOURCES), None)
    reverse = first_call is not None and _is_reversed(first_call.fn)
    startup.args = [b.cb, a.cb, out.cb] if reverse else [a.cb, b.cb, out.cb]
    startup.template = ("SrcOrder::Reverse",) if reverse else ()
    state = (a.fmt, b.fmt, out.fmt)
    analysis.visit(kernel.body, state, insert=True)
    if analysis.inserted:
        kernel.includes.add(COMPUTE_PREFIX + "reconfig_data_format.h")
    return analysis.inserted


def _is_reversed(fn: str) -> bool:
    a, b = UNPACK_SOURCES[fn]
    return a is not None and b is not None and a > b


def buffer_index(arg: Any) -> int | None:
    """The buffer id a call argument holds while it is a constant (before ``bind_buffer_ids``)."""
    return arg.value if isinstance(arg, ir.Const) and isinstance(arg.value, int) else None


class _Formats:
    def __init__(self, formats: dict[int, str], to_dest: set[int]):
        self.formats = formats
        self.to_dest = to_dest
        self.inserted = 0

    def fmt(self, arg: Any) -> str:
        index = buffer_index(arg)
        return self.formats.get(index, UNKNOWN) if index is not None else UNKNOWN

    def unpack_fmt(self, arg: Any) -> str:
        """What the unpacker is programmed with for a buffer: its L1 format and the format it
        writes (the JIT's ``unpack_dst_format``). A Float32 buffer in ``UnpackToDestFp32`` mode
        unpacks to Float32 (into DST only); another Float32 buffer to TF32 (SrcA/SrcB): one
        L1 format, two configurations, so going from one to the other is a reconfig too (an
        unpack into SrcA still configured for Float32 output is not defined)."""
        fmt = self.fmt(arg)
        return f"{fmt} {TO_DEST}" if fmt != UNKNOWN and buffer_index(arg) in self.to_dest else fmt

    def needs(self, op: ir.Op) -> list[Need]:
        """The registers ``op`` reads or writes, each with the format it must hold."""
        if not isinstance(op, kir.Call):
            return []
        if op.fn == PACK[0]:
            cb = op.args[PACK[1]]
            return [Need(PACKER, cb, self.fmt(cb))]
        sources = UNPACK_SOURCES.get(op.fn)
        if sources is None:
            return []
        a, b = sources
        if op.fn == "reduce_tile" and tuple(op.template[:2]) == SWAPPED_REDUCE:
            a, b = b, a
        if op.fn == "unary_bcast" and buffer_index(op.args[0]) in self.to_dest:
            a, b = 0, None
        return [Need(register, op.args[position], self.unpack_fmt(op.args[position]))
                for register, position in ((SRCA, a), (SRCB, b)) if position is not None]

    def first_needs(self, body: list[ir.Op]) -> dict[int, Need]:
        """The first need of each register in program order (nested bodies included)."""
        found: dict[int, Need] = {}
        for op in ir.walk(body):
            for need in self.needs(op):
                found.setdefault(need.register, need)
        return found

    def visit(self, body: list[ir.Op], state: State, insert: bool) -> State:
        """The formats after ``body`` entered with ``state``; with ``insert``, adds the reconfigs."""
        out: list[ir.Op] = []
        for op in body:
            if isinstance(op, ir.If):
                then = self.visit(op.then_body, state, insert)
                other = self.visit(op.else_body, state, insert)
                state = _merge(then, other)
            elif isinstance(op, (ir.For, ir.While)):
                state = self.visit_loop(op, state, out, insert)
            else:
                needs = [n for n in self.needs(op) if n.fmt == UNKNOWN or state[n.register] != n.fmt]
                if needs and insert:
                    _before_inits(out, self.reconfig(needs, op))
                for need in self.needs(op):
                    state = _set(state, need.register, need.fmt)
            out.append(op)
        if insert:
            body[:] = out
        return state

    def visit_loop(self, op: ir.Op, state: State, out: list[ir.Op], insert: bool) -> State:
        regions = _loop_regions(op)
        first = self.first_needs([o for region in regions for o in region])
        for register, need in first.items():  # hoist: set it once where the body keeps it
            if need.fmt == UNKNOWN or state[register] == need.fmt:
                continue
            trial = _set(state, register, need.fmt)
            if self.run(regions, trial, False)[register] == need.fmt:
                if insert:
                    _before_inits(out, self.reconfig([need], op))
                state = trial
        head = state
        for _ in range(4):  # the head state: what holds before the first and every next iteration
            end = self.run(regions, head, False)
            merged = _merge(head, end)
            if merged == head:
                break
            head = merged
        end = self.run(regions, head, insert)
        return _merge(head, end)

    def run(self, regions: list[list[ir.Op]], state: State, insert: bool) -> State:
        for region in regions:
            state = self.visit(region, state, insert)
        return state

    def reconfig(self, needs: list[Need], before: ir.Op) -> kir.Call:
        self.inserted += 1
        registers = {n.register: n for n in needs}
        if PACKER in registers:
            return kir.Call(fn=RECONFIG_PACK, args=[registers[PACKER].cb], loc=before.loc)
        if len(registers) == 2:
            reverse = isinstance(before, kir.Call) and before.fn in UNPACK_SOURCES and _is_reversed(before.fn)
            a, b = registers[SRCA].cb, registers[SRCB].cb
            return kir.Call(fn=RECONFIG_BOTH, args=[b, a] if reverse else [a, b],
                            template=("SrcOrder::Reverse",) if reverse else (), loc=before.loc)
        (register, need), = registers.items()
        return kir.Call(fn=_RECONFIG[register], args=[need.cb], loc=before.loc)


def _before_inits(out: list[ir.Op], reconfig: kir.Call) -> None:
    """Append ``reconfig`` before the unpack/math inits (and comments) that end ``out``: formats
    first, then the init that programs the unpacker for them, as tt-metal's *_with_dt helpers do."""
    at = len(out)
    while at and (isinstance(out[at - 1], kir.Comment) or (
            isinstance(out[at - 1], kir.Call) and out[at - 1].fn.endswith("_init")
            and not out[at - 1].fn.endswith("_tile_init"))):
        at -= 1
    out.insert(at, reconfig)


def _loop_regions(op: ir.Op) -> list[list[ir.Op]]:
    return [op.cond_body, op.body] if isinstance(op, ir.While) else [op.body]


def _set(state: State, register: int, fmt: str) -> State:
    return tuple(fmt if r == register else s for r, s in enumerate(state))  # type: ignore[return-value]


def _merge(a: State, b: State) -> State:
    return tuple(x if x == y else UNKNOWN for x, y in zip(a, b))  # type: ignore[return-value]
