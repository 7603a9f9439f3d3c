"""Semaphores: a 32-bit value per core, changed locally or remotely, waited on locally."""

from __future__ import annotations

from typing import Any

from . import scope
from ..diagnostics import error
from ..ir.grid import range_bounds


class Semaphore:
    """``ttl.Semaphore(initial=0)``; its methods are compiled inside data-movement threads."""

    def __init__(self, initial: int = 0, *, name: str | None = None):
        sc = scope.require_scope("ttl.Semaphore")
        if not isinstance(initial, int) or not 0 <= initial < 2**32:
            raise error("E0202", f"semaphore initial value must be a 32-bit unsigned integer, got {initial!r}",
                        scope.caller_span(2))
        self.initial = initial
        self.index = len(sc.semaphores)
        self.span = scope.caller_span(2)
        self.name = name or scope.assigned_name(self.span, f"sem{self.index}")
        sc.semaphores.append(self)

    def get_remote(self, core: Any) -> "UnicastRemoteSemaphore":
        """The semaphore of another core, for ``inc``/``set`` (kernel or thread scope)."""
        return UnicastRemoteSemaphore(self, core)

    def get_remote_multicast(self, range: Any = None) -> "MulticastRemoteSemaphore":  # noqa: A002
        """The semaphores of a core range (whole grid when None), for ``set``."""
        return MulticastRemoteSemaphore(self, range)

    def wait_eq(self, value: int) -> None:
        raise scope.thread_only("Semaphore.wait_eq()", "a data movement thread")

    wait_ge = wait_for = wait_for_min = set = wait_eq

    def __repr__(self) -> str:
        return f"Semaphore({self.name}, initial={self.initial})"


def _check_core(core: Any, grid: tuple[int, ...]) -> None:
    """A constant core coordinate given in kernel scope must name a core of the grid."""
    coord = core if isinstance(core, (tuple, list)) else (core,)
    if not all(isinstance(c, int) and not isinstance(c, bool) for c in coord):
        return  # runtime values (a thread's get_remote) are checked when the program runs
    if len(coord) != len(grid):
        raise error("E0203", f"a core coordinate needs {len(grid)} integers to match the grid {grid}, "
                    f"got {tuple(coord)}", scope.caller_span(3))
    if not all(0 <= c < g for c, g in zip(coord, grid)):
        raise error("E0203", f"core {tuple(coord)} is outside the grid {grid}", scope.caller_span(3))


class UnicastRemoteSemaphore:
    """``sem.get_remote(core)``: the semaphore of one other core; ``inc``/``set`` it in a data movement thread."""

    def __init__(self, sem: Semaphore, core: Any):
        sc = scope.current()
        if sc is not None:
            _check_core(core, sc.grid)
        self.sem = sem
        self.core = core

    def inc(self, value: int = 1) -> None:
        raise scope.thread_only("UnicastRemoteSemaphore.inc()", "a data movement thread")

    set = inc


class MulticastRemoteSemaphore:
    """``sem.get_remote_multicast(range)``: the semaphores of a core range; ``set`` them in a data movement thread."""

    def __init__(self, sem: Semaphore, cores: Any):
        sc = scope.current()
        if sc is not None and cores is not None:
            try:
                range_bounds(cores, sc.grid)
            except ValueError as exc:
                raise error("E0203", str(exc), scope.caller_span(3)) from None
        self.sem = sem
        self.cores = cores

    def set(self, value: int) -> None:
        raise scope.thread_only("MulticastRemoteSemaphore.set()", "a data movement thread")
