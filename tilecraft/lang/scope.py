"""The kernel scope being executed: where buffers, pipes, semaphores and threads register.

A kernel function's body is ordinary host Python. It runs once per core (``ttl.core()`` in
kernel scope is that core's coordinates), and objects are matched across the per-core runs by
creation order, which is how a value that differs between cores becomes a runtime argument.
"""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import KernelError, Span, error, frame_span, is_tilecraft_module

_state = threading.local()


@dataclass
class KernelScope:
    grid: tuple[int, ...]
    core: tuple[int, ...]
    #: the architecture the program is built for (relative buffer sizes are resolved against its L1)
    arch: str = "wormhole_b0"
    buffers: list[Any] = field(default_factory=list)
    pipes: list[Any] = field(default_factory=list)
    pipenets: list[Any] = field(default_factory=list)
    semaphores: list[Any] = field(default_factory=list)
    threads: list[Any] = field(default_factory=list)
    #: set when kernel-scope code asked for the core: the body must then run on every core
    used_core: bool = False
    #: the seed style's ``ttl.Program(...)(*tensors)`` call, once made
    program: Any = None


def current() -> KernelScope | None:
    return getattr(_state, "scope", None)


def enter(scope: KernelScope) -> None:
    _state.scope = scope


def leave() -> None:
    _state.scope = None


def caller_span(depth: int = 2) -> Span | None:
    """Span of the user code that called the public function ``depth`` frames up (the first
    frame outside tilecraft from there)."""
    frame = sys._getframe(depth)
    while frame is not None and is_tilecraft_module(frame.f_globals.get("__name__", "")):
        frame = frame.f_back
    return None if frame is None else frame_span(frame.f_code, frame.f_lineno, frame.f_lasti)


def assigned_name(span: Span | None, default: str) -> str:
    """The variable a kernel-scope object is assigned to (``in_cb = ttl.make_...``), for messages."""
    if span is not None:
        import linecache
        import re
        found = re.match(r"\s*([A-Za-z_]\w*)\s*=[^=]", linecache.getline(span.file, span.line))
        if found:
            return found.group(1)
    return default


def require_scope(what: str) -> KernelScope:
    scope = current()
    if scope is None:
        raise error("E0301", f"{what} can only be used inside a kernel function",
                    caller_span(3), hint="call it in the body of a @ttl.kernel / @ttl.operation function")
    return scope


def thread_only(what: str, where: str = "a thread function") -> KernelError:
    """The error for a thread-level operation called as plain host Python."""
    return error("E0302", f"{what} can only be used inside {where}", caller_span(3),
                 hint="thread functions (@ttl.compute / @ttl.datamovement) are compiled; "
                      "this call runs as host Python")
