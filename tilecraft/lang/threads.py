"""Thread decorators: ``@ttl.compute()`` and ``@ttl.datamovement()``.

A decorated function is not run: it is recorded (with its closure, which holds the kernel-scope
values it captures) and compiled by the front end when the program launches. Defining it inside
a kernel registers it (the TT-Lang 1.1 style); the seed style passes it to ``ttl.Program``.
"""

from __future__ import annotations

from typing import Any, Callable

from . import scope
from ..diagnostics import error
from ..ir.program_ir import COMPUTE, DATAMOVEMENT, ThreadKind


class ThreadDef:
    def __init__(self, fn: Callable[[], None], kind: ThreadKind):
        if not callable(fn) or not hasattr(fn, "__code__"):
            raise error("E0204", f"@ttl.{kind}() must decorate a function", scope.caller_span(3))
        self.fn = fn
        self.kind = kind
        self.name = fn.__name__
        sc = scope.current()
        if sc is not None:
            sc.threads.append(self)

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        raise scope.thread_only(f"thread function {self.name}()", "a program: pass it to ttl.Program")

    def __repr__(self) -> str:
        return f"<{self.kind} thread {self.name}>"


def compute(**_options: Any) -> Callable[[Callable[[], None]], ThreadDef]:
    """Mark a compute thread (runs on the three compute RISC-Vs: unpack, math, pack)."""
    return lambda fn: ThreadDef(fn, COMPUTE)


def datamovement(**_options: Any) -> Callable[[Callable[[], None]], ThreadDef]:
    """Mark a data-movement thread (RISCV_0 / RISCV_1, the NoC readers and writers)."""
    return lambda fn: ThreadDef(fn, DATAMOVEMENT)
