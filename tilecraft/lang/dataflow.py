"""``ttl.copy`` and other data-movement statements (compiled inside threads)."""

from __future__ import annotations

from typing import Any

from .intrinsic import intrinsic


@intrinsic("copy", where="a data movement thread")
def copy(src: Any, dst: Any) -> Any:
    """Start a copy between a tensor slice, a block or a pipe; returns a transfer handle."""


@intrinsic("signpost")
def signpost(label: str) -> None:
    """Mark a point in a thread (shown by the profiler and in traces)."""


@intrinsic("GroupTransfer", where="a data movement thread")
def GroupTransfer() -> Any:  # noqa: N802 - the published TT-Lang name
    """A group of transfer handles: ``g.add(ttl.copy(...))`` ..., then ``g.wait_all()``."""
