"""Which ttnn calls run on the wheel's kernels at ``--level cpp``, and the account of what ran where.

Each :class:`KernelHost` serves one primitive (``add``, ``matmul``, ``rms_norm``, ...): ``refuse``
says why a call cannot run on its kernels (a shape, dtype, layout or argument the host does not
write a program for) or None, and ``run`` builds ttnn 0.81.1's program for the call, runs it on the
kernel emulator through ``generic_op`` and returns the result tensor (or raises ``program.Unfit``
when the program's CBs would not fit a core, which sends the call to the language level too). At
``--level cpp`` :func:`dispatch` (installed into ``primitives`` by this package) gives every device
op to its host when the host accepts it; every other call runs as at the language level (the
primitive's impl).
Either way the call is tallied: ``tilecraft run --level cpp`` prints the tally at the end
(:func:`render`), e.g. ``ttnn ops on wheel kernels: add×3, matmul×2; at language level: embedding×1
(no kernel host)``.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Optional, Sequence, Union

from tilecraft import session
from tilecraft.dtypes import DataFormat
from tilecraft.emu import wheel_kernels

from .. import trace
from ..creation import allocate_tensor_on_device
from ..layout import Layout, Shape
from ..memory import MemoryConfig
from ..tensor import Tensor
from .program import Unfit

Scalar = Union[int, float]


@dataclass(frozen=True)
class Call:
    """One device op call as its host sees it: the operands (tensors on one device, or numbers), the
    primitive's parameters, and the result the shape rule gave (shape, dtype, layout, placement)."""

    op: str
    operands: tuple[Union[Tensor, Scalar], ...]
    params: dict
    shape: Shape
    dtype: DataFormat
    layout: Layout
    memory_config: MemoryConfig

    @property
    def tensors(self) -> list[Tensor]:
        return [o for o in self.operands if isinstance(o, Tensor)]

    def output(self) -> Tensor:
        """The result's buffer on the operands' device, as the op allocates it before its program runs."""
        return allocate_tensor_on_device(self.shape, self.dtype, self.layout, self.tensors[0].device(),
                                         self.memory_config)


#: why a call cannot run on a host's kernels (None: it can)
Refusal = Callable[[Call], Optional[str]]
#: the host: builds and runs the op's program on the kernel emulator (the wheel's ``operations`` directory given)
Runner = Callable[[Path, Call], Tensor]


@dataclass(frozen=True)
class KernelHost:
    op: str
    #: the wheel kernels the host runs, in words, naming their files (docs/ttnn.md's table says the same;
    #: tests/ttnn/test_wheel_ops.py checks that each file named is in the wheel)
    kernels: str
    refuse: Refusal
    run: Runner


#: the host of each primitive, by name
HOSTS: dict[str, KernelHost] = {}


def register(host: KernelHost) -> KernelHost:
    if host.op in HOSTS:
        raise ValueError(f"ttnn.{host.op} already has a kernel host")
    HOSTS[host.op] = host
    return host


@dataclass
class Tally:
    """The ttnn ops of a run: how many ran on wheel kernels, and the others with why."""

    on_kernels: Counter = field(default_factory=Counter)
    at_language_level: Counter = field(default_factory=Counter)  # (op, reason) -> count

    def empty(self) -> bool:
        return not self.on_kernels and not self.at_language_level


_TALLIES: contextvars.ContextVar[tuple[Tally, ...]] = contextvars.ContextVar("tilecraft_wheel_op_tallies",
                                                                             default=())
#: set while a host runs: the ops a host calls itself are part of its op, not the script's
_IN_HOST: contextvars.ContextVar[bool] = contextvars.ContextVar("tilecraft_in_wheel_host", default=False)


@contextlib.contextmanager
def tallied() -> Iterator[Tally]:
    """Count the ttnn ops run in the block (blocks nest; each counts the calls made inside it)."""
    tally = Tally()
    token = _TALLIES.set(_TALLIES.get() + (tally,))
    try:
        yield tally
    finally:
        _TALLIES.reset(token)


def _count(op: str, reason: Optional[str]) -> None:
    for tally in _TALLIES.get():
        if reason is None:
            tally.on_kernels[op] += 1
        else:
            tally.at_language_level[(op, reason)] += 1


def _placement_refusal(call: Call) -> Optional[str]:
    """What no host takes: operands on the host, sharded tensors."""
    tensors = call.tensors
    if any(t.device() is None for t in tensors):
        return "an operand is on the host"
    if any(t.memory_config().is_sharded() for t in tensors) or call.memory_config.is_sharded():
        return "sharded memory"
    return None


def _operations() -> Optional[Path]:
    try:
        return wheel_kernels.operations(wheel_kernels.ensure_kernels())
    except wheel_kernels.KernelsUnavailable:
        return None


def dispatch(op: str, operands: Sequence[Union[Tensor, Scalar]], params: dict, shape: Shape, dtype: DataFormat,
             layout: Layout, memory_config: MemoryConfig) -> Optional[Tensor]:
    """At ``--level cpp``: the call's result computed by its host on the wheel's kernels, or None
    when it runs at the language level (no host, or the host refuses it; tallied with the reason).
    At other levels, and for the ops a host calls itself: None, uncounted."""
    opts = session.options()
    if opts.level != "cpp" or not opts.simulate or _IN_HOST.get():
        return None
    call = Call(op, tuple(operands), dict(params), shape, dtype, layout, memory_config)
    host = HOSTS.get(op)
    reason = "no kernel host" if host is None else _placement_refusal(call) or host.refuse(call)
    ops = _operations() if reason is None else None
    if reason is None and ops is None:
        reason = "the ttnn wheel's kernels are unavailable"
    if reason is not None:
        _count(op, reason)
        return None
    token = _IN_HOST.set(True)
    try:
        with trace.part_of_a_call():  # a capture records the op's bind, which runs the host again
            result = host.run(ops, call)
    except Unfit as unfit:
        _count(op, str(unfit))
        return None
    finally:
        _IN_HOST.reset(token)
    _count(op, None)
    return result


def render(tally: Tally) -> str:
    """The one-line account ``--level cpp`` prints: ops on wheel kernels, then the others with why."""
    kernels = ", ".join(f"{op}×{n}" for op, n in sorted(tally.on_kernels.items()))
    language = ", ".join(f"{op}×{n} ({reason})" for (op, reason), n in sorted(tally.at_language_level.items()))
    return f"ttnn ops on wheel kernels: {kernels or 'none'}; at language level: {language or 'none'}"
