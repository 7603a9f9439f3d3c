"""The session: the options in force and the hooks called on each launched program.

Why a context variable and not module globals: a kernel call in user code cannot take tilecraft's
options as arguments (the program is the user's, unchanged), so they travel with the calling
context instead. ``with session.using(...)`` derives a session from the current one for the
length of a block and restores the previous one on the way out, even on error, and threads or
asyncio tasks started inside see their own copy. The CLI, ``perf.capture``, the profiler and the
tests all set options and hooks this way; nothing saves and restores module state by hand.
"""

from __future__ import annotations

import dataclasses
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from .options import RunOptions

#: called with each program before it runs (``tilecraft show-ir`` prints them, the profiler times them)
ProgramHook = Callable[[Any], None]
#: called with each program's one lowering (``metal.lowered.LoweredProgram``: lowered on first use,
#: shared with the launch) after the program hooks, before it runs (``emit`` writes its files,
#: ``profile --level metal`` times its kernels)
LoweringHook = Callable[[Any], None]
#: called with each program and its tensors after it ran (tests compare simulation levels)
ResultHook = Callable[[Any, list], None]
#: called with each kernel-level program (a PyKernel op's) and its tensors before it runs
KernelHook = Callable[[Any, Any], None]
#: called with each program the kernel emulator ran (``emu.program_spec.ProgramSpec``) and its
#: ``EmulationResult``, whose call trace is recorded while any such hook is installed (the profiler)
EmulatorHook = Callable[[Any, Any], None]
#: called with each ttnn op a script runs (``ttnn.op_record.OpCall``: the op, its tensors' types and
#: places, its parameters) after it computed its result (the profiler times it)
OpHook = Callable[[Any], None]
#: runs a kernel call (kernel definition, args, kwargs): the driver's launch unless a session overrides it
Launcher = Callable[[Any, tuple, dict], Any]


@dataclass(frozen=True)
class Session:
    options: RunOptions
    program_hooks: tuple[ProgramHook, ...] = ()
    lowering_hooks: tuple[LoweringHook, ...] = ()
    result_hooks: tuple[ResultHook, ...] = ()
    kernel_hooks: tuple[KernelHook, ...] = ()
    emulator_hooks: tuple[EmulatorHook, ...] = ()
    op_hooks: tuple[OpHook, ...] = ()
    #: runs kernel calls instead of the installed launcher (the autotuner reads a script's
    #: definitions with one that stops at the first launch); None: the installed one
    launcher: Launcher | None = None


_CURRENT: ContextVar[Session | None] = ContextVar("tilecraft_session", default=None)
_default: Session | None = None


def current() -> Session:
    """The session in force: the innermost :func:`using` block's, else the default one (no hooks,
    default options read from the environment as it is now).

    Why not read once: a default frozen at first use keeps whatever ``$TILECRAFT_DEVICES`` or
    ``$TILECRAFT_DEVICE`` said then, so a variable set later in the process (by a script, or a
    test's monkeypatch that is undone afterwards) would silently keep the old value for every
    launch made outside a :func:`using` block, while launches inside one follow the new value."""
    global _default
    active = _CURRENT.get()
    if active is not None:
        return active
    options = RunOptions()
    if _default is None or _default.options != options:
        _default = Session(options)
    return _default


def options() -> RunOptions:
    """The options in force (``current().options``)."""
    return current().options


@contextmanager
def using(options: RunOptions | None = None, *, program_hooks: tuple[ProgramHook, ...] | list[ProgramHook] = (),
          lowering_hooks: tuple[LoweringHook, ...] | list[LoweringHook] = (),
          result_hooks: tuple[ResultHook, ...] | list[ResultHook] = (),
          kernel_hooks: tuple[KernelHook, ...] | list[KernelHook] = (),
          emulator_hooks: tuple[EmulatorHook, ...] | list[EmulatorHook] = (),
          op_hooks: tuple[OpHook, ...] | list[OpHook] = (), launcher: Launcher | None = None,
          inherit_hooks: bool = True, **changes: Any) -> Iterator[Session]:
    """Run the block under a session derived from the current one.

    ``options`` replaces the options (else the current ones are kept); keyword ``changes`` then
    set single fields (``using(level="metal")``); the hooks given are added after the current ones
    (or replace them, ``inherit_hooks=False``: a launch that is not one of the program's own, such
    as the autotuner's check of a candidate); ``launcher`` overrides the launcher in the block.
    """
    base = current()
    opts = dataclasses.replace(options if options is not None else base.options, **changes)
    kept = base if inherit_hooks else Session(opts)
    derived = Session(opts, program_hooks=kept.program_hooks + tuple(program_hooks),
                      lowering_hooks=kept.lowering_hooks + tuple(lowering_hooks),
                      result_hooks=kept.result_hooks + tuple(result_hooks),
                      kernel_hooks=kept.kernel_hooks + tuple(kernel_hooks),
                      emulator_hooks=kept.emulator_hooks + tuple(emulator_hooks),
                      op_hooks=kept.op_hooks + tuple(op_hooks),
                      launcher=launcher if launcher is not None else base.launcher)
    token = _CURRENT.set(derived)
    try:
        yield derived
    finally:
        _CURRENT.reset(token)
