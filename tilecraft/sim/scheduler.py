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
from .deadlock import diagnose


class SimThread:
    __slots__ = ("core", "name", "kind", "gen", "blocked", "done", "code", "reserves", "waits", "steps")

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
        #: times the scheduler resumed it (a thread that moved shows it to the fast-forward controller)
        self.steps = 0

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
        """Run every thread as far as it goes; a deadlock if some cannot finish."""
        self.drain()
        self.finish()

    def drain(self) -> None:
        """Run the ready threads (and those they wake) until none can run."""
        ready = self.ready
        popleft = ready.popleft
        while ready:
            thread = popleft()
            thread.steps += 1
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

    def finish(self) -> None:
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
        return diagnose(self.threads, self.ops)


def with_thread(exc: KernelError, thread: SimThread) -> KernelError:
    d = exc.diagnostic
    note = Note(f"in {thread.describe()}")
    return KernelError(Diagnostic(d.code, d.message, d.span, (*d.notes, note), d.hint, d.severity), *exc.diagnostics[1:])

