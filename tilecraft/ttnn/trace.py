"""Trace capture and replay: ``begin_trace_capture`` / ``end_trace_capture`` / ``execute_trace`` /
``release_trace``, as decode loops use them.

On a device, a trace records the commands the ops between begin and end enqueue, and
``execute_trace`` runs them again on whatever the same buffers then hold. The simulator records each
call instead: every ttnn op (a primitive's ``bind``), every in-place write and every kernel launch
made during the capture with a tensor on the traced device registers a replay (:func:`record`), and
``execute_trace`` runs the replays in order, each writing its results into the very tensors the
capture returned. The calls also run when they are captured, as here nothing is deferred.
"""

from __future__ import annotations

import contextlib
import contextvars
import itertools
import weakref
from typing import Callable, Iterable, Iterator, Optional

from tilecraft.diagnostics import UsageTypeError, UsageValueError

from .device import DeviceHandle
from .tensor import Tensor

Replay = Callable[[], None]

#: the replays being recorded on each device with an open capture
_OPEN: "weakref.WeakKeyDictionary[DeviceHandle, list[Replay]]" = weakref.WeakKeyDictionary()
#: the finished traces of each device, by id
_TRACES: "weakref.WeakKeyDictionary[DeviceHandle, dict[int, list[Replay]]]" = weakref.WeakKeyDictionary()
_IDS = itertools.count(1)
#: set while a recorded call runs (capturing or replaying), so that the calls inside it are not recorded again
_INSIDE: contextvars.ContextVar[bool] = contextvars.ContextVar("inside_recorded_call", default=False)


def _device(device: object, function: str) -> DeviceHandle:
    if not isinstance(device, DeviceHandle):
        raise UsageTypeError(f"ttnn.{function} takes a device or mesh device, got {device!r}")
    return device


def begin_trace_capture(device: DeviceHandle, cq_id: int = 0) -> int:
    """Start recording the ops run on ``device``; returns the trace's id."""
    if _device(device, "begin_trace_capture") in _OPEN:
        raise UsageValueError("ttnn.begin_trace_capture: a capture is already open on this device; end it first")
    _OPEN[device] = []
    trace_id = next(_IDS)
    _TRACES.setdefault(device, {})[trace_id] = _OPEN[device]
    return trace_id


def end_trace_capture(device: DeviceHandle, trace_id: int, cq_id: int = 0) -> None:
    """Stop recording; the trace can now be executed."""
    _trace(device, trace_id, "end_trace_capture")
    if _OPEN.pop(device, None) is None:
        raise UsageValueError("ttnn.end_trace_capture: no capture is open on this device")


def execute_trace(device: DeviceHandle, trace_id: int, cq_id: int = 0, blocking: bool = True) -> None:
    """Run the recorded calls again, in order, on what their input tensors hold now."""
    steps = _trace(device, trace_id, "execute_trace")
    if device in _OPEN:
        raise UsageValueError("ttnn.execute_trace: the capture is still open; call ttnn.end_trace_capture first")
    with _inside():
        for replay in steps:
            replay()


def release_trace(device: DeviceHandle, trace_id: int) -> None:
    """Forget the trace."""
    _trace(device, trace_id, "release_trace")
    del _TRACES[device][trace_id]


def _trace(device: object, trace_id: object, function: str) -> list[Replay]:
    traces = _TRACES.get(_device(device, function), {})
    if trace_id not in traces:
        raise UsageValueError(f"ttnn.{function}: {trace_id!r} is not a trace of this device (released, or never "
                              "captured with ttnn.begin_trace_capture)")
    return traces[trace_id]


@contextlib.contextmanager
def _inside() -> Iterator[None]:
    token = _INSIDE.set(True)
    try:
        yield
    finally:
        _INSIDE.reset(token)


def part_of_a_call() -> contextlib.AbstractContextManager[None]:
    """A block that is part of one call a capture records as a whole (a ttnn op's kernel host): the
    calls made inside it are not recorded again one by one."""
    return _inside()


def recording(values: Iterable[object]) -> Optional[list[Replay]]:
    """The open capture a call on ``values`` (its arguments) belongs to: the one on the device of its
    first tensor argument; None when there is none, or inside a recorded call."""
    if not _OPEN or _INSIDE.get():
        return None
    first = next((v for v in values if isinstance(v, Tensor)), None)
    return None if first is None or first.device() is None else _OPEN.get(first.device())


@contextlib.contextmanager
def recorded(values: Iterable[object], replay: Replay) -> Iterator[None]:
    """Run the block (the call itself); when it belongs to an open capture, ``replay`` is recorded and
    the calls the block makes are not recorded separately."""
    capture = recording(values)
    if capture is None:
        yield
        return
    with _inside():
        yield
    capture.append(replay)


def traced(function: Callable[..., object]) -> Callable[..., object]:
    """Decorate a function that writes into tensors it is given (an in-place op, a cache write, a
    kernel launch), so that a capture records it as a call to run again."""
    def call(*args: object, **kwargs: object) -> object:
        values = (*args, *kwargs.values())
        flat = [v for value in values for v in (value if isinstance(value, (list, tuple)) else (value,))]
        with recorded(flat, lambda: function(*args, **kwargs)):
            return function(*args, **kwargs)
    call.__name__, call.__qualname__, call.__doc__ = function.__name__, function.__qualname__, function.__doc__
    call.__wrapped__ = function  # type: ignore[attr-defined]
    return call
