"""Run every thread of every core until it blocks; diagnose deadlocks with every blocked thread.

Threads talk only through buffers, pipes and semaphores, so the result does not depend on the
interleaving (a Kahn process network); the scheduler is free to run each thread as far as it
can. The queue order is fixed, so runs are deterministic. When no thread can run and some have
not finished, the program is deadlocked: the diagnosis names each blocked thread, the
operation it waits in and its source line, and says which kind of deadlock it is.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from ..diagnostics import Diagnostic, KernelError, Note, Span, error
from ..ir import ops as ir
from .state import CBState, PipeSlot, SemState


class SimThread:
    __slots__ = ("core", "name", "kind", "gen", "blocked", "done", "code", "reserves", "waits")

    def __init__(self, core: tuple[int, ...], name: str, kind: str, gen: Any, code: Any,
                 reserves: set[int], waits: set[int]):
        self.core = core
        self.name = name
        self.kind = kind
        self.gen = gen
        self.code = code
        self.blocked: tuple[Any, int] | None = None
        self.done = False
        self.reserves = reserves
        self.waits = waits

    def describe(self) -> str:
        return f"core {self.core} {self.kind} thread '{self.name}'"


class Scheduler:
    def __init__(self, ops: list[ir.Op]):
        self.ready: deque[SimThread] = deque()
        self.threads: list[SimThread] = []
        self.ops = ops

    def add(self, thread: SimThread) -> None:
        self.threads.append(thread)
        self.ready.append(thread)

    def run(self) -> None:
        ready = self.ready
        popleft = ready.popleft
        while ready:
            thread = popleft()
            thread.blocked = None
            try:
                waitable, op = next(thread.gen)
            except StopIteration:
                thread.done = True
                continue
            except KernelError as exc:
                raise with_thread(exc, thread) from None
            except Exception as exc:  # noqa: BLE001 - a Python error inside kernel code (e.g. x // 0)
                raise self.python_error(thread, exc) from None
            thread.blocked = (waitable, op)
            waitable.waiters.append(thread)
        if not all(t.done for t in self.threads):
            raise self.deadlock()

    # ---------------------------------------------------------------- diagnostics
    def span(self, op: int) -> Span | None:
        return self.ops[op].loc

    def python_error(self, thread: SimThread, exc: Exception) -> KernelError:
        tb = exc.__traceback__
        op = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == thread.code.filename:
                op = thread.code.line_ops.get(tb.tb_lineno, op)
            tb = tb.tb_next
        span = self.span(op) if op is not None else None
        return error("E1199", f"{type(exc).__name__} in {thread.describe()}: {exc}", span,
                     hint="integer arithmetic in threads follows Python's rules")

    def deadlock(self) -> KernelError:
        blocked = [t for t in self.threads if not t.done]
        notes = [Note(f"{t.describe()} waits in {self.waiting_what(t)}", self.span(t.blocked[1]))
                 for t in blocked]
        by_core: dict[tuple[int, ...], list[SimThread]] = {}
        for t in self.threads:
            by_core.setdefault(t.core, []).append(t)
        for t in blocked:
            waitable, op = t.blocked
            if isinstance(waitable, PipeSlot):
                diag = self.pipe_diagnosis(t, waitable, op, by_core, notes)
                if diag is not None:
                    return diag
        for t in blocked:
            waitable, op = t.blocked
            if isinstance(waitable, SemState) and all(o.done or isinstance(o.blocked[0], SemState)
                                                      for o in self.threads if o is not t):
                sem_op = self.ops[op]
                target = _operand_value(t, sem_op.value)
                return error("E2113", f"semaphore wait can never be satisfied: {t.describe()} waits for "
                             f"'{sem_op.sem.name}' {'==' if sem_op.cond == 'eq' else '>='} {target}, "
                             f"but its value stays {waitable.value} and no running thread can change it",
                             self.span(op), notes=notes, hint="check the number of inc()/set() calls "
                             "that reach this core against the value waited for")
        for t in blocked:
            waitable, op = t.blocked
            if isinstance(waitable, CBState):
                diag = self.starvation(t, waitable, op, by_core[t.core], notes)
                if diag is not None:
                    return diag
        first = blocked[0]
        hint = "each thread waits for another one: check that producers and consumers acquire " \
               "buffers in the same order and the same number of times"
        for t in blocked:
            waitable, op = t.blocked
            if isinstance(waitable, CBState) and isinstance(self.ops[op], ir.CBReserve) \
                    and waitable.nres - waitable.npush == waitable.capacity:
                hint = (f"'{waitable.decl.name}' holds {waitable.capacity} blocks (buffer_factor) and "
                        f"{t.describe()} reserves more before pushing: raise buffer_factor or push earlier")
        what = "threads wait for each other" if len(blocked) > 1 else "thread waits for itself"
        return error("E2110", f"deadlock: {len(blocked)} {what}", self.span(first.blocked[1]),
                     notes=notes, hint=hint)

    def waiting_what(self, t: SimThread) -> str:
        waitable, op = t.blocked
        name = self.ops[op].name
        if isinstance(waitable, CBState):
            return f"{name} on buffer '{waitable.decl.name}'"
        if isinstance(waitable, SemState):
            return f"{name} on semaphore '{waitable.decl.name}' (value {waitable.value})"
        if isinstance(waitable, PipeSlot):
            return f"{name} on {waitable.pipe.decl}"
        return name

    def starvation(self, t: SimThread, cb: CBState, op: int, core_threads: list[SimThread],
                   notes: list[Note]) -> KernelError | None:
        waiting_data = isinstance(self.ops[op], ir.CBWait)
        partners = [o for o in core_threads if (cb.decl.index in (o.reserves if waiting_data else o.waits))]
        if partners and not all(o.done for o in partners):
            return None
        if waiting_data:
            msg = (f"deadlock: {t.describe()} waits for a block of '{cb.decl.name}' that no thread will push "
                   f"({'its producers have finished' if partners else 'no thread reserves this buffer'})")
            hint = "the consumer waits more times than the producer pushes: make the loop counts agree"
        else:
            msg = (f"deadlock: {t.describe()} waits for free space in '{cb.decl.name}' that no thread will "
                   f"pop ({'its consumers have finished' if partners else 'no thread waits on this buffer'})")
            hint = "the producer pushes more blocks than the consumer pops: make the loop counts agree"
        return error("E2111", msg, self.span(op), notes=notes, hint=hint)

    def pipe_diagnosis(self, t: SimThread, slot: PipeSlot, op: int, by_core: dict, notes: list[Note]) -> KernelError | None:
        pipe = slot.pipe.decl
        if slot.vid < 0:  # an empty landing slot: the blocked thread is a receiver
            peers = [o for o in by_core.get(pipe.src, []) if o.kind == "datamovement"]
            role = "sends into"
        else:
            peers = [o for d in pipe.dsts for o in by_core.get(d, []) if o.kind == "datamovement"]
            role = "receives from"
        if all(o.done for o in peers):
            return error("E2112", f"pipe copy with no matching counterpart: {t.describe()} waits on {pipe} "
                         f"but no thread {role} it any more", self.span(op), notes=notes,
                         hint="every ttl.copy(blk, pipe) on the source core needs one ttl.copy(pipe, blk) "
                              "on each destination core")
        return None


def _operand_value(thread: SimThread, operand: Any) -> Any:
    """The value of an operand in a blocked thread (a constant, or the register in its frame)."""
    if isinstance(operand, ir.Const):
        return operand.value
    frame = thread.gen.gi_frame
    name = "v_" + "".join(c if c.isalnum() or c == "_" else "_" for c in operand.name)
    return frame.f_locals.get(name, operand) if frame is not None else operand


def with_thread(exc: KernelError, thread: SimThread) -> KernelError:
    d = exc.diagnostic
    note = Note(f"in {thread.describe()}")
    return KernelError(Diagnostic(d.code, d.message, d.span, (*d.notes, note), d.hint, d.severity), *exc.diagnostics[1:])

