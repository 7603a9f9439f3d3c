"""Marking of the stubs the front end compiles (``ttl.copy``, ``ttl.math.exp``, ``cb.wait``...).

``@intrinsic(name)`` tags a function with ``__ttl_intrinsic__`` so the front end can find its
handler by name; called as host Python, the stub raises the thread-only error unless
``host_ok`` (``ttl.grid_size`` works in kernel scope too).
"""

from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar

from . import scope

F = TypeVar("F", bound=Callable[..., Any])


def intrinsic(name: str, *, host_ok: bool = False, where: str = "a thread function") -> Callable[[F], F]:
    def mark(fn: F) -> F:
        if host_ok:
            fn.__ttl_intrinsic__ = name  # type: ignore[attr-defined]
            return fn

        @functools.wraps(fn)
        def host_call(*args: Any, **kwargs: Any) -> Any:
            raise scope.thread_only(f"ttl.{name}" if "." not in name else name, where)

        host_call.__ttl_intrinsic__ = name  # type: ignore[attr-defined]
        return host_call  # type: ignore[return-value]

    return mark


def intrinsic_name(obj: Any) -> str | None:
    return getattr(obj, "__ttl_intrinsic__", None)
