"""Blocks a thread acquires and never releases are released for it, as the published TT-Lang does.

In tt-lang-sim 1.1.6 (and its compiler's insert-push/pop rule) a buffer remembers the block a
thread last reserved and did not push, and the one it last waited for and did not pop: the
thread's next ``reserve()`` of that buffer pushes the remembered block first, its next ``wait()``
pops it first, and when the thread finishes its remembered blocks are pushed and popped. So a
loop of ``blk = dfb.wait()`` without ``pop()`` consumes one block per iteration.

This pass gives a compiled thread the same behaviour with ordinary operations, so that the
simulator, the lowering and the emitted kernels all follow it. A data-flow analysis over the
structured body finds, at every acquisition and at every end of the thread (its last statement
and each ``return``), whether the thread holds an unreleased block of that buffer and direction:
never (nothing to do), always (a ``cb.push`` / ``cb.pop`` is inserted there) or only on some
paths (a boolean register, set by every acquisition and cleared by every release, guards the
inserted release). Threads that release every block they acquire are left unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Span
from ..ir import ops as ir
from ..ir.types import BOOL, CBDecl

#: the states of one (buffer, direction) at a point of the thread
NO, YES, MAYBE = "no", "yes", "maybe"

Key = tuple[int, str]  # (buffer index, "reserve" | "wait")
State = dict[Key, str]  # keys absent: no held block; None as a whole: the point is unreachable


def _join(a: State | None, b: State | None) -> State | None:
    if a is None or b is None:
        return b if a is None else a
    return {k: a.get(k, NO) if a.get(k, NO) == b.get(k, NO) else MAYBE for k in {*a, *b}}


@dataclass
class _Loop:
    continues: State | None = None
    breaks: State | None = None


@dataclass
class _Analysis:
    """The held-block state at every decision point: before each acquisition, at each return and
    at the end of the thread (recorded by the final, stable pass over each loop)."""

    #: the buffers the rule applies to
    published: set[int]
    at: dict[int, State] = field(default_factory=dict)
    loops: list[_Loop] = field(default_factory=list)
    #: the last acquisition of each key in program order (where an end-of-thread release points)
    last_acquire: dict[Key, ir.Op] = field(default_factory=dict)

    def body(self, ops: list[ir.Op], state: State | None, record: bool) -> State | None:
        for op in ops:
            state = self.op(op, state, record)
        return state

    def op(self, op: ir.Op, state: State | None, record: bool) -> State | None:
        if state is None:
            return None
        key = _acquired(op)
        if key is not None and key[0] in self.published:
            if record:
                self.at[id(op)] = dict(state)
                self.last_acquire[key] = op
            return {**state, key: YES}
        key = _released(op)
        if key is not None and key[0] in self.published:
            return {**state, key: NO}
        if isinstance(op, ir.Return):
            if record:
                self.at[id(op)] = dict(state)
            return None
        if isinstance(op, ir.Break):
            self.loops[-1].breaks = _join(self.loops[-1].breaks, state)
            return None
        if isinstance(op, ir.Continue):
            self.loops[-1].continues = _join(self.loops[-1].continues, state)
            return None
        if isinstance(op, ir.If):
            return _join(self.body(op.then_body, state, record), self.body(op.else_body, state, record))
        if isinstance(op, (ir.For, ir.While, ir.PipeForEach)):
            return self.loop(op, state, record)
        return state

    def loop(self, op: Any, entry: State, record: bool) -> State | None:
        """A loop: the state at its head is the join of the entry and of every way back to the head,
        found by iterating to a fixed point (the lattice is tiny), then recorded once."""
        head: State | None = entry
        while True:
            loop, _after_test, end = self.iteration(op, head, record=False)
            again = _join(entry, _join(loop.continues, end))
            if again == head:
                break
            head = again
        loop, after_test, _end = self.iteration(op, head, record)
        return _join(after_test, loop.breaks)

    def iteration(self, op: Any, head: State | None, record: bool) -> tuple[_Loop, State | None, State | None]:
        """One pass over the loop from ``head``: its breaks and continues, the state once the loop
        test passed (where the loop exits when it ends normally), and the state at the body's end."""
        loop = _Loop()
        self.loops.append(loop)
        try:
            after_test = self.body(op.cond_body, head, record) if isinstance(op, ir.While) else head
            end = self.body(op.body, after_test, record)
        finally:
            self.loops.pop()
        return loop, after_test, end


def _acquired(op: ir.Op) -> Key | None:
    if isinstance(op, ir.CBReserve):
        return (op.cb.index, "reserve")
    if isinstance(op, ir.CBWait):
        return (op.cb.index, "wait")
    return None


def _released(op: ir.Op) -> Key | None:
    if isinstance(op, ir.CBPush):
        return (op.cb.index, "reserve")
    if isinstance(op, ir.CBPop):
        return (op.cb.index, "wait")
    return None


def insert_auto_releases(body: list[ir.Op], cbs: list[CBDecl], published: set[int],
                         end: Span | None) -> list[ir.Op]:
    """``body`` with the releases the published rule implies for the buffers whose indices are in
    ``published`` (dataflow buffers; seed-style circular buffers keep explicit releases, so a thread
    may hold several reserved blocks of one); ``end`` locates the thread's end."""
    analysis = _Analysis(published)
    final = analysis.body(body, {}, record=True)
    points = [*analysis.at.values(), *([final] if final is not None else [])]
    guarded = {k for state in points for k, v in state.items() if v == MAYBE}
    if not any(v != NO for state in points for v in state.values()):
        return body
    by_index = {cb.index: cb for cb in cbs}
    flags = {key: ir.Reg(f"{by_index[key[0]].name}.held_{key[1]}", BOOL) for key in sorted(guarded)}
    rewriter = _Rewriter(analysis, by_index, flags)
    out = [ir.Assign(result=flag, value=ir.Const(False), loc=end) for flag in flags.values()]
    out += rewriter.body(body)
    if final is not None:
        for key in sorted(final):
            out += rewriter.release(key, final[key], analysis.last_acquire[key].loc)
    return out


class _Rewriter:
    def __init__(self, analysis: _Analysis, cbs: dict[int, CBDecl], flags: dict[Key, ir.Reg]):
        self.analysis = analysis
        self.cbs = cbs
        self.flags = flags

    def body(self, ops: list[ir.Op]) -> list[ir.Op]:
        out: list[ir.Op] = []
        for op in ops:
            for region in op.regions():
                region[:] = self.body(region)
            state = self.analysis.at.get(id(op))
            acquired, released = _acquired(op), _released(op)
            if state is not None:  # an acquisition or a return: release what the thread still holds
                keys = [acquired] if acquired is not None else sorted(state)
                for key in keys:
                    out += self.release(key, state.get(key, NO), op.loc)
            out.append(op)
            for key in (acquired, released):
                if key is not None and key in self.flags:
                    out.append(ir.Assign(result=self.flags[key], value=ir.Const(key == acquired), loc=op.loc))
        return out

    def release(self, key: Key, state: str, loc: Span | None) -> list[ir.Op]:
        """The release of the block held for ``key``: none, one, or one guarded by its flag."""
        if state == NO:
            return []
        cb = self.cbs[key[0]]
        op = ir.CBPush(cb=cb, loc=loc) if key[1] == "reserve" else ir.CBPop(cb=cb, loc=loc)
        if state == YES:
            return [op]
        guard = ir.If(cond=self.flags[key], loc=loc)
        guard.then_body.append(op)
        return [guard]
